// The No Stone Unturned action roll wizard (RULES.md §1.3): a modal <dialog id="roll-wizard">
// walking the table through desired outcome → aspect and what is at risk → mood → details,
// skill and sentiment → the exact odds → the dice → help → the choices and what the mood
// effects ask for → the result, with Undo.
//
//   import { initNsuRoll, openRollWizard } from "./roll.js";
//   initNsuRoll({ run, toast, refresh });   // once, from app.js
//   openRollWizard(characterId);             // the "Roll" button of an NSU character
//
// The rules live in the core: every number shown (dice, edges, odds, needs, winner) comes
// from api.js. A roll whose dice are on the table survives closing the wizard: opening it
// again asks `nsuPendingRoll` and goes straight to the choices.
//
// This file is the wizard itself (the dialog, opening, Back and Next, which step is drawn);
// the steps are in roll-setup.js (outcome, aspect, mood, details), roll-odds.js, roll-dice.js
// (the dice and help), roll-choices.js and roll-result.js, on the shared roll-state.js.

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { nsuDialog } from "./dialog.js";
import { openReference } from "./reference.js";
import { isLastChoiceScreen, nextInChoices, renderChoices } from "./roll-choices.js";
import { renderHelp, renderRoll } from "./roll-dice.js";
import { refreshOdds, refreshPlan, renderOdds } from "./roll-odds.js";
import { loadQuick, renderQuick } from "./roll-quick.js";
import { renderResult } from "./roll-result.js";
import { renderAspect, renderDetails, renderMood, renderOutcome } from "./roll-setup.js";
import {
  S,
  STEPS,
  app,
  clearError,
  dialog,
  inSentence,
  loadHelperSheet,
  locked,
  missing,
  prefill,
  render,
  setHooks,
  setWizard,
  sheet,
  showError,
  showNotice,
  skillNameOf,
  takePending,
  w,
} from "./roll-state.js";
import { ASPECT_WORDS, quoted } from "./words.js";

/** Builds the (closed) dialog and wires the game header's "Roll log" button. */
export function initNsuRoll(hooks) {
  // The reference card over the wizard; once settled, the roll's row is marked.
  const rules = el("button", { type: "button", id: "roll-reference", on: { click: () => openReference({ row: w?.result?.record.difference ?? null }) } }, "Rules");
  const dialog = nsuDialog(
    { id: "roll-wizard", key: "roll", cls: "roll-wizard", title: "Action roll", closeLabel: "Close the roll", head: [rules] },
    el("p", { id: "roll-progress", class: "roll-progress muted" }),
    el("p", { id: "roll-purpose", class: "roll-purpose", hidden: true }),
    el("div", { id: "roll-error", class: "roll-error", role: "alert", hidden: true }),
    el("div", { id: "roll-body", class: "roll-body" }),
    el("div", { id: "roll-notice", class: "roll-notice", role: "status", hidden: true }),
    el(
      "div",
      { class: "roll-nav", id: "roll-nav" },
      el("button", { type: "button", id: "roll-back" }, "Back"),
      el("button", { type: "button", id: "roll-next", class: "primary" }, "Next"),
    ),
  );
  setHooks(hooks, dialog, drawStep);
  byId("roll-back").addEventListener("click", back);
  byId("roll-next").addEventListener("click", next);
  dialog.addEventListener("close", () => {
    setWizard(null);
    app.refresh().catch(() => {});
  });
}

/**
 * Opens the wizard for an NSU character (at the choices when a roll is on the table).
 * `start.scout = {location, words}` makes the roll a downtime Scout of that face-down card
 * (`words` name it by its back and place, never by its name).
 * Resolves once the wizard closes again, so a caller can reload what the roll changed.
 */
export async function openRollWizard(characterId, start = {}) {
  let opened = false;
  await app.run("The roll could not be opened.", async () => {
    const [view, pending, games] = await Promise.all([
      api.nsuSheet(characterId),
      api.nsuPendingRoll(characterId),
      api.listGames(),
    ]);
    const game = games.find((g) => g.id === view.character.game_id) ?? null;
    // The world as this device may see it: the party's location and its scene details, and
    // the scouted card's back. A world that cannot be read only leaves those out.
    const world = await api.nsuWorld(view.character.game_id).catch(() => null);
    setWizard({
      id: characterId,
      name: view.character.name,
      game,
      view,
      step: S.outcome,
      setup: {
        outcome: "",
        aspect: null,
        atRisk: null,
        moodLine: null,
        moodName: "",
        adv: 0,
        dis: 0,
        skill: "",
        skillName: "",
        sentiment: "",
      },
      helperDie: "",
      helperEdge: "none",
      preview: null,
      previewError: null,
      previewSerial: 0,
      pending: null,
      helperSheet: null,
      choices: null,
      needs: [],
      needIndex: -1,
      inputs: { finalBox: null, helperFinalBox: null, overloadEnd: null, helperOverloadEnd: null, scout: null },
      handOpen: Boolean(game?.dice_by_hand), // the game's "roll real dice" preference
      result: null,
      world,
      // The face-down card this roll scouts (a downtime Scout), or null.
      scout: start.scout ? start.scout.location : null,
      scoutWords: start.scout ? start.scout.words : null,
      counted: {}, // detail key → "for" | "against", tapped in the details list
      approaches: null, // the last approaches fetched for the mood step ({key, list})
      approachesAll: false, // the mood step lists every aspect, not only the chosen one
      quick: null, // a quick roll (roll-quick.js): {outcomeLater, fromLast}
    });
    if (pending) takePending(pending);
    else if (start.quick && !start.scout) await loadQuick(start);
    else prefill(start);
    byId("roll-title").textContent = `${w.scout ? "Scouting roll" : "Action roll"} — ${view.character.name}`;
    clearError();
    showNotice(null);
    if (!dialog.open) dialog.showModal();
    opened = true;
    if (pending) await loadHelperSheet();
    render();
    byId("roll-title").focus();
  });
  if (opened && dialog.open) await new Promise((resolve) => dialog.addEventListener("close", resolve, { once: true }));
}

// ---- navigation -----------------------------------------------------------------------------

function back() {
  if (!w) return;
  clearError();
  // A quick roll's dice typed in by hand: back to its one screen.
  if (w.quick && w.step === S.roll && !locked()) {
    w.step = S.quick;
    render();
    return;
  }
  if (w.step === S.choices && w.needIndex >= 0) {
    w.needIndex -= 1;
  } else if (w.step > 0) {
    w.step -= 1;
  }
  render();
}

async function next() {
  if (!w) return;
  const problem = missing(w.step);
  if (problem) {
    showError("Not yet:", problem);
    return;
  }
  clearError();
  if (w.step === S.choices) {
    await nextInChoices();
    return;
  }
  if (w.step < S.roll) w.step += 1;
  else if (w.step === S.help) w.step = S.choices;
  render();
}

// ---- rendering ------------------------------------------------------------------------------

function drawStep() {
  if (!w) return;
  const body = byId("roll-body");
  const step = w.step;
  if (step === S.quick) {
    drawQuick(body);
    return;
  }
  const filled = [];
  if (w.fromSheet && w.setup.moodLine !== null && sheet().moods[w.setup.moodLine]) filled.push(`mood ${quoted(sheet().moods[w.setup.moodLine].name)}`);
  if (w.fromSheet && w.setup.aspect) filled.push(ASPECT_WORDS[w.setup.aspect]);
  if (w.fromSheet && w.setup.skill.startsWith("existing:")) filled.push(`skill ${quoted(skillNameOf(w.setup))}`);
  const from = filled.length && step < S.odds ? ` · from the sheet: ${filled.join(", ")}` : "";
  // A quick roll has no numbered steps: its screens are named.
  byId("roll-progress").textContent = w.quick ? `Quick roll: ${STEPS[step]}` : `Step ${step + 1} of ${STEPS.length}: ${STEPS[step]}${from}`;
  const purpose = byId("roll-purpose");
  purpose.hidden = !w.scout;
  purpose.textContent = w.scout ? `Scouting ${inSentence(w.scoutWords)} · settling the roll spends a downtime action` : "";
  dialog.dataset.step = STEPS[step].toLowerCase();
  const content = [
    renderOutcome,
    renderAspect,
    renderMood,
    renderDetails,
    renderOdds,
    renderRoll,
    renderHelp,
    renderChoices,
    renderResult,
  ][step]();
  body.replaceChildren(content);
  const backButton = byId("roll-back");
  const nextButton = byId("roll-next");
  backButton.hidden = step === S.outcome || step === S.result || (locked() && step <= S.help);
  // On the odds step Next shows once the odds are in (an Overcome character gets none).
  nextButton.hidden = step === S.roll || step === S.result || step === S.odds;
  byId("roll-nav").hidden = step === S.result;
  nextButton.textContent = "Next";
  backButton.textContent = "Back";
  // A quick roll's choices: help is one step back, for a table that wants it.
  if (w.quick && step === S.choices && w.needIndex < 0) backButton.textContent = "Someone helps";
  if (w.quick && step === S.choices && w.needIndex < 0 && w.pending.needs.length === 0) nextButton.textContent = "Settle the roll";
  if (step === S.help) nextButton.textContent = w.pending.roll.help ? "Go on to the choices" : "No help: go on";
  if (step === S.choices && isLastChoiceScreen()) nextButton.textContent = "Settle the roll";
  if (step === S.odds) refreshOdds();
  if (step === S.details) refreshPlan();
  // A choice's own screen counts as a step of its own.
  const screen = step === S.choices ? `${step}:${w.needIndex}` : String(step);
  if (w.drawnScreen !== screen) focusTheStep(body);
  w.drawnScreen = screen;
}

/** The quick roll's one screen (roll-quick.js): its own Roll, no Back and Next. */
function drawQuick(body) {
  byId("roll-progress").textContent = "Every choice on one screen; the odds follow each change.";
  byId("roll-purpose").hidden = true;
  dialog.dataset.step = "quick";
  body.replaceChildren(renderQuick());
  byId("roll-nav").hidden = true;
  if (w.drawnScreen !== "quick") focusTheStep(body);
  w.drawnScreen = "quick";
}

/**
 * A new step gives the focus to its heading (else the dialog's title), so a keyboard or
 * screen-reader user lands on what changed and reads it from the top, rather than staying
 * on Next (or on the page's body when Settle goes with its step).
 */
function focusTheStep(body) {
  const heading = body.querySelector("h3") ?? byId("roll-title");
  if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
  heading.focus();
}

