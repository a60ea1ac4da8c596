// The Mezzo log tab: every move at the table, on the sheets and in conflicts, newest first, in
// words; undone moves struck through. "Undo the last move" takes back the newest live one
// (undoGame).
//
//   import { renderLog } from "./log.js";
//   renderLog(host, ctx);   // ctx from screen.js; ctx.ui.log holds MezzoLogEntry[]

import { logCard } from "../../kit/log.js";

/** Fills `host` with the log and its Undo button. */
export function renderLog(host, ctx) {
  host.append(logCard("mz", ctx.ui.log ?? [], ctx.undoLast));
}
