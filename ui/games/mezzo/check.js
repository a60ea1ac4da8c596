// The Mezzo action check tab (RULES.md §3.3): Leave to Chance between an element's action and
// its failure, or contested actions (one side per acting element). The table sets the sides
// and their base chances (a negligible side takes no part; "no check needed" when one side is
// left), casts Setting Laws and influence per player and adversity spends per element
// (Fortune's Favor, Overcome Flaws, an Unexpected Edge in a challenge) and the votes the table
// judges the acting elements' traits give, then buys scope perks (which close the voting; a
// perk whose prerequisite is missing is refused by the core with its reason). Each side's
// exact odds, with the spends named, follow every change (mezzoCheckPreview). The roll — in
// the app, or every die typed in — puts the check on the table (undoable); Sudden Surges are
// bought for the rolled check, then "Resolve" pays everything and says who takes effect. While
// a challenge is played (mezzoChallenge, read through `runningChallenge`, which the plot tab
// shares), the rolled check may instead be resolved as the major action of the acting
// challengers ticked (mezzoChallengeResolveMajors): the core's result is shown and its perks
// are declared on the Challenge tab. A tie is broken with d12s or settled by a compromise.
// The check waiting on the table comes from mezzoCheckPending (ctx.ui.pending). A table set to
// the D6 variant (Table tab) rolls one d6 per side: after the first roll each owner who may
// burst chooses burst or keep (the app's suggestion preselected: the burst that raises the
// expected score), with the rerolls rolled here or typed in (mezzoCheckBurst); then Sudden
// Surges and the result as above, and ties are broken with d6s.
//
//   import { renderCheck, newCheck } from "./check.js";
//   renderCheck(host, ctx);   // ctx from screen.js; ctx.ui.check is the state below
//
// One tap (issue 32): a trait's "Action check ›" on the sheet opens the check with it filled
// in and Roll focused at the head, the odds in one line beside it (the attempt's description
// may stay empty: the core reads the check as "Action check"); Resolve settles it, and the
// result offers Roll again with the same set-up.
//
// This file draws the tab's cards in turn; they are the check's steps: check-attempt.js (the
// check set up and its request), check-sides.js, check-votes.js (casts, spends, trait votes),
// check-odds.js, check-dice.js (perks, the roll, bursts) and check-outcome.js (surges, the
// resolution, ties, the result). A check open for votes on phones (check-open.js): the table's
// device shows its sides, who has voted and Withdraw in place of the sides card, and rolls
// with the ballots; a seated phone shows its players' ballot forms instead of the check.

import { el } from "../../kit/dom.js";
import { followOpenCheck, runningChallenge } from "./check-attempt.js";
import { checkBallotCards, openCheckCard, openCheckForVotesCard } from "./check-open.js";
import { burstCard, oddsCard, perksAndRollCard, roll } from "./check-dice.js";
import { schedulePreview, summaryWords } from "./check-odds.js";
import { majorCard, resultCard, rolledCard, tieCard } from "./check-outcome.js";
import { sidesCard } from "./check-sides.js";
import { castsCard } from "./check-votes.js";
import { allElements, button, card } from "./kit.js";

export { newCheck, startCheckWith, runningChallenge } from "./check-attempt.js";

/** Fills `host` with the check: its set-up and odds, the rolled check, a tie, or the result. */
export function renderCheck(host, ctx) {
  const c = ctx.ui.check;
  const t = ctx.table;
  const pending = ctx.ui.pending ?? null;
  const running = runningChallenge(ctx);
  if (c.major && !pending) {
    host.append(majorCard(ctx));
    return;
  }
  if (pending) {
    c.result = null;
    c.major = null;
    if (c.surgesFor !== pending.check.id) {
      c.surges = [];
      c.surgesFor = pending.check.id;
    }
    const next = pending.check.phase === "tied" ? tieCard(ctx, pending) : (pending.open_bursts ?? []).length > 0 ? burstCard(ctx, pending) : rolledCard(ctx, pending, running);
    host.append(next);
    return;
  }
  if (c.result) {
    host.append(resultCard(ctx));
    return;
  }
  const open = ctx.ui.openCheck ?? null;
  // A phone at a check open for votes casts its players' own ballots.
  if (open && ctx.role === "player") {
    followOpenCheck(c, open);
    host.append(checkBallotCards(ctx));
    return;
  }
  if (open) followOpenCheck(c, open);
  if (t.players.length === 0 || allElements(t).length === 0) {
    host.append(
      card(
        "mzc-empty",
        "Action check",
        el("p", { class: "muted" }, "Add players on the Table tab and story elements on the Story elements tab first: an element acts, players cast."),
      ),
    );
    return;
  }
  const locked = c.perks.length > 0;
  host.append(
    quickBar(ctx),
    el(
      "div",
      { class: "mz-conflict-grid mz-check-grid" },
      open ? openCheckCard(ctx) : sidesCard(ctx),
      castsCard(ctx, locked),
      oddsCard(ctx),
      perksAndRollCard(ctx),
      !open && ctx.role !== "player" && t.players.length > 0 && openCheckForVotesCard(ctx),
    ),
  );
  schedulePreview(ctx);
}

/**
 * The set-up's head: each side's chance in one line (from the core's preview, kept up to date
 * by the odds card's refresh) and Roll, one tap. With dice rolled by hand, the roll card's
 * boxes and its button are the way.
 */
function quickBar(ctx) {
  const c = ctx.ui.check;
  return el(
    "div",
    { class: "quick-bar", id: "mzc-quick-bar" },
    el("p", { class: "quick-odds", id: "mzc-odds-summary", "aria-live": "polite" }, summaryWords(ctx)),
    !c.hand && button("Roll", (b) => roll(ctx, b), { id: "mzc-roll-quick", class: "primary quick-roll", data: { focusKey: "mzc-roll-quick" } }),
  );
}
