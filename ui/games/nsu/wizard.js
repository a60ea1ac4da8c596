// The creation wizard of a No Stone Unturned character (`#wizard`, RULES.md §1.2), shown on
// the sheet screen in place of the sheet: pronouns & look → three moods (d8, d6, d4) →
// aspects → three sentiments → three skills at 1 → rumours → done. The name is already set
// (Rename changes it). Each step is saved when the person leaves it (Next, Back or a step in
// the step list), so every step can be revisited; Finish is enabled once the core says
// creation misses nothing (`creation_missing`).
//
//   import { renderWizard, wizardAt } from "./wizard.js";
//   renderWizard(byId("wizard"), view, moves);   // view: {saved: NsuSheetView, wizard: {step}}; moves: sheet.js's
//
// Only sheet.js calls these; saving goes through its `change`.

import { el } from "../../kit/dom.js";
import { ASPECTS, ASPECT_NAMES, aspectsProblem, creationMoodLines } from "./sheet-edits.js";

/** The sheet's moves {change, closeWizard, showWizardStep, rename}: sheet.js passes them in (it imports this file). */
let sheetMoves = null;

const STEPS = ["Pronouns & look", "Moods", "Aspects", "Sentiments", "Skills", "Rumours", "Done"];
const DONE = STEPS.length - 1;
/** Which step fixes each thing the core may report missing. */
const STEP_OF_MISSING = [
  [/mood/, 1],
  [/aspect/, 2],
  [/sentiment/, 3],
  [/skill/, 4],
];
const CREATION_SKILL_LINES = [0, 1, 2];
const SENTIMENT_LINES = [0, 1, 2];

/** The step to open at: the first one with something missing, else the start or the end. */
export function wizardAt(saved) {
  const missing = saved.creation_missing;
  const sheet = saved.sheet;
  const untouched =
    sheet.pronouns === "" && sheet.look === "" && sheet.moods.every((m) => m === null) && sheet.aspects === null;
  if (untouched) return 0;
  const steps = missing.map(stepOfMissing).filter((s) => s !== null);
  return steps.length > 0 ? Math.min(...steps) : DONE;
}

function stepOfMissing(text) {
  const found = STEP_OF_MISSING.find(([pattern]) => pattern.test(text));
  return found ? found[1] : null;
}

/** Renders the wizard at `view.wizard.step` into `host`. */
export function renderWizard(host, view, moves) {
  sheetMoves = moves;
  const step = view.wizard.step;
  const saved = view.saved;
  const { node, collect } = STEP_VIEWS[step](saved);
  const message = el("p", { id: "wizard-message", class: "wizard-message", role: "alert" });

  /** Saves this step, then goes to step `target`, or "finish"es, or "close"s the wizard. */
  const leave = async (target) => {
    const result = collect();
    if (result.problem) {
      message.textContent = result.problem;
      return;
    }
    const ok = result.edits.length === 0 || (await sheetMoves.change(`The ${STEPS[step].toLowerCase()} step was not saved.`, result.edits, result.words));
    if (!ok) return;
    if (target === "finish") {
      if (view.saved.creation_missing.length === 0) sheetMoves.closeWizard();
      else sheetMoves.showWizardStep(DONE);
    } else if (target === "close") {
      sheetMoves.closeWizard();
    } else {
      sheetMoves.showWizardStep(target);
    }
  };

  const missing = saved.creation_missing;
  const stepList = el(
    "ol",
    { id: "wizard-steps", class: "wizard-steps", "aria-label": "Creation steps" },
    ...STEPS.map((name, i) => {
      const open = missing.some((m) => stepOfMissing(m) === i);
      return el(
        "li",
        {},
        el(
          "button",
          {
            type: "button",
            class: `wizard-step${i === step ? " current" : ""}${open ? " missing" : ""}`,
            data: { step: String(i), focusKey: `wizard-step-${i}` },
            "aria-current": i === step ? "step" : null,
            on: { click: () => i !== step && leave(i) },
          },
          // Named by what it shows ("3 Moods"), so a voice user can say it; a step still
          // needed says so to a screen reader too (its mark is only a colour).
          el("span", { class: "step-number" }, String(i + 1)),
          " ",
          el("span", { class: i === step ? "step-name" : "step-name phone-hidden" }, name),
          open ? el("span", { class: "visually-hidden" }, ", still needed") : null,
        ),
      );
    }),
  );

  host.replaceChildren(
    el(
      "div",
      { class: "wizard-head" },
      el("h3", { id: "wizard-heading", tabindex: "-1" }, `Creating ${saved.character.name}`),
      el("p", { id: "wizard-step-indicator", class: "wizard-indicator" }, `Step ${step + 1} of ${STEPS.length}: ${STEPS[step]}`),
    ),
    stepList,
    el("div", { id: "wizard-body", class: "wizard-body", data: { step: String(step) } }, node),
    message,
    el(
      "div",
      { class: "wizard-nav" },
      el("button", { type: "button", id: "wizard-back", disabled: step === 0, on: { click: () => leave(step - 1) } }, "← Back"),
      step < DONE
        ? el("button", { type: "button", id: "wizard-next", class: "primary", on: { click: () => leave(step + 1) } }, "Next →")
        : null,
      el(
        "button",
        {
          type: "button",
          id: "wizard-finish",
          class: step === DONE ? "primary" : "",
          disabled: missing.length > 0,
          "aria-describedby": "wizard-finish-note",
          on: { click: () => leave("finish") },
        },
        "Finish",
      ),
      el(
        "span",
        { id: "wizard-finish-note", class: "muted wizard-finish-note" },
        missing.length > 0 ? `Finish needs ${missing.join(", ")}.` : "Everything creation needs is set.",
      ),
      el("button", { type: "button", id: "wizard-close", class: "wizard-close", on: { click: () => leave("close") } }, "Back to the sheet"),
    ),
  );
}

/** A labelled text field for a wizard step (its value is read on leaving the step). */
function stepField(id, label, value, { multiline = false, hint = null } = {}) {
  const control = multiline
    ? el("textarea", { id, rows: 4, data: { focusKey: id } })
    : el("input", { type: "text", id, autocomplete: "off", data: { focusKey: id } });
  control.value = value ?? "";
  return {
    control,
    node: el(
      "div",
      { class: "sheet-field" },
      el("label", { for: id }, label),
      hint ? el("p", { class: "muted field-hint", id: `${id}-hint` }, hint) : null,
      control,
    ),
  };
}

const intro = (text, id = null) => el("p", { class: "wizard-intro", id }, text);

/**
 * A step that names lines of the sheet (moods, sentiments, skills): its intro paragraphs, then
 * a field per line ({line, field}); saved as one edit `type` per line, with `more` in each.
 */
function lineNamesStep(intros, fields, type, words, more = {}) {
  return {
    node: el("div", { class: "wizard-fields" }, ...intros, ...fields.map((f) => f.field.node)),
    collect: () => ({
      edits: fields.map((f) => ({ type, line: f.line, name: f.field.control.value, ...more })),
      words,
    }),
  };
}

// Each step: (saved) → {node, collect: () => {edits, words} | {problem}}.
const STEP_VIEWS = [
  function who(saved) {
    const pronouns = stepField("wizard-pronouns", "Pronouns", saved.sheet.pronouns);
    const look = stepField("wizard-look", "Look", saved.sheet.look, { multiline: true, hint: "How others see your character at a glance." });
    return {
      node: el(
        "div",
        { class: "wizard-fields" },
        el(
          "p",
          { class: "wizard-name" },
          "Name: ",
          el("strong", { id: "wizard-name" }, saved.character.name),
          " ",
          el("button", { type: "button", id: "wizard-rename", on: { click: () => sheetMoves.rename() } }, "Rename"),
        ),
        pronouns.node,
        look.node,
      ),
      collect: () => ({
        edits: [
          { type: "text", field: "pronouns", text: pronouns.control.value.trim() },
          { type: "text", field: "look", text: look.control.value.trim() },
        ],
        words: "Saved pronouns and look.",
      }),
    };
  },

  function moods(saved) {
    const lines = creationMoodLines(saved.sheet);
    const fields = [8, 6, 4].map((die) => {
      const line = lines[die];
      const mood = saved.sheet.moods[line];
      return { die, line, field: stepField(`wizard-mood-d${die}`, `Mood on a d${die} line`, mood ? mood.name : "") };
    });
    return lineNamesStep(
      [
        intro("Name three moods your character often feels: one on a d8 line, one on a d6 line and one on a d4 line. The other three lines stay open for play."),
        // Part 1's advice on which mood goes where: the key choice of creation (audit C3).
        intro(
          "A big mood die helps when the World is at risk and hurts when the Character is. So put on the d8 the mood your character acts from when taking care not to harm the world around them, on the d4 the one they act from when protecting themselves, and on the d6 one in between.",
          "wizard-moods-advice",
        ),
      ],
      fields,
      "mood-name",
      "Saved the moods.",
    );
  },

  function aspects(saved) {
    const current = saved.sheet.aspects ?? { body: "", mind: "", heart: "" };
    const selects = ASPECTS.map((aspect) => {
      const id = `wizard-aspect-${aspect}`;
      const select = el(
        "select",
        { id, data: { focusKey: id, aspect } },
        el("option", { value: "" }, "choose a die"),
        ...["d4", "d6", "d8"].map((d) => el("option", { value: d }, d)),
      );
      select.value = current[aspect];
      return { aspect, select, node: el("div", { class: "sheet-field" }, el("label", { for: id }, ASPECT_NAMES[aspect]), select) };
    });
    return {
      node: el(
        "div",
        { class: "wizard-fields" },
        intro(
          "Give Body, Mind and Heart one die each: one d4, one d6 and one d8. Every action roll rolls the aspect die the Arbiters pick; it is your die when the Character is at risk, and theirs when the World is. A bigger aspect die guards you better, often at the world’s expense.",
          "wizard-aspects-intro",
        ),
        el(
          "ul",
          { class: "wizard-aspect-guide" },
          el("li", {}, el("strong", {}, "Body"), ": strength, speed and athletic feats."),
          el("li", {}, el("strong", {}, "Mind"), ": quick thinking and what you know."),
          el("li", {}, el("strong", {}, "Heart"), ": reaching other people and pushing through hardship."),
        ),
        el("div", { class: "wizard-aspects" }, ...selects.map((s) => s.node)),
      ),
      collect: () => {
        const chosen = Object.fromEntries(selects.map((s) => [s.aspect, s.select.value]));
        if (Object.values(chosen).every((v) => v === "") && saved.sheet.aspects === null) return { edits: [], words: "" };
        const problem = aspectsProblem(chosen);
        if (problem) return { problem };
        return {
          edits: [{ type: "aspects", aspects: chosen }],
          words: `Aspects: Body ${chosen.body}, Mind ${chosen.mind}, Heart ${chosen.heart}.`,
        };
      },
    };
  },

  function sentiments(saved) {
    const fields = SENTIMENT_LINES.map((line) => ({
      line,
      field: stepField(`wizard-sentiment-${line}`, `Sentiment ${line + 1}`, saved.sheet.sentiments[line]?.name ?? ""),
    }));
    return lineNamesStep(
      [
        intro(
          "Write three sentiments: things your character holds dear, such as a possession, a belief or a relationship. Try not to take more than one of each kind. A line may stay empty until everyone is introduced, if you want a bond with another character.",
          "wizard-sentiments-intro",
        ),
      ],
      fields,
      "sentiment-name",
      "Saved the sentiments.",
    );
  },

  function skills(saved) {
    const fields = CREATION_SKILL_LINES.map((line) => {
      const skill = saved.sheet.skills[line];
      return {
        line,
        field: stepField(`wizard-skill-${line}`, `Skill ${line + 1}${skill ? ` (±${skill.modifier})` : " (starts at ±1)"}`, skill?.name ?? ""),
      };
    });
    return lineNamesStep(
      [intro("Name three skills. Each starts with a modifier of 1, added to or taken from the aspect die as you like.")],
      fields,
      "skill-name",
      "Saved the skills.",
      { modifier: 1 },
    );
  },

  function rumours(saved) {
    const rumours = stepField("wizard-rumours", "Rumours", saved.sheet.rumours, {
      multiline: true,
      hint:
        "What your character has heard about the two locations you wrote. A rumour that would give away a face-down card can be marked private on the sheet (✎ Edit): then only you read it.",
    });
    return {
      node: el("div", { class: "wizard-fields" }, rumours.node),
      collect: () => ({ edits: [{ type: "text", field: "rumours", text: rumours.control.value.trim() }], words: "Saved the rumours." }),
    };
  },

  function done(saved) {
    const missing = saved.creation_missing;
    return {
      node: el(
        "div",
        { class: "wizard-fields", id: "wizard-summary" },
        missing.length === 0
          ? intro("Everything creation needs is set. Finish, then introduce your character to the table.")
          : el(
              "div",
              {},
              intro("Creation still needs:"),
              el(
                "ul",
                { id: "wizard-missing", class: "wizard-missing" },
                ...missing.map((m) => {
                  const target = stepOfMissing(m);
                  return el(
                    "li",
                    {},
                    m,
                    " ",
                    target === null
                      ? null
                      : el("button", { type: "button", class: "small", data: { step: String(target) }, on: { click: () => sheetMoves.showWizardStep(target) } }, `Go to ${STEPS[target]}`),
                  );
                }),
              ),
            ),
      ),
      collect: () => ({ edits: [], words: "" }),
    };
  },
];
