// The NSU roll wizard's dice and help: the dice rolled in the app or typed in, what is on the
// table, cancelling the roll, and the help step (a helper on this device, one elsewhere typed
// in, or a helper's die sent from their own device through the table's link).

import { confirmAction } from "../../kit/confirm.js";
import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { edgeHint, edgeSelect } from "./roll-odds.js";
import { EDGE_WORDS, S, attempt, dialog, loadHelperSheet, render, section, setupOf, showError, showNotice, takePending, w } from "./roll-state.js";
import { ASPECT_WORDS, MOOD_LINE_DICE } from "./words.js";

// ---- the dice -----------------------------------------------------------------------------

export function renderRoll() {
  if (w.pending) return renderTable();
  const plan = w.preview ? w.preview.plan : null;
  if (!plan) return section("Roll", el("p", { class: "roll-warning" }, w.previewError ?? "Go back to the odds first."));
  const dice = [];
  const aspectCount = plan.aspect_edge === "none" ? 1 : 2;
  const moodCount = plan.mood_edge === "none" ? 1 : 2;
  // Who rolls which die: the player the aspect die with the Character at risk, the Arbiters
  // the mood die (and the other way round with the World at risk).
  const arbitersHold = w.setup.atRisk === "character" ? "mood" : "aspect";
  const holder = (kind) => (kind === arbitersHold ? "the Arbiters’" : "the player’s");
  for (let i = 0; i < aspectCount; i++) dice.push(["aspect", i, `${ASPECT_WORDS[w.setup.aspect]} ${plan.aspect_die}, ${holder("aspect")} die${aspectCount > 1 ? ` (${i + 1} of 2)` : ""}`, plan.aspect_die]);
  for (let i = 0; i < moodCount; i++) dice.push(["mood", i, `Mood ${plan.mood_die}, ${holder("mood")} die${moodCount > 1 ? ` (${i + 1} of 2)` : ""}`, plan.mood_die]);
  const inputs = dice.map(([kind, i, label, die]) => {
    const id = `roll-die-${kind}-${i + 1}`;
    const sides = Number(die.slice(1));
    const input = el("input", { type: "number", id, inputmode: "numeric", min: 1, max: sides, class: "roll-die-input" });
    return { input, node: el("div", { class: "roll-die-field" }, el("label", { for: id }, label), input) };
  });
  const hand = el(
    "div",
    { id: "roll-hand", class: "roll-hand", hidden: !w.handOpen },
    el("p", { class: "muted" }, "Type each die as it landed, in this order — the Arbiters’ too, as they call it out."),
    el("div", { class: "roll-die-fields" }, ...inputs.map((x) => x.node)),
    el("button", { type: "button", id: "roll-hand-submit", class: "primary" }, "Use these dice"),
  );
  const submitTyped = () => {
    const values = inputs.map((x) => Number(x.input.value));
    if (values.some((v) => !Number.isInteger(v) || v < 1)) {
      showError("Not yet:", "type a number on every die.");
      return;
    }
    rollWith({ kind: "entered", values });
  };
  hand.querySelector("#roll-hand-submit").addEventListener("click", submitTyped);
  const byHand = el("button", { type: "button", id: "roll-by-hand", "aria-expanded": String(w.handOpen) }, "Dice rolled by hand");
  byHand.addEventListener("click", () => {
    w.handOpen = !w.handOpen;
    hand.hidden = !w.handOpen;
    byHand.setAttribute("aria-expanded", String(w.handOpen));
    if (w.handOpen && inputs[0]) inputs[0].input.focus();
  });
  return section(
    "Roll the dice",
    el("p", {}, `Aspect die ×${aspectCount}, mood die ×${moodCount}. Nothing on the sheet changes until the roll is settled.`),
    el(
      "div",
      { class: "roll-actions" },
      el("button", { type: "button", id: "roll-dice", class: "primary", on: { click: () => rollWith({ kind: "rolled" }) } }, "Roll the dice"),
      byHand,
    ),
    hand,
  );
}

async function rollWith(dice) {
  showNotice(null); // an earlier roll's notice (an undo) is not about these dice
  const ok = await attempt("The dice were not rolled.", async () => {
    const pending = await api.nsuRollDice(w.id, setupOf(), dice);
    takePending(pending);
    // A quick roll goes straight to the choices (Back there offers help).
    w.step = w.quick ? S.choices : S.help;
  });
  if (ok) render();
}

/** What is on the table, shown once the dice are rolled. */
export function tableWords() {
  const roll = w.pending.roll;
  const parts = [
    `Aspect ${roll.plan.aspect_die}: ${roll.aspect_rolls.join(" and ")}`,
    `mood ${roll.plan.mood_die}: ${roll.mood_rolls.join(" and ")}`,
  ];
  if (roll.help) parts.push(`${helperName()}’s ${roll.help.die}: ${helpRolls(roll.help).join(" and ")}`);
  return `On the table — ${parts.join("; ")}.`;
}

/** The helper's name: a character on this device, or the name typed in for one elsewhere. */
export function helperName() {
  if (w.pending.helper) return w.pending.helper.name;
  const help = w.pending.roll.help;
  return help && help.name ? help.name : "the helper";
}

export const helpRolls = (help) => (help.second === undefined || help.second === null ? [help.value] : [help.value, help.second]);

function renderTable() {
  return section("The dice are rolled", el("p", { id: "roll-table" }, tableWords()), cancelButton());
}

export function cancelButton() {
  return el(
    "button",
    { type: "button", id: "roll-cancel", class: "danger", on: { click: cancelRoll } },
    "Cancel this roll",
  );
}

/** Takes the roll on the table back (each dice step is one undoable event). */
async function cancelRoll() {
  const sure = await confirmAction({
    title: "Cancel this roll?",
    message: "The dice on the table are taken back; nothing on the sheet changes.",
    yes: "Cancel the roll",
    no: "Keep the roll",
  });
  if (!sure) return;
  const ok = await attempt("The roll was not cancelled.", async () => {
    for (let i = 0; i < 3; i++) {
      if (!(await api.nsuPendingRoll(w.id))) break;
      await api.undoCharacter(w.id);
    }
    w.pending = null;
    w.choices = null;
    w.step = w.quick ? S.quick : S.odds;
  });
  if (ok) {
    showNotice("The roll was cancelled; nothing on the sheet changed.");
    render();
  }
}

// ---- help ---------------------------------------------------------------------------------

export function renderHelp() {
  const roll = w.pending.roll;
  if (roll.help) {
    const edge = roll.help.edge && roll.help.edge !== "none" ? ` (${EDGE_WORDS[roll.help.edge]})` : "";
    return section(
      "Help",
      el("p", { id: "roll-help-done" }, `${helperName()} helps with a ${roll.help.die}${edge}: ${helpRolls(roll.help).join(" and ")}.`),
      roll.help.mood ? null : el("p", { class: "muted" }, `${helperName()} records what helping did to their own mood on their own device (“I helped with…” on their sheet).`),
      el("p", { id: "roll-table" }, tableWords()),
      cancelButton(),
    );
  }
  const others = (w.game ? w.game.characters : []).filter((c) => c.id !== w.id && c.mine !== false);
  const host = el("div", { id: "help-host" });
  const elsewhere = el("input", { type: "radio", name: "help-where", id: "help-where-elsewhere", value: "elsewhere" });
  const here = el("input", { type: "radio", name: "help-where", id: "help-where-here", value: "here", disabled: others.length === 0 });
  const pick = () => {
    host.replaceChildren(here.checked ? helperHere(others) : helperElsewhere());
  };
  elsewhere.addEventListener("change", pick);
  here.addEventListener("change", pick);
  return section(
    "Help (optional)",
    el("p", { id: "roll-table" }, tableWords()),
    el("p", { class: "muted hint" }, "A helper acts with one of their moods (its level goes up by one) and rolls its die; the player may use it in place of their own mood die."),
    helpInbox(),
    el(
      "fieldset",
      { class: "roll-choices", id: "help-where" },
      el("legend", {}, "Who helps"),
      el("label", { class: "roll-option", for: "help-where-elsewhere" }, elsewhere, el("span", {}, "Someone on their own device: type in their die")),
      el(
        "label",
        { class: "roll-option", for: "help-where-here" },
        here,
        el("span", {}, others.length ? "A character on this device" : "A character on this device (none here)"),
      ),
    ),
    host,
    cancelButton(),
  );
}

// ---- a helper's die sent from another device (linked table) ---------------------------------

const INBOX_POLL_MS = 700;
let inboxTimer = null;
let inboxShown = ""; // the ids listed, to redraw only when they change

/** The notes for this roll's character waiting on this device (a linked table), null when unlinked. */
async function notesForRoller() {
  const inbox = await api.linkInbox();
  if (inbox === null) return null;
  return inbox.filter((n) => n.note.kind === "nsu_help" && n.note.roller === w.id);
}

/** "Wren sent a d6 (advantage): 5, 2" */
function noteWords(note) {
  const edge = note.helper.edge && note.helper.edge !== "none" ? ` (${EDGE_WORDS[note.helper.edge]})` : "";
  return `${note.helper.name} sent a ${note.helper.die}${edge}: ${note.faces.join(", ")}`;
}

/**
 * The help step's list of helpers' dice sent from their own devices through the table's link.
 * Hidden when this device runs no link; while it does and the step is open, the list is asked
 * for again every ~700 ms, so the wizard waits for a helper.
 */
function helpInbox() {
  const list = el("ul", { id: "help-inbox-list", class: "help-inbox-list" });
  const box = el(
    "div",
    { id: "help-inbox", class: "roll-helper help-inbox", hidden: true, "aria-live": "polite" },
    el("h4", { id: "help-inbox-heading" }, "Sent from a helper’s device"),
    list,
  );
  inboxShown = null;
  stopInboxPolling();
  const tick = async () => {
    inboxTimer = null;
    if (!w || !dialog.open || w.step !== S.help || !w.pending || w.pending.roll.help || !box.isConnected) return;
    let notes;
    try {
      notes = await notesForRoller();
    } catch (_) {
      notes = undefined; // a passing failure: asked again on the next tick
    }
    if (!box.isConnected) return;
    if (notes === null) {
      box.hidden = true;
      return; // no link: nothing will come
    }
    if (notes !== undefined) drawInbox(box, list, notes);
    inboxTimer = setTimeout(tick, INBOX_POLL_MS);
  };
  // Once the step is on screen (it is put there after this returns).
  inboxTimer = setTimeout(tick, 0);
  return box;
}

function stopInboxPolling() {
  if (inboxTimer !== null) clearTimeout(inboxTimer);
  inboxTimer = null;
}

function drawInbox(box, list, notes) {
  const key = notes.map((n) => n.id).join(",");
  box.hidden = false;
  if (key === inboxShown) return;
  inboxShown = key;
  if (notes.length === 0) {
    list.replaceChildren(el("li", { class: "muted", id: "help-inbox-waiting" }, "Waiting for a helper to send their die from their device…"));
    return;
  }
  list.replaceChildren(
    ...notes.map((n) =>
      el(
        "li",
        { class: "help-note", "data-note-id": n.id },
        el("span", { class: "help-note-words" }, noteWords(n.note)),
        el("span", { class: "help-note-from muted" }, ` — from ${n.from}`),
        el(
          "span",
          { class: "roll-actions help-note-actions" },
          el("button", { type: "button", class: "primary help-note-use", "aria-label": `Use it: ${noteWords(n.note)}`, on: { click: () => useNote(n) } }, "Use it"),
          el("button", { type: "button", class: "help-note-dismiss", "aria-label": `Put away: ${noteWords(n.note)}`, on: { click: () => dismissNote(n) } }, "Put away"),
        ),
      ),
    ),
  );
}

/** Uses a helper's die sent from their device: help from elsewhere with exactly those faces. */
async function useNote(inbound) {
  const note = inbound.note;
  const ok = await attempt("The helper’s die was not taken.", async () => {
    takePending(await api.nsuRollHelpElsewhere(w.id, note.helper, { kind: "entered", values: note.faces }));
    w.helperSheet = null;
    w.step = S.help;
  });
  if (!ok) return;
  // The die is in the roll; the note is done with (already gone is fine).
  await api.linkTakeNote(inbound.id).catch(() => {});
  stopInboxPolling();
  render();
}

async function dismissNote(inbound) {
  await attempt("The note was not put away.", async () => {
    await api.linkTakeNote(inbound.id);
  });
  const box = byId("help-inbox");
  if (box && w) {
    const notes = await notesForRoller().catch(() => undefined);
    if (notes) drawInbox(box, byId("help-inbox-list"), notes);
  }
}

/** A helper who plays on another device: their name, die, edge and face(s), typed in. */
function helperElsewhere() {
  const name = el("input", { type: "text", id: "help-name", maxlength: 200, autocomplete: "off" });
  const die = el("select", { id: "help-die-size" }, ...["d4", "d6", "d8"].map((d) => el("option", { value: d }, d)));
  die.value = w.helperDie || "d6";
  const edge = edgeSelect("help-edge", w.helperEdge);
  const faces = el("div", { class: "roll-die-fields", id: "help-faces" });
  const inputs = [];
  const sync = () => {
    const count = edge.value === "none" ? 1 : 2;
    const sides = Number(die.value.slice(1));
    inputs.length = 0;
    faces.replaceChildren(
      ...Array.from({ length: count }, (_, i) => {
        const id = `help-face-${i + 1}`;
        const input = el("input", { type: "number", id, inputmode: "numeric", min: 1, max: sides, class: "roll-die-input" });
        inputs.push(input);
        return el("div", { class: "roll-die-field" }, el("label", { for: id }, count > 1 ? `Face ${i + 1} of 2` : "Their face"), input);
      }),
    );
  };
  die.addEventListener("change", sync);
  edge.addEventListener("change", sync);
  sync();
  const helper = () => ({ name: name.value.trim(), die: die.value, edge: edge.value });
  const send = async (dice) => {
    if (helper().name === "") {
      showError("Not yet:", "type the helper’s name.");
      return;
    }
    const ok = await attempt("The helper’s die was not taken.", async () => {
      takePending(await api.nsuRollHelpElsewhere(w.id, helper(), dice));
      w.helperSheet = null;
      w.step = S.help;
    });
    if (ok) render();
  };
  const enter = () => {
    const values = inputs.map((x) => Number(x.value));
    if (values.some((v) => !Number.isInteger(v) || v < 1)) {
      showError("Not yet:", "type the face of every die they rolled.");
      return;
    }
    send({ kind: "entered", values });
  };
  return el(
    "div",
    { class: "roll-helper", id: "help-elsewhere" },
    el("div", { class: "field" }, el("label", { for: "help-name" }, "Their name"), name),
    el("div", { class: "field" }, el("label", { for: "help-die-size" }, "Their mood’s die"), die),
    el("div", { class: "field" }, el("label", { for: "help-edge" }, "Its edge (they know their overload)"), edge, edgeHint("help-edge")),
    faces,
    el(
      "div",
      { class: "roll-actions" },
      el("button", { type: "button", id: "help-enter", class: "primary", on: { click: enter } }, "Use their die"),
      el("button", { type: "button", id: "help-roll-here", on: { click: () => send({ kind: "rolled" }) } }, "Roll it here for them"),
    ),
  );
}

/** A helper who is a character on this device (one device for the table, or a second character). */
function helperHere(others) {
  const who = el(
    "select",
    { id: "help-character" },
    el("option", { value: "" }, "Choose who helps"),
    ...others.map((c) => el("option", { value: c.id }, c.name)),
  );
  const moodHost = el("div", { id: "help-mood-host" });
  who.addEventListener("change", async () => {
    moodHost.replaceChildren();
    if (!who.value) return;
    await attempt("The helper’s sheet could not be loaded.", async () => {
      const helperSheet = (await api.nsuSheet(who.value)).sheet;
      moodHost.replaceChildren(helperForm(who.value, helperSheet));
    });
  });
  return el("div", {}, el("div", { class: "field" }, el("label", { for: "help-character" }, "Which character"), who), moodHost);
}

function helperForm(helperId, hs) {
  const options = hs.moods.map((m, line) => {
    const die = MOOD_LINE_DICE[line];
    const text = m ? `${m.name} — d${die}, level ${m.level} of ${die + 1}${m.overloaded ? ", overloaded" : ""}` : `Empty d${die} line — name a new mood`;
    return el("option", { value: String(line) }, text);
  });
  const mood = el("select", { id: "help-mood" }, ...options);
  const name = el("input", { type: "text", id: "help-mood-name", maxlength: 200 });
  const nameField = el("div", { class: "field" }, el("label", { for: "help-mood-name" }, "The helper’s new mood"), name);
  const dieValue = el("input", { type: "number", id: "help-die", min: 1, max: 8, inputmode: "numeric" });
  const dieLabel = el("label", { for: "help-die" }, "");
  // While one of their moods is overloaded, their die has an edge and is rolled twice.
  const overloaded = hs.moods.some((m) => m && m.overloaded);
  const second = el("input", { type: "number", id: "help-die-2", min: 1, max: 8, inputmode: "numeric", hidden: !overloaded, "aria-label": "Their second face" });
  const sync = () => {
    const line = Number(mood.value);
    nameField.hidden = hs.moods[line] !== null;
    const edge = !overloaded ? "" : hs.moods[line] && hs.moods[line].overloaded ? " (advantage: two faces)" : " (disadvantage: two faces)";
    dieLabel.textContent = `Their d${MOOD_LINE_DICE[line]}, rolled by hand${edge}`;
    dieValue.max = String(MOOD_LINE_DICE[line]);
    second.max = dieValue.max;
  };
  mood.addEventListener("change", sync);
  sync();
  const choice = () => {
    const line = Number(mood.value);
    return hs.moods[line] ? { kind: "existing", line } : { kind: "new", line, name: name.value.trim() };
  };
  const send = async (dice) => {
    const ok = await attempt("The helper’s die was not rolled.", async () => {
      const pending = await api.nsuRollHelp(w.id, helperId, choice(), dice);
      takePending(pending);
      await loadHelperSheet();
      w.step = S.help;
    });
    if (ok) render();
  };
  return el(
    "div",
    { class: "roll-helper" },
    el("div", { class: "field" }, el("label", { for: "help-mood" }, "Their mood (its level goes up by one)"), mood),
    nameField,
    el(
      "div",
      { class: "roll-actions" },
      el("button", { type: "button", id: "help-roll", on: { click: () => send({ kind: "rolled" }) } }, "Roll their die"),
    ),
    el(
      "div",
      { class: "roll-die-field" },
      dieLabel,
      dieValue,
      second,
      el(
        "button",
        {
          type: "button",
          id: "help-enter",
          on: {
            click: () => {
              const values = [dieValue, ...(overloaded ? [second] : [])].map((x) => Number(x.value));
              if (values.some((v) => !Number.isInteger(v) || v < 1)) {
                showError("Not yet:", "type the helper’s die.");
                return;
              }
              send({ kind: "entered", values });
            },
          },
        },
        "Use this die",
      ),
    ),
  );
}
