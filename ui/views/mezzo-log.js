// The Mezzo log tab: every move at the table, on the sheets and in conflicts, newest first, in
// words; undone moves struck through. "Undo the last move" takes back the newest live one
// (undoGame).
//
//   import { renderLog } from "./mezzo-log.js";
//   renderLog(host, ctx);   // ctx from mezzo-screen.js; ctx.ui.log holds MezzoLogEntry[]

import { el } from "./dom.js";
import { button, card } from "./mezzo-kit.js";

const when = (at) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString();
};

/** Fills `host` with the log and its Undo button. */
export function renderLog(host, ctx) {
  host.append(logCard("mz", ctx.ui.log ?? [], ctx.undoLast));
}

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
