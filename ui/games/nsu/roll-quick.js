// The quick roll (issue 32): a mood, aspect or skill tapped on the sheet opens the roll dialog
// on ONE screen, filled in by the core from what was tapped and the character's last settled
// roll, with the exact odds at once and every choice of RULES.md §1.3 steps 2–6 there to
// change (the odds follow each change). **Roll** rolls the dice and goes straight to the
// table's choices, pre-selected, so **Settle the roll** is the next tap; the result offers
// **Roll again** with the same set-up (roll-result.js). "Step by step" turns the same set-up
// into the wizard (roll.js) for whoever wants each step explained.
//
// The desired outcome (step 1) may be left empty: the roll is then logged with the core's
// "to be written", and its log entry asks for it (log.js).

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { edgeReasonWords, planWords } from "./roll-odds.js";
import { S, attempt, counter, oddsNumbers, radio, render, section, setupOf, sheet, showNotice, stepCount, takePending, takeSetup, w } from "./roll-state.js";
import { ASPECT_WORDS, MOOD_LINE_DICE } from "./words.js";

/** Fills the wizard's state from the core's quick roll for what was tapped (`start`). */
export async function loadQuick(start) {
  const tapped = {
    mood_line: Number.isInteger(start.moodLine) ? start.moodLine : null,
    aspect: start.aspect ?? null,
    skill_line: Number.isInteger(start.skillLine) ? start.skillLine : null,
  };
  const quick = await api.nsuQuickRoll(w.id, tapped);
  w.quick = { outcomeLater: quick.outcome_to_be_written, fromLast: quick.from_last_roll };
  takeSetup(quick.setup);
  w.preview = quick.preview;
  w.previewError = quick.cannot;
  w.fromSheet = true;
  w.step = S.quick;
}

/** The set-up to roll: the fields (`setupOf` sends an empty outcome as "to be written"). */
export const quickSetup = () => setupOf();

/** Leaves the quick screen for the wizard's first step, with everything chosen so far. */
function stepByStep() {
  w.quick = null;
  w.step = S.outcome;
  render();
}

// ---- the screen -------------------------------------------------------------------------------

export function renderQuick() {
  const s = w.setup;
  const sh = sheet();
  const aspects = ["body", "mind", "heart"].map((a) =>
    radio("quick-aspect", a, `${ASPECT_WORDS[a]} ${sh.aspects ? sh.aspects[a] : ""}`.trim(), s.aspect === a, (v) => change(() => (s.aspect = v)), `quick-aspect-${a}`),
  );
  const risks = [
    ["character", "Character"],
    ["world", "World"],
  ].map(([v, label]) => radio("quick-at-risk", v, label, s.atRisk === v, (x) => change(() => (s.atRisk = x)), `quick-at-risk-${v}`));
  const moods = sh.moods
    .map((m, line) => (m ? radio("quick-mood", String(line), `${m.name} d${MOOD_LINE_DICE[line]} · ${m.level}/${MOOD_LINE_DICE[line] + 1}${m.overloaded ? " · overloaded" : ""}`, s.moodLine === line, (v) => change(() => (s.moodLine = Number(v))), `quick-mood-${line}`) : null))
    .filter(Boolean);

  const skill = el(
    "select",
    { id: "quick-skill" },
    el("option", { value: "" }, "No skill"),
    ...sh.skills.flatMap((k, i) => (k ? [el("option", { value: `existing:${i}` }, `${k.name} ±${k.modifier}`)] : [])),
  );
  skill.value = s.skill.startsWith("existing:") ? s.skill : "";
  skill.addEventListener("change", () => change(() => (s.skill = skill.value)));
  const sentiment = el(
    "select",
    { id: "quick-sentiment" },
    el("option", { value: "" }, "No sentiment risked"),
    ...sh.sentiments.flatMap((x, i) => (x && x.state !== "lost" ? [el("option", { value: String(i) }, `${x.name} (${x.state === "at_risk" ? "at risk" : "connected"})`)] : [])),
  );
  sentiment.value = s.sentiment;
  sentiment.addEventListener("change", () => change(() => (s.sentiment = sentiment.value)));
  const outcome = el("input", { type: "text", id: "quick-outcome", maxlength: 2000, autocomplete: "off", "aria-describedby": "quick-outcome-hint" });
  outcome.value = s.outcome;
  outcome.addEventListener("input", () => {
    s.outcome = outcome.value;
  });

  const rollButton = el("button", { type: "button", id: "quick-roll", class: "primary quick-roll", on: { click: rollNow } }, w.handOpen ? "Roll (type in the dice)" : "Roll");
  const node = section(
    "Quick roll",
    el(
      "div",
      { id: "quick-top", class: "quick-top" },
      el("div", { id: "quick-odds", class: "quick-odds", "aria-live": "polite" }),
      el(
        "div",
        { class: "roll-actions quick-actions" },
        rollButton,
        el("button", { type: "button", id: "quick-steps", on: { click: stepByStep } }, "Step by step"),
      ),
    ),
    el("p", { id: "quick-from", class: "muted hint" }, w.quick.fromLast ? "From the sheet and the last roll: change anything, the odds follow." : "From the sheet: change anything, the odds follow."),
    el(
      "div",
      { class: "quick-grid" },
      el("fieldset", { class: "roll-choices", id: "quick-aspects" }, el("legend", {}, "Aspect (the Arbiters choose)"), ...aspects),
      el("fieldset", { class: "roll-choices", id: "quick-risks" }, el("legend", {}, "At risk (the Arbiters choose)"), ...risks),
      el(
        "fieldset",
        { class: "roll-choices", id: "quick-moods" },
        el("legend", {}, "Mood (its level goes up by one)"),
        ...(moods.length ? moods : [el("p", { class: "muted" }, "No mood on the sheet yet: name one step by step.")]),
      ),
      el(
        "fieldset",
        { class: "roll-choices", id: "quick-details" },
        el("legend", {}, "Details that count"),
        quickCounter("quick-adv", "For", "adv"),
        quickCounter("quick-dis", "Against", "dis"),
      ),
    ),
    el("div", { class: "field" }, el("label", { for: "quick-skill" }, "Skill"), skill),
    el("div", { class: "field" }, el("label", { for: "quick-sentiment" }, "Risk a sentiment (mood advantage)"), sentiment),
    el(
      "div",
      { class: "field" },
      el("label", { for: "quick-outcome" }, "Desired outcome"),
      outcome,
      el("p", { id: "quick-outcome-hint", class: "muted roll-hint" }, "Say it at the table; type it now or later on the roll’s log entry."),
    ),
  );
  node.classList.add("quick-roll-screen");
  queueMicrotask(drawOdds);
  return node;
}

/** The quick roll's counter of the details that count `key`, in the output `id`. */
const quickCounter = (id, label, key) => counter(id, label, key, (delta) => change(() => stepCount(id, key, delta)));

// ---- the odds, asked of the core on every change ------------------------------------------------

/** Applies a change to the fields, then asks the core for the odds it gives. */
async function change(apply) {
  apply();
  const serial = ++w.previewSerial;
  try {
    const preview = await api.nsuRollPreview(w.id, quickSetup());
    if (!w || serial !== w.previewSerial) return;
    w.preview = preview;
    w.previewError = null;
  } catch (e) {
    if (!w || serial !== w.previewSerial) return;
    w.preview = null;
    w.previewError = e && e.message ? e.message : String(e);
  }
  drawOdds();
}

function drawOdds() {
  const host = byId("quick-odds");
  const button = byId("quick-roll");
  if (!w || !host || w.step !== S.quick) return;
  button.disabled = !w.preview;
  if (!w.preview) {
    host.replaceChildren(el("p", { class: "roll-warning", id: "quick-cannot" }, w.previewError ?? "This roll cannot be made as it is."));
    return;
  }
  const { plan, odds } = w.preview;
  const reasons = plan.mood_edge_reasons.map(edgeReasonWords);
  const parts = [
    oddsNumbers("quick", odds),
    el("p", { id: "quick-plan", class: "muted quick-plan" }, planWords(plan).slice(0, 2).join(" · ")),
  ];
  if (reasons.length) parts.push(el("p", { id: "quick-rule", class: "roll-rule" }, reasons.join(" ")));
  host.replaceChildren(...parts);
}

// ---- rolling ------------------------------------------------------------------------------------

/** Rolls the dice of the set-up (or, with real dice at the table, asks for them) and goes to the choices. */
async function rollNow() {
  if (!w.preview) return;
  if (w.handOpen) {
    w.step = S.roll;
    render();
    return;
  }
  await rollAgainWith(quickSetup());
}

/**
 * Rolls `setup` in the app and shows the table's choices, pre-selected (also the result's
 * "Roll again"). With real dice at the table it goes to the wizard's dice step instead.
 */
export async function rollAgainWith(setup) {
  showNotice(null);
  if (w.handOpen) {
    const ok = await attempt("The roll could not be set up again.", async () => {
      w.preview = await api.nsuRollPreview(w.id, setup);
    });
    if (!ok) return;
    w.result = null;
    w.step = S.roll;
    render();
    return;
  }
  const ok = await attempt("The dice were not rolled.", async () => {
    takePending(await api.nsuRollDice(w.id, setup, { kind: "rolled" }));
    w.result = null;
  });
  if (ok) render();
}
