// The "Log of moves" card: a game's moves newest first, in words, undone ones struck through,
// and "Undo the last move". The Mezzo and Scattershot logs show it; Penny Ante's log tab, a card
// of its own look, shows its two parts (lastMove, movesList).
//
//   host.append(logCard("mz", log, (button) => undoLast(button)));

import { el } from "./dom.js";
import { button, card, listOrNone } from "./forms.js";

const when = (at) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString();
};

/**
 * A "Log of moves" card (ids `${prefix}-log`, `${prefix}-log-undo`, `${prefix}-log-list`…):
 * `log` is newest first, [{seq, at, action, undone, dice}] (`dice`: a dice tray roll, not a move); `undoLast(button)` takes back the
 * newest live move. `extra` nodes go at the card's end. The Scattershot log shares it.
 */
export function logCard(prefix, log, undoLast, ...extra) {
  const live = log.find((e) => !e.undone && !e.dice);
  return card(
    `${prefix}-log`,
    "Log of moves",
    live && lastMove(prefix, "mz", live, undoLast),
    movesList(prefix, "mz", log),
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

/** The moves newest first, undone ones struck through; a line that says so while there are none. */
export function movesList(ids, look, log) {
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
        ),
      ),
    ),
  );
}
