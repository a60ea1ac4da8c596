// The "Log of moves" card: a game's moves newest first, in words, undone ones struck through,
// and "Undo the last move". The Mezzo and Scattershot logs show it.
//
//   host.append(logCard("mz", log, (button) => undoLast(button)));

import { el } from "./dom.js";
import { button, card } from "./forms.js";

const when = (at) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString();
};

/**
 * A "Log of moves" card (ids `${prefix}-log`, `${prefix}-log-undo`, `${prefix}-log-list`…):
 * `log` is newest first, [{seq, at, action, undone}]; `undoLast(button)` takes back the
 * newest live move. `extra` nodes go at the card's end. The Scattershot log shares it.
 */
export function logCard(prefix, log, undoLast, ...extra) {
  const live = log.find((e) => !e.undone);
  return card(
    `${prefix}-log`,
    "Log of moves",
    live &&
      el(
        "div",
        { class: "mz-row" },
        el("p", { class: "grow", id: `${prefix}-log-last` }, `Last move: ${live.action}`),
        button("Undo the last move", (b) => undoLast(b), {
          id: `${prefix}-log-undo`,
          "aria-describedby": `${prefix}-log-last`,
        }),
      ),
    log.length === 0
      ? el("p", { class: "muted", id: `${prefix}-log-empty` }, "Nothing has happened at this table yet.")
      : el(
          "ol",
          { class: "mz-log-list", id: `${prefix}-log-list`, "aria-label": "Moves, newest first" },
          ...log.map((e) =>
            el(
              "li",
              { class: `mz-log-entry${e.undone ? " undone" : ""}`, data: { seq: String(e.seq) } },
              el("time", { datetime: e.at, class: "muted" }, when(e.at)),
              el("span", { class: "mz-log-action" }, e.action),
              e.undone && el("span", { class: "muted" }, " (undone)"),
            ),
          ),
        ),
    ...extra,
  );
}
