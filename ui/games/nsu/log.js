// The roll log of a No Stone Unturned game or of one character: the NSU screen's Log tab
// (`renderRollLog`) and, from inside the roll wizard, a modal <dialog id="roll-log">. Both list the settled action rolls newest first (time, who and helper, desired outcome,
// aspect and what was at risk, dice, choices, winner and difference, grants, what changed).
// Undone rolls stay in the list, struck through and marked "(undone)".
//
//   import { openRollLog, renderRollLog } from "./log.js";
//   openRollLog({ gameId, characterId: null, title: "Lanterns over Brackwater" });
//   await renderRollLog(host, { gameId, characterId });   // the Log tab's list into `host`

import * as api from "./api.js";
import { el, byId } from "../../kit/dom.js";
import { nsuDialog } from "./dialog.js";
import {
  ASPECT_WORDS,
  AT_RISK_WORDS,
  grantWords,
  eventWords,
  winnerWords,
  diceWords,
  choiceWords,
} from "./words.js";
import { listOrNone } from "../../kit/forms.js";

let dialog = null;

function build() {
  dialog = nsuDialog(
    { id: "roll-log", key: "roll-log", cls: "roll-log", title: "Roll log", closeLabel: "Close the roll log" },
    el("div", { id: "roll-log-error", class: "roll-error", role: "alert", hidden: true }),
    el("p", { id: "roll-log-empty", class: "muted", hidden: true }, "No rolls yet."),
    el("ol", { id: "roll-log-list", class: "roll-log-list" }),
  );
}

/** Opens the log of a game (`characterId` null) or of one of its characters. */
export async function openRollLog({ gameId, characterId = null, title = "" }) {
  if (dialog === null) build();
  byId("roll-log-title").textContent = title ? `Roll log — ${title}` : "Roll log";
  byId("roll-log-list").replaceChildren();
  byId("roll-log-empty").hidden = true;
  byId("roll-log-error").hidden = true;
  if (!dialog.open) dialog.showModal();
  byId("roll-log-title").focus();
  try {
    const entries = await api.nsuRollLog(gameId, characterId);
    const sheets = await sheetsOf(entries);
    byId("roll-log-empty").hidden = entries.length > 0;
    byId("roll-log-list").replaceChildren(...entries.map((e) => entryNode(e, sheets)));
  } catch (e) {
    const box = byId("roll-log-error");
    box.textContent = `The roll log could not be loaded. ${e && e.message ? e.message : String(e)}`;
    box.hidden = false;
  }
}

/**
 * Fills `host` with the settled rolls of a game (`characterId` null) or of one of its
 * characters: the list, "No rolls yet." or why it could not be read.
 */
export async function renderRollLog(host, { gameId, characterId = null }) {
  try {
    const entries = await api.nsuRollLog(gameId, characterId);
    const sheets = await sheetsOf(entries);
    host.replaceChildren(
      listOrNone(entries, el("p", { id: "nsu-log-empty", class: "muted" }, "No rolls yet."), () => el("ol", { id: "nsu-log-list", class: "roll-log-list" }, ...entries.map((e) => entryNode(e, sheets)))),
    );
  } catch (e) {
    host.replaceChildren(
      el("p", { class: "roll-error", role: "alert" }, `The roll log could not be loaded. ${e && e.message ? e.message : String(e)}`),
    );
  }
}

/** The current sheets of everyone in the log, to name mood and sentiment lines. */
async function sheetsOf(entries) {
  const ids = new Set();
  for (const e of entries) {
    ids.add(e.character_id);
    if (e.record.helper) ids.add(e.record.helper);
  }
  const sheets = new Map();
  await Promise.all(
    [...ids].map(async (id) => {
      try {
        sheets.set(id, (await api.nsuSheet(id)).sheet);
      } catch {
        // A deleted character: its lines are named by number.
      }
    }),
  );
  return sheets;
}

function when(at) {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}

function entryNode(entry, sheets) {
  const record = entry.record;
  const setup = record.roll.setup;
  const names = {
    roller: entry.character_name,
    helper: entry.helper_name,
    rollerSheet: sheets.get(entry.character_id) ?? null,
    helperSheet: record.helper ? sheets.get(record.helper) ?? null : null,
  };
  const who = entry.helper_name ? `${entry.character_name}, helped by ${entry.helper_name}` : entry.character_name;
  const choices = choiceWords(record);
  const rows = [
    ["Wanted", setup.desired_outcome],
    ["Roll", `${ASPECT_WORDS[setup.aspect]}, ${AT_RISK_WORDS[setup.at_risk]} at risk`],
    ["Dice", diceWords(record, entry.helper_name)],
  ];
  if (choices) rows.push(["Choices", choices]);
  return el(
    "li",
    { class: `roll-log-entry${entry.undone ? " undone" : ""}`, data: { winner: record.winner } },
    el(
      "p",
      { class: "roll-log-head" },
      el("time", { datetime: entry.at }, when(entry.at)),
      " ",
      el("strong", {}, who),
      entry.undone ? " " : null,
      entry.undone ? el("span", { class: "roll-log-undone" }, "(undone)") : null,
    ),
    el("p", { class: `roll-winner ${record.winner}` }, winnerWords(record)),
    el("dl", { class: "roll-log-facts" }, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", k === "Wanted" ? { class: "roll-log-wanted" } : {}, v)])),
    entry.outcome_to_write && !entry.undone ? outcomeForm(entry) : null,
    el("p", { class: "roll-log-sub" }, "Details granted"),
    el("ul", { class: "roll-list roll-log-grants" }, ...record.grants.map((g) => el("li", {}, grantWords(g)))),
    record.events.length > 0 ? el("p", { class: "roll-log-sub" }, "On the sheet") : null,
    record.events.length > 0
      ? el("ul", { class: "roll-list roll-log-events" }, ...record.events.map((ev) => el("li", {}, eventWords(ev, names))))
      : null,
  );
}


/**
 * A quick roll's desired outcome left for later (issue 32): written here on its log entry.
 * Saved, the entry reads it at once; the core refuses an empty one, which is said here.
 */
function outcomeForm(entry) {
  const id = `roll-log-outcome-${entry.event_id}`;
  const input = el("input", { type: "text", id, maxlength: 2000, autocomplete: "off" });
  const status = el("p", { class: "roll-log-outcome-status", role: "status" });
  input.addEventListener("input", () => {
    status.textContent = "";
    status.classList.remove("roll-error");
  });
  const save = async (event) => {
    event.preventDefault();
    try {
      const done = await api.nsuRollWriteOutcome(entry.character_id, entry.event_id, input.value);
      const item = form.closest(".roll-log-entry");
      const wanted = item ? item.querySelector(".roll-log-wanted") : null;
      if (wanted) wanted.textContent = input.value.trim();
      form.replaceWith(el("p", { class: "roll-log-outcome-status muted", role: "status" }, done.message));
    } catch (e) {
      status.textContent = `Not written. ${e && e.message ? e.message : String(e)}`;
      status.classList.add("roll-error");
    }
  };
  const form = el(
    "form",
    { class: "roll-log-outcome", autocomplete: "off", on: { submit: save } },
    el("label", { for: id }, "What was wanted (left for after the roll)"),
    el("div", { class: "roll-log-outcome-row" }, input, el("button", { type: "submit", class: "primary", id: `${id}-save` }, "Write it")),
    status,
  );
  return form;
}
