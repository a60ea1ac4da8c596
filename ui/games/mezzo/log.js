// The Mezzo log tab: every move at the table, on the sheets and in conflicts, newest first, in
// words; undone moves struck through. "Undo the last move" takes back the newest live one
// (undoGame). A check resolved with nothing typed as its attempt takes its words later, on
// its entry (issue 32).
//
//   import { renderLog } from "./log.js";
//   renderLog(host, ctx);   // ctx from screen.js; ctx.ui.log holds MezzoLogEntry[]

import * as api from "./api.js";
import { logCard } from "../../kit/log.js";

/** Fills `host` with the log and its Undo button; a check resolved with nothing typed
 * attempted can have its attempt written on its entry. */
export function renderLog(host, ctx) {
  host.append(logCard("mz", ctx.ui.log ?? [], ctx.undoLast, { writeAttempt: (entry, text) => writeAttempt(ctx, entry, text) }));
}

async function writeAttempt(ctx, entry, text) {
  await ctx.run("What was attempted was not written.", async () => {
    const done = await api.mezzoCheckWriteAttempt(ctx.gameId, entry.seq, text);
    ctx.ui.log = await api.mezzoLog(ctx.gameId);
    ctx.render(`#mz-attempt-${entry.seq}-open`);
    ctx.toast(done.message);
  });
}
