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
  const log = ctx.ui.log ?? [];
  const live = log.find((e) => !e.undone);
  host.append(
    card(
      "mz-log",
      "Log of moves",
      live &&
        el(
          "div",
          { class: "mz-row" },
          el("p", { class: "grow", id: "mz-log-last" }, `Last move: ${live.action}`),
          button("Undo the last move", (b) => ctx.undoLast(b), {
            id: "mz-log-undo",
            "aria-describedby": "mz-log-last",
          }),
        ),
      log.length === 0
        ? el("p", { class: "muted", id: "mz-log-empty" }, "Nothing has happened at this table yet.")
        : el(
            "ol",
            { class: "mz-log-list", id: "mz-log-list", "aria-label": "Moves, newest first" },
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
    ),
  );
}
