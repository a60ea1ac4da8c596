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
import { ballotList } from "./conflict-open.js";
import { button, card } from "./kit.js";

/** The check's description and its sides as kept on the table. */
function openSetup(open) {
  return [
    el("p", { class: "mz-open-question", id: "mzc-open-description" }, open.setup.description || "Action check"),
    el("ol", { class: "mz-list", id: "mzc-open-sides", "aria-label": "Sides" }, ...open.sides.map((s, i) => el("li", {}, `${i + 1}. ${s}`))),
  ];
}

/** The table's device, no check open: opens the one being set up (no votes) for phones. */
export function openCheckForVotesCard(ctx) {
  return card(
    "mzc-open-for-votes",
    "Votes on phones",
    el("p", { class: "mz-hint muted" }, "Players seated on their own devices cast their own laws and influence there; you add the rest here and roll."),
    button(
      "Open for votes on phones",
      async (b) => {
        const { setup } = requestOf(ctx);
        const done = await ctx.move("The check was not opened for votes.", () => api.mezzoOpenCheckForVotes(ctx.gameId, setup), b);
        if (!done) return;
        ctx.ui.openCheck = await api.mezzoOpenCheck(ctx.gameId);
        ctx.render("#mzc-open-check-heading");
      },
      { id: "mzc-open-for-votes-submit" },
    ),
  );
}

/** The table's device, a check open: its sides, who has voted, and Withdraw. */
export function openCheckCard(ctx) {
  const open = ctx.ui.openCheck;
  return card(
    "mzc-open-check",
    "Open for votes",
    ...openSetup(open),
    el("p", { class: "mz-cast-title" }, "Who has voted"),
    ballotList(open.ballots, open.sides),
    el("p", { class: "mz-hint muted" }, "Their votes count when you roll; influence and adversity are paid when the check resolves. Add the others' votes below."),
    button(
      "Withdraw the check",
      async (b) => {
        const done = await ctx.move("The check was not withdrawn.", () => api.mezzoWithdrawOpenCheck(ctx.gameId), b);
        if (!done) return;
        ctx.ui.openCheck = null;
        ctx.render("#mzc-sides-heading");
      },
      { id: "mzc-withdraw-open", class: "danger" },
    ),
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
      el("p", { class: "mz-cast-title" }, "Who has voted"),
      ballotList(open.ballots, open.sides),
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
  const cast = (casts, b) =>
    ctx.move(`${p.name}'s votes were not cast.`, () => api.mezzoCastCheckBallot(ctx.gameId, p.id, casts), b).then(async (done) => {
      if (!done) return;
      ctx.ui.openCheck = await api.mezzoOpenCheck(ctx.gameId);
      ctx.render(`#mzc-ballot-cast-${p.id}`);
    });
  const voted = open.ballots.some((b) => b.player === p.id);
  return card(
    `mzc-ballot-${p.id}-form`,
    `${p.name}'s votes`,
    playerCasts(p, ctx, { prefix: "mzc-ballot", changed: () => {} }),
    ...playerSpends(p, ctx, { prefix: "mzc-ballot" }),
    el(
      "div",
      { class: "mz-actions" },
      button(voted ? "Change my votes" : "Cast my votes", (b) => cast(castsOfPlayer(p, castsOf(c, p.id), sidesOf(c).length, actors(c)), b), {
        id: `mzc-ballot-cast-${p.id}`,
        class: "primary mz-big-button",
      }),
      voted && button("Take my votes back", (b) => cast([], b), { id: `mzc-ballot-clear-${p.id}` }),
    ),
  );
}
