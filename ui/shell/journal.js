// The campaign journal of every game (issue 33), one dialog for all four systems: "Last time…"
// (the newest session that ended, what happened in it and the table's notes) first, then the
// session being played (what happened so far, its notes, "End session") or the form that
// starts the next one (its date, today's unless typed, and who is here), then every session,
// newest first. What happened comes from the core for this device's viewer, grouped by kind
// in the game's words; the window hides nothing itself. On a device that joined the game at a
// linked table the journal is read only: the table's device keeps it.
//
//   import { openJournal } from "./journal.js";
//   const changed = await openJournal({ gameId, opener: button, run, toast });  // → moves made

import * as api from "./api.js";
import { el, byId } from "../kit/dom.js";
import { busy } from "../kit/components.js";
import { openModal } from "../kit/modal.js";

let dialog = null;
let current = null; // {gameId, view, moves, toast} of the open journal

/** Today as the person's calendar has it, YYYY-MM-DD (the core has no clock of its own). */
export function today(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function build() {
  dialog = el(
    "dialog",
    { id: "journal", class: "journal-dialog", "aria-labelledby": "journal-title" },
    el(
      "div",
      { class: "journal-head" },
      el("h2", { id: "journal-title", tabindex: "-1" }, "Journal"),
      el(
        "div",
        { class: "journal-head-actions" },
        el("button", { type: "button", id: "journal-print", on: { click: (e) => printJournal(e.currentTarget) } }, "Print / PDF"),
        el("button", { type: "button", id: "journal-close", on: { click: () => dialog.close("") } }, "Close"),
      ),
    ),
    el("p", { id: "journal-error", class: "journal-error", role: "alert", hidden: true }),
    el("div", { id: "journal-body", class: "journal-body" }),
  );
  document.body.append(dialog);
}

/** Opens the journal of `gameId`; resolves with how many moves were made once it closes. */
export async function openJournal({ gameId, opener = null, toast = () => {} }) {
  if (dialog === null) build();
  current = { gameId, view: null, moves: 0, toast };
  showError(null);
  byId("journal-body").replaceChildren(el("p", { class: "muted" }, "Reading the journal…"));
  const closed = openModal(dialog, byId("journal-title"));
  try {
    const view = await api.journal(gameId);
    if (current?.gameId === gameId) draw(view);
  } catch (e) {
    showError(e?.message ?? String(e));
  }
  await closed;
  const moves = current?.moves ?? 0;
  current = null;
  if (opener?.isConnected) opener.focus();
  return moves;
}

function showError(message) {
  const box = byId("journal-error");
  box.textContent = message ?? "";
  box.hidden = !message;
}

/** A journal move: the button busy, the answer drawn, a refusal said (nothing changed). */
async function move(button, call, focusId = null) {
  const j = current;
  if (!j) return;
  await busy(button, async () => {
    try {
      const change = await call();
      if (j !== current) return;
      j.moves += 1;
      showError(null);
      draw(change.view);
      j.toast(change.message, { kind: "game", id: j.gameId });
      (byId(focusId ?? "") ?? byId("journal-title")).focus();
    } catch (e) {
      if (j !== current) return;
      showError(e?.message ?? String(e));
      byId("journal-error").scrollIntoView({ block: "nearest" });
    }
  });
}

function draw(view) {
  current.view = view;
  byId("journal-title").textContent = `Journal — ${view.game_name}`;
  const sessions = view.sessions;
  const open = sessions.find((s) => s.open) ?? null;
  const last = [...sessions].reverse().find((s) => !s.open) ?? null;
  const parts = [];
  if (last) {
    parts.push(
      el(
        "section",
        { id: "journal-last", class: "journal-last", "aria-labelledby": "journal-last-title" },
        el("h3", { id: "journal-last-title" }, "Last time…"),
        sessionBody(last),
      ),
    );
  }
  if (open) parts.push(openSession(view, open));
  else if (view.may_edit) parts.push(startForm(view));
  if (!view.may_edit) {
    parts.push(el("p", { id: "journal-read-only", class: "muted" }, "The table's device keeps this game's journal; here it is to read."));
  }
  if (sessions.length === 0) {
    parts.push(el("p", { id: "journal-empty", class: "muted" }, "No session yet. Start one when the table sits down to play."));
  } else {
    parts.push(
      el("h3", { id: "journal-sessions-title" }, "Sessions"),
      el(
        "ol",
        { id: "journal-sessions", class: "journal-sessions", reversed: true, "aria-labelledby": "journal-sessions-title" },
        ...[...sessions].reverse().map((s) => el("li", {}, sessionCard(view, s))),
      ),
    );
  }
  // A write-up open before a move stays open after it (its button keeps the focus).
  const body = byId("journal-body");
  const writing = [...body.querySelectorAll("details.journal-edit[open]")].map((d) => d.dataset.session);
  body.replaceChildren(...parts);
  for (const n of writing) body.querySelector(`details.journal-edit[data-session="${n}"]`)?.setAttribute("open", "");
}

const sessionTitle = (s) => `Session ${s.number} · ${s.date}${s.open ? " · playing now" : ""}`;

/** Who was there, the notes and what happened, as read. */
function sessionBody(s) {
  return el(
    "div",
    { class: "journal-session-body" },
    el("p", { class: "journal-title-line" }, el("strong", {}, sessionTitle(s))),
    el("p", { class: "journal-attendees" }, s.attendees.length ? `There: ${s.attendees.join(", ")}` : "Nobody listed as there."),
    s.notes ? el("p", { class: "journal-notes" }, s.notes) : null,
    happened(s),
  );
}

function happened(s) {
  if (s.happened.length === 0) return el("p", { class: "muted" }, "Nothing in the log for this session.");
  return el(
    "div",
    { class: "journal-happened" },
    ...s.happened.map((g) =>
      el(
        "div",
        { class: "journal-group", data: { group: g.group } },
        el("h4", {}, g.title),
        el("ul", {}, ...g.lines.map((line) => el("li", {}, line))),
      ),
    ),
  );
}

/** A box per name (`idPrefix` + its place), ticked when `ticked(name)`. */
function whoBoxes(names, idPrefix, ticked) {
  return names.map((name, i) =>
    el(
      "label",
      { class: "journal-who", for: `${idPrefix}${i}` },
      el("input", { type: "checkbox", id: `${idPrefix}${i}`, value: name, checked: ticked(name) }),
      ` ${name}`,
    ),
  );
}

/** The names whose boxes are ticked, in the boxes' order. */
const tickedNames = (boxes) => boxes.map((l) => l.querySelector("input")).filter((i) => i.checked).map((i) => i.value);

function startForm(view) {
  const date = el("input", { id: "journal-start-date", type: "date", value: today(), required: true });
  const names = whoBoxes([...new Set(view.roster)], "journal-who-", () => true);
  const button = el("button", { type: "submit", id: "journal-start", class: "primary" }, "Start session");
  return el(
    "form",
    {
      id: "journal-start-form",
      class: "journal-start",
      "aria-labelledby": "journal-start-title",
      on: {
        submit: (e) => {
          e.preventDefault();
          move(button, () => api.journalStart(current.gameId, date.value, tickedNames(names)), "journal-end");
        },
      },
    },
    el("h3", { id: "journal-start-title" }, "Start a session"),
    el("div", { class: "field" }, el("label", { for: date.id }, "Date"), date),
    names.length
      ? el("fieldset", { class: "journal-roster" }, el("legend", {}, "Who is here"), ...names)
      : el("p", { class: "muted" }, "The game has nobody to list yet."),
    button,
  );
}

function openSession(view, s) {
  const end = el(
    "button",
    { type: "button", id: "journal-end", class: "primary", hidden: !view.may_edit, on: { click: (e) => move(e.currentTarget, () => api.journalEnd(current.gameId), "journal-start") } },
    "End session",
  );
  return el(
    "section",
    { id: "journal-open", class: "journal-open", "aria-labelledby": "journal-open-title" },
    el("h3", { id: "journal-open-title" }, `Session ${s.number} — playing now`),
    sessionBody(s),
    end,
  );
}

/** A session in the list: as read, and on the table's device its date, who was there and
 *  its notes to change. Who may be ticked: the game's characters (and Mezzo players), and
 *  anyone the session lists already (a name kept after a rename). */
function sessionCard(view, s) {
  const card = el("article", { class: "journal-session", id: `journal-session-${s.number}` }, sessionBody(s));
  if (!view.may_edit) return card;
  const n = s.number;
  const date = el("input", { id: `journal-date-${n}`, type: "date", value: s.date });
  const notes = el("textarea", { id: `journal-notes-${n}`, rows: 3 });
  notes.value = s.notes;
  const saveDate = el(
    "button",
    { type: "button", id: `journal-save-date-${n}`, on: { click: (e) => move(e.currentTarget, () => api.journalEdit(current.gameId, n, { edit: "date", date: date.value }), `journal-save-date-${n}`) } },
    "Save date",
  );
  const saveNotes = el(
    "button",
    { type: "button", id: `journal-save-notes-${n}`, on: { click: (e) => move(e.currentTarget, () => api.journalEdit(current.gameId, n, { edit: "notes", text: notes.value }), `journal-save-notes-${n}`) } },
    "Save notes",
  );
  const there = new Set(s.attendees);
  const who = whoBoxes([...new Set([...view.roster, ...s.attendees])], `journal-was-${n}-`, (name) => there.has(name));
  const saveWho = el(
    "button",
    { type: "button", id: `journal-save-who-${n}`, on: { click: (e) => move(e.currentTarget, () => api.journalEdit(current.gameId, n, { edit: "attendees", names: tickedNames(who) }), `journal-save-who-${n}`) } },
    "Save who was there",
  );
  card.append(
    el(
      "details",
      { class: "journal-edit", data: { session: String(n) } },
      el("summary", {}, `Write up session ${n}`),
      el("div", { class: "field" }, el("label", { for: date.id }, "Date"), el("div", { class: "journal-row" }, date, saveDate)),
      who.length
        ? el("fieldset", { class: "journal-roster", id: `journal-who-was-${n}` }, el("legend", {}, "Who was there"), ...who, saveWho)
        : null,
      el("div", { class: "field" }, el("label", { for: notes.id }, "Notes"), notes, saveNotes),
    ),
  );
  return card;
}

/** Prints the journal (or saves it as PDF) through the print shell. */
async function printJournal(button) {
  const view = current?.view;
  if (!view) return;
  await busy(button, async () => {
    try {
      const [{ openPrint }, kit] = await Promise.all([import("./print-sheet.js"), import("./print-kit.js")]);
      const parts = view.sessions.map((s) =>
        kit.section(
          sessionTitle(s),
          el("p", {}, s.attendees.length ? `There: ${s.attendees.join(", ")}` : "Nobody listed as there."),
          s.notes ? el("p", { class: "journal-notes" }, s.notes) : null,
          ...s.happened.map((g) => el("div", {}, el("h3", {}, g.title), el("ul", {}, ...g.lines.map((l) => el("li", {}, l))))),
        ),
      );
      const node = kit.page("Campaign journal", [["Game", view.game_name]], ...parts);
      const toast = current?.toast ?? (() => {});
      // The print dialog takes the journal's place (a printed page shows only the print root).
      dialog.close("print");
      await openPrint({
        system: view.system,
        gameId: view.game,
        toast,
        content: { node, what: `The journal of “${view.game_name}”.`, file: `${view.game_name} — journal.pdf` },
      });
    } catch (e) {
      showError(e?.message ?? String(e));
    }
  });
}
