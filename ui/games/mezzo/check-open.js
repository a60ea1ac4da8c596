// A Mezzo action check open for votes on the players' own devices (DEV-1/DEV-2; RULES.md
// §3.3), on the same ballots as a conflict open for votes (conflict-open.js lists them). The
// table's device opens the check it set up ("Open for votes on phones": its description and
// sides are kept on the table) and sees who has voted and what; a player's phone seated as
// that player casts their own ballot (a law, influence, and Victory Narration or Ill Fated
// when they hold some, on the table's own form for a player; Fortune's Favor and a flaw
// overcome for an acting element of theirs), may change it or take it back
// until the table rolls. The table rolls with the ballots (check-dice.js) and the resolve pays
// them, or the table withdraws the check before the roll.
//
//   import { openCheckForVotesCard, openCheckCard, checkBallotCards } from "./check-open.js";
//   ctx.ui.openCheck: the OpenCheckView (mezzoOpenCheck) or null

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { actors, castsOf, castsOfPlayer, formFromBallot, requestOf, sidesOf } from "./check-attempt.js";
import { playerCasts, playerSpends } from "./check-votes.js";
import { ballotFormCard, openVotes, votesOnPhonesCard, withdrawOpenButton } from "./conflict-open.js";
import { card } from "./kit.js";

/** The check's description and its sides as kept on the table, and who has voted. */
const openSetup = (open) =>
  openVotes(open, open.setup.description || "Action check", open.sides, { text: "mzc-open-description", list: "mzc-open-sides", label: "Sides" });

/** The table's device, no check open: opens the one being set up (no votes) for phones. */
export function openCheckForVotesCard(ctx) {
  return votesOnPhonesCard(ctx, {
    what: "check",
    prefix: "mzc",
    key: "openCheck",
    hint: "Players seated on their own devices cast their own laws and influence there; you add the rest here and roll.",
    call: () => api.mezzoOpenCheckForVotes(ctx.gameId, requestOf(ctx).setup),
    read: () => api.mezzoOpenCheck(ctx.gameId),
  });
}

/** The table's device, a check open: its sides, who has voted, and Withdraw. */
export function openCheckCard(ctx) {
  return card(
    "mzc-open-check",
    "Open for votes",
    ...openSetup(ctx.ui.openCheck),
    el("p", { class: "mz-hint muted" }, "Their votes count when you roll; influence and adversity are paid when the check resolves. Add the others' votes below."),
    withdrawOpenButton(ctx, { what: "check", prefix: "mzc", key: "openCheck", call: () => api.mezzoWithdrawOpenCheck(ctx.gameId), focus: "#mzc-sides-heading" }),
  );
}

/** A phone: the open check, every ballot, and a form per player this device sits as. */
export function checkBallotCards(ctx) {
  const open = ctx.ui.openCheck;
  return el(
    "div",
    { class: "mz-conflict-grid" },
    card(
      "mzc-open-check",
      "The table asks for your votes",
      ...openSetup(open),
      open.rolled && el("p", { class: "mz-hint", id: "mzc-open-rolled", role: "status" }, "The dice are rolled: the votes are in."),
    ),
    ...(open.rolled ? [] : ctx.devicePlayers.map((p) => ballotForm(ctx, open, p))),
  );
}

function ballotForm(ctx, open, p) {
  const c = ctx.ui.check;
  // Once per open check, the form starts from the ballot already cast (or empty), so "Change
  // my votes" after the app was reopened changes that ballot, not an empty form's.
  c.ballotForms = c.ballotForms ?? {};
  const key = `${open.setup.id}\u0000${p.id}`;
  if (!c.ballotForms[key]) {
    c.ballotForms[key] = true;
    formFromBallot(c, p.id, open.ballots.find((b) => b.player === p.id)?.casts ?? []);
  }
  return ballotFormCard(ctx, p, {
    prefix: "mzc",
    voted: open.ballots.some((b) => b.player === p.id),
    fields: [playerCasts(p, ctx, { prefix: "mzc-ballot", changed: () => {} }), ...playerSpends(p, ctx, { prefix: "mzc-ballot" })],
    casts: () => castsOfPlayer(p, castsOf(c, p.id), sidesOf(c).length, actors(c)),
    send: (casts) => api.mezzoCastCheckBallot(ctx.gameId, p.id, casts),
    async sent() {
      ctx.ui.openCheck = await api.mezzoOpenCheck(ctx.gameId);
    },
  });
}
