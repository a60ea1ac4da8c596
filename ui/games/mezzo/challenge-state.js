// The Mezzo challenge tab's state and readings: the words for its results and phases, the tab's
// state with the challenge read from the core, a move played, and the table read for a
// challenger's flaws, wounds and status.

import * as api from "./api.js";
import { allElements, templateName } from "./kit.js";

/** The player id a move names when the element has no claimer (anyone may act for it). */
export const NOBODY = "00000000-0000-0000-0000-000000000000";

export const CHANCES = [
  ["negligible", "Negligible (0 votes)"],
  ["occasional", "Occasional (1 vote)"],
  ["common", "Common (2 votes)"],
];

/** The perks: [value, name, major, what it does]. */
export const PERKS = [
  ["hinder", "Hinder", false, "a Dulled Edge or Impaired Ability flaw, One-Shot and Transient"],
  ["recover", "Recover", false, "removes a One-Shot, Transient flaw gained in this challenge"],
  ["discover", "Discover", false, "the acting challenger finds something useful"],
  ["expose", "Expose", false, "a Vulnerability flaw, One-Shot and Transient"],
  ["bind", "Bind", true, "a Restraint flaw, Transient"],
  ["break_free", "Break Free", true, "removes a Transient restraint for a minor flaw"],
  ["damage", "Damage", true, "a new wound, or 2 extras on a wound"],
  ["heal", "Heal", true, "a wound gained in this challenge loses up to 2 extras or turns One-Shot"],
  ["push", "Push", true, "a goal of the actor's side gains a trump"],
  ["ruin", "Ruin", true, "another side's goal loses a trump"],
];
export const perkName = (value) => (PERKS.find(([v]) => v === value) ?? [null, value])[1];

export const MINOR_FLAWS = [
  ["impaired_ability", "Impaired Ability"],
  ["dulled_edge", "Dulled Edge"],
];
export const WOUND_FLAWS = [...MINOR_FLAWS, ["vulnerability", "Vulnerability"]];
export const WOUND_EXTRAS = [
  ["corrosive_wound", "Corrosive Wound"],
  ["targeted_wound", "Targeted Wound"],
  ["pervasive_wound", "Pervasive Wound"],
  ["vicious_wound", "Vicious Wound"],
];

export const RESULT_WORDS = {
  double_success: "at least double: 2 major perks",
  success: "higher: 1 major perk",
  tie: "tied: 1 minor perk",
  failure: "lower: no perk, 1 adversity",
};

const WHY_WORDS = {
  surrender: "surrendered",
  no_opponents: "no opponent left",
  withdrawal: "Victorious Withdrawal",
  exile: "Defeated Exile",
  locked_out: "every die locked out",
  taken_out: "taken out by a wound",
};

export const PHASE_WORDS = {
  rounds: "major actions",
  perks: "perks being resolved",
  departure: "challengers leaving",
  over: "over",
};

// ---- state and loading ------------------------------------------------------------------------

export function newDraft() {
  return { description: "", sides: [{ name: "" }, { name: "" }], sideOf: {}, stakeOf: {}, supporters: {} };
}

export function state(ctx) {
  ctx.ui.challengeUi = ctx.ui.challengeUi ?? {
    loadedFor: null,
    loaded: false,
    challenge: null,
    pending: null,
    draft: newDraft(),
    starting: false, // the start form is shown below a finished challenge
    major: newMajor(ctx.diceByHand),
    perk: newPerk(),
    rr: { element: "" },
  };
  return ctx.ui.challengeUi;
}

/** A major action's form; with the game's "roll real dice" preference it starts with every die typed in. */
export function newMajor(byHand = false) {
  return {
    description: "",
    actors: {}, // id → {on, chance, major}
    failure: { on: true, chance: "occasional" },
    mode: byHand ? "dice" : "rolled", // "rolled" | "dice" | "scores"
    preview: null,
    previewFor: null,
    previewError: null,
    values: [],
    scores: {},
  };
}

export function newPerk() {
  return { kind: "", target: "", template: "", targetTrait: "", name: "", detail: "", wound: "new", extras: [], expend: [], takesOut: false, restraint: "", effect: "one_shot", healExtras: [], goal: "" };
}

/** Reads the challenge (and a rolled check waiting) when the table changed, then redraws. */
export async function load(ctx, s) {
  const table = ctx.table;
  s.loadedFor = table;
  await ctx.run("The challenge could not be loaded.", async () => {
    const [challenge, pending, plot] = await Promise.all([api.mezzoChallenge(ctx.gameId), api.mezzoCheckPending(ctx.gameId), api.mezzoPlot(ctx.gameId)]);
    if (s.loadedFor !== table) return;
    s.challenge = challenge;
    s.pending = pending;
    s.noEscape = plot?.no_escape ?? [];
    s.loaded = true;
    if (ctx.ui.tab === "challenge") ctx.render();
  });
}

/**
 * One challenge move through ctx.move: `call` resolves with {change, challenge}; the challenge
 * it carries is kept with the table it came with (no second read).
 */
export async function play(ctx, title, call, b, after = null) {
  const s = state(ctx);
  const result = await ctx.move(
    title,
    () =>
      call().then((r) => {
        if (r && r.change) {
          s.challenge = r.challenge ?? null;
          s.loadedFor = r.change.view;
          if (after) after(r);
        }
        return r;
      }),
    b,
  );
  return result;
}

export const playMove = (ctx, title, draft, b, after = null) =>
  play(ctx, title, () => api.mezzoChallengePlay(ctx.gameId, draft), b, after);

// ---- reading the table --------------------------------------------------------------------------

export const elementOf = (ctx, id) => allElements(ctx.table).find((e) => e.id === id) ?? null;
export const nameOf = (ctx, id) => state(ctx).challenge?.names?.[id] ?? elementOf(ctx, id)?.name ?? "An element";
const modifiersOf = (e, id) => e.traits.filter((t) => t.kind === "modifier" && t.target_trait === id);
export const extrasOf = (e, id) => e.traits.filter((t) => t.kind === "extra" && t.target_trait === id);
export const hasModifier = (e, id, template) => modifiersOf(e, id).some((m) => m.template === template);
export const flawsOf = (e) => (e ? e.traits.filter((t) => t.kind === "flaw") : []);
export const woundsOf = (e) => flawsOf(e).filter((f) => hasModifier(e, f.id, "wound"));
export const restraintsOf = (e) => flawsOf(e).filter((f) => f.template === "restraint");
export const oneShotsOf = (e) => flawsOf(e).filter((f) => hasModifier(e, f.id, "one_shot"));
export const fleeting = (e, f) => hasModifier(e, f.id, "one_shot") && hasModifier(e, f.id, "transient_flaw");

/** "Twisted Ankle (Impaired Ability · Wound · Transient Flaw)". */
export function flawWords(e, f) {
  const parts = [f.template && templateName(f.template), ...modifiersOf(e, f.id).map((m) => m.name), ...extrasOf(e, f.id).map((x) => x.name)];
  const more = parts.filter(Boolean);
  return more.length > 0 ? `${f.name} (${more.join(" · ")})` : f.name;
}

export function statusWords(c) {
  if (c.status === "in") return "In";
  const how = c.how === "victory" ? "victory" : "defeat";
  const why = WHY_WORDS[c.why] ?? c.why;
  return c.status === "leaving" ? `Leaving in ${how} (${why})` : `Left in ${how} (${why})`;
}

export const sideLabel = (ch, i) => {
  const name = ch.sides[i]?.name ?? "";
  return name ? `Side ${i + 1}: ${name}` : `Side ${i + 1}`;
};
