// A Mezzo conflict open for votes on the players' own devices (DEV-1; RULES.md §3.2). The
// table's device opens the conflict it set up ("Open for votes on phones": the question,
// options and who it is about are kept on the table) and sees who has voted and what; a
// player's phone seated as that player casts their own ballot (free votes, a law, influence and
// what they hold of Fortune's Favor, Victory Narration and Ill Fated, on the table's own form),
// may change it until the table resolves, or take it back. The table resolves with the
// ballots (conflict.js), or withdraws the conflict. Votes are open at the table, so every
// device lists every ballot.
//
//   import { openForVotesCard, openConflictCard, ballotCards, ballotWords, ballotList } from "./conflict-open.js";
//   (ballotList and ballotWords serve an action check open for votes too: check-open.js)
//   ctx.ui.openConflict: the OpenConflictView (mezzoOpenConflict) or null

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { button, card, plural } from "./kit.js";

const quoted = (targets, i) => `“${(targets[i] ?? "").trim() || `Option ${i + 1}`}”`;

/**
 * One cast in words: "1 free vote for “It falls”". A conflict's cast goes to an option, an
 * action check's to a side: `targets` are their names.
 */
function castWords(cast, targets) {
  const to = quoted(targets, cast.option ?? cast.side);
  switch (cast.kind) {
    case "free":
      return `${plural(cast.votes, "free vote")} for ${to}`;
    case "influence":
      return `${cast.points} influence for ${to}`;
    case "law":
      return `a law ${(cast.direction ?? cast.law.direction) === "against" || cast.law.law === "inertia" ? "against" : "for"} ${to}`;
    case "fortunes_favor":
      return cast.side === undefined && cast.option === undefined ? "Fortune's Favor" : `Fortune's Favor for ${to}`;
    case "narration":
      return `${plural(cast.votes, "narration vote")} for ${to}`;
    case "ill_fated":
      return `${cast.points} Ill Fated for ${to}`;
    case "overcome_flaw":
      return "a flaw overcome";
    default:
      return `a vote for ${to}`;
  }
}

/** A ballot in words: "Bo: 1 free vote for “It falls”; 1 influence for “It falls”". */
export const ballotWords = (ballot, targets) => `${ballot.name}: ${ballot.casts.map((c) => castWords(c, targets)).join("; ")}`;

/** Who has voted, on every device (the seed's votes are open at the table); `targets` name the options or sides. */
export function ballotList(ballots, targets) {
  if (ballots.length === 0) return el("p", { class: "muted", id: "mz-ballots-none" }, "Nobody has voted from a phone yet.");
  return el(
    "ul",
    { class: "mz-list", id: "mz-ballots", "aria-label": "Votes from phones" },
    ...ballots.map((b) => el("li", { id: `mz-ballot-${b.player}`, data: { player: b.player } }, ballotWords(b, targets))),
  );
}

/** The question and options as kept on the table. */
function openQuestion(open) {
  return [
    el("p", { class: "mz-open-question", id: "mz-open-question" }, open.question),
    el("ol", { class: "mz-list", id: "mz-open-options", "aria-label": "Options" }, ...open.options.map((o, i) => el("li", {}, `${i + 1}. ${o}`))),
  ];
}

/** The table's device, no conflict open: opens the one being set up (`draft`, no votes) for phones. */
export function openForVotesCard(ctx, draftOf) {
  return card(
    "mz-open-for-votes",
    "Votes on phones",
    el("p", { class: "mz-hint muted" }, "Players seated on their own devices cast their own votes there; you add the rest here and resolve."),
    button(
      "Open for votes on phones",
      async (b) => {
        const draft = { ...draftOf(), casts: [] };
        const done = await ctx.move("The conflict was not opened for votes.", () => api.mezzoOpenConflictForVotes(ctx.gameId, draft), b);
        if (!done) return;
        ctx.ui.openConflict = await api.mezzoOpenConflict(ctx.gameId);
        ctx.render("#mz-open-conflict-heading");
      },
      { id: "mz-open-for-votes-submit" },
    ),
  );
}

/** The table's device, a conflict open: the question, who has voted, and Withdraw. */
export function openConflictCard(ctx, approach) {
  const open = ctx.ui.openConflict;
  return card(
    "mz-open-conflict",
    "Open for votes",
    ...openQuestion(open),
    el("p", { class: "mz-cast-title" }, "Who has voted"),
    ballotList(open.ballots, open.options),
    el("p", { class: "mz-hint muted" }, "Their votes count when you resolve; influence and adversity are paid then. Add the others' votes below."),
    approach,
    button(
      "Withdraw the conflict",
      async (b) => {
        const done = await ctx.move("The conflict was not withdrawn.", () => api.mezzoWithdrawOpenConflict(ctx.gameId), b);
        if (!done) return;
        ctx.ui.openConflict = null;
        ctx.render("#mz-conflict-question-heading");
      },
      { id: "mz-withdraw-open", class: "danger" },
    ),
  );
}

/**
 * What `p`'s form holds: their ballot as cast, or nothing yet, in the table's form's shape
 * (`form.seed`), kept per question so a newer copy of the table keeps what is being typed.
 */
function formOf(ctx, open, form, p) {
  ctx.ui.ballots = ctx.ui.ballots ?? {};
  const key = `${open.question}\u0000${p.id}`;
  if (!ctx.ui.ballots[key]) {
    ctx.ui.ballots[key] = { options: open.options, casts: {} };
    form.seed(ctx.ui.ballots[key], p, open.ballots.find((b) => b.player === p.id)?.casts ?? []);
  }
  return ctx.ui.ballots[key];
}

/**
 * A phone: the open conflict, every ballot, and a form per player this device sits as. `form`
 * is the table's own form for one player (conflict.js `ballotForm`): the same fields, and only
 * the sources the player holds (a law, influence, Fortune's Favor, Victory Narration, Ill Fated).
 */
export function ballotCards(ctx, form) {
  const open = ctx.ui.openConflict;
  const players = ctx.devicePlayers;
  return el(
    "div",
    { class: "mz-conflict-grid" },
    card("mz-open-conflict", "The table asks for your votes", ...openQuestion(open), el("p", { class: "mz-cast-title" }, "Who has voted"), ballotList(open.ballots, open.options)),
    ...players.map((p) => ballotForm(ctx, open, form, p)),
  );
}

function ballotForm(ctx, open, form, p) {
  const state = formOf(ctx, open, form, p);
  const has = form.freeVotes(p, open.about, open.active_in_scene);
  const cast = (casts, b) =>
    ctx.move(`${p.name}'s votes were not cast.`, () => api.mezzoCastBallot(ctx.gameId, p.id, casts), b).then(async (done) => {
      if (!done) return;
      delete ctx.ui.ballots[`${open.question}\u0000${p.id}`];
      ctx.ui.openConflict = await api.mezzoOpenConflict(ctx.gameId);
      ctx.render(`#mz-ballot-cast-${p.id}`);
    });
  const voted = open.ballots.some((b) => b.player === p.id);
  return card(
    `mz-ballot-${p.id}-form`,
    `${p.name}'s votes`,
    form.fields(p, state, ctx, has),
    el(
      "div",
      { class: "mz-actions" },
      button(voted ? "Change my votes" : "Cast my votes", (b) => cast(form.casts(p, state, has), b), {
        id: `mz-ballot-cast-${p.id}`,
        class: "primary mz-big-button",
      }),
      voted && button("Take my votes back", (b) => cast([], b), { id: `mz-ballot-clear-${p.id}` }),
    ),
  );
}
