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
//   (openVotes, votesOnPhonesCard and withdrawOpenButton serve an action check open for
//   votes too: check-open.js)
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

/**
 * What a conflict or an action check open for votes keeps on the table, and who has voted:
 * its line `text`, its numbered `targets` (options or sides) and every ballot. `ids` names
 * the line and the list (`text`, `list`) and the list's `label`.
 */
export function openVotes(open, text, targets, ids) {
  return [
    el("p", { class: "mz-open-question", id: ids.text }, text),
    el("ol", { class: "mz-list", id: ids.list, "aria-label": ids.label }, ...targets.map((t, i) => el("li", {}, `${i + 1}. ${t}`))),
    el("p", { class: "mz-cast-title" }, "Who has voted"),
    ballotList(open.ballots, targets),
  ];
}

/** The question and options as kept on the table, and who has voted. */
const openQuestion = (open) => openVotes(open, open.question, open.options, { text: "mz-open-question", list: "mz-open-options", label: "Options" });

/**
 * The table's device, no conflict or check (`what`) open: the card that opens the one being
 * set up for phones with the move `call`; the open one (`read`) goes into the view's `key`.
 * Its ids begin with `prefix`.
 */
export function votesOnPhonesCard(ctx, { what, prefix, key, hint, call, read }) {
  return card(
    `${prefix}-open-for-votes`,
    "Votes on phones",
    el("p", { class: "mz-hint muted" }, hint),
    button(
      "Open for votes on phones",
      async (b) => {
        const done = await ctx.move(`The ${what} was not opened for votes.`, call, b);
        if (!done) return;
        ctx.ui[key] = await read();
        ctx.render(`#${prefix}-open-${what}-heading`);
      },
      { id: `${prefix}-open-for-votes-submit` },
    ),
  );
}

/** Withdraws the open conflict or check (`what`, the move `call`); the focus then goes to `focus`. */
export function withdrawOpenButton(ctx, { what, prefix, key, call, focus }) {
  return button(
    `Withdraw the ${what}`,
    async (b) => {
      const done = await ctx.move(`The ${what} was not withdrawn.`, call, b);
      if (!done) return;
      ctx.ui[key] = null;
      ctx.render(focus);
    },
    { id: `${prefix}-withdraw-open`, class: "danger" },
  );
}

/** The table's device, no conflict open: opens the one being set up (`draft`, no votes) for phones. */
export function openForVotesCard(ctx, draftOf) {
  return votesOnPhonesCard(ctx, {
    what: "conflict",
    prefix: "mz",
    key: "openConflict",
    hint: "Players seated on their own devices cast their own votes there; you add the rest here and resolve.",
    call: () => api.mezzoOpenConflictForVotes(ctx.gameId, { ...draftOf(), casts: [] }),
    read: () => api.mezzoOpenConflict(ctx.gameId),
  });
}

/** The table's device, a conflict open: the question, who has voted, and Withdraw. */
export function openConflictCard(ctx, approach) {
  return card(
    "mz-open-conflict",
    "Open for votes",
    ...openQuestion(ctx.ui.openConflict),
    el("p", { class: "mz-hint muted" }, "Their votes count when you resolve; influence and adversity are paid then. Add the others' votes below."),
    approach,
    withdrawOpenButton(ctx, {
      what: "conflict",
      prefix: "mz",
      key: "openConflict",
      call: () => api.mezzoWithdrawOpenConflict(ctx.gameId),
      focus: "#mz-conflict-question-heading",
    }),
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
    card("mz-open-conflict", "The table asks for your votes", ...openQuestion(open)),
    ...players.map((p) => ballotForm(ctx, open, form, p)),
  );
}

function ballotForm(ctx, open, form, p) {
  const state = formOf(ctx, open, form, p);
  const has = form.freeVotes(p, open.about, open.active_in_scene);
  return ballotFormCard(ctx, p, {
    prefix: "mz",
    voted: open.ballots.some((b) => b.player === p.id),
    fields: [form.fields(p, state, ctx, has)],
    casts: () => form.casts(p, state, has),
    send: (casts) => api.mezzoCastBallot(ctx.gameId, p.id, casts),
    async sent() {
      delete ctx.ui.ballots[`${open.question}\u0000${p.id}`];
      ctx.ui.openConflict = await api.mezzoOpenConflict(ctx.gameId);
    },
  });
}

/**
 * Player `p`'s ballot on a phone, for a conflict or an action check (ids begin with
 * `prefix`): its `fields`, then "Cast my votes" ("Change my votes" once `voted`) with the
 * casts `casts()` gives, and "Take my votes back". `send(casts)` is the move; `sent()` reads
 * the open one again after it.
 */
export function ballotFormCard(ctx, p, { prefix, voted, fields, casts, send, sent }) {
  const cast = (list, b) =>
    ctx.move(`${p.name}'s votes were not cast.`, () => send(list), b).then(async (done) => {
      if (!done) return;
      await sent();
      ctx.render(`#${prefix}-ballot-cast-${p.id}`);
    });
  return card(
    `${prefix}-ballot-${p.id}-form`,
    `${p.name}'s votes`,
    ...fields,
    el(
      "div",
      { class: "mz-actions" },
      button(voted ? "Change my votes" : "Cast my votes", (b) => cast(casts(), b), {
        id: `${prefix}-ballot-cast-${p.id}`,
        class: "primary mz-big-button",
      }),
      voted && button("Take my votes back", (b) => cast([], b), { id: `${prefix}-ballot-clear-${p.id}` }),
    ),
  );
}
