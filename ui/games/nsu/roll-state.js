// The NSU roll wizard's state and the parts every step shares (roll.js is the wizard): the
// steps, the wizard's hooks, dialog and state while it is open, the RollSetup its fields
// describe, a roll on the table taken in, and the errors and notices shown inside the dialog.

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { cardBackWords } from "./words.js";

export const STEPS = ["Outcome", "Aspect", "Mood", "Details", "Odds", "Roll", "Help", "Choices", "Result"];
// `S.quick` is the quick roll's one screen (roll-quick.js), outside the wizard's numbered steps.
export const S = { ...Object.fromEntries(STEPS.map((name, i) => [name.toLowerCase(), i])), quick: -1 };
export const EDGE_WORDS = { none: "no edge", advantage: "advantage", disadvantage: "disadvantage" };
export const SIDE_WORDS = { player: "the player", arbiters: "the Arbiters", tie: "both sides (a tie)" };

export let app = null; // {run, toast, refresh}
export let dialog = null;
export let w = null; // the wizard's state while it is open
let draw = null; // draws the current step (roll.js: it knows every step)

/** Once, from roll.js: the app's hooks, the wizard's dialog and how a step is drawn. */
export function setHooks(hooks, node, drawStep) {
  app = hooks;
  dialog = node;
  draw = drawStep;
}

/** The wizard's state: set when it opens, null once it closes. */
export function setWizard(state) {
  w = state;
}

/** Draws the wizard's current step again (after any change a step makes). */
export function render() {
  draw();
}

/**
 * A roll started from the sheet: the mood, aspect or skill tapped there is filled in. The
 * wizard starts at the desired outcome (the player says it first); the later steps show what
 * was filled in, and can change it.
 */
export function prefill(start) {
  const s = w.setup;
  if (Number.isInteger(start.moodLine) && sheet().moods[start.moodLine]) s.moodLine = start.moodLine;
  if (start.aspect) s.aspect = start.aspect;
  if (Number.isInteger(start.skillLine) && sheet().skills[start.skillLine]) s.skill = `existing:${start.skillLine}`;
  w.fromSheet = s.moodLine !== null || s.aspect !== null || s.skill !== "";
}

/** A roll on the table: its setup becomes the wizard's, and the choices come next. */
export function takePending(pending) {
  w.pending = pending;
  takeSetup(pending.roll.setup);
  w.choices = { ...pending.choices };
  w.scout = pending.roll.setup.scout ?? null;
  w.scoutWords = w.scout ? scoutWordsOf(w.scout) : null;
  w.needs = [];
  w.needIndex = -1;
  w.step = S.choices;
}

/** A RollSetup from the core (a roll on the table, or a quick roll's) becomes the fields'. */
export function takeSetup(s) {
  Object.assign(w.setup, {
    outcome: s.desired_outcome,
    aspect: s.aspect,
    atRisk: s.at_risk,
    moodLine: s.mood.line,
    moodName: s.mood.kind === "new" ? s.mood.name : "",
    adv: s.aspect_advantages,
    dis: s.aspect_disadvantages,
    skill: s.skill ? `${s.skill.kind}:${s.skill.line}` : "",
    skillName: s.skill && s.skill.kind === "new" ? s.skill.name : "",
    sentiment: s.risked_sentiment === null ? "" : String(s.risked_sentiment),
  });
  // A quick roll's outcome left to write later shows as an empty field again.
  if (w.quick && s.desired_outcome === w.quick.outcomeLater) w.setup.outcome = "";
}

/** A card's back in words, inside a sentence ("the face-down card …"). */
export const inSentence = (words) => (words ? words.replace(/^Face-down card/, "the face-down card") : "the card");

/** A scouted card by its back and place (the world as this device sees it). */
function scoutWordsOf(location) {
  const card = w.world ? w.world.locations.find((l) => l.id === location) : null;
  return card ? cardBackWords(card) : "a face-down card";
}

export async function loadHelperSheet() {
  const helper = w.pending && w.pending.helper;
  w.helperSheet = helper ? (await api.nsuSheet(helper.id)).sheet : null;
}

export const sheet = () => w.view.sheet;
export const locked = () => w.pending !== null || w.result !== null;

/** The RollSetup the wizard's fields describe (what every preview and roll sends). */
export function setupOf() {
  const s = w.setup;
  const line = s.moodLine;
  const mood =
    line === null
      ? null
      : sheet().moods[line]
        ? { kind: "existing", line }
        : { kind: "new", line, name: s.moodName.trim() };
  let skill = null;
  if (s.skill !== "") {
    const [kind, at] = s.skill.split(":");
    skill = kind === "existing" ? { kind, line: Number(at) } : { kind: "new", line: Number(at), name: s.skillName.trim() };
  }
  // A quick roll's outcome left empty is logged as the core's "to be written" (roll-quick.js).
  const later = w.quick && s.outcome.trim() === "";
  return {
    desired_outcome: later ? w.quick.outcomeLater : s.outcome,
    aspect: s.aspect,
    at_risk: s.atRisk,
    mood,
    aspect_advantages: s.adv,
    aspect_disadvantages: s.dis,
    skill,
    risked_sentiment: s.sentiment === "" ? null : Number(s.sentiment),
    ...(w.scout ? { scout: w.scout } : {}),
  };
}

/** What is still missing before a step can be left, or null. */
export function missing(step) {
  const s = w.setup;
  if (step === S.outcome && s.outcome.trim() === "") return "Say what the player wants to happen.";
  if (step === S.aspect && (!s.aspect || !s.atRisk)) return "The Arbiters choose an aspect and what is at risk.";
  if (step === S.mood) {
    if (s.moodLine === null) return "Choose a mood, or an empty line for a new one.";
    if (!sheet().moods[s.moodLine] && s.moodName.trim() === "") return "Name the new mood.";
  }
  if (step === S.details && s.skill.startsWith("new:") && s.skillName.trim() === "") return "Name the new skill.";
  return null;
}

// ---- errors and notices -------------------------------------------------------------------

export function showError(title, e) {
  const box = byId("roll-error");
  const message = e && typeof e.message === "string" ? e.message : String(e);
  box.replaceChildren(el("strong", {}, title), " ", message);
  box.hidden = false;
}

export function clearError() {
  byId("roll-error").hidden = true;
}

/** Runs one api step; a failure is shown inside the dialog (the page's error area is behind it). */
export async function attempt(title, action) {
  clearError();
  try {
    await action();
    return true;
  } catch (e) {
    showError(title, e);
    return false;
  }
}

/** A status line inside the dialog, with Undo when `undo` is given (the app's toast is behind the dialog). */
export function showNotice(message, undo = null) {
  const box = byId("roll-notice");
  if (message === null) {
    box.hidden = true;
    return;
  }
  const parts = [el("span", {}, message)];
  if (undo) parts.push(el("button", { type: "button", id: "roll-notice-undo", on: { click: undo } }, "Undo"));
  box.replaceChildren(...parts);
  box.hidden = false;
}

// ---- the parts of every step ------------------------------------------------------------------

export const radio = (name, value, label, checked, onPick, id) => {
  const input = el("input", { type: "radio", name, value, id, checked });
  input.addEventListener("change", () => input.checked && onPick(value));
  return el("label", { class: "roll-option", for: id }, input, el("span", {}, label));
};

export function section(title, ...children) {
  return el("div", { class: "roll-step" }, el("h3", {}, title), ...children);
}

export const pct = (p) => `${(p * 100).toFixed(1)}%`;

const ODDS_WORDS = [["win", "Win"], ["tie", "Tie"], ["lose", "Lose"]];

/** The chances to win, tie and lose, each in a `strong` with the id `${prefix}-odds-win` (tie, lose). */
export const oddsNumbers = (prefix, odds) =>
  el(
    "div",
    { class: "roll-odds-numbers" },
    ...ODDS_WORDS.map(([key, word]) =>
      el("p", { class: `roll-odds-${key}` }, el("span", {}, word), el("strong", { id: `${prefix}-odds-${key}` }, pct(odds[key]))),
    ),
  );

/** Adds `delta` to the set-up's count `key` (kept within 0 to 20) and shows it in the output `id`. */
export function stepCount(id, key, delta) {
  w.setup[key] = Math.max(0, Math.min(20, w.setup[key] + delta));
  const value = byId(id);
  if (value) value.textContent = String(w.setup[key]);
}

/** A −/+ counter showing the set-up's count `key` in the output `id`; its buttons `step(-1)` and `step(1)`. */
export function counter(id, label, key, step) {
  return el(
    "div",
    { class: "roll-counter" },
    el("span", { class: "roll-counter-label", id: `${id}-label` }, label),
    el("button", { type: "button", id: `${id}-minus`, "aria-label": `One fewer: ${label}`, on: { click: () => step(-1) } }, "−"),
    el("output", { id, class: "roll-count", "aria-live": "polite" }, String(w.setup[key])),
    el("button", { type: "button", id: `${id}-plus`, "aria-label": `One more: ${label}`, on: { click: () => step(1) } }, "+"),
  );
}

/** The chosen skill's name (an existing line's, or the one typed for a new line). */
export function skillNameOf(s) {
  const [kind, at] = s.skill.split(":");
  return kind === "existing" ? sheet().skills[Number(at)].name : s.skillName.trim();
}
