// The Penny Ante log tab: every move at the table and in challenges, newest first, in words;
// undone moves struck through. "Undo the last move" takes back the newest live one
// (undoGame), whether at the table or in a challenge.
//
//   import { renderLog } from "./log.js";
//   renderLog(host, ctx);   // ctx from screen.js; ctx.ui.log holds PennyLogEntry[]

import { secretsCard } from "./kit.js";
import { lastMove, movesList } from "../../kit/log.js";

/** Fills `host` with the log and its Undo button. */
export function renderLog(host, ctx) {
  const log = ctx.ui.log ?? [];
  const live = log.find((e) => !e.undone && !e.dice); // a dice tray roll is not a move
  host.append(
    secretsCard(
      ctx,
      "penny-log",
      "Log of moves",
      live && lastMove("penny", "penny", live, ctx.undoLast),
      movesList("penny", "penny", log),
    ),
  );
}
