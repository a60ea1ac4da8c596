// The NSU roll wizard's choices: the player's choices for the rolled dice, then each thing
// the mood effects ask for (a final box, an overload's end, a scout's details), and settling.

import { el } from "../../kit/dom.js";
import * as api from "./api.js";
import { cancelButton, helpRolls, helperName, tableWords } from "./roll-dice.js";
import {
  S,
  SIDE_WORDS,
  app,
  attempt,
  inSentence,
  radio,
  render,
  section,
  sheet,
  showError,
  skillNameOf,
  w,
} from "./roll-state.js";
import { quoted } from "./words.js";

// ---- choices and needs ----------------------------------------------------------------------

export const isLastChoiceScreen = () => w.needIndex >= 0 && w.needIndex === w.needs.length - 1;

export function renderChoices() {
  if (w.needIndex >= 0) return renderNeed(w.needs[w.needIndex]);
  const roll = w.pending.roll;
  const plan = roll.plan;
  const ch = w.choices;
  const groups = [];
  const who = (edge) => (edge === "advantage" ? "the player chooses (advantage)" : "the Arbiters choose (disadvantage)");
  // Which of two dice counts: the player picks with advantage, the Arbiters with disadvantage.
  const kept = (which, rolls, die, edge, key) =>
    el(
      "fieldset",
      { class: "roll-choices", id: `choice-${which}` },
      el("legend", {}, `Which ${which} die counts — ${who(edge)}`),
      ...rolls.flatMap((v, i) => [
        radio(`choice-${which}`, String(i), `${die} showing ${v}`, (ch[key] ?? 0) === i, (x) => {
          ch[key] = Number(x);
          showKeptResults();
        }, `choice-${which}-${i}`),
        el("p", { class: "kept-result hint", id: `choice-${which}-${i}-result`, data: { key, kept: String(i) } }),
      ]),
    );
  if (roll.aspect_rolls.length > 1) groups.push(kept("aspect", roll.aspect_rolls, plan.aspect_die, plan.aspect_edge, "aspect_kept"));
  if (roll.mood_rolls.length > 1) groups.push(kept("mood", roll.mood_rolls, plan.mood_die, plan.mood_edge, "mood_kept"));
  if (roll.setup.skill) {
    groups.push(
      el(
        "fieldset",
        { class: "roll-choices", id: "choice-skill" },
        el("legend", {}, `Skill ${quoted(skillNameOf(w.setup))} (${plan.skill_modifier}): the player adds or subtracts it from the aspect die`),
        radio("choice-skill", "plus", `Add ${plan.skill_modifier}`, ch.skill_sign === "plus", (x) => {
          ch.skill_sign = x;
          showKeptResults();
        }, "choice-skill-plus"),
        el("p", { class: "kept-result hint", id: "choice-skill-plus-result", data: { key: "skill_sign", kept: "plus" } }),
        radio("choice-skill", "minus", `Subtract ${plan.skill_modifier}`, ch.skill_sign === "minus", (x) => {
          ch.skill_sign = x;
          showKeptResults();
        }, "choice-skill-minus"),
        el("p", { class: "kept-result hint", id: "choice-skill-minus-result", data: { key: "skill_sign", kept: "minus" } }),
      ),
    );
  }
  if (roll.help && roll.help.second !== undefined && roll.help.second !== null) {
    groups.push(kept("helper", helpRolls(roll.help), roll.help.die, roll.help.edge, "helper_kept"));
  }
  if (roll.help) {
    const box = el("input", { type: "checkbox", id: "choice-helper-die", checked: ch.use_helper_die });
    box.addEventListener("change", () => {
      ch.use_helper_die = box.checked;
      showKeptResults();
    });
    const name = helperName();
    groups.push(
      el(
        "fieldset",
        { class: "roll-choices" },
        el("legend", {}, "The player chooses"),
        el(
          "label",
          { class: "roll-option", for: "choice-helper-die" },
          box,
          el("span", {}, `Use ${name}’s ${roll.help.die} (${helpRolls(roll.help)[ch.helper_kept ?? 0]}) in place of the mood die (${roll.mood_rolls[ch.mood_kept ?? 0]})`),
        ),
      ),
    );
  }
  if (groups.length === 0) groups.push(el("p", { class: "muted" }, "Nothing to choose: every die was rolled once."));
  // Drawn, then filled in: the results follow every choice as it changes.
  queueMicrotask(showKeptResults);
  return section(
    "The table’s choices",
    el("p", { id: "roll-table" }, tableWords()),
    el("p", { class: "muted hint" }, "Pre-selected: what is best for whoever makes each choice."),
    el("div", { id: "roll-choices" }, ...groups),
    el("p", { class: "kept-now hint", id: "roll-kept-now", role: "status" }),
    cancelButton(),
  );
}

// ---- what each way of counting the dice comes to (issue 34) ----------------------------------

/** The core's result for these choices (every way of counting is listed once). */
function keptResult(choices) {
  const same = (a, b) => (a ?? null) === (b ?? null);
  return (w.pending.kept_results || []).find(
    (r) =>
      same(r.aspect_kept, choices.aspect_kept) &&
      same(r.mood_kept, choices.mood_kept) &&
      r.skill_sign === choices.skill_sign &&
      same(r.helper_kept, choices.helper_kept) &&
      r.use_helper_die === Boolean(choices.use_helper_die),
  );
}

const resultWords = (r) =>
  r.winner === "tie" ? "a tie" : `${SIDE_WORDS[r.winner]} ${r.winner === "player" ? "wins" : "win"} by ${r.difference}`;

/**
 * Beside each choice, under the rules hints: the result with that choice and the others as
 * they stand ("→ the player wins by 2"); below them, the result of the choices as they are.
 */
function showKeptResults() {
  if (!w || !w.pending || w.needIndex >= 0) return;
  // The wizard's choices start as the core's (null where one die leaves nothing to keep), in
  // the shape the results are listed in.
  const now = w.choices;
  for (const line of document.querySelectorAll("#roll-choices .kept-result")) {
    const { key, kept } = line.dataset;
    const r = keptResult({ ...now, [key]: key === "skill_sign" ? kept : Number(kept) });
    line.textContent = r ? `→ ${resultWords(r)} (${r.aspect_total} against ${r.mood_used})` : "";
  }
  const total = document.getElementById("roll-kept-now");
  const r = keptResult(now);
  if (total) total.textContent = r ? `With these choices: ${resultWords(r)} (${r.aspect_total} against ${r.mood_used}).` : "";
}

function sentimentSelect(id, sheetOf, lines, current) {
  const select = el(
    "select",
    { id },
    ...lines.map((line) => {
      const s = sheetOf ? sheetOf.sentiments[line] : null;
      const text = s ? `${s.name} (${s.state === "at_risk" ? "at risk" : s.state})` : `Sentiment line ${line + 1}`;
      return el("option", { value: String(line) }, text);
    }),
  );
  if (current !== null && current !== undefined && lines.includes(current)) select.value = String(current);
  return select;
}

function renderNeed(need) {
  const counter = el("p", { class: "muted" }, `Question ${w.needIndex + 1} of ${w.needs.length}`);
  if (need.kind === "scout") {
    const pick = (v) => {
      w.inputs.scout = v === "look";
    };
    const current = w.inputs.scout;
    return section(
      "The scouting was not won",
      counter,
      el("p", {}, `${w.name} did not win the roll scouting ${inSentence(w.scoutWords)}. The player chooses:`),
      el(
        "fieldset",
        { class: "roll-choices", id: "choice-scout" },
        el("legend", {}, "Press on, or go home"),
        radio("choice-scout", "look", "Accept the details and look at the card (privately)", current === true, pick, "choice-scout-look"),
        radio("choice-scout", "back", "Reject the details and turn back: see nothing", current === false, pick, "choice-scout-back"),
      ),
    );
  }
  if (need.kind === "final_box") {
    const helper = need.who === "helper";
    const key = helper ? "helperFinalBox" : "finalBox";
    const current = w.inputs[key] ?? { sentiment_line: need.sentiments[0] ?? null, new_name: "" };
    w.inputs[key] = current;
    const name = el("input", { type: "text", id: "final-box-name", maxlength: 200 });
    name.value = current.new_name;
    name.addEventListener("input", () => {
      current.new_name = name.value;
    });
    const whoNames = need.renamed_by === "tie" ? "Both sides (a tie) name" : `The winning side (${SIDE_WORDS[need.renamed_by]}) names`;
    const owner = helper ? (w.pending.helper ? w.pending.helper.name : "the helper") : w.name;
    const parts = [
      counter,
      el("p", {}, `${owner}’s mood ${quoted(need.mood)} filled its last box: its level goes back to 0.`),
      el("div", { class: "field" }, el("label", { for: "final-box-name" }, `${whoNames} the mood’s more intense form`), name),
    ];
    if (need.sentiments.length > 0) {
      const sel = sentimentSelect("final-box-sentiment", helper ? w.helperSheet : sheet(), need.sentiments, current.sentiment_line);
      current.sentiment_line = Number(sel.value);
      sel.addEventListener("change", () => {
        current.sentiment_line = Number(sel.value);
      });
      parts.push(el("div", { class: "field" }, el("label", { for: "final-box-sentiment" }, `Which sentiment ${helper ? "that player" : "the player"} marks one step`), sel));
    } else {
      current.sentiment_line = null;
      parts.push(el("p", { class: "muted" }, "No sentiment can be marked (every line is empty or lost)."));
    }
    return section("The mood’s last box", ...parts);
  }
  const helper = need.who === "helper";
  const key = helper ? "helperOverloadEnd" : "overloadEnd";
  const sel = sentimentSelect("overload-end-sentiment", helper ? w.helperSheet : sheet(), need.sentiments, w.inputs[key]);
  w.inputs[key] = Number(sel.value);
  sel.addEventListener("change", () => {
    w.inputs[key] = Number(sel.value);
  });
  const owner = helper ? helperName() : "the player";
  return section(
    "An overload ended without a win",
    counter,
    el("p", {}, `Acting with another mood ended the overload of ${owner === "the player" ? "" : `${owner}’s `}${quoted(need.mood)}, and the player did not win.`),
    el("div", { class: "field" }, el("label", { for: "overload-end-sentiment" }, `Which sentiment ${helper ? "that player" : "the player"} marks one step`), sel),
  );
}

/** The choices with exactly the inputs the current needs ask for. */
function finalChoices() {
  const has = (pred) => w.needs.some(pred);
  const box = (b) => (b ? { sentiment_line: b.sentiment_line, new_name: b.new_name.trim() } : null);
  return {
    ...w.choices,
    final_box: has((n) => n.kind === "final_box" && n.who === "roller") ? box(w.inputs.finalBox) : null,
    helper_final_box: has((n) => n.kind === "final_box" && n.who === "helper") ? box(w.inputs.helperFinalBox) : null,
    overload_end_sentiment: has((n) => n.kind === "overload_end_sentiment" && n.who !== "helper") ? w.inputs.overloadEnd : null,
    helper_overload_end_sentiment: has((n) => n.kind === "overload_end_sentiment" && n.who === "helper") ? w.inputs.helperOverloadEnd : null,
    scout_accepts_details: has((n) => n.kind === "scout") ? w.inputs.scout : null,
  };
}

export async function nextInChoices() {
  if (w.needIndex < 0) {
    const ok = await attempt("The choices could not be checked.", async () => {
      w.needs = await api.nsuRollNeeds(w.id, { ...w.choices, final_box: null, helper_final_box: null, overload_end_sentiment: null, helper_overload_end_sentiment: null, scout_accepts_details: null });
    });
    if (!ok) return;
    if (w.needs.length > 0) {
      w.needIndex = 0;
      render();
      return;
    }
    await settle();
    return;
  }
  const need = w.needs[w.needIndex];
  if (need.kind === "scout" && typeof w.inputs.scout !== "boolean") {
    showError("Not yet:", "the player accepts the details and looks, or turns back.");
    return;
  }
  if (need.kind === "final_box") {
    const input = w.inputs[need.who === "helper" ? "helperFinalBox" : "finalBox"];
    if (!input || input.new_name.trim() === "") {
      showError("Not yet:", "name the mood’s more intense form.");
      return;
    }
  }
  if (w.needIndex < w.needs.length - 1) {
    w.needIndex += 1;
    render();
    return;
  }
  await settle();
}

async function settle() {
  const ok = await attempt("The roll was not settled.", async () => {
    const rollerBefore = sheet();
    const helperBefore = w.helperSheet;
    const result = await api.nsuRollResolve(w.id, finalChoices());
    w.result = { ...result, rollerBefore, helperBefore, helperName: w.pending.helper ? w.pending.helper.name : null };
    w.view = result.sheet;
    w.pending = null;
    w.step = S.result;
  });
  if (ok) {
    render();
    app.refresh().catch(() => {});
  }
}
