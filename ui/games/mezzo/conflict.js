// The Mezzo conflict tab (RULES.md §3.2): the question and its options (at least two), what
// the conflict is about and who is active in the scene, each player's casts — free votes, one
// Setting Law with its fact and direction, influence, Fortune's Favor from an element — and,
// live as the votes change, each option's votes, step dice and exact odds (mezzoConflictPreview
// on every change; Take Median shows its steps with the pre-selected pair: the two ends of the
// options left, listed along the question's spectrum and reordered before votes are cast). "Resolve" rolls in
// the app or takes every die's face typed in by hand; the result shows each option's dice,
// faces and score (or the median steps) and the winner. A tie is settled by a compromise or
// broken with dice (d12s, d6s in the D6 variant).
// The other vote sources come from what the table recorded (ctx.ui.sources, mezzoConflictSources):
// a player's Victory Narration votes and Ill Fated debt, the game's own Setting Laws and the
// arc's Themes beside the three laws, the facts register offered for Consistency (open hooks
// for Inertia); the story's own votes (an Attractant or Repellent active in the scene, a
// detail a Discover perk added) are cast once for the table.
//
//   import { renderConflict, newConflict, forgetResult } from "./conflict.js";
//   renderConflict(host, ctx);   // ctx from screen.js; ctx.ui.conflict is the state below

import * as api from "./api.js";
import { el, byId } from "../../kit/dom.js";
import { sceneCard } from "./table.js";
import { openForVotesCard, openConflictCard, ballotCards } from "./conflict-open.js";
import {
  busy,
  card,
  checkbox,
  compromiseForm,
  countInput,
  elementPick,
  field,
  numberInput,
  wholeNumber,
  button,
  select,
  dieBadge,
  diceWords,
  handDice,
  plural,
  lawFields,
  disclosure,
  entryChoice,
  totalSteppers,
  allElements,
  handOrRolled,
  oddsLine,
  burstOddsLine,
  nextVoteLine,
  previewSoon,
  MAX_OPTIONS,
  listOrNone,
} from "./kit.js";

const APPROACHES = [
  ["leave_to_chance", "Leave to Chance", "Votes become step dice; the highest face wins."],
  ["take_median", "Take Median", "No dice: the most opposed options cancel out until one is left."],
  ["d6", "D6 variant", "Every full 6 votes always raise the multiplier (keeping them as threshold never gives a better chance); the rest are the burst threshold; a low first roll may burst."],
];

const LAW_HINT =
  "Consistency: a fact that already happened supports or contradicts the option (each fact once per conflict). " +
  "Inertia: the option changes a fact in a major way. Potential: it opens up or closes off possibilities. " +
  "The game's own laws and the arc's Themes count like Potential: +1 for, −1 against.";

/**
 * A conflict nobody has voted on yet rolls as the table does: the D6 variant when the table's
 * Dice say so, else Leave to Chance (Take Median, a choice of its own, stays).
 */
export function followTableDice(c, variant) {
  if (c.result || votesCast(c)) return;
  if (variant === "d6") c.approach = "d6";
  else if (c.approach === "d6") c.approach = "leave_to_chance";
}

/** A conflict being set up, with nothing cast; a table set to the D6 variant starts with it. */
export function newConflict(byHand = false, variant = "steps") {
  return {
    question: "",
    options: ["", ""],
    about: [], // the characters whose matters the conflict is about
    approach: variant === "d6" ? "d6" : "leave_to_chance",
    d6: { bursts: {}, first: null }, // D6: each owner's burst choice by option; the first rolls shown (rolled in the app)
    hand: byHand, // the game's "roll real dice" preference
    casts: {},
    story: { traits: {}, discover: {} }, // trait id / detail → the option it votes for (-1: not cast)
    entry: "players", // "players": each player's votes here; "totals": what the table counted
    totals: [], // per option: the votes the table counted (cast on other devices)
    handValues: [],
    tieValues: [],
    selections: [], // Take Median: the options the table marked at each step (unset: pre-selected)
    preview: null,
    previewError: null,
    serial: 0,
    timer: null,
    result: null, // {result: ConflictResult, draft, approach, faces}
    tie: null, // TieOutcome once broken
    compromise: null, // the text agreed on
  };
}

/** After an undo of the conflict's own last step: back to where the table was before it. */
export function forgetResult(view) {
  const c = view.conflict;
  if (!c || view.lastMoveTag !== "conflict") return;
  view.lastMoveTag = null;
  if (c.tie || c.compromise) {
    c.tie = null;
    c.compromise = null;
  } else {
    c.result = null;
  }
}

// ---- the draft ------------------------------------------------------------------------------

/**
 * The form of a ballot cast before (a phone shows what its player cast): the inverse of
 * playerCasts, into `mine` as castsOf made it.
 */
function fillFromCasts(mine, casts) {
  for (const cast of casts) {
    if (cast.kind === "free") mine.free.push(...Array(cast.votes).fill(cast.option));
    if (cast.kind === "influence") mine.influence = { points: cast.points, option: cast.option };
    if (cast.kind === "law") {
      const l = cast.law;
      const kind = l.law === "custom" ? `custom:${l.id}` : l.law === "theme" ? `theme:${l.by}` : l.law;
      mine.law = { kind, option: cast.option, fact: l.fact ?? "", direction: l.direction ?? "against" };
    }
    if (cast.kind === "fortunes_favor") {
      const count = mine.ff.element === cast.element ? mine.ff.count + 1 : 1;
      mine.ff = { element: cast.element, option: cast.option, count, debt: cast.allow_debt };
    }
    if (cast.kind === "narration") mine.narration = { element: cast.element, option: cast.option, votes: cast.votes };
    if (cast.kind === "ill_fated") mine.ill = { element: cast.element, option: cast.option, points: cast.points };
  }
  return mine;
}

/** What a phone's ballot form needs of the table's form (conflict-open.js), one form for both. */
export const ballotForm = {
  freeVotes,
  fields: (p, c, ctx, has) => casterSet(p, c, ctx, { has, prefix: "mz-ballot", changed: () => {} }),
  casts: (p, c, has) => playerCasts(p, castsOf(c, p.id), has, c.options.length),
  seed: (c, p, casts) => fillFromCasts(castsOf(c, p.id), casts),
};

function castsOf(c, playerId) {
  c.casts[playerId] = c.casts[playerId] ?? {
    free: [],
    law: { kind: "", option: 0, fact: "", direction: "for" },
    influence: { points: 0, option: 0 },
    ff: { element: "", option: 0, count: 1, debt: false },
    narration: { element: "", option: 0, votes: 0 },
    ill: { element: "", option: 0, points: 0 },
  };
  return c.casts[playerId];
}

/**
 * The free votes `p` casts (RULES.md §3.1): 1, or as an Actor 3 when the conflict is about one
 * of the characters they claimed (it may be about several) and 0 elsewhere.
 */
export function freeVotes(p, about, active) {
  const actor = p.roles.includes("actor") || p.claimed.some((id) => active.includes(id));
  if (!actor) return 1;
  return about.some((id) => p.claimed.includes(id)) ? 3 : 0;
}

/**
 * The ConflictDraft the state stands for. With `forPreview`, empty texts are filled with
 * placeholders so that the odds show while the table is still typing.
 */
function draftOf(ctx, forPreview = false, withBallots = true) {
  const c = ctx.ui.conflict;
  const open = ctx.ui.openConflict;
  const n = c.options.length;
  const casts = [];
  for (const p of castingHere(ctx)) {
    casts.push(...playerCasts(p, castsOf(c, p.id), freeVotes(p, c.about, ctx.ui.active), n, forPreview));
  }
  if (storyHere(ctx)) {
    for (const { element, trait } of storyTraits(ctx)) {
      const option = c.story.traits[trait.id] ?? -1;
      if (option >= 0 && option < n) casts.push({ kind: "trait", element: element.id, trait_id: trait.id, option });
    }
    for (const detail of ctx.ui.sources?.discoveries ?? []) {
      const option = c.story.discover[detail] ?? -1;
      if (option >= 0 && option < n) casts.push({ kind: "discover", detail, option });
    }
  }
  if (byTotals(ctx)) {
    for (let option = 0; option < n; option++) {
      const votes = c.totals[option] ?? 0;
      if (votes > 0) casts.push({ kind: "counted", option, votes });
    }
  }
  // The ballots cast on the players' own devices count with the table's casts (DEV-1).
  if (open && withBallots) casts.push(...open.ballots.flatMap((b) => b.casts));
  if (open) return { question: open.question, options: open.options, about: open.about, active_in_scene: open.active_in_scene, casts };
  const placeholder = (text, i) => (forPreview && text.trim() === "" ? `Option ${i + 1}` : text);
  return {
    question: forPreview && c.question.trim() === "" ? "The question" : c.question,
    options: c.options.map(placeholder),
    about: c.about,
    active_in_scene: ctx.ui.active,
    casts,
  };
}

/**
 * What `p` casts from their part of the form `mine` (their `has` free votes, a law, influence,
 * Fortune's Favor, Victory Narration, Ill Fated) on `n` options. The table's form and a
 * phone's ballot (conflict-open.js) both build their casts here.
 */
function playerCasts(p, mine, has, n, forPreview = false) {
  const casts = [];
  const counts = new Map();
  for (const option of mine.free.slice(0, has)) {
    if (option >= 0 && option < n) counts.set(option, (counts.get(option) ?? 0) + 1);
  }
  for (const [option, votes] of [...counts].sort((a, b) => a[0] - b[0])) {
    casts.push({ kind: "free", player: p.id, option, votes });
  }
  const law = mine.law;
  if (law.kind !== "" && law.option < n) {
    const fact = law.fact.trim() !== "" || !forPreview ? law.fact : `the fact ${p.name} names`;
    const [kind, ref] = law.kind.split(":");
    const body =
      kind === "consistency"
        ? { law: "consistency", fact, direction: law.direction }
        : kind === "inertia"
          ? { law: "inertia", fact }
          : kind === "custom"
            ? { law: "custom", id: ref, direction: law.direction }
            : kind === "theme"
              ? { law: "theme", by: ref, direction: law.direction }
              : { law: "potential", direction: law.direction };
    casts.push({ kind: "law", player: p.id, option: law.option, law: body });
  }
  if (mine.influence.points > 0 && mine.influence.option < n) {
    casts.push({ kind: "influence", player: p.id, option: mine.influence.option, points: mine.influence.points });
  }
  const ff = mine.ff;
  if (ff.element !== "" && ff.count > 0 && ff.option < n) {
    for (let k = 0; k < ff.count; k++) {
      casts.push({ kind: "fortunes_favor", element: ff.element, by: p.id, option: ff.option, allow_debt: ff.debt });
    }
  }
  const nv = mine.narration;
  if (nv.element !== "" && nv.votes > 0 && nv.option < n) {
    casts.push({ kind: "narration", element: nv.element, by: p.id, option: nv.option, votes: nv.votes });
  }
  const ill = mine.ill;
  if (ill.element !== "" && ill.points > 0 && ill.option < n) {
    casts.push({ kind: "ill_fated", element: ill.element, by: p.id, option: ill.option, points: ill.points });
  }
  return casts;
}

/** Whether the story's own votes are cast here: on the table's device, unless it enters totals. */
const storyHere = (ctx) => ctx.role !== "player" && ctx.ui.conflict.entry !== "totals";

/** The Attractants and Repellents of the elements active in the scene: [{element, trait}]. */
function storyTraits(ctx) {
  const active = ctx.ui.active;
  return allElements(ctx.table)
    .filter((e) => active.includes(e.id))
    .flatMap((e) => e.traits.filter((t) => t.template === "attractant" || t.template === "repellent").map((trait) => ({ element: e, trait })));
}

/** Whether the votes cast elsewhere come in as totals: always on a player's own device. */
const byTotals = (ctx) => ctx.role === "player" || ctx.ui.conflict.entry === "totals";

/**
 * The players whose votes are cast on this device: a player device's own players; on a shared
 * device everyone, or nobody when the table enters its totals.
 */
function castingHere(ctx) {
  if (ctx.role === "player") return ctx.devicePlayers;
  if (ctx.ui.conflict.entry === "totals") return [];
  // A player who voted from their own device casts nothing more here.
  const voted = new Set((ctx.ui.openConflict?.ballots ?? []).map((b) => b.player));
  return ctx.table.players.filter((p) => !voted.has(p.id));
}

/** "1. The guard", or "Option 1" while it has no text. */
const optionLabel = (c, i) => (c.options[i]?.trim() ? `${i + 1}. ${c.options[i].trim()}` : `Option ${i + 1}`);
const quotedOption = (options, i) => `“${(options[i] ?? "").trim() || `Option ${i + 1}`}”`;

function optionSelect(c, value, attrs, withNone = false) {
  const s = el(
    "select",
    attrs,
    withNone && el("option", { value: "-1" }, "Not cast"),
    ...c.options.map((_, i) => el("option", { value: String(i), data: { optionLabel: String(i) } }, optionLabel(c, i))),
  );
  s.value = String(value);
  return s;
}

/** Renames every option in the selects after its text changed (no re-render while typing). */
function relabelOptions(c) {
  for (const node of document.querySelectorAll("#mezzo-body [data-option-label]")) {
    node.textContent = optionLabel(c, Number(node.dataset.optionLabel));
  }
}

// ---- the live preview -------------------------------------------------------------------------

/** The conflict's odds asked again after a change (at once with `delay` 0). */
function schedulePreview(ctx, delay = 120) {
  const c = ctx.ui.conflict;
  const ask = () => api.mezzoConflictPreview(ctx.gameId, draftOf(ctx, true), c.selections);
  // An answer like the one shown changes nothing on screen: the odds are not redrawn, so a
  // mark or a box being used keeps its place.
  const show = () => {
    if (liveSignature(c) !== c.liveSig || !byId("mz-odds-body")) refreshLive(ctx);
  };
  previewSoon(c, () => ctx.ui.conflict === c, ask, show, delay);
}

/** What the odds panel shows, as a string: equal strings draw the same panel. */
const liveSignature = (c) => JSON.stringify([c.preview, c.previewError, c.options, c.approach, c.selections]);

/** Redraws the odds and the hand-dice boxes in place. */
function refreshLive(ctx) {
  ctx.ui.conflict.liveSig = liveSignature(ctx.ui.conflict);
  const odds = byId("mz-odds-body");
  // Parts left out are `false`: replaceChildren would print them.
  if (odds) odds.replaceChildren(...oddsContent(ctx).filter(Boolean));
  // The boxes are redrawn only when the dice asked for change (a box being typed in stays).
  const dice = byId("mz-hand-host");
  const c = ctx.ui.conflict;
  const sig = handSignature(ctx);
  if (dice && (sig !== c.handSig || dice.childElementCount === 0)) dice.replaceChildren(...handContent(ctx).filter(Boolean));
  const submit = byId("mz-resolve-submit");
  if (submit) submit.disabled = !canResolve(ctx);
  const rollFirstButton = byId("mz-d6-roll-first");
  if (rollFirstButton) rollFirstButton.disabled = !canResolve(ctx);
  // First rolls shown for other votes are void: the owners roll again for these.
  if (c.d6.first && !shownFirst(c)) {
    c.d6 = { bursts: {}, first: null };
    ctx.render();
    return;
  }
  const approach = byId("mz-approach-host");
  const fixed = votesCast(c);
  if (approach && approach.dataset.fixed !== String(fixed)) {
    approach.dataset.fixed = String(fixed);
    approach.replaceChildren(approachChoice(ctx));
    // The options' order is fixed once a vote is cast (RULES.md §3.2).
    for (const b of document.querySelectorAll("#mz-options .mz-move-option")) b.disabled = fixed || b.dataset.edge === "true";
    const order = byId("mz-options-order");
    if (order) {
      order.textContent = fixed
        ? "The order is fixed now that votes are cast."
        : "List the options from one extreme of the question to the other: Take Median starts with the two ends.";
    }
  }
}

function oddsContent(ctx) {
  const c = ctx.ui.conflict;
  const pv = c.preview;
  const parts = [];
  if (c.previewError) {
    parts.push(el("p", { class: "mz-problem", id: "mz-odds-problem", role: "status" }, c.previewError));
  }
  if (!pv || pv.counts.length !== c.options.length) {
    if (!c.previewError) parts.push(el("p", { class: "muted" }, "Working out the odds…"));
    return parts;
  }
  if (c.approach === "take_median") {
    parts.push(
      el(
        "ul",
        { class: "mz-median-votes", id: "mz-median-votes", "aria-label": "Votes per option" },
        ...pv.counts.map((n, i) =>
          el("li", {}, el("span", { class: "grow" }, optionLabel(c, i)), el("strong", { id: `mz-votes-${i}` }, plural(n, "vote"))),
        ),
      ),
      medianMarking(ctx, pv.counts),
    );
    return parts;
  }
  const d6 = c.approach === "d6";
  const shares = d6 ? pv.d6_odds : pv.steps_odds;
  const nextVotes = d6 ? pv.d6_next_vote : pv.steps_next_vote;
  parts.push(
    el(
      "ol",
      { class: "mz-odds-list", id: "mz-odds-list" },
      ...pv.counts.map((n, i) => {
        const v = pv.votes[i];
        const share = shares[i];
        const sources = [
          v.free && `free ${v.free}`,
          v.laws && `laws ${v.laws > 0 ? "+" : ""}${v.laws}`,
          v.influence && `influence ${v.influence}`,
          v.fortunes_favor && `Fortune's Favor ${v.fortunes_favor}`,
          v.narration && `narration ${v.narration}`,
          v.traits && `traits ${v.traits}`,
          v.discover && `discovered ${v.discover}`,
          v.ill_fated && `Ill Fated ${v.ill_fated}`,
        ].filter(Boolean);
        const mult = 1 + Math.floor(n / 6);
        const threshold = n % 6;
        return oddsLine({
          cls: "mz-odds-option",
          data: { option: String(i) },
          prefix: "mz",
          i,
          name: optionLabel(c, i),
          share,
          votes: plural(n, "vote"),
          detail: [
            sources.length > 0 && el("span", { class: "muted" }, ` (${sources.join(", ")})`),
            " · ",
            d6
              ? el(
                  "span",
                  { class: "mz-dice-words", id: `mz-dice-${i}` },
                  n === 0
                    ? "no die (scores 1)"
                    : `d6 × ${mult}${threshold === 1 ? ", burst on a 1" : threshold > 1 ? `, burst on 1–${threshold}` : ""}`,
                )
              : el("span", { class: "mz-dice-words", id: `mz-dice-${i}` }, pv.dice[i].length === 0 ? "no dice (scores 1)" : diceWords(pv.dice[i])),
          ],
          chance: "Chance to win",
          dice: d6 ? [] : pv.dice[i],
          extra: nextVoteLine(nextVotes.find((v) => v.option === i), share, `mz-next-vote-${i}`, "to win"),
        });
      }),
    ),
    el("p", { class: "mz-hint muted hint" }, "Exact chances; a tie counts as shared evenly (the tiebreak roll is fair)."),
    // The seed's D6 rule is not monotonic (audit #18): say so beside the numbers, so a
    // chance that drops with one more vote is not taken for a fault.
    d6 &&
      el(
        "p",
        { class: "mz-hint muted hint", id: "mz-d6-note" },
        "Under the D6 variant one more vote can lower an option's chance: a new multiplier starts with a low " +
          "burst threshold. 12 votes beat 11 only 35 times in 72; against 1 vote, 6 votes win less often than 5.",
      ),
  );
  return parts;
}

/** Take Median's steps in words, with the pre-selected (or chosen) pair of each step. */
function medianSteps(steps, outcome, counts, options, id, preselected) {
  const name = (i) => quotedOption(options, i);
  const left = [...counts];
  const out = counts.map((n, i) => (n === 0 ? i : null)).filter((i) => i !== null);
  const items = steps.map((s, k) => {
    const before = s.selected.map((i) => `${name(i)} (${left[i]})`).join(" and ");
    for (const i of s.selected) left[i] -= s.subtracted;
    return el(
      "li",
      { class: "mz-median-step", data: { step: String(k + 1) } },
      el("strong", {}, `Step ${k + 1}: `),
      `${before}${preselected ? " — pre-selected, the two ends —" : ""} each lose ${plural(s.subtracted, "vote")}`,
      s.dropped.length > 0 ? `; ${s.dropped.map(name).join(" and ")} ${s.dropped.length === 1 ? "drops" : "drop"}.` : ".",
    );
  });
  return el(
    "div",
    { class: "mz-median", id },
    out.length > 0 &&
      out.length < counts.length &&
      el("p", { class: "muted" }, `Out before the first step (no votes): ${out.map(name).join(", ")}.`),
    items.length > 0
      ? el("ol", { class: "mz-median-steps", id: `${id}-steps` }, ...items)
      : el("p", { class: "muted" }, "No step is needed."),
    outcome &&
      el(
        "p",
        { class: "mz-median-outcome", id: `${id}-outcome` },
        outcome.winner !== undefined
          ? `${name(outcome.winner)} is left: it ${preselected ? "would win" : "wins"}.`
          : `${outcome.tie.map(name).join(" and ")} ${preselected ? "would tie" : "tie"}.`,
      ),
  );
}

// ---- Take Median: the options the table marks at each step ------------------------------------

const sameSet = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function canResolve(ctx) {
  const c = ctx.ui.conflict;
  if (c.previewError !== null) return false;
  if (c.approach !== "take_median" || !c.preview) return true;
  return c.preview.median.problem === null;
}

/** The steps with a checkbox per option left, the marked ones checked. */
function medianMarking(ctx, counts) {
  const c = ctx.ui.conflict;
  // The core's plan with the table's marks (RULES.md §3.2): each step where it stood — the
  // options left, their votes, the pre-selection — and what the marks made of it; the step
  // whose marks are refused has no `step`, and the plan says why.
  const plan = c.preview.median;
  const name = (i) => quotedOption(c.options, i);
  const out = counts.map((n, i) => (n === 0 ? i : null)).filter((i) => i !== null);
  const marks = (k, now, selected) =>
    el(
      "fieldset",
      { class: "mz-median-marks" },
      el("legend", {}, `Most strongly opposed at step ${k + 1}`),
      el(
        "div",
        { class: "mz-checks" },
        ...now.map((i) => {
          const box = checkbox(optionLabel(c, i), {
            id: `mz-mark-${k}-${i}`,
            class: "mz-mark",
            checked: selected.includes(i),
            data: { focusKey: `mz-mark-${k}-${i}` },
          });
          box.box.addEventListener("change", () => {
            const chosen = now.filter((j) => (j === i ? box.box.checked : selected.includes(j)));
            // Later steps follow from this one: their marks start again from the pre-selection.
            c.selections = [...plan.steps.slice(0, k).map((st) => st.step.selected), chosen];
            schedulePreview(ctx, 0);
          });
          return box.node;
        }),
      ),
    );
  const taken = plan.steps.filter((st) => st.step);
  const items = taken.map(({ step: st, left, preselected, remaining }, k) => {
    const before = st.selected.map((i) => `${name(i)} (${left[i]})`).join(" and ");
    const why = sameSet(st.selected, preselected) ? "pre-selected, the two ends" : "marked by the table";
    return el(
      "li",
      { class: "mz-median-step", data: { step: String(k + 1) } },
      el(
        "p",
        { class: "mz-median-words" },
        el("strong", {}, `Step ${k + 1}: `),
        `${before} — ${why} — each lose ${plural(st.subtracted, "vote")}`,
        st.dropped.length > 0 ? `; ${st.dropped.map(name).join(" and ")} ${st.dropped.length === 1 ? "drops" : "drop"}.` : ".",
      ),
      marks(k, remaining, st.selected),
    );
  });
  if (plan.problem) {
    const k = taken.length;
    items.push(
      el(
        "li",
        { class: "mz-median-step", data: { step: String(k + 1) } },
        el("p", { class: "mz-problem", id: "mz-median-problem", role: "status" }, plan.problem),
        marks(k, plan.steps[k].remaining, c.selections[k] ?? []),
      ),
    );
  }
  return el(
    "div",
    { class: "mz-median", id: "mz-median-preview" },
    out.length > 0 && out.length < counts.length && el("p", { class: "muted" }, `Out before the first step (no votes): ${out.map(name).join(", ")}.`),
    el("p", { class: "mz-hint muted hint" }, "The table marks the most strongly opposed options at each step; the app pre-selects the two ends of those left, in the order the options are listed."),
    items.length > 0 ? el("ol", { class: "mz-median-steps", id: "mz-median-preview-steps" }, ...items) : el("p", { class: "muted" }, "No step is needed."),
    plan.outcome &&
      el(
        "p",
        { class: "mz-median-outcome", id: "mz-median-preview-outcome" },
        plan.outcome.winner !== undefined
          ? `${name(plan.outcome.winner)} is left: it would win.`
          : `${plan.outcome.tie.map(name).join(" and ")} would tie.`,
      ),
  );
}

// ---- dice typed in by hand ------------------------------------------------------------------

/** The dice the resolution asks for, in order: [{sides, label}]. */
function diceAsked(ctx) {
  const c = ctx.ui.conflict;
  const pv = c.preview;
  if (!pv) return null;
  const name = (i) => quotedOption(c.options, i);
  if (c.approach === "leave_to_chance") {
    return pv.dice.flatMap((dice, i) =>
      dice.map((sides, k) => ({ sides, label: dice.length === 1 ? name(i) : `${name(i)} die ${k + 1}` })),
    );
  }
  if (c.approach === "d6") {
    const first = pv.counts.map((n, i) => (n > 0 ? i : null)).filter((i) => i !== null);
    const asked = first.map((i) => ({ sides: 6, label: `${name(i)} first roll` }));
    // A reroll for each owner who bursts, once the first faces are known.
    for (const b of handBursts(ctx)) {
      if (burstChosen(c, b)) asked.push({ sides: 6, label: `${name(b.option)} burst reroll` });
    }
    return asked;
  }
  return [];
}

// ---- D6 bursts: each owner's choice (RULES.md §3.2, decision 2026-11-25) ----------------------

/** Whether a burst raises the expected score: 3.5 × (m + 1) against face × m. */
const burstPays = (face, mult) => 7 * (mult + 1) > 2 * face * mult;

/** The options whose typed first face allows a burst: [{option, face, suggested}]. */
function handBursts(ctx) {
  const c = ctx.ui.conflict;
  const pv = c.preview;
  if (!pv) return [];
  const first = pv.counts.map((n, i) => (n > 0 ? i : null)).filter((i) => i !== null);
  return first
    .map((option, k) => {
      const face = c.handValues[k];
      const n = pv.counts[option];
      const mult = 1 + Math.floor(n / 6);
      if (!face || face < 1 || face > 6 || face > n % 6) return null;
      return { option, face, suggested: burstPays(face, mult) };
    })
    .filter(Boolean);
}

/** The first rolls shown by the app, while the votes are still the ones they were rolled for. */
function shownFirst(c) {
  const f = c.d6.first;
  if (!f || !c.preview || JSON.stringify(f.counts) !== JSON.stringify(c.preview.counts)) return null;
  return f;
}

/** The owner's choice, or the app's suggestion until the owner chooses. */
const burstChosen = (c, b) => c.d6.bursts[b.option] ?? b.suggested;

/** A checkbox per option that may burst: the owner decides; the suggestion is pre-ticked. */
function burstChoices(ctx, candidates, onChange) {
  const c = ctx.ui.conflict;
  if (candidates.length === 0) return el("p", { class: "mz-hint muted", id: "mz-bursts" }, "No first roll allows a burst: every option keeps its roll.");
  return el(
    "fieldset",
    { class: "mz-bursts", id: "mz-bursts" },
    el("legend", {}, "Bursts: each option's owner decides"),
    ...candidates.flatMap((b) => {
      const box = checkbox(
        `${quotedOption(c.options, b.option)} bursts (showed ${b.face}) — ${b.suggested ? "suggested: raises the expected score" : "suggested: keep"}`,
        { id: `mz-burst-${b.option}`, checked: burstChosen(c, b), data: { focusKey: `mz-burst-${b.option}` } },
      );
      box.box.addEventListener("change", () => {
        c.d6.bursts[b.option] = box.box.checked;
        onChange();
      });
      return [box.node, b.odds && burstOddsLine(b.odds, `mz-burst-odds-${b.option}`, "to win")];
    }),
  );
}

/** Rolled in the app: the first rolls, then each owner's choice before the rerolls. */
function d6FirstContent(ctx) {
  const c = ctx.ui.conflict;
  if (c.approach !== "d6" || c.hand) return [];
  const f = shownFirst(c);
  if (!f) {
    return [
      c.d6.error && el("p", { class: "mz-problem", role: "status" }, c.d6.error),
      el("p", { class: "mz-hint muted" }, "The app rolls each option's first d6; then each owner whose roll allows a burst decides."),
      button("Roll the first dice", (b) => rollFirst(ctx, b), { id: "mz-d6-roll-first", disabled: !canResolve(ctx) }),
    ];
  }
  const candidates = f.may_burst.map((option) => ({
    option,
    face: f.rolls[option].first,
    suggested: f.suggested.includes(option),
    odds: f.burst_odds.find((o) => o.option === option),
  }));
  return [
    el(
      "ul",
      { class: "mz-list", id: "mz-d6-first" },
      ...f.rolls.map((r, i) =>
        el("li", { id: `mz-first-${i}` }, `${quotedOption(c.options, i)}: ${r.first === null ? "no die (scores 1)" : `showed ${r.first} × ${r.die.multiplier}`}`),
      ),
    ),
    burstChoices(ctx, candidates, () => {}),
  ];
}

async function rollFirst(ctx, b) {
  const c = ctx.ui.conflict;
  const draft = draftOf(ctx);
  await busy(b, async () => {
    try {
      c.d6 = { bursts: {}, first: await api.mezzoConflictD6First(ctx.gameId, draft, { kind: "rolled" }), error: null };
    } catch (e) {
      c.d6.error = e && e.message ? e.message : String(e);
    }
  });
  ctx.render(c.d6.error ? "#mz-d6-roll-first" : "#mz-bursts");
}

/** What the hand-dice boxes show, as a string: equal strings draw the same boxes. */
function handSignature(ctx) {
  const c = ctx.ui.conflict;
  if (!c.hand || c.approach === "take_median") return "none";
  return JSON.stringify([diceAsked(ctx), c.approach === "d6" ? handBursts(ctx).map((b) => [b, burstChosen(c, b)]) : null]);
}

function handContent(ctx) {
  const c = ctx.ui.conflict;
  c.handSig = handSignature(ctx);
  if (!c.hand || c.approach === "take_median") return [];
  const asked = diceAsked(ctx);
  if (!asked) return [el("p", { class: "muted" }, "The dice show once the votes add up.")];
  if (asked.length === 0) return [el("p", { class: "muted" }, "No option has dice: every option scores 1.")];
  const before = asked.length;
  const boxes = handDice(
    asked,
    "mz-die",
    c.approach === "d6"
      ? "Each die's face, in this order (a burst asks for its reroll)"
      : "Each die's face, option by option, in this order",
    (faces) => {
      c.handValues = faces;
      if (c.approach === "d6" && (diceAsked(ctx).length !== before || handSignature(ctx) !== c.handSig)) {
        c.handSig = null;
        const focused = document.activeElement?.id;
        refreshLive(ctx);
        if (focused) byId(focused)?.focus();
      }
    },
    c.handValues,
  );
  c.read = boxes.read;
  if (c.approach !== "d6") return [boxes.node];
  const redraw = () => {
    c.handSig = null;
    const focused = document.activeElement?.id;
    refreshLive(ctx);
    if (focused) byId(focused)?.focus();
  };
  return [boxes.node, burstChoices(ctx, handBursts(ctx), redraw)];
}

// ---- rendering ---------------------------------------------------------------------------------

/** Fills `host` with the conflict: its set-up and live odds, or its result. */
export function renderConflict(host, ctx) {
  const c = ctx.ui.conflict;
  const t = ctx.table;
  if (c.result) {
    host.append(resultCard(ctx));
    return;
  }
  const open = ctx.ui.openConflict;
  // A phone at a conflict open for votes casts its players' own ballots (DEV-1).
  if (open && ctx.role === "player") {
    host.append(ballotCards(ctx, ballotForm));
    return;
  }
  if (open) followOpen(c, open);
  // With no players at the table yet, the votes come in as the totals the table counted.
  if (t.players.length === 0) c.entry = "totals";
  const first = open
    ? openConflictCard(ctx, el("div", { id: "mz-approach-host", data: { fixed: String(votesCast(c)) } }, approachChoice(ctx)))
    : questionCard(ctx);
  const phones = !open && ctx.role !== "player" && t.players.length > 0 && openForVotesCard(ctx, () => draftOf(ctx));
  host.append(el("div", { class: "mz-conflict-grid" }, first, castsCard(ctx), oddsCard(ctx), resolveCard(ctx), phones));
  schedulePreview(ctx);
}

/** The conflict open for votes is the one set up here: its question, options and who it is about. */
function followOpen(c, open) {
  const sig = JSON.stringify([open.question, open.options, open.about]);
  if (c.openSig === sig) return;
  c.openSig = sig;
  c.question = open.question;
  c.options = [...open.options];
  c.about = [...open.about];
  c.selections = [];
  c.handValues = [];
}

function questionCard(ctx) {
  const c = ctx.ui.conflict;
  const t = ctx.table;
  const question = el("input", { type: "text", id: "mz-question", maxlength: 500, required: true });
  question.value = c.question;
  question.addEventListener("input", () => {
    c.question = question.value;
    schedulePreview(ctx);
  });
  const options = c.options.map((text, i) => {
    const input = el("input", {
      type: "text",
      id: `mz-option-${i}`,
      class: "mz-option-text",
      maxlength: 500,
      data: { focusKey: `mz-option-${i}` },
    });
    input.value = text;
    input.addEventListener("input", () => {
      c.options[i] = input.value;
      relabelOptions(c);
      schedulePreview(ctx);
    });
    // Take Median pre-selects the two ends of the list (RULES.md §3.2, Decision 2026-11-28):
    // the table puts the options in order along the question's spectrum before votes are cast.
    const fixed = votesCast(c);
    return el(
      "li",
      { class: "mz-option", data: { option: String(i) } },
      field(`Option ${i + 1}`, input),
      button("Up", () => moveOption(ctx, i, -1), {
        id: `mz-move-up-${i}`,
        class: "mz-move-option",
        "aria-label": `Up: move option ${i + 1} up the list`,
        disabled: fixed || i === 0,
        data: { focusKey: `mz-move-up-${i}`, edge: String(i === 0) },
      }),
      button("Down", () => moveOption(ctx, i, 1), {
        id: `mz-move-down-${i}`,
        class: "mz-move-option",
        "aria-label": `Down: move option ${i + 1} down the list`,
        disabled: fixed || i === c.options.length - 1,
        data: { focusKey: `mz-move-down-${i}`, edge: String(i === c.options.length - 1) },
      }),
      button("Remove", () => removeOption(ctx, i), {
        class: "mz-remove-option",
        "aria-label": `Remove option ${i + 1}`,
        disabled: c.options.length <= 2,
        data: { focusKey: `mz-remove-option-${i}` },
      }),
    );
  });
  // Every character whose matters the conflict is about (PC against PC: both): each Actor who
  // claimed one of them casts 3 free votes (Creative Control).
  c.about = c.about.filter((id) => t.characters.some((ch) => ch.id === id));
  const aboutChecks = t.characters.map((ch) => {
    const check = checkbox(`The matters of ${ch.name}`, {
      id: `mz-about-${ch.id}`,
      class: "mz-about",
      checked: c.about.includes(ch.id),
      data: { focusKey: `mz-about-${ch.id}` },
    });
    check.box.addEventListener("change", () => {
      c.about = check.box.checked ? [...c.about.filter((id) => id !== ch.id), ch.id] : c.about.filter((id) => id !== ch.id);
      ctx.render();
    });
    return check.node;
  });
  return card(
    "mz-conflict-question",
    "The conflict",
    field("What is disputed", question),
    el("ol", { class: "mz-options", id: "mz-options", "aria-label": "Options" }, ...options),
    el(
      "p",
      { class: "mz-hint muted hint", id: "mz-options-order" },
      votesCast(c)
        ? "The order is fixed now that votes are cast."
        : "List the options from one extreme of the question to the other: Take Median starts with the two ends.",
    ),
    button("Add an option", () => addOption(ctx), { id: "mz-add-option", data: { focusKey: "mz-add-option" } }),
    el("p", { class: "mz-cast-title", id: "mz-about-label" }, "What it is about"),
    listOrNone(t.characters, "Any other matter: no characters in this game yet.", () =>
      el("div", { class: "mz-checks", id: "mz-about", role: "group", "aria-labelledby": "mz-about-label", "aria-describedby": "mz-about-hint" }, ...aboutChecks),
    ),
    el(
      "p",
      { class: "mz-hint muted", id: "mz-about-hint" },
      "Mark every character it is about; none marked: any other matter. An Actor casts 3 free votes when it is about a character they claimed, and none elsewhere.",
    ),
    el("div", { id: "mz-approach-host", data: { fixed: String(votesCast(c)) } }, approachChoice(ctx)),
    sceneCard(t, ctx, "mz-conflict-scene", () => ctx.render()),
  );
}

function addOption(ctx) {
  const c = ctx.ui.conflict;
  if (c.options.length >= MAX_OPTIONS) return;
  c.options.push("");
  c.selections = [];
  ctx.render(`#mz-option-${c.options.length - 1}`);
}

/**
 * Moves option `i` one place up (`by` -1) or down (+1) the list, before any vote is cast
 * (RULES.md §3.2): every cast and mark that names an option follows it.
 */
function moveOption(ctx, i, by) {
  const c = ctx.ui.conflict;
  const j = i + by;
  if (votesCast(c) || j < 0 || j >= c.options.length) return;
  [c.options[i], c.options[j]] = [c.options[j], c.options[i]];
  const swap = (o) => (o === i ? j : o === j ? i : o);
  for (const mine of Object.values(c.casts)) {
    mine.free = mine.free.map(swap);
    for (const part of [mine.law, mine.influence, mine.ff, mine.narration, mine.ill]) part.option = swap(part.option);
  }
  for (const marks of [c.story.traits, c.story.discover]) {
    for (const key of Object.keys(marks)) marks[key] = swap(marks[key]);
  }
  [c.totals[i], c.totals[j]] = [c.totals[j] ?? 0, c.totals[i] ?? 0];
  c.handValues = [];
  c.selections = [];
  // The focus stays on the control just used, on the option's new row (or the other way at an end).
  const way = by < 0 ? "up" : "down";
  const atEnd = by < 0 ? j === 0 : j === c.options.length - 1;
  ctx.render(`#mz-move-${atEnd ? (by < 0 ? "down" : "up") : way}-${j}`);
}

function removeOption(ctx, i) {
  const c = ctx.ui.conflict;
  if (c.options.length <= 2) return;
  c.options.splice(i, 1);
  const shift = (o) => (o === i ? -1 : o > i ? o - 1 : o);
  for (const mine of Object.values(c.casts)) {
    mine.free = mine.free.map(shift);
    for (const part of [mine.law, mine.influence, mine.ff, mine.narration, mine.ill]) {
      const moved = shift(part.option);
      if (moved === -1) {
        part.option = 0;
        if (part === mine.law) part.kind = "";
        if (part === mine.influence) part.points = 0;
        if (part === mine.ff || part === mine.narration || part === mine.ill) part.element = "";
      } else part.option = moved;
    }
  }
  for (const marks of [c.story.traits, c.story.discover]) {
    for (const key of Object.keys(marks)) marks[key] = shift(marks[key]);
  }
  c.totals.splice(i, 1);
  c.handValues = [];
  c.selections = [];
  ctx.render(`#mz-option-${Math.min(i, c.options.length - 1)}`);
}

function castsCard(ctx) {
  const c = ctx.ui.conflict;
  const here = castingHere(ctx);
  const entry =
    ctx.role !== "player" &&
    ctx.table.players.length > 0 &&
    entryChoice("mz", c.entry, (value) => {
      c.entry = value;
      c.handValues = [];
      ctx.render(`#mz-entry-${value}`);
    });
  return card(
    "mz-casts",
    "Votes",
    entry,
    byTotals(ctx) && totalsPart(ctx),
    here.length > 0 &&
      disclosure(
        "What a player casts",
        el("p", { class: "mz-hint muted hint" }, "Each player: free votes, one Setting Law, influence (a vote per point) and Fortune's Favor (2 adversity of an element for a vote). Influence and adversity are paid when the conflict is resolved."),
      ),
    ...here.map((p) => casterSet(p, c, ctx)),
    storyHere(ctx) && storyPart(ctx),
  );
}

/** The story's own votes: an Attractant or Repellent active in the scene, a discovered detail. */
function storyPart(ctx) {
  const c = ctx.ui.conflict;
  const traits = storyTraits(ctx);
  const details = ctx.ui.sources?.discoveries ?? [];
  if (traits.length === 0 && details.length === 0) return null;
  const mark = (marks, key, label, attrs) => {
    const s = optionSelect(c, marks[key] ?? -1, { ...attrs, data: { focusKey: attrs.id } }, true);
    s.addEventListener("change", () => {
      marks[key] = Number(s.value);
      schedulePreview(ctx);
    });
    return field(label, s);
  };
  return el(
    "fieldset",
    { class: "mz-caster", id: "mz-story-votes" },
    el("legend", {}, "Votes from the story"),
    el(
      "div",
      { class: "mz-fields" },
      ...traits.map(({ element, trait }) =>
        mark(
          c.story.traits,
          trait.id,
          `${element.name}'s ${trait.template === "attractant" ? "Attractant" : "Repellent"} “${trait.name}”: a vote where it is ${trait.template === "attractant" ? "present" : "absent"}`,
          { id: `mz-trait-${trait.id}`, class: "mz-trait-vote" },
        ),
      ),
      ...details.map((detail, i) =>
        mark(c.story.discover, detail, `Discovered “${detail}”: an extra vote where it exists`, { id: `mz-discover-${i}`, class: "mz-discover-vote" }),
      ),
    ),
  );
}

/** One stepper per option: the votes the table counted for it (cast on other devices or by hand). */
function totalsPart(ctx) {
  const c = ctx.ui.conflict;
  const mine = ctx.role === "player" && ctx.devicePlayers.length > 0;
  const node = totalSteppers({
    prefix: "mz",
    title: mine ? "The other players' votes, as the table counted them" : "The votes the table counted",
    hint: mine ? "Your own votes go below; the others' votes cost nothing on this device." : "Nothing is paid on this device for counted votes.",
    items: c.options.map((_, i) => ({ label: optionLabel(c, i), value: c.totals[i] ?? 0 })),
    onChange: (i, next) => {
      c.totals[i] = next;
      c.handValues = [];
      ctx.render();
    },
  });
  // The labels follow the options' text as it is typed.
  node.querySelectorAll(".stepper-label").forEach((label, i) => {
    label.dataset.optionLabel = String(i);
  });
  return node;
}

/**
 * `p`'s part of the form: their free votes and every source they may spend (only those they
 * hold). `c` is the conflict's state (its options, and `casts` per player); a phone's ballot
 * passes its own, its ids' prefix and nothing to preview.
 */
function casterSet(p, c, ctx, { has = freeVotes(p, c.about, ctx.ui.active), prefix = "mz", changed = () => schedulePreview(ctx) } = {}) {
  const mine = castsOf(c, p.id);
  const id = (what) => `${prefix}-${what}-${p.id}`;

  const free = [];
  for (let k = 0; k < has; k++) {
    const s = optionSelect(c, mine.free[k] ?? -1, { id: id(`free-${k}`), class: "mz-free", data: { focusKey: id(`free-${k}`) } }, true);
    s.addEventListener("change", () => {
      mine.free[k] = Number(s.value);
      changed();
    });
    free.push(field(has === 1 ? "Free vote" : `Free vote ${k + 1}`, s));
  }

  const lawOption = optionSelect(c, mine.law.option, { id: id("law-option"), data: { focusKey: id("law-option") } });
  const src = ctx.ui.sources ?? { laws: [], themes: [], facts: [], open_hooks: [], victory_votes: [] };
  const law = lawFields(mine.law, {
    id,
    key: "option",
    target: lawOption,
    targetLabel: "On option",
    changed,
    extraLaws: [
      ...src.laws.map((l) => [`custom:${l.id}`, `${l.name} (±1)`]),
      ...src.themes.map((th) => [`theme:${th.by}`, `Theme: ${th.text} (±1)`]),
    ],
    facts: src.facts.map((f) => f.text),
    hooks: src.open_hooks,
  });
  const extraParts = otherSources(p, mine, c, ctx, src, id, changed);

  const points = countInput(mine.influence, "points", p.influence, { id: id("influence-points"), class: "mz-influence-points" }, changed);
  const pointsOption = optionSelect(c, mine.influence.option, { id: id("influence-option"), class: "mz-influence-option" });
  pointsOption.addEventListener("change", () => {
    mine.influence.option = Number(pointsOption.value);
    changed();
  });

  const sources = allElements(ctx.table).filter((e) => e.adversity > 0 || e.id === mine.ff.element);
  let ffPart;
  if (sources.length === 0) {
    ffPart = el("p", { class: "mz-hint muted" }, "Fortune's Favor: no element holds adversity.");
  } else {
    const ffElement = select(
      [["", "None"], ...sources.map((e) => [e.id, `${e.name} (${e.adversity} adversity)`])],
      { id: id("ff-element"), class: "mz-ff-element" },
    );
    ffElement.value = mine.ff.element;
    const ffOption = optionSelect(c, mine.ff.option, { id: id("ff-option"), class: "mz-ff-option" });
    const ffCount = numberInput({ id: id("ff-count"), class: "mz-ff-count", min: 1, value: mine.ff.count });
    const debt = checkbox("Take a shortfall as adversity debt", { id: id("ff-debt"), checked: mine.ff.debt });
    ffElement.addEventListener("change", () => {
      mine.ff.element = ffElement.value;
      changed();
    });
    ffOption.addEventListener("change", () => {
      mine.ff.option = Number(ffOption.value);
      changed();
    });
    ffCount.addEventListener("input", () => {
      const n = wholeNumber(ffCount);
      mine.ff.count = n !== null && n > 0 ? n : 0;
      changed();
    });
    debt.box.addEventListener("change", () => {
      mine.ff.debt = debt.box.checked;
      changed();
    });
    ffPart = castPart("Fortune's Favor", [field("From element", ffElement), field("Votes (2 adversity each)", ffCount), field("For option", ffOption)], debt.node);
  }

  return el(
    "fieldset",
    { class: "mz-caster", data: { playerId: p.id } },
    el("legend", {}, `${p.name}: ${plural(has, "free vote")}, ${p.influence} influence${p.actor ? " (Actor)" : ""}`),
    has === 0
      ? el("p", { class: "mz-hint muted" }, "No free vote: an Actor votes freely only on a claimed character's matters.")
      : el("div", { class: "mz-fields" }, ...free),
    castPart("Setting Law (once per conflict)", law, disclosure("The laws", el("p", { class: "mz-hint muted hint" }, LAW_HINT))),
    castPart("Influence", [field(`Points (of ${p.influence})`, points), field("For option", pointsOption)]),
    ffPart,
    ...extraParts,
  );
}

/** One source of a player's votes on the cast form: its title, its fields side by side, then what goes under them. */
function castPart(title, fields, ...under) {
  return el("div", { class: "mz-cast-part" }, el("p", { class: "mz-cast-title" }, title), el("div", { class: "mz-fields" }, ...fields), ...under);
}

/** A claimed element's votes and debt are its claimer's; an unclaimed one's anyone's. */
const spendsFor = (p, e) => !e.claimed_by || e.claimed_by === p.id;

/** `p`'s Victory Narration votes and Ill Fated debt, shown only when there is some to spend. */
function otherSources(p, mine, c, ctx, src, id, changed) {
  const parts = [];
  const known = new Map(allElements(ctx.table).map((e) => [e.id, e]));
  const banked = src.victory_votes.filter((v) => known.has(v.element) && spendsFor(p, known.get(v.element)));
  const stepper = (part, key, max, attrs) => countInput(part, key, max, attrs, changed);
  const pick = (part, choices, attrs) => elementPick(part, choices, attrs, changed);
  const optionPick = (part, attrs) => {
    const s = optionSelect(c, part.option, attrs);
    s.addEventListener("change", () => {
      part.option = Number(s.value);
      changed();
    });
    return s;
  };
  if (banked.length > 0) {
    const nv = mine.narration;
    parts.push(
      castPart(
        "Victory Narration",
        [
          field("Victor", pick(nv, banked.map((v) => [v.element, `${v.name} (${plural(v.votes, "vote")} bought)`]), { id: id("narration-element"), class: "mz-narration-element" })),
          field("Votes", stepper(nv, "votes", Math.max(...banked.map((v) => v.votes)), { id: id("narration-votes"), class: "mz-narration-votes" })),
          field("For option", optionPick(nv, { id: id("narration-option"), class: "mz-narration-option" })),
        ],
        el("p", { class: "mz-hint muted" }, "Momentum spent on narration when the victor left the challenge: a vote each on an event tied to the victory."),
      ),
    );
  }
  const debtors = allElements(ctx.table).filter((e) => e.adversity_debt > 0 && spendsFor(p, e));
  if (debtors.length > 0) {
    const ill = mine.ill;
    parts.push(
      castPart("Ill Fated", [
        field("Element in debt", pick(ill, debtors.map((e) => [e.id, `${e.name} (${e.adversity_debt} debt)`]), { id: id("ill-element"), class: "mz-ill-element" })),
        field("Debt paid off (a vote each)", stepper(ill, "points", Math.max(...debtors.map((e) => e.adversity_debt)), { id: id("ill-points"), class: "mz-ill-points" })),
        field("For the hostile option", optionPick(ill, { id: id("ill-option"), class: "mz-ill-option" })),
      ]),
    );
  }
  return parts;
}

function oddsCard(ctx) {
  const c = ctx.ui.conflict;
  c.liveSig = liveSignature(c);
  const title = c.approach === "take_median" ? "Take Median, step by step" : `Chances to win (${c.approach === "d6" ? "D6 variant" : "Leave to Chance"})`;
  return card("mz-odds", title, el("div", { id: "mz-odds-body" }, ...oddsContent(ctx)));
}

/** Whether any vote is cast (the approach is then fixed: RULES.md §3.2, "decide before
 * casting votes"). */
const votesCast = (c) => Boolean(c.preview && c.preview.counts.some((n) => n > 0));

/** How the table resolves the conflict: chosen before the votes, fixed once one is cast. */
function approachChoice(ctx) {
  const c = ctx.ui.conflict;
  const fixed = votesCast(c);
  const radios = APPROACHES.map(([value, label, hint]) => {
    const input = el("input", {
      type: "radio",
      name: "mz-approach",
      id: `mz-approach-${value}`,
      value,
      checked: c.approach === value,
      disabled: fixed,
      data: { focusKey: `mz-approach-${value}` },
    });
    input.addEventListener("change", () => {
      if (!input.checked || votesCast(c)) return;
      c.approach = value;
      c.handValues = [];
      ctx.render();
    });
    return el(
      "label",
      { class: "mz-radio", for: input.id },
      input,
      el("span", {}, el("strong", {}, label), el("span", { class: "muted mz-radio-hint" }, ` ${hint}`)),
    );
  });
  return el(
    "fieldset",
    { class: "mz-approaches", id: "mz-approaches" },
    el("legend", {}, "How the table resolves it"),
    ...radios,
    el(
      "p",
      { class: "mz-hint muted", id: "mz-approach-note" },
      fixed ? "Fixed: the votes are cast. Take every vote back to choose again." : "Decided before anyone casts a vote.",
    ),
  );
}

function resolveCard(ctx) {
  const c = ctx.ui.conflict;
  const hand = checkbox("Dice rolled by hand", { id: "mz-hand", checked: c.hand, data: { focusKey: "mz-hand" } });
  hand.box.addEventListener("change", () => {
    c.hand = hand.box.checked;
    ctx.render();
  });
  const median = c.approach === "take_median";
  const d6Rolled = c.approach === "d6" && !c.hand;
  return card(
    "mz-resolve",
    "Resolve",
    c.approach === "d6" &&
      el("p", { class: "mz-hint muted" }, "The odds assume a burst is taken when it raises the expected score; each owner still decides."),
    !median && el("div", { class: "mz-switch" }, hand.node),
    el("div", { id: "mz-hand-host" }, ...handContent(ctx)),
    el("div", { id: "mz-d6-host" }, ...d6FirstContent(ctx)),
    (!d6Rolled || shownFirst(c)) &&
      button(
        median ? "Take the median" : c.hand ? "Resolve with these dice" : d6Rolled ? "Resolve with these choices" : "Roll and resolve",
        (b) => resolve(ctx, b),
        { id: "mz-resolve-submit", class: "primary mz-big-button", disabled: !canResolve(ctx) },
      ),
  );
}

async function resolve(ctx, b) {
  const c = ctx.ui.conflict;
  const draft = draftOf(ctx);
  const dice = handOrRolled(c.hand && c.approach !== "take_median", c.read);
  if (!dice) return;
  const approach =
    c.approach === "take_median"
      ? { kind: "take_median", selections: c.preview.median.steps.map((st) => st.step.selected) }
      : c.approach === "d6"
        ? d6Approach(ctx)
        : { kind: "leave_to_chance" };
  // A conflict open for votes resolves with the ballots kept on the table and the casts made here.
  const open = ctx.ui.openConflict;
  const call = open
    ? () => api.mezzoResolveOpenConflict(ctx.gameId, draftOf(ctx, false, false).casts, approach, dice)
    : () => api.mezzoResolveConflict(ctx.gameId, draft, approach, dice);
  const outcome = await ctx.move("The conflict was not resolved.", call, b);
  if (!outcome) return;
  if (open) ctx.ui.openConflict = null;
  c.result = { result: outcome.result, draft, approach: c.approach };
  c.tieValues = [];
  ctx.ui.lastMoveTag = "conflict";
  ctx.render("#mz-result-heading");
}

/** The D6 choices: the first rolls the app showed (rolled in the app) and the owners' bursts. */
function d6Approach(ctx) {
  const c = ctx.ui.conflict;
  const f = shownFirst(c);
  if (!c.hand && f) {
    const bursts = f.may_burst.filter((option) => burstChosen(c, { option, suggested: f.suggested.includes(option) }));
    return { kind: "d6", first: f.faces, bursts };
  }
  return { kind: "d6", bursts: handBursts(ctx).filter((b) => burstChosen(c, b)).map((b) => b.option) };
}

// ---- the result -----------------------------------------------------------------------------

function resultCard(ctx) {
  const c = ctx.ui.conflict;
  const { result: r, draft } = c.result;
  const name = (i) => quotedOption(draft.options, i);
  const winner = c.tie ? c.tie.winner : r.outcome.winner;
  const tied = r.outcome.tie ?? null;
  // The D6 dice as the core rolled or read them: first roll, burst reroll (null without votes).
  const d6Rolls = r.d6_rolls ? r.d6_rolls.map((roll) => (roll.first === null ? null : roll)) : null;
  const rows = draft.options.map((_, i) => {
    const roll = r.rolls ? r.rolls.options[i] : null;
    const won = winner === i;
    return el(
      "li",
      { class: `mz-result-option${won ? " winner" : ""}${tied && tied.includes(i) ? " tied" : ""}`, data: { option: String(i) } },
      el(
        "div",
        { class: "mz-row" },
        el("strong", { class: "grow" }, `${i + 1}. ${draft.options[i].trim()}`),
        won && el("span", { class: "mz-badge mz-win-badge" }, "Wins"),
        !won && tied && tied.includes(i) && !c.tie && el("span", { class: "mz-badge" }, "Tied"),
      ),
      el(
        "p",
        { class: "mz-result-detail" },
        el("span", {}, plural(r.counts[i], "vote")),
        roll &&
          el(
            "span",
            {},
            ` · ${roll.dice.length === 0 ? "no dice" : diceWords(roll.dice)} · score `,
            el("strong", { class: "mz-score", id: `mz-score-${i}` }, String(roll.score)),
          ),
        r.d6_scores && d6Rolls && d6Rolls[i] && el("span", { id: `mz-d6-faces-${i}` }, ` · ${d6Words(d6Rolls[i])}`),
        r.d6_scores && el("span", {}, " · score ", el("strong", { class: "mz-score", id: `mz-score-${i}` }, String(r.d6_scores[i]))),
      ),
      roll && roll.dice.length > 0 && el("div", { class: "mz-dice" }, ...roll.dice.map((d, k) => dieBadge(d, roll.faces[k], k === bestDie(roll) ? "best" : ""))),
    );
  });
  const how = { leave_to_chance: "Leave to Chance", take_median: "Take Median", d6: "D6 variant" }[c.result.approach];
  return card(
    "mz-result",
    `Resolved: ${draft.question.trim()}`,
    el("p", { class: "muted" }, `By ${how}.`),
    el("p", { class: "mz-summary", id: "mz-summary", role: "status" }, r.summary),
    c.result.approach === "take_median" && medianSteps(r.median, r.outcome, r.counts, draft.options, "mz-median-result", false),
    el("ol", { class: "mz-result-list", id: "mz-result-list" }, ...rows),
    tied && tieArea(ctx, tied, name),
    winner !== undefined &&
      el("p", { class: "mz-winner", id: "mz-winner" }, `${name(winner)} takes effect.`),
    c.compromise && el("p", { class: "mz-winner", id: "mz-compromise-done" }, `Settled by compromise: “${c.compromise}”.`),
    el(
      "div",
      { class: "actions" },
      button("New conflict", () => {
        ctx.ui.conflict = newConflict(ctx.diceByHand, ctx.table?.variant);
        ctx.ui.lastMoveTag = null;
        ctx.render("#mz-question");
      }, { id: "mz-new-conflict", class: tied && !c.tie && !c.compromise ? "" : "primary" }),
    ),
  );
}

/** "d6 showed 1, burst: rerolled 5 × 2" (`roll`: the core's D6Roll). */
function d6Words(roll) {
  const mult = roll.die.multiplier;
  return roll.reroll === null
    ? `d6 showed ${roll.first} × ${mult}`
    : `d6 showed ${roll.first}, burst: rerolled ${roll.reroll} × ${mult + 1}`;
}

/** The die that scored (the first with the highest face). */
function bestDie(roll) {
  let best = -1;
  roll.faces.forEach((f, k) => {
    if (best === -1 || f > roll.faces[best]) best = k;
  });
  return best;
}

function tieArea(ctx, tied, name) {
  const c = ctx.ui.conflict;
  const { draft } = c.result;
  if (c.tie) {
    return el(
      "div",
      { class: "mz-tie", id: "mz-tie" },
      el("h4", {}, "Tie broken with dice"),
      el(
        "ol",
        { class: "mz-tie-rounds", id: "mz-tie-rounds" },
        ...c.tie.rounds.map((round, k) =>
          el(
            "li",
            {},
            `Round ${k + 1}: `,
            round.options.map((o, j) => `${name(o)} ${round.faces[j]}`).join(", "),
            round.outcome.winner !== undefined ? ` — ${name(round.outcome.winner)} wins.` : " — tied again.",
          ),
        ),
      ),
    );
  }
  if (c.compromise) return null;
  const variant = c.result.approach === "d6" ? "d6" : "steps";
  const sides = variant === "d6" ? 6 : 12;
  const hand = checkbox("Dice rolled by hand", { id: "mz-tie-hand", checked: c.tieHand ?? c.hand, data: { focusKey: "mz-tie-hand" } });
  hand.box.addEventListener("change", () => {
    c.tieHand = hand.box.checked;
    ctx.render();
  });
  const rounds = () => {
    // Round after round while the typed faces tie at the top.
    const asked = [];
    let still = tied;
    let at = 0;
    for (let round = 1; round <= 20; round++) {
      for (const o of still) asked.push({ sides, label: `${name(o)}${round > 1 ? `, round ${round}` : ""}` });
      const faces = still.map((_, k) => c.tieValues[at + k]);
      at += still.length;
      if (faces.some((f) => !f || f < 1 || f > sides)) break;
      const top = Math.max(...faces);
      const again = still.filter((_, k) => faces[k] === top);
      if (again.length < 2) break;
      still = again;
    }
    return asked;
  };
  const host = el("div", { id: "mz-tie-dice" });
  let reader = null;
  const drawDice = () => {
    if (!(c.tieHand ?? c.hand)) {
      host.replaceChildren();
      reader = null;
      return;
    }
    const asked = rounds();
    const boxes = handDice(
      asked,
      "mz-tie-die",
      `One ${variant === "d6" ? "d6" : "d12"} per tied option (again while they tie)`,
      (faces) => {
        c.tieValues = faces;
        if (rounds().length !== asked.length) {
          const focused = document.activeElement?.id;
          drawDice();
          if (focused) byId(focused)?.focus();
        }
      },
      c.tieValues,
    );
    reader = boxes.read;
    host.replaceChildren(boxes.node);
  };
  drawDice();
  return el(
    "div",
    { class: "mz-tie", id: "mz-tie" },
    el("h4", {}, "Settle the tie"),
    compromiseForm("mz", async (words, b) => {
      const done = await ctx.move("The compromise was not recorded.", () => api.mezzoCompromise(ctx.gameId, draft.question, words), b);
      if (!done) return;
      c.compromise = words;
      ctx.ui.lastMoveTag = "conflict";
      ctx.render("#mz-compromise-done");
    }),
    el(
      "div",
      { class: "mz-tie-break" },
      el("p", { class: "mz-cast-title" }, `Or break the tie with dice: a ${variant === "d6" ? "d6" : "d12"} per tied option, again while tied.`),
      hand.node,
      host,
      button(
        "Break the tie with dice",
        async (b) => {
          let dice = { kind: "rolled" };
          if (c.tieHand ?? c.hand) {
            const faces = reader ? reader() : null;
            if (faces === null) return;
            dice = { kind: "entered", values: faces };
          }
          const out = await ctx.move("The tie was not broken.", () => api.mezzoBreakTie(ctx.gameId, draft, tied, variant, dice), b);
          if (!out) return;
          c.tie = { rounds: out.rounds, winner: out.winner };
          ctx.ui.lastMoveTag = "conflict";
          ctx.render("#mz-winner");
        },
        { id: "mz-break-tie" },
      ),
    ),
  );
}
