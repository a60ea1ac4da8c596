// The NSU roll wizard's odds: the plan and exact odds the core previews on every change
// (shown under the details and on the odds step), with the helper's die and its edge.

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { EDGE_WORDS, S, oddsNumbers, pct, section, setupOf, sheet, skillNameOf, w } from "./roll-state.js";
import { ASPECT_WORDS, AT_RISK_WORDS, quoted } from "./words.js";

// ---- the preview (plan and odds), recomputed on every change ---------------------------------

async function loadPreview() {
  const serial = ++w.previewSerial;
  const setup = setupOf();
  if (!setup.aspect || !setup.at_risk || !setup.mood || setup.desired_outcome.trim() === "") {
    w.preview = null;
    w.previewError = null;
    return false;
  }
  try {
    const helping = w.helperDie !== "";
    const preview = await api.nsuRollPreview(w.id, setup, helping ? w.helperDie : null, helping ? w.helperEdge : null);
    if (!w || serial !== w.previewSerial) return false;
    w.preview = preview;
    w.previewError = null;
  } catch (e) {
    if (!w || serial !== w.previewSerial) return false;
    w.preview = null;
    w.previewError = e && e.message ? e.message : String(e);
  }
  return true;
}

function oddsLine(odds) {
  return `Win ${pct(odds.win)} · Tie ${pct(odds.tie)} · Lose ${pct(odds.lose)}`;
}

export function edgeReasonWords(reason) {
  if (reason.kind === "risked_sentiment") {
    const s = sheet().sentiments[reason.line];
    return `Mood advantage: the sentiment ${s ? quoted(s.name) : ""} is risked.`;
  }
  if (reason.kind === "acting_with_overloaded_mood") {
    return "Overload rule: acting with the overloaded mood gives mood advantage.";
  }
  const m = sheet().moods[reason.line];
  return (
    `Overload rule: ${m ? quoted(m.name) : "another mood"} is overloaded, so acting with another mood gives mood ` +
    "disadvantage; that overload ends whoever wins (win: its level is cleared; lose: mark a sentiment; tie: both)."
  );
}

export async function refreshPlan() {
  if (!w || w.step !== S.details) return;
  await loadPreview();
  if (!w || w.step !== S.details) return;
  const edge = byId("roll-mood-edge");
  const rule = byId("roll-overload-rule");
  const mini = byId("roll-odds-mini");
  if (!edge) return;
  if (!w.preview) {
    edge.textContent = "";
    rule.hidden = true;
    mini.textContent = w.previewError ?? "";
    return;
  }
  const plan = w.preview.plan;
  edge.textContent = `Mood die: ${EDGE_WORDS[plan.mood_edge]}`;
  const reasons = plan.mood_edge_reasons.map(edgeReasonWords);
  rule.textContent = reasons.join(" ");
  rule.hidden = reasons.length === 0;
  mini.textContent = `Odds now: ${oddsLine(w.preview.odds)}`;
}

export function planWords(plan) {
  const s = w.setup;
  const aspect = `${ASPECT_WORDS[s.aspect]} ${plan.aspect_die}`;
  const mood = s.moodLine !== null && sheet().moods[s.moodLine] ? sheet().moods[s.moodLine].name : s.moodName.trim();
  const playerHolds = s.atRisk === "character" ? "aspect" : "mood";
  const items = [
    `${aspect} (aspect die): ${EDGE_WORDS[plan.aspect_edge]}${plan.aspect_edge !== "none" ? ", rolled twice" : ""}`,
    `${quoted(mood)} ${plan.mood_die} (mood die): ${EDGE_WORDS[plan.mood_edge]}${plan.mood_edge !== "none" ? ", rolled twice" : ""}`,
    `${AT_RISK_WORDS[s.atRisk]} at risk: the player wins with the higher ${playerHolds} die`,
  ];
  if (s.skill !== "") items.push(`Skill ${quoted(skillNameOf(s))} ±${plan.skill_modifier}: the player adds or subtracts it from the aspect die`);
  return items;
}

/**
 * The edge of a helper's die: it follows the overload rules (RULES.md §1.3 step 7). The options
 * are short enough to show whole on a phone; the hint under them (`edgeHint`) says when each applies.
 */
export function edgeSelect(id, value) {
  const select = el(
    "select",
    { id, "aria-describedby": `${id}-hint` },
    el("option", { value: "none" }, "No edge"),
    el("option", { value: "advantage" }, "Advantage"),
    el("option", { value: "disadvantage" }, "Disadvantage"),
  );
  select.value = value;
  return select;
}

/** When each edge of `edgeSelect(id)` applies, under it. */
export const edgeHint = (id) =>
  el(
    "p",
    { class: "muted edge-hint", id: `${id}-hint` },
    "No edge unless they are overloaded. Advantage: they help with their overloaded mood. Disadvantage: they help with another mood while overloaded.",
  );

export function renderOdds() {
  const helper = el(
    "select",
    { id: "roll-helper-die" },
    el("option", { value: "" }, "Nobody helps"),
    ...["d4", "d6", "d8"].map((d) => el("option", { value: d }, `Someone helps with a ${d}`)),
  );
  helper.value = w.helperDie;
  const edge = edgeSelect("roll-helper-edge", w.helperEdge);
  const edgeField = el("div", { class: "field", hidden: w.helperDie === "" }, el("label", { for: "roll-helper-edge" }, "Their die’s edge (from their overload)"), edge, edgeHint("roll-helper-edge"));
  helper.addEventListener("change", () => {
    w.helperDie = helper.value;
    edgeField.hidden = w.helperDie === "";
    refreshOdds();
  });
  edge.addEventListener("change", () => {
    w.helperEdge = edge.value;
    refreshOdds();
  });
  return section(
    "The exact odds",
    el("div", { id: "roll-odds", class: "roll-odds", "aria-live": "polite" }),
    el("div", { class: "field" }, el("label", { for: "roll-helper-die" }, "If someone helps (their die, used when it helps)"), helper),
    edgeField,
  );
}

export async function refreshOdds() {
  if (!w || w.step !== S.odds) return;
  await loadPreview();
  if (!w || w.step !== S.odds) return;
  const host = byId("roll-odds");
  if (!host) return;
  const nextButton = byId("roll-next");
  if (!w.preview) {
    host.replaceChildren(el("p", { class: "roll-warning", id: "roll-cannot" }, w.previewError ?? "Finish the earlier steps first."));
    nextButton.hidden = true;
    return;
  }
  nextButton.hidden = false;
  nextButton.textContent = "Go to the dice";
  const { plan, odds } = w.preview;
  host.replaceChildren(
    el("ul", { class: "roll-plan" }, ...planWords(plan).map((t) => el("li", {}, t))),
    oddsNumbers("roll", odds),
    marginChart(odds.margin),
  );
}

/** One bar per signed margin; the heights are set through the CSSOM (the CSP allows it). */
function marginChart(margin) {
  const top = Math.max(...margin.map(([, p]) => p), 0) || 1;
  const bars = margin.map(([m, p]) => {
    const bar = el("div", { class: `roll-bar ${m > 0 ? "win" : m < 0 ? "lose" : "tie"}` });
    bar.style.height = `${Math.max((p / top) * 100, p > 0 ? 2 : 0)}%`;
    const words = m === 0 ? "Tie" : m > 0 ? `Win by ${m}` : `Lose by ${-m}`;
    return el(
      "div",
      { class: "roll-bar-col", role: "img", "aria-label": `${words}: ${pct(p)}`, title: `${words}: ${pct(p)}` },
      el("div", { class: "roll-bar-track" }, bar),
      el("span", { class: "roll-bar-label", "aria-hidden": "true" }, m > 0 ? `+${m}` : String(m)),
    );
  });
  return el(
    "figure",
    { class: "roll-chart" },
    el("div", { id: "roll-odds-chart", class: "roll-bars" }, ...bars),
    el("figcaption", { class: "muted" }, "The player’s margin: lose by … (left) to win by … (right)."),
  );
}
