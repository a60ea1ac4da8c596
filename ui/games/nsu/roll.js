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

import * as api from "./api.js";
import { el, byId } from "../../kit/dom.js";
import { openRollLog } from "./log.js";
import { openReference } from "./reference.js";
import { confirmAction } from "../../kit/confirm.js";
import {
  MOOD_LINE_DICE,
  ASPECT_WORDS,
  AT_RISK_WORDS,
  GRANT_NOTE,
  quoted,
  grantWords,
  eventWords,
  winnerWords,
  diceWords,
  cardBackWords,
} from "./words.js";

const STEPS = ["Outcome", "Aspect", "Mood", "Details", "Odds", "Roll", "Help", "Choices", "Result"];
const S = Object.fromEntries(STEPS.map((name, i) => [name.toLowerCase(), i]));
const EDGE_WORDS = { none: "no edge", advantage: "advantage", disadvantage: "disadvantage" };
const SIDE_WORDS = { player: "the player", arbiters: "the Arbiters", tie: "both sides (a tie)" };

let app = null; // {run, toast, refresh}
let dialog = null;
let w = null; // the wizard's state while it is open

/** Builds the (closed) dialog and wires the game header's "Roll log" button. */
export function initNsuRoll(hooks) {
  app = hooks;
  dialog = el(
    "dialog",
    { id: "roll-wizard", class: "roll-wizard", "aria-labelledby": "roll-title" },
    el(
      "div",
      { class: "roll-head" },
      el("h2", { id: "roll-title", tabindex: "-1" }, "Action roll"),
      // The reference card over the wizard; once settled, the roll's row is marked.
      el("button", { type: "button", id: "roll-reference", on: { click: () => openReference({ row: w?.result?.record.difference ?? null }) } }, "Rules"),
      el("button", { type: "button", id: "roll-close", class: "roll-close", "aria-label": "Close the roll" }, "×"),
    ),
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
  document.body.append(dialog);
  byId("roll-close").addEventListener("click", () => dialog.close());
  byId("roll-back").addEventListener("click", back);
  byId("roll-next").addEventListener("click", next);
  dialog.addEventListener("close", () => {
    w = null;
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
    w = {
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
    };
    if (pending) takePending(pending);
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

// ---- state helpers --------------------------------------------------------------------------

/**
 * A roll started from the sheet: the mood, aspect or skill tapped there is filled in. The
 * wizard starts at the desired outcome (the player says it first); the later steps show what
 * was filled in, and can change it.
 */
function prefill(start) {
  const s = w.setup;
  if (Number.isInteger(start.moodLine) && sheet().moods[start.moodLine]) s.moodLine = start.moodLine;
  if (start.aspect) s.aspect = start.aspect;
  if (Number.isInteger(start.skillLine) && sheet().skills[start.skillLine]) s.skill = `existing:${start.skillLine}`;
  w.fromSheet = s.moodLine !== null || s.aspect !== null || s.skill !== "";
}

/** A roll on the table: its setup becomes the wizard's, and the choices come next. */
function takePending(pending) {
  w.pending = pending;
  const s = pending.roll.setup;
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
  w.choices = { ...pending.choices };
  w.scout = s.scout ?? null;
  w.scoutWords = w.scout ? scoutWordsOf(w.scout) : null;
  w.needs = [];
  w.needIndex = -1;
  w.step = S.choices;
}

/** A card's back in words, inside a sentence ("the face-down card …"). */
const inSentence = (words) => (words ? words.replace(/^Face-down card/, "the face-down card") : "the card");

/** A scouted card by its back and place (the world as this device sees it). */
function scoutWordsOf(location) {
  const card = w.world ? w.world.locations.find((l) => l.id === location) : null;
  return card ? cardBackWords(card) : "a face-down card";
}

async function loadHelperSheet() {
  const helper = w.pending && w.pending.helper;
  w.helperSheet = helper ? (await api.nsuSheet(helper.id)).sheet : null;
}

const sheet = () => w.view.sheet;
const locked = () => w.pending !== null || w.result !== null;

/** The RollSetup the wizard's fields describe. */
function setupOf() {
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
  return {
    desired_outcome: s.outcome,
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
function missing(step) {
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

function showError(title, e) {
  const box = byId("roll-error");
  const message = e && typeof e.message === "string" ? e.message : String(e);
  box.replaceChildren(el("strong", {}, title), " ", message);
  box.hidden = false;
}

function clearError() {
  byId("roll-error").hidden = true;
}

/** Runs one api step; a failure is shown inside the dialog (the page's error area is behind it). */
async function attempt(title, action) {
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
function showNotice(message, undo = null) {
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

// ---- navigation -----------------------------------------------------------------------------

function back() {
  if (!w) return;
  clearError();
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

function render() {
  if (!w) return;
  const body = byId("roll-body");
  const step = w.step;
  const filled = [];
  if (w.fromSheet && w.setup.moodLine !== null && sheet().moods[w.setup.moodLine]) filled.push(`mood ${quoted(sheet().moods[w.setup.moodLine].name)}`);
  if (w.fromSheet && w.setup.aspect) filled.push(ASPECT_WORDS[w.setup.aspect]);
  if (w.fromSheet && w.setup.skill.startsWith("existing:")) filled.push(`skill ${quoted(skillNameOf(w.setup))}`);
  const from = filled.length && step < S.odds ? ` · from the sheet: ${filled.join(", ")}` : "";
  byId("roll-progress").textContent = `Step ${step + 1} of ${STEPS.length}: ${STEPS[step]}${from}`;
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
  if (step === S.help) nextButton.textContent = w.pending.roll.help ? "Go on to the choices" : "No help: go on";
  if (step === S.choices && isLastChoiceScreen()) nextButton.textContent = "Settle the roll";
  if (step === S.odds) refreshOdds();
  if (step === S.details) refreshPlan();
}

const radio = (name, value, label, checked, onPick, id) => {
  const input = el("input", { type: "radio", name, value, id, checked });
  input.addEventListener("change", () => input.checked && onPick(value));
  return el("label", { class: "roll-option", for: id }, input, el("span", {}, label));
};

function section(title, ...children) {
  return el("div", { class: "roll-step" }, el("h3", {}, title), ...children);
}

function renderOutcome() {
  const input = el("textarea", { id: "roll-outcome", rows: 3, required: true, maxlength: 2000 });
  input.value = w.setup.outcome;
  input.addEventListener("input", () => {
    w.setup.outcome = input.value;
  });
  const parts = [
    el("p", { class: "muted hint" }, "The player states what they want to happen. It is kept in the roll log."),
    el("label", { for: "roll-outcome" }, "Desired outcome"),
    input,
  ];
  if (w.view.overcome) parts.unshift(overcomeNote());
  return section("What does the player want?", ...parts);
}

function overcomeNote() {
  return el(
    "p",
    { class: "roll-warning", id: "roll-overcome" },
    `${w.name} is Overcome (four harm details) and cannot make action rolls until a harm detail is recovered.`,
  );
}

function renderAspect() {
  const aspects = sheet().aspects;
  const aspectOptions = ["body", "mind", "heart"].map((a) =>
    radio("roll-aspect", a, `${ASPECT_WORDS[a]} ${aspects ? aspects[a] : "(no die yet)"}`, w.setup.aspect === a, (v) => {
      w.setup.aspect = v;
    }, `roll-aspect-${a}`),
  );
  const riskOptions = [
    ["character", "Character", "the player holds the aspect die, the Arbiters the mood die"],
    ["world", "World", "the player holds the mood die, the Arbiters the aspect die"],
  ].map(([v, label, hint]) =>
    radio("roll-at-risk", v, `${label} at risk — ${hint}`, w.setup.atRisk === v, (x) => {
      w.setup.atRisk = x;
    }, `roll-at-risk-${v}`),
  );
  return section(
    "The Arbiters choose",
    el("p", { class: "muted hint" }, "The Arbiters choose the aspect and what is most at risk."),
    el("fieldset", { class: "roll-choices" }, el("legend", {}, "Aspect"), ...aspectOptions),
    el("fieldset", { class: "roll-choices" }, el("legend", {}, "What is at risk"), ...riskOptions),
  );
}

function moodLabel(line) {
  const mood = sheet().moods[line];
  const die = MOOD_LINE_DICE[line];
  if (!mood) return `Empty d${die} line — name a new mood`;
  return `${mood.name} — d${die}, level ${mood.level} of ${die + 1}${mood.overloaded ? ", overloaded" : ""}`;
}

function renderMood() {
  const name = el("input", { type: "text", id: "roll-mood-name", maxlength: 200 });
  name.value = w.setup.moodName;
  name.addEventListener("input", () => {
    w.setup.moodName = name.value;
  });
  const nameField = el("div", { class: "field" }, el("label", { for: "roll-mood-name" }, "The new mood’s name"), name);
  const sync = () => {
    nameField.hidden = w.setup.moodLine === null || sheet().moods[w.setup.moodLine] !== null;
  };
  const options = sheet().moods.map((_, line) =>
    radio("roll-mood", String(line), moodLabel(line), w.setup.moodLine === line, (v) => {
      w.setup.moodLine = Number(v);
      sync();
    }, `roll-mood-${line}`),
  );
  sync();
  return section(
    "The player chooses a mood",
    el("p", { class: "muted hint" }, "Its level goes up by one (even while another mood is overloaded)."),
    el("fieldset", { class: "roll-choices" }, el("legend", {}, "Mood"), ...options),
    nameField,
  );
}

const COUNT_IDS = { adv: "roll-adv", dis: "roll-dis" };

/** Moves a counter (the source of the numbers sent to the core) and redraws what shows it. */
function bump(key, delta) {
  w.setup[key] = Math.max(0, Math.min(20, w.setup[key] + delta));
  const value = byId(COUNT_IDS[key]);
  if (value) value.textContent = String(w.setup[key]);
  refreshNet();
  refreshPlan();
}

function counter(id, label, key) {
  const value = el("output", { id, class: "roll-count", "aria-live": "polite" }, String(w.setup[key]));
  const change = (delta) => () => bump(key, delta);
  return el(
    "div",
    { class: "roll-counter" },
    el("span", { class: "roll-counter-label", id: `${id}-label` }, label),
    el("button", { type: "button", id: `${id}-minus`, "aria-label": `One fewer: ${label}`, on: { click: change(-1) } }, "−"),
    value,
    el("button", { type: "button", id: `${id}-plus`, "aria-label": `One more: ${label}`, on: { click: change(1) } }, "+"),
  );
}

function netWords() {
  const { adv, dis } = w.setup;
  if (adv > dis) return `Net: aspect advantage (${adv} for, ${dis} against; they cancel one for one and do not stack)`;
  if (dis > adv) return `Net: aspect disadvantage (${adv} for, ${dis} against; they cancel one for one and do not stack)`;
  return `Net: no edge (${adv} for, ${dis} against cancel out)`;
}

function refreshNet() {
  const node = byId("roll-aspect-net");
  if (node) node.textContent = netWords();
}

function renderDetails() {
  const sk = sheet().skills;
  const skillOptions = [["", "No skill"]];
  sk.forEach((s, i) => {
    if (s) skillOptions.push([`existing:${i}`, `${s.name} (+${s.modifier})`]);
  });
  sk.forEach((s, i) => {
    if (!s) skillOptions.push([`new:${i}`, `New skill on empty line ${i + 1} (starts at 0)`]);
  });
  const skill = el("select", { id: "roll-skill" }, ...skillOptions.map(([v, t]) => el("option", { value: v }, t)));
  skill.value = w.setup.skill;
  const skillName = el("input", { type: "text", id: "roll-skill-name", maxlength: 200 });
  skillName.value = w.setup.skillName;
  const skillNameField = el("div", { class: "field" }, el("label", { for: "roll-skill-name" }, "The new skill’s name"), skillName);
  const syncSkill = () => {
    skillNameField.hidden = !w.setup.skill.startsWith("new:");
  };
  skill.addEventListener("change", () => {
    w.setup.skill = skill.value;
    syncSkill();
    refreshPlan();
  });
  skillName.addEventListener("input", () => {
    w.setup.skillName = skillName.value;
  });
  skillName.addEventListener("change", refreshPlan);
  syncSkill();

  const sentimentOptions = [["", "No sentiment risked"]];
  sheet().sentiments.forEach((s, i) => {
    if (s && s.state !== "lost") sentimentOptions.push([String(i), `${s.name} (${s.state === "at_risk" ? "at risk" : "connected"})`]);
  });
  const sentiment = el("select", { id: "roll-sentiment" }, ...sentimentOptions.map(([v, t]) => el("option", { value: v }, t)));
  sentiment.value = w.setup.sentiment;
  sentiment.addEventListener("change", () => {
    w.setup.sentiment = sentiment.value;
    refreshPlan();
  });

  return section(
    "Details, skill and sentiment",
    el("p", { class: "muted hint" }, "Count the details working for and against the character: tap one below to count it, or use the counters."),
    counter("roll-adv", "Details for (advantage)", "adv"),
    counter("roll-dis", "Details against (disadvantage)", "dis"),
    el("p", { id: "roll-aspect-net", class: "roll-net" }, netWords()),
    detailsThatCount(),
    el("div", { class: "field" }, el("label", { for: "roll-skill" }, "Skill (the player adds or subtracts its modifier)"), skill),
    skillNameField,
    el(
      "div",
      { class: "field" },
      el("label", { for: "roll-sentiment" }, "Risk a sentiment for mood advantage"),
      sentiment,
      el("p", { class: "muted roll-hint" }, "Win by 2 or more and it helped; otherwise mark its next box."),
    ),
    el("p", { id: "roll-mood-edge", class: "roll-net" }),
    el("p", { id: "roll-overload-rule", class: "roll-rule", hidden: true }),
    el("p", { id: "roll-odds-mini", class: "roll-odds-mini", "aria-live": "polite" }),
  );
}

/**
 * The details that may count in this roll: the character's harm, other details and scars,
 * and the scene details where the party is. Tapping "For" or "Against" moves the counters
 * (which stay the numbers sent); tapping it again takes the count back.
 */
function detailsThatCount() {
  const sh = sheet();
  const rows = [];
  sh.harm.forEach((text, i) => rows.push({ key: `harm:${i}`, text, kind: "Harm" }));
  sh.other_details.forEach((d, i) => rows.push({ key: `other:${i}`, text: d.text, kind: d.positive ? "Positive" : "Negative" }));
  sh.scars.forEach((text, i) => rows.push({ key: `scar:${i}`, text, kind: "Scar" }));
  const here = w.world && w.world.party_at ? w.world.locations.find((l) => l.id === w.world.party_at) : null;
  (here ? here.scene_details : []).forEach((d, i) => rows.push({ key: `scene:${i}`, text: d.text, kind: `Scene, ${here.name || "here"}` }));
  const where = !w.world || w.world.party_at === undefined ? "" : here ? ` The party is at ${here.name || "a card on the map"}.` : " The party is at home: no scene details.";
  const box = el("div", { id: "roll-details-list", class: "roll-details" }, el("h4", {}, "The details that count"));
  if (rows.length === 0) {
    box.append(el("p", { class: "muted" }, `${w.name} has no harm, other details or scars.${where}`));
    return box;
  }
  const buttons = (row) => {
    const side = (which, label) => {
      const b = el("button", { type: "button", class: `roll-detail-${which}`, "aria-pressed": String(w.counted[row.key] === which), "aria-label": `${label}: ${row.text}` }, label);
      b.addEventListener("click", () => {
        const was = w.counted[row.key];
        if (was) bump(was === "for" ? "adv" : "dis", -1);
        if (was === which) delete w.counted[row.key];
        else {
          w.counted[row.key] = which;
          bump(which === "for" ? "adv" : "dis", 1);
        }
        for (const other of b.parentNode.querySelectorAll("button")) {
          other.setAttribute("aria-pressed", String(other.classList.contains(`roll-detail-${w.counted[row.key]}`)));
        }
      });
      return b;
    };
    return el("span", { class: "roll-detail-count" }, side("for", "For"), side("against", "Against"));
  };
  box.append(
    el(
      "ul",
      { class: "roll-detail-list" },
      ...rows.map((row) =>
        el(
          "li",
          { data: { kind: row.kind.split(",")[0].toLowerCase() } },
          el("span", { class: "roll-detail-text" }, el("span", { class: "roll-detail-kind" }, row.kind), " ", row.text),
          buttons(row),
        ),
      ),
    ),
  );
  if (where) box.append(el("p", { class: "muted" }, where.trim()));
  return box;
}

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

const pct = (p) => `${(p * 100).toFixed(1)}%`;

function oddsLine(odds) {
  return `Win ${pct(odds.win)} · Tie ${pct(odds.tie)} · Lose ${pct(odds.lose)}`;
}

function edgeReasonWords(reason) {
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

async function refreshPlan() {
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

function planWords(plan) {
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

/** The chosen skill's name (an existing line's, or the one typed for a new line). */
function skillNameOf(s) {
  const [kind, at] = s.skill.split(":");
  return kind === "existing" ? sheet().skills[Number(at)].name : s.skillName.trim();
}

/** The edge of a helper's die: it follows the overload rules (RULES.md §1.3 step 7). */
function edgeSelect(id, value) {
  const select = el(
    "select",
    { id },
    el("option", { value: "none" }, "No edge (not overloaded)"),
    el("option", { value: "advantage" }, "Advantage (helping with their overloaded mood)"),
    el("option", { value: "disadvantage" }, "Disadvantage (another mood while overloaded)"),
  );
  select.value = value;
  return select;
}

function renderOdds() {
  const helper = el(
    "select",
    { id: "roll-helper-die" },
    el("option", { value: "" }, "Nobody helps"),
    ...["d4", "d6", "d8"].map((d) => el("option", { value: d }, `Someone helps with a ${d}`)),
  );
  helper.value = w.helperDie;
  const edge = edgeSelect("roll-helper-edge", w.helperEdge);
  const edgeField = el("div", { class: "field", hidden: w.helperDie === "" }, el("label", { for: "roll-helper-edge" }, "Their die’s edge (from their overload)"), edge);
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

async function refreshOdds() {
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
    el(
      "div",
      { class: "roll-odds-numbers" },
      el("p", { class: "roll-odds-win" }, el("span", {}, "Win"), el("strong", { id: "roll-odds-win" }, pct(odds.win))),
      el("p", { class: "roll-odds-tie" }, el("span", {}, "Tie"), el("strong", { id: "roll-odds-tie" }, pct(odds.tie))),
      el("p", { class: "roll-odds-lose" }, el("span", {}, "Lose"), el("strong", { id: "roll-odds-lose" }, pct(odds.lose))),
    ),
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

// ---- the dice -----------------------------------------------------------------------------

function renderRoll() {
  if (w.pending) return renderTable();
  const plan = w.preview ? w.preview.plan : null;
  if (!plan) return section("Roll", el("p", { class: "roll-warning" }, w.previewError ?? "Go back to the odds first."));
  const dice = [];
  const aspectCount = plan.aspect_edge === "none" ? 1 : 2;
  const moodCount = plan.mood_edge === "none" ? 1 : 2;
  // Who rolls which die: the player the aspect die with the Character at risk, the Arbiters
  // the mood die (and the other way round with the World at risk).
  const arbitersHold = w.setup.atRisk === "character" ? "mood" : "aspect";
  const holder = (kind) => (kind === arbitersHold ? "the Arbiters’" : "the player’s");
  for (let i = 0; i < aspectCount; i++) dice.push(["aspect", i, `${ASPECT_WORDS[w.setup.aspect]} ${plan.aspect_die}, ${holder("aspect")} die${aspectCount > 1 ? ` (${i + 1} of 2)` : ""}`, plan.aspect_die]);
  for (let i = 0; i < moodCount; i++) dice.push(["mood", i, `Mood ${plan.mood_die}, ${holder("mood")} die${moodCount > 1 ? ` (${i + 1} of 2)` : ""}`, plan.mood_die]);
  const inputs = dice.map(([kind, i, label, die]) => {
    const id = `roll-die-${kind}-${i + 1}`;
    const sides = Number(die.slice(1));
    const input = el("input", { type: "number", id, inputmode: "numeric", min: 1, max: sides, class: "roll-die-input" });
    return { input, node: el("div", { class: "roll-die-field" }, el("label", { for: id }, label), input) };
  });
  const hand = el(
    "div",
    { id: "roll-hand", class: "roll-hand", hidden: !w.handOpen },
    el("p", { class: "muted" }, "Type each die as it landed, in this order — the Arbiters’ too, as they call it out."),
    el("div", { class: "roll-die-fields" }, ...inputs.map((x) => x.node)),
    el("button", { type: "button", id: "roll-hand-submit", class: "primary" }, "Use these dice"),
  );
  const submitTyped = () => {
    const values = inputs.map((x) => Number(x.input.value));
    if (values.some((v) => !Number.isInteger(v) || v < 1)) {
      showError("Not yet:", "type a number on every die.");
      return;
    }
    rollWith({ kind: "entered", values });
  };
  hand.querySelector("#roll-hand-submit").addEventListener("click", submitTyped);
  const byHand = el("button", { type: "button", id: "roll-by-hand", "aria-expanded": String(w.handOpen) }, "Dice rolled by hand");
  byHand.addEventListener("click", () => {
    w.handOpen = !w.handOpen;
    hand.hidden = !w.handOpen;
    byHand.setAttribute("aria-expanded", String(w.handOpen));
    if (w.handOpen && inputs[0]) inputs[0].input.focus();
  });
  return section(
    "Roll the dice",
    el("p", {}, `Aspect die ×${aspectCount}, mood die ×${moodCount}. Nothing on the sheet changes until the roll is settled.`),
    el(
      "div",
      { class: "roll-actions" },
      el("button", { type: "button", id: "roll-dice", class: "primary", on: { click: () => rollWith({ kind: "rolled" }) } }, "Roll the dice"),
      byHand,
    ),
    hand,
  );
}

async function rollWith(dice) {
  showNotice(null); // an earlier roll's notice (an undo) is not about these dice
  const ok = await attempt("The dice were not rolled.", async () => {
    const pending = await api.nsuRollDice(w.id, setupOf(), dice);
    takePending(pending);
    w.step = S.help;
  });
  if (ok) render();
}

/** What is on the table, shown once the dice are rolled. */
function tableWords() {
  const roll = w.pending.roll;
  const parts = [
    `Aspect ${roll.plan.aspect_die}: ${roll.aspect_rolls.join(" and ")}`,
    `mood ${roll.plan.mood_die}: ${roll.mood_rolls.join(" and ")}`,
  ];
  if (roll.help) parts.push(`${helperName()}’s ${roll.help.die}: ${helpRolls(roll.help).join(" and ")}`);
  return `On the table — ${parts.join("; ")}.`;
}

/** The helper's name: a character on this device, or the name typed in for one elsewhere. */
function helperName() {
  if (w.pending.helper) return w.pending.helper.name;
  const help = w.pending.roll.help;
  return help && help.name ? help.name : "the helper";
}

const helpRolls = (help) => (help.second === undefined || help.second === null ? [help.value] : [help.value, help.second]);

function renderTable() {
  return section("The dice are rolled", el("p", { id: "roll-table" }, tableWords()), cancelButton());
}

function cancelButton() {
  return el(
    "button",
    { type: "button", id: "roll-cancel", class: "danger", on: { click: cancelRoll } },
    "Cancel this roll",
  );
}

/** Takes the roll on the table back (each dice step is one undoable event). */
async function cancelRoll() {
  const sure = await confirmAction({
    title: "Cancel this roll?",
    message: "The dice on the table are taken back; nothing on the sheet changes.",
    yes: "Cancel the roll",
    no: "Keep the roll",
  });
  if (!sure) return;
  const ok = await attempt("The roll was not cancelled.", async () => {
    for (let i = 0; i < 3; i++) {
      if (!(await api.nsuPendingRoll(w.id))) break;
      await api.undoCharacter(w.id);
    }
    w.pending = null;
    w.choices = null;
    w.step = S.odds;
  });
  if (ok) {
    showNotice("The roll was cancelled; nothing on the sheet changed.");
    render();
  }
}

// ---- help ---------------------------------------------------------------------------------

function renderHelp() {
  const roll = w.pending.roll;
  if (roll.help) {
    const edge = roll.help.edge && roll.help.edge !== "none" ? ` (${EDGE_WORDS[roll.help.edge]})` : "";
    return section(
      "Help",
      el("p", { id: "roll-help-done" }, `${helperName()} helps with a ${roll.help.die}${edge}: ${helpRolls(roll.help).join(" and ")}.`),
      roll.help.mood ? null : el("p", { class: "muted" }, `${helperName()} records what helping did to their own mood on their own device (“I helped with…” on their sheet).`),
      el("p", { id: "roll-table" }, tableWords()),
      cancelButton(),
    );
  }
  const others = (w.game ? w.game.characters : []).filter((c) => c.id !== w.id && c.mine !== false);
  const host = el("div", { id: "help-host" });
  const elsewhere = el("input", { type: "radio", name: "help-where", id: "help-where-elsewhere", value: "elsewhere" });
  const here = el("input", { type: "radio", name: "help-where", id: "help-where-here", value: "here", disabled: others.length === 0 });
  const pick = () => {
    host.replaceChildren(here.checked ? helperHere(others) : helperElsewhere());
  };
  elsewhere.addEventListener("change", pick);
  here.addEventListener("change", pick);
  return section(
    "Help (optional)",
    el("p", { id: "roll-table" }, tableWords()),
    el("p", { class: "muted hint" }, "A helper acts with one of their moods (its level goes up by one) and rolls its die; the player may use it in place of their own mood die."),
    helpInbox(),
    el(
      "fieldset",
      { class: "roll-choices", id: "help-where" },
      el("legend", {}, "Who helps"),
      el("label", { class: "roll-option", for: "help-where-elsewhere" }, elsewhere, el("span", {}, "Someone on their own device: type in their die")),
      el(
        "label",
        { class: "roll-option", for: "help-where-here" },
        here,
        el("span", {}, others.length ? "A character on this device" : "A character on this device (none here)"),
      ),
    ),
    host,
    cancelButton(),
  );
}

// ---- a helper's die sent from another device (linked table) ---------------------------------

const INBOX_POLL_MS = 700;
let inboxTimer = null;
let inboxShown = ""; // the ids listed, to redraw only when they change

/** The notes for this roll's character waiting on this device (a linked table), null when unlinked. */
async function notesForRoller() {
  const inbox = await api.linkInbox();
  if (inbox === null) return null;
  return inbox.filter((n) => n.note.kind === "nsu_help" && n.note.roller === w.id);
}

/** "Wren sent a d6 (advantage): 5, 2" */
function noteWords(note) {
  const edge = note.helper.edge && note.helper.edge !== "none" ? ` (${EDGE_WORDS[note.helper.edge]})` : "";
  return `${note.helper.name} sent a ${note.helper.die}${edge}: ${note.faces.join(", ")}`;
}

/**
 * The help step's list of helpers' dice sent from their own devices through the table's link.
 * Hidden when this device runs no link; while it does and the step is open, the list is asked
 * for again every ~700 ms, so the wizard waits for a helper.
 */
function helpInbox() {
  const list = el("ul", { id: "help-inbox-list", class: "help-inbox-list" });
  const box = el(
    "div",
    { id: "help-inbox", class: "roll-helper help-inbox", hidden: true, "aria-live": "polite" },
    el("h4", { id: "help-inbox-heading" }, "Sent from a helper’s device"),
    list,
  );
  inboxShown = null;
  stopInboxPolling();
  const tick = async () => {
    inboxTimer = null;
    if (!w || !dialog.open || w.step !== S.help || !w.pending || w.pending.roll.help || !box.isConnected) return;
    let notes;
    try {
      notes = await notesForRoller();
    } catch (_) {
      notes = undefined; // a passing failure: asked again on the next tick
    }
    if (!box.isConnected) return;
    if (notes === null) {
      box.hidden = true;
      return; // no link: nothing will come
    }
    if (notes !== undefined) drawInbox(box, list, notes);
    inboxTimer = setTimeout(tick, INBOX_POLL_MS);
  };
  // Once the step is on screen (it is put there after this returns).
  inboxTimer = setTimeout(tick, 0);
  return box;
}

function stopInboxPolling() {
  if (inboxTimer !== null) clearTimeout(inboxTimer);
  inboxTimer = null;
}

function drawInbox(box, list, notes) {
  const key = notes.map((n) => n.id).join(",");
  box.hidden = false;
  if (key === inboxShown) return;
  inboxShown = key;
  if (notes.length === 0) {
    list.replaceChildren(el("li", { class: "muted", id: "help-inbox-waiting" }, "Waiting for a helper to send their die from their device…"));
    return;
  }
  list.replaceChildren(
    ...notes.map((n) =>
      el(
        "li",
        { class: "help-note", "data-note-id": n.id },
        el("span", { class: "help-note-words" }, noteWords(n.note)),
        el("span", { class: "help-note-from muted" }, ` — from ${n.from}`),
        el(
          "span",
          { class: "roll-actions help-note-actions" },
          el("button", { type: "button", class: "primary help-note-use", "aria-label": `Use it: ${noteWords(n.note)}`, on: { click: () => useNote(n) } }, "Use it"),
          el("button", { type: "button", class: "help-note-dismiss", "aria-label": `Put away: ${noteWords(n.note)}`, on: { click: () => dismissNote(n) } }, "Put away"),
        ),
      ),
    ),
  );
}

/** Uses a helper's die sent from their device: help from elsewhere with exactly those faces. */
async function useNote(inbound) {
  const note = inbound.note;
  const ok = await attempt("The helper’s die was not taken.", async () => {
    takePending(await api.nsuRollHelpElsewhere(w.id, note.helper, { kind: "entered", values: note.faces }));
    w.helperSheet = null;
    w.step = S.help;
  });
  if (!ok) return;
  // The die is in the roll; the note is done with (already gone is fine).
  await api.linkTakeNote(inbound.id).catch(() => {});
  stopInboxPolling();
  render();
}

async function dismissNote(inbound) {
  await attempt("The note was not put away.", async () => {
    await api.linkTakeNote(inbound.id);
  });
  const box = byId("help-inbox");
  if (box && w) {
    const notes = await notesForRoller().catch(() => undefined);
    if (notes) drawInbox(box, byId("help-inbox-list"), notes);
  }
}

/** A helper who plays on another device: their name, die, edge and face(s), typed in. */
function helperElsewhere() {
  const name = el("input", { type: "text", id: "help-name", maxlength: 200, autocomplete: "off" });
  const die = el("select", { id: "help-die-size" }, ...["d4", "d6", "d8"].map((d) => el("option", { value: d }, d)));
  die.value = w.helperDie || "d6";
  const edge = edgeSelect("help-edge", w.helperEdge);
  const faces = el("div", { class: "roll-die-fields", id: "help-faces" });
  const inputs = [];
  const sync = () => {
    const count = edge.value === "none" ? 1 : 2;
    const sides = Number(die.value.slice(1));
    inputs.length = 0;
    faces.replaceChildren(
      ...Array.from({ length: count }, (_, i) => {
        const id = `help-face-${i + 1}`;
        const input = el("input", { type: "number", id, inputmode: "numeric", min: 1, max: sides, class: "roll-die-input" });
        inputs.push(input);
        return el("div", { class: "roll-die-field" }, el("label", { for: id }, count > 1 ? `Face ${i + 1} of 2` : "Their face"), input);
      }),
    );
  };
  die.addEventListener("change", sync);
  edge.addEventListener("change", sync);
  sync();
  const helper = () => ({ name: name.value.trim(), die: die.value, edge: edge.value });
  const send = async (dice) => {
    if (helper().name === "") {
      showError("Not yet:", "type the helper’s name.");
      return;
    }
    const ok = await attempt("The helper’s die was not taken.", async () => {
      takePending(await api.nsuRollHelpElsewhere(w.id, helper(), dice));
      w.helperSheet = null;
      w.step = S.help;
    });
    if (ok) render();
  };
  const enter = () => {
    const values = inputs.map((x) => Number(x.value));
    if (values.some((v) => !Number.isInteger(v) || v < 1)) {
      showError("Not yet:", "type the face of every die they rolled.");
      return;
    }
    send({ kind: "entered", values });
  };
  return el(
    "div",
    { class: "roll-helper", id: "help-elsewhere" },
    el("div", { class: "field" }, el("label", { for: "help-name" }, "Their name"), name),
    el("div", { class: "field" }, el("label", { for: "help-die-size" }, "Their mood’s die"), die),
    el("div", { class: "field" }, el("label", { for: "help-edge" }, "Its edge (they know their overload)"), edge),
    faces,
    el(
      "div",
      { class: "roll-actions" },
      el("button", { type: "button", id: "help-enter", class: "primary", on: { click: enter } }, "Use their die"),
      el("button", { type: "button", id: "help-roll-here", on: { click: () => send({ kind: "rolled" }) } }, "Roll it here for them"),
    ),
  );
}

/** A helper who is a character on this device (one device for the table, or a second character). */
function helperHere(others) {
  const who = el(
    "select",
    { id: "help-character" },
    el("option", { value: "" }, "Choose who helps"),
    ...others.map((c) => el("option", { value: c.id }, c.name)),
  );
  const moodHost = el("div", { id: "help-mood-host" });
  who.addEventListener("change", async () => {
    moodHost.replaceChildren();
    if (!who.value) return;
    await attempt("The helper’s sheet could not be loaded.", async () => {
      const helperSheet = (await api.nsuSheet(who.value)).sheet;
      moodHost.replaceChildren(helperForm(who.value, helperSheet));
    });
  });
  return el("div", {}, el("div", { class: "field" }, el("label", { for: "help-character" }, "Which character"), who), moodHost);
}

function helperForm(helperId, hs) {
  const options = hs.moods.map((m, line) => {
    const die = MOOD_LINE_DICE[line];
    const text = m ? `${m.name} — d${die}, level ${m.level} of ${die + 1}${m.overloaded ? ", overloaded" : ""}` : `Empty d${die} line — name a new mood`;
    return el("option", { value: String(line) }, text);
  });
  const mood = el("select", { id: "help-mood" }, ...options);
  const name = el("input", { type: "text", id: "help-mood-name", maxlength: 200 });
  const nameField = el("div", { class: "field" }, el("label", { for: "help-mood-name" }, "The helper’s new mood"), name);
  const dieValue = el("input", { type: "number", id: "help-die", min: 1, max: 8, inputmode: "numeric" });
  const dieLabel = el("label", { for: "help-die" }, "");
  // While one of their moods is overloaded, their die has an edge and is rolled twice.
  const overloaded = hs.moods.some((m) => m && m.overloaded);
  const second = el("input", { type: "number", id: "help-die-2", min: 1, max: 8, inputmode: "numeric", hidden: !overloaded, "aria-label": "Their second face" });
  const sync = () => {
    const line = Number(mood.value);
    nameField.hidden = hs.moods[line] !== null;
    const edge = !overloaded ? "" : hs.moods[line] && hs.moods[line].overloaded ? " (advantage: two faces)" : " (disadvantage: two faces)";
    dieLabel.textContent = `Their d${MOOD_LINE_DICE[line]}, rolled by hand${edge}`;
    dieValue.max = String(MOOD_LINE_DICE[line]);
    second.max = dieValue.max;
  };
  mood.addEventListener("change", sync);
  sync();
  const choice = () => {
    const line = Number(mood.value);
    return hs.moods[line] ? { kind: "existing", line } : { kind: "new", line, name: name.value.trim() };
  };
  const send = async (dice) => {
    const ok = await attempt("The helper’s die was not rolled.", async () => {
      const pending = await api.nsuRollHelp(w.id, helperId, choice(), dice);
      takePending(pending);
      await loadHelperSheet();
      w.step = S.help;
    });
    if (ok) render();
  };
  return el(
    "div",
    { class: "roll-helper" },
    el("div", { class: "field" }, el("label", { for: "help-mood" }, "Their mood (its level goes up by one)"), mood),
    nameField,
    el(
      "div",
      { class: "roll-actions" },
      el("button", { type: "button", id: "help-roll", on: { click: () => send({ kind: "rolled" }) } }, "Roll their die"),
    ),
    el(
      "div",
      { class: "roll-die-field" },
      dieLabel,
      dieValue,
      second,
      el(
        "button",
        {
          type: "button",
          id: "help-enter",
          on: {
            click: () => {
              const values = [dieValue, ...(overloaded ? [second] : [])].map((x) => Number(x.value));
              if (values.some((v) => !Number.isInteger(v) || v < 1)) {
                showError("Not yet:", "type the helper’s die.");
                return;
              }
              send({ kind: "entered", values });
            },
          },
        },
        "Use this die",
      ),
    ),
  );
}

// ---- choices and needs ----------------------------------------------------------------------

const isLastChoiceScreen = () => w.needIndex >= 0 && w.needIndex === w.needs.length - 1;

function renderChoices() {
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
      ...rolls.map((v, i) =>
        radio(`choice-${which}`, String(i), `${die} showing ${v}`, (ch[key] ?? 0) === i, (x) => {
          ch[key] = Number(x);
        }, `choice-${which}-${i}`),
      ),
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
        }, "choice-skill-plus"),
        radio("choice-skill", "minus", `Subtract ${plan.skill_modifier}`, ch.skill_sign === "minus", (x) => {
          ch.skill_sign = x;
        }, "choice-skill-minus"),
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
  return section(
    "The table’s choices",
    el("p", { id: "roll-table" }, tableWords()),
    el("p", { class: "muted hint" }, "Pre-selected: what is best for whoever makes each choice."),
    el("div", { id: "roll-choices" }, ...groups),
    cancelButton(),
  );
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

async function nextInChoices() {
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

// ---- the result -----------------------------------------------------------------------------

function renderResult() {
  const { record, rollerBefore, helperBefore, helperName } = w.result;
  const names = { roller: w.name, helper: helperName, rollerSheet: rollerBefore, helperSheet: helperBefore };
  const events = record.events.map((e) => el("li", {}, eventWords(e, names)));
  const detailHost = el("div", { id: "roll-detail-host" });
  return el(
    "div",
    { id: "roll-result", class: "roll-step roll-result", data: { winner: record.winner } },
    el("h3", { id: "roll-winner", class: `roll-winner ${record.winner}` }, winnerWords(record)),
    el("p", { class: "roll-outcome-text" }, `Wanted: ${record.roll.setup.desired_outcome}`),
    el("p", { id: "roll-result-dice" }, `Dice — ${diceWords(record, helperName)}.`),
    el("h4", {}, "Details granted"),
    el("ul", { id: "roll-grants", class: "roll-list" }, ...record.grants.map((g) => el("li", {}, grantWords(g)))),
    el("p", { class: "muted hint" }, GRANT_NOTE),
    ...scoutedPart(w.result.scouted),
    el("h4", {}, "On the sheet"),
    events.length > 0
      ? el("ul", { id: "roll-events", class: "roll-list" }, ...events)
      : el("p", { id: "roll-events", class: "muted" }, "Nothing changed on the sheet."),
    el(
      "div",
      { class: "roll-actions" },
      el("button", { type: "button", id: "roll-write-detail", on: { click: () => openDetailForm(detailHost) } }, "Write a harm / other detail on the character"),
      el("button", { type: "button", id: "roll-show-log", on: { click: () => openRollLog({ gameId: w.view.character.game_id, characterId: w.id, title: w.name }) } }, "Roll log"),
      el("button", { type: "button", id: "roll-undo", class: "danger", on: { click: undoRoll } }, "Undo this roll"),
      el("button", { type: "button", id: "roll-done", class: "primary", on: { click: () => dialog.close() } }, "Done"),
    ),
    detailHost,
  );
}

const SCOUT_WORDS = {
  won: "The roll was won: the card is seen.",
  accepted_details: "The details are accepted: the card is seen.",
  turned_back: "Turned back: the card stays unseen.",
};

/**
 * What a scouting roll found. The card's face comes from the core only for a device that may
 * see this character's private things; elsewhere the result says who may look.
 */
function scoutedPart(scouted) {
  if (!scouted) return [];
  const parts = [el("h4", {}, "Scouting"), el("p", { id: "roll-scouted" }, `${w.scoutWords ?? "The card"} — ${SCOUT_WORDS[scouted.outcome]}`)];
  const face = scouted.face;
  if (face) {
    const line = (label, text) => (text ? [el("dt", {}, label), el("dd", {}, text)] : []);
    parts.push(
      el(
        "div",
        { id: "roll-scouted-card", class: "roll-scouted-card" },
        el("p", { class: "muted" }, `Only ${w.name}’s player sees this until the card is revealed.`),
        el("h5", { id: "roll-scouted-name" }, face.name),
        el(
          "dl",
          {},
          ...line("Description", face.description),
          ...line("Danger", face.danger),
          ...line("Treasure or knowledge", face.treasure),
          ...line("Collateral can harm", face.collateral_harms),
        ),
      ),
    );
  } else if (scouted.outcome !== "turned_back") {
    parts.push(el("p", { class: "muted" }, `${w.name}’s player looks at the card on their own device (World tab).`));
  }
  return parts;
}

/** Undoes the settled roll and the dice before it, so nothing of the roll stays on the table. */
async function undoRoll() {
  const ok = await attempt("The roll was not undone.", async () => {
    await api.undoCharacter(w.id);
    for (let i = 0; i < 2; i++) {
      if (!(await api.nsuPendingRoll(w.id))) break;
      await api.undoCharacter(w.id);
    }
    w.view = await api.nsuSheet(w.id);
    w.result = null;
    w.pending = null;
    w.step = S.odds;
  });
  if (ok) {
    showNotice(w.scout ? "The roll was undone, and the scouting with it: the action is back." : "The roll was undone: the sheet is as it was before it.");
    render();
    app.refresh().catch(() => {});
  }
}

function openDetailForm(host) {
  if (host.firstChild) {
    byId("detail-text").focus();
    return;
  }
  const gameId = w.view.character.game_id;
  const kind = el(
    "select",
    { id: "detail-kind" },
    el("option", { value: "harm" }, "Harm detail (a negative hard detail the Arbiters mark as harm)"),
    el("option", { value: "negative" }, "Other detail, negative"),
    el("option", { value: "positive" }, "Other detail, positive"),
    el("option", { value: "scene" }, "Scene detail on a location"),
    el("option", { value: "npc" }, "Detail on an NPC"),
    el("option", { value: "npc_harm" }, "Harm detail on an NPC"),
  );
  // With the World at risk every detail written here ticks the clock of the location where
  // the party is (the core reads the roll and says which clock ticked); at home none does.
  const hint = el(
    "p",
    { class: "hint", id: "detail-collateral-hint" },
    w.setup.atRisk === "world"
      ? "The World was at risk: each detail you write ticks the collateral clock of the party's location (at home, none)."
      : "The character was at risk: no collateral clock ticks.",
  );
  const location = el("select", { id: "detail-location" });
  const locationField = el("div", { class: "field", hidden: true }, el("label", { for: "detail-location" }, "Location"), location);
  const npc = el("select", { id: "detail-npc" });
  const npcSign = el(
    "select",
    { id: "detail-npc-sign" },
    el("option", { value: "negative" }, "Negative"),
    el("option", { value: "positive" }, "Positive"),
  );
  const signField = el("div", { class: "field" }, el("label", { for: "detail-npc-sign" }, "Sign"), npcSign);
  const npcFields = el("div", { hidden: true }, el("div", { class: "field" }, el("label", { for: "detail-npc" }, "NPC"), npc), signField);
  // A card this device may not read is named by its back only.
  const cardLabel = (l) => (l.name ? l.name : `Face-down card${l.danger_level ? `, D${l.danger_level} R${l.reward_level}` : ""}`);
  kind.addEventListener("change", async () => {
    const onNpc = kind.value === "npc" || kind.value === "npc_harm";
    locationField.hidden = kind.value !== "scene";
    npcFields.hidden = !onNpc;
    signField.hidden = kind.value !== "npc";
    if (onNpc && npc.options.length === 0) {
      await attempt("The NPCs could not be read.", async () => {
        const world = await api.nsuWorld(gameId);
        npc.replaceChildren(...(world.npcs ?? []).map((n) => el("option", { value: n.id }, n.name)));
      });
      return;
    }
    if (kind.value !== "scene" || location.options.length > 0) return;
    await attempt("The locations could not be read.", async () => {
      const world = await api.nsuWorld(gameId);
      location.replaceChildren(...world.locations.map((l) => el("option", { value: l.id }, cardLabel(l))));
    });
  });
  const text = el("input", { type: "text", id: "detail-text", maxlength: 200 });
  const target = () => {
    switch (kind.value) {
      case "harm":
        return { kind: "harm" };
      case "negative":
      case "positive":
        return { kind: "other", positive: kind.value === "positive" };
      case "scene":
        return location.value ? { kind: "scene", location: location.value } : null;
      case "npc":
        return npc.value ? { kind: "npc", npc: npc.value, positive: npcSign.value === "positive" } : null;
      default:
        return npc.value ? { kind: "npc_harm", npc: npc.value } : null;
    }
  };
  const save = async (event) => {
    event.preventDefault();
    const words = text.value.trim();
    if (words === "") {
      showError("Not yet:", "write the detail.");
      return;
    }
    const where = target();
    if (!where) {
      showError("Not yet:", kind.value === "scene" ? "this game has no location card to write on." : "this game has no NPC to write on; add one in the World screen.");
      return;
    }
    let written = null;
    const ok = await attempt("The detail was not written.", async () => {
      written = await api.nsuRollWriteDetail(w.id, w.result.event_id, where, words);
      if (written.sheet) w.view = written.sheet;
    });
    if (!ok || !written) return;
    text.value = "";
    // One undo takes back the detail and its tick together (one game step); a detail on
    // the sheet that ticked nothing is the character's own step.
    showNotice(written.message, async () => {
      const undone = await attempt("That could not be undone.", async () => {
        if (written.undo === "character") await api.undoCharacter(w.id);
        else await api.undoGame(gameId);
        w.view = await api.nsuSheet(w.id);
      });
      if (undone) showNotice(`Took back ${quoted(words)}${written.ticked ? " and its collateral tick" : ""}.`);
      app.refresh().catch(() => {});
    });
    app.refresh().catch(() => {});
  };
  host.replaceChildren(
    el(
      "form",
      { id: "roll-detail-form", class: "roll-detail-form", autocomplete: "off", on: { submit: save } },
      hint,
      el("div", { class: "field" }, el("label", { for: "detail-kind" }, "Kind"), kind),
      locationField,
      npcFields,
      el("div", { class: "field" }, el("label", { for: "detail-text" }, "The detail"), text),
      el("button", { type: "submit", id: "detail-save", class: "primary" }, "Write it down"),
    ),
  );
  text.focus();
}
