// A Mezzo conflict open for votes on the players' own devices (DEV-1; RULES.md §3.2). The
// table's device opens the conflict it set up ("Open for votes on phones": the question,
// options and who it is about are kept on the table) and sees who has voted and what; a
// player's phone seated as that player casts their own ballot (free votes and influence),
// may change it until the table resolves, or take it back. The table resolves with the
// ballots (conflict.js), or withdraws the conflict. Votes are open at the table, so every
// device lists every ballot.
//
//   import { openForVotesCard, openConflictCard, ballotCards, ballotWords } from "./conflict-open.js";
//   ctx.ui.openConflict: the OpenConflictView (mezzoOpenConflict) or null

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { button, card, field, numberInput, wholeNumber, plural } from "./kit.js";

const quoted = (options, i) => `“${(options[i] ?? "").trim() || `Option ${i + 1}`}”`;

/** One cast in words: "1 free vote for “It falls”". */
function castWords(cast, options) {
  const to = quoted(options, cast.option);
  switch (cast.kind) {
    case "free":
      return `${plural(cast.votes, "free vote")} for ${to}`;
    case "influence":
      return `${cast.points} influence for ${to}`;
    case "law":
      return `a law ${cast.law.direction === "against" || cast.law.law === "inertia" ? "against" : "for"} ${to}`;
    case "fortunes_favor":
      return `Fortune's Favor for ${to}`;
    case "narration":
      return `${plural(cast.votes, "narration vote")} for ${to}`;
    case "ill_fated":
      return `${cast.points} Ill Fated for ${to}`;
    default:
      return `a vote for ${to}`;
  }
}

/** A ballot in words: "Bo: 1 free vote for “It falls”; 1 influence for “It falls”". */
export const ballotWords = (ballot, options) => `${ballot.name}: ${ballot.casts.map((c) => castWords(c, options)).join("; ")}`;

/** Who has voted, on every device (the seed's votes are open at the table). */
function ballotList(open) {
  if (open.ballots.length === 0) return el("p", { class: "muted", id: "mz-ballots-none" }, "Nobody has voted from a phone yet.");
  return el(
    "ul",
    { class: "mz-list", id: "mz-ballots", "aria-label": "Votes from phones" },
    ...open.ballots.map((b) => el("li", { id: `mz-ballot-${b.player}`, data: { player: b.player } }, ballotWords(b, open.options))),
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
    ballotList(open),
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

/** What `p`'s form holds: their ballot as cast, or nothing yet. */
function formOf(ctx, open, p) {
  ctx.ui.ballots = ctx.ui.ballots ?? {};
  const key = `${open.question}\u0000${p.id}`;
  if (!ctx.ui.ballots[key]) {
    const cast = open.ballots.find((b) => b.player === p.id)?.casts ?? [];
    const free = cast.filter((c) => c.kind === "free").flatMap((c) => Array(c.votes).fill(c.option));
    const inf = cast.find((c) => c.kind === "influence");
    ctx.ui.ballots[key] = { free, influence: { points: inf?.points ?? 0, option: inf?.option ?? 0 } };
  }
  return ctx.ui.ballots[key];
}

function optionSelect(open, value, attrs, withNone) {
  const s = el(
    "select",
    attrs,
    withNone && el("option", { value: "-1" }, "Not cast"),
    ...open.options.map((o, i) => el("option", { value: String(i) }, `${i + 1}. ${o}`)),
  );
  s.value = String(value);
  return s;
}

/** A phone: the open conflict, every ballot, and a form per player this device sits as. */
export function ballotCards(ctx, freeVotes) {
  const open = ctx.ui.openConflict;
  const players = ctx.devicePlayers;
  return el(
    "div",
    { class: "mz-conflict-grid" },
    card("mz-open-conflict", "The table asks for your votes", ...openQuestion(open), el("p", { class: "mz-cast-title" }, "Who has voted"), ballotList(open)),
    ...players.map((p) => ballotForm(ctx, open, p, freeVotes(p, open.about, open.active_in_scene))),
  );
}

function ballotForm(ctx, open, p, has) {
  const form = formOf(ctx, open, p);
  const frees = Array.from({ length: has }, (_, k) => {
    const s = optionSelect(open, form.free[k] ?? -1, { id: `mz-ballot-free-${p.id}-${k}` }, true);
    s.addEventListener("change", () => {
      form.free[k] = Number(s.value);
    });
    return field(has === 1 ? "Your free vote" : `Free vote ${k + 1}`, s);
  });
  const points = numberInput({ id: `mz-ballot-influence-${p.id}`, min: 0, max: p.influence, value: form.influence.points });
  points.addEventListener("input", () => {
    form.influence.points = wholeNumber(points) ?? 0;
  });
  const where = optionSelect(open, form.influence.option, { id: `mz-ballot-influence-option-${p.id}` }, false);
  where.addEventListener("change", () => {
    form.influence.option = Number(where.value);
  });
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
    has === 0 && el("p", { class: "muted" }, "No free vote in this conflict (an Actor votes freely only on matters of a character they claimed)."),
    ...frees,
    field(`Influence (a vote a point; you hold ${p.influence})`, points),
    field("Influence for", where),
    el(
      "div",
      { class: "mz-actions" },
      button(
        voted ? "Change my votes" : "Cast my votes",
        (b) => {
          const counts = new Map();
          for (const option of form.free.slice(0, has)) if (option >= 0) counts.set(option, (counts.get(option) ?? 0) + 1);
          const casts = [...counts].sort((a, b2) => a[0] - b2[0]).map(([option, votes]) => ({ kind: "free", player: p.id, option, votes }));
          if (form.influence.points > 0) casts.push({ kind: "influence", player: p.id, option: form.influence.option, points: form.influence.points });
          return cast(casts, b);
        },
        { id: `mz-ballot-cast-${p.id}`, class: "primary mz-big-button" },
      ),
      voted && button("Take my votes back", (b) => cast([], b), { id: `mz-ballot-clear-${p.id}` }),
    ),
  );
}
