// The Scattershot log tab: every game-level move — a roll's steps, mechanical play, rewards,
// the Gamemaster's stock, the table settings — newest first, in words; undone moves struck
// through. "Undo the last move" takes back the newest live one (undoGame). A sheet edit is
// undone from its own toast (it is the character's, not the table's). The card is the Mezzo
// log's.
//
//   import { renderLog } from "./log.js";
//   renderLog(host, ctx);   // ctx from screen.js; ctx.ui.log holds ScattershotLogEntry[]

import { el } from "../../kit/dom.js";
import { logCard } from "../../kit/log.js";

/** Fills `host` with the log and its Undo button. */
export function renderLog(host, ctx) {
  host.append(
    logCard(
      "sc",
      ctx.ui.log ?? [],
      ctx.undoLast,
      { extra: [el("p", { class: "mz-hint muted" }, "A change to a sheet is undone with the Undo of its own message.")] },
    ),
  );
}
