// The "Log of moves" card: a game's moves newest first, in words, undone ones struck through,
// and "Undo the last move". The Mezzo and Scattershot logs show it; Penny Ante's log tab, a card
// of its own look, shows its two parts (lastMove, movesList).
//
//   host.append(logCard("mz", log, (button) => undoLast(button)));

import { el } from "./dom.js";
import { button, card, inlineForm, listOrNone } from "./forms.js";

const when = (at) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString();
};

/**
 * A "Log of moves" card (ids `${prefix}-log`, `${prefix}-log-undo`, `${prefix}-log-list`…):
 * `log` is newest first, [{seq, at, action, undone, dice, attempt}] (`dice`: a dice tray roll,
 * not a move); `undoLast(button)` takes back the newest live move. `extra` nodes go at the
 * card's end; `writeAttempt` as movesList's. The Scattershot log shares it.
 */
export function logCard(prefix, log, undoLast, { extra = [], writeAttempt = null } = {}) {
  const live = log.find((e) => !e.undone && !e.dice);
  return card(
    `${prefix}-log`,
    "Log of moves",
    live && lastMove(prefix, "mz", live, undoLast),
    movesList(prefix, "mz", log, writeAttempt),
    ...extra,
  );
}

// The card's two parts, also for a game's own log card (Penny Ante's). `ids` prefixes the
// ids, `look` the classes: the kit's "mz", or the game's own.

/** "Last move: …" (the newest live move `live`) with "Undo the last move". */
export function lastMove(ids, look, live, undoLast) {
  return el(
    "div",
    { class: `${look}-row` },
    el("p", { class: "grow", id: `${ids}-log-last` }, `Last move: ${live.action}`),
    button("Undo the last move", (b) => undoLast(b), {
      id: `${ids}-log-undo`,
      "aria-describedby": `${ids}-log-last`,
    }),
  );
}

/**
 * What a move left to write later says, on its entry (`e.attempt`: a Mezzo check resolved with
 * nothing typed attempted): the words written, and a way to write or change them that opens a
 * one-line form; `writeAttempt(entry, text, button)` saves them.
 */
function attemptPart(ids, look, e, writeAttempt) {
  if (!e.attempt || !writeAttempt || e.undone) return null;
  const id = `${ids}-attempt-${e.seq}`;
  const box = el("input", { type: "text", id: `${id}-text`, maxlength: 2000, value: e.attempt.written ?? "" });
  const form = inlineForm({
    label: "What was attempted",
    control: box,
    button: "Save",
    buttonAttrs: { id: `${id}-save`, class: "primary" },
    id: `${id}-form`,
    onSubmit: (b) => writeAttempt(e, box.value, b),
  });
  form.hidden = true;
  const open = button(e.attempt.written ? "Change what was attempted" : "Write what was attempted", () => {
    form.hidden = false;
    box.focus();
  }, { id: `${id}-open`, class: `${look}-attempt-open` });
  return el(
    "div",
    { class: `${look}-attempt` },
    e.attempt.written && el("p", { id: `${id}-written` }, `Attempted: “${e.attempt.written}”`),
    open,
    form,
  );
}

/**
 * The moves newest first, undone ones struck through; a line that says so while there are none.
 * `writeAttempt` (optional): see attemptPart.
 */
export function movesList(ids, look, log, writeAttempt = null) {
  return listOrNone(log, el("p", { class: "muted", id: `${ids}-log-empty` }, "Nothing has happened at this table yet."), () =>
    el(
      "ol",
      { class: `${look}-log-list`, id: `${ids}-log-list`, "aria-label": "Moves, newest first" },
      ...log.map((e) =>
        el(
          "li",
          { class: `${look}-log-entry${e.undone ? " undone" : ""}`, data: { seq: String(e.seq) } },
          el("time", { datetime: e.at, class: "muted" }, when(e.at)),
          el("span", { class: `${look}-log-action` }, e.action),
          e.undone && el("span", { class: "muted" }, " (undone)"),
          attemptPart(ids, look, e, writeAttempt),
        ),
      ),
    ),
  );
}
