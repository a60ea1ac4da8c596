// The Mezzo challenge tab (RULES.md §3.4). With no challenge being played: a form to start one
// (its description, two or more sides, the challengers — characters and obstacles — each on a
// side with an optional stake, and the goals with their supporters), and Rest & Recuperation on
// an element's flaws. While one is played: the round and phase, each side with its challengers
// (status, stake, momentum, adversity, whether they acted this round, their flaws), then what
// the phase allows —
//   rounds:    a major action (the acting challengers and the failure side as an action check,
//              rolled in the app, every die typed in, or the scores typed in; or the check
//              rolled on the Action check tab), surrender, changed stakes, a complication, a
//              newcomer or a goal, and the round's end with its trump effects;
//   perks:     the open action's perks traded, declared on their targets with the fields each
//              needs, removed by a Final Counter, or settled;
//   departure: momentum boosts drawn and awarded (the table picks among those tied), momentum
//              spent by the leavers (the options with their costs), the departure closed;
//   over:      how it ended, and the next challenge.
// Every move is one undoable `ctx.move` (toast with Undo); the core's refusals show with their
// message. The challenge is read here (mezzoChallenge) whenever the table the screen holds
// changes: after a move, an undo or a reload.
//
//   import { renderChallenge } from "./challenge.js";
//   renderChallenge(host, ctx);   // ctx from screen.js; state in ctx.ui.challengeUi
//
// This file puts the tab's cards together for the phase; they are in challenge-start.js (the
// set-up, Rest & Recuperation), challenge-status.js, challenge-round.js (major actions, the
// rest of a round), challenge-perks.js and challenge-departure.js, on challenge-state.js.

import { el } from "../../kit/dom.js";
import { departureCard } from "./challenge-departure.js";
import { noEscapeCard, perksCard } from "./challenge-perks.js";
import { majorCard, roundCard } from "./challenge-round.js";
import { draftFromCheck, restCard, startCard } from "./challenge-start.js";
import { load, state } from "./challenge-state.js";
import { actionsCard, sidesView, statusCard } from "./challenge-status.js";
import { card } from "./kit.js";

/** Fills `host` with the challenge tab. */
export function renderChallenge(host, ctx) {
  const s = state(ctx);
  if (s.loadedFor !== ctx.table) load(ctx, s);
  if (!s.loaded) {
    host.append(card("mzch-loading", "Challenge", el("p", { class: "muted" }, "Reading the challenge…")));
    return;
  }
  const ch = s.challenge;
  // A lost action check's "Start a challenge from this check" (check.js) lands here.
  if (ctx.ui.fromCheck) {
    s.fromCheck = ctx.ui.fromCheck;
    ctx.ui.fromCheck = null;
    s.draft = draftFromCheck(s.fromCheck);
    s.starting = true;
  }
  if (!ch) {
    host.append(startCard(ctx), restCard(ctx));
    return;
  }
  if (s.fromCheck && !ch.over) host.append(startCard(ctx));
  host.append(statusCard(ctx, ch), sidesView(ctx, ch));
  if (ch.phase === "rounds") {
    host.append(el("div", { class: "mzch-grid" }, majorCard(ctx, ch), roundCard(ctx, ch)));
  } else if (ch.phase === "perks") {
    host.append(perksCard(ctx, ch));
  } else if (ch.phase === "departure") {
    host.append(departureCard(ctx, ch));
  }
  const escape = noEscapeCard(ctx, ch);
  if (escape) host.append(escape);
  if (ch.actions.length > 0) host.append(actionsCard(ctx, ch));
  if (ch.over) {
    if (s.starting) host.append(startCard(ctx));
    host.append(restCard(ctx));
  }
}
