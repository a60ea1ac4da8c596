// The No Stone Unturned character sheet (RULES.md §1.1): the Sheet tab of the NSU screen
// (screen.js, in the shared frame), laid out like the official sheet on a wide window and
// as one column on a phone. Every box, toggle and name on it can be changed by touch; each
// change saves the whole sheet (saveNsuSheet) as one undoable step and shows a toast with
// Undo. The creation wizard (wizard.js) lives in the same tab.
//
//   import { initNsuSheet, sheetRoot, loadSheet, forgetSheet } from "./sheet.js";
//   initNsuSheet({ run, toast, renameCharacter, setTitle, focusHeading });  // once, from screen.js
//   await loadSheet(characterId);   // renders into sheetRoot(), which the screen shows
//
// The tab's state is `view` below: the last sheet the core saved or sent. A refused change
// shows the core's message in the error area and the tab re-renders from that sheet.
// Text fields save when they are left or Enter is pressed, never on each keystroke.

import * as api from "./api.js";
import { el, svgEl } from "../../kit/dom.js";
import { listOrNone } from "../../kit/forms.js";
import { afterPress } from "../../kit/press.js";
import { sheetEditing, modeToggle, textValue, textBlock, tapValue, labelledValue } from "../../kit/sheet-mode.js";
import {
  MOOD_LINE_DICE,
  ASPECTS,
  ASPECT_NAMES,
  HARM_SLOTS,
  SENTIMENT_WORDS,
  editSheet,
  sameSheet,
  trackLength,
  overloadThreshold,
  tappedLevel,
  sentimentLevel,
  aspectsProblem,
  markedLines,
  joinMarked,
} from "./sheet-edits.js";
import { renderWizard, wizardAt } from "./wizard.js";
import { openRollWizard } from "./roll.js";
import { openHelpedWith } from "./helped.js";
import { openReference } from "./reference.js";

/** The official sheet draws d8 as a diamond, d6 as a square and d4 as a triangle. */
const SHAPES = { 8: "12,1.5 22.5,12 12,22.5 1.5,12", 6: "3,3 21,3 21,21 3,21", 4: "12,2.5 22.5,21 1.5,21" };
const CIRCLE = "circle";

let app = null; // {run, toast, renameCharacter, setTitle, focusHeading}
let view = null; // {id, saved: NsuSheetView, wizard: null | {step}, notes: string}
let queue = Promise.resolve();
let root = null; // the Sheet tab's content, built once; the screen shows it in the frame's body
// Play or edit (kit/sheet-mode.js): in play mode the values read as text, names and dice roll
// at a tap, boxes and counters step; in edit mode every value is its field. Set by render().
let editing = false;

/** One part of the tab by id (the tab may not be in the page while another tab shows). */
const part = (id) => root.querySelector(`#${id}`);

/** Builds the (detached) tab and listens for undo from the toast. */
export function initNsuSheet(hooks) {
  app = hooks;
  document.addEventListener("sheetkeeper:undone", (event) => {
    const undo = event.detail;
    if (view && undo && undo.kind === "character" && undo.id === view.id) reload({ quiet: undo.linked === true });
  });
  // The cards' order follows the layout (one column or two): drawn again when it changes
  // (not the creation wizard, whose boxes may hold what is not saved yet).
  matchMedia(WIDE).addEventListener("change", () => {
    if (view && !view.wizard) render();
  });
  root = el(
    "div",
    { id: "sheet-view", class: "sheet-screen" },
    el(
      "div",
      { class: "sheet-actions", role: "group", "aria-label": "This character" },
      el("button", { type: "button", id: "sheet-roll", class: "primary", on: { click: () => roll() } }, "Roll"),
      el("p", { id: "sheet-roll-why", class: "sheet-roll-why muted", hidden: true }),
      el("span", { id: "sheet-mode-slot", class: "sheet-mode-slot" }),
      el("button", { type: "button", id: "sheet-rename", class: "sheet-rename", on: { click: rename } }, "Rename"),
      el("button", { type: "button", id: "sheet-helped", on: { click: helpedWith } }, "I helped…"),
      el("button", { type: "button", id: "sheet-reference", on: { click: () => openReference() } }, "Rules"),
    ),
    el("div", { id: "sheet-strip", class: "sheet-strip", role: "status", "aria-label": "Moods and harm at a glance", data: { layout: "bar" } }),
    el(
      "div",
      { id: "sheet-creation", class: "sheet-creation", role: "status" },
      el("p", { id: "sheet-creation-text" }),
      el("button", { type: "button", id: "wizard-open", class: "primary", on: { click: () => openWizard() } }, "Continue creation"),
    ),
    el("div", { id: "sheet-body", class: "sheet-grid" }),
    el("section", { id: "wizard", class: "wizard", hidden: true, "aria-labelledby": "wizard-heading" }),
  );
}

/** The Sheet tab's element (the screen puts it in its body). */
export const sheetRoot = () => root;

/** The character whose sheet the tab holds, or null. */
export const sheetCharacter = () => (view ? view.saved.character : null);

/** The character's notes: on the character view when the core sends them there, else from the games list. */
async function notesOf(character) {
  if (typeof api.setCharacterNotes !== "function") return null;
  if (typeof character.notes === "string") return character.notes;
  const games = await api.listGames();
  const game = games.find((g) => g.id === character.game_id);
  const c = game && game.characters.find((x) => x.id === character.id);
  return c && typeof c.notes === "string" ? c.notes : "";
}

/** Loads the sheet of character `id` into the tab; resolves true once it is rendered. */
export async function loadSheet(id) {
  let ok = false;
  await app.run("The sheet could not be opened.", async () => {
    const saved = await api.nsuSheet(id);
    const notes = await notesOf(saved.character);
    const wizard = view && view.id === id ? view.wizard : null;
    view = { id, saved, wizard, notes };
    render();
    ok = true;
  });
  return ok;
}

/** Forgets the sheet (the screen closed or another tab shows). */
export function forgetSheet() {
  view = null;
  if (!root) return;
  part("sheet-body").replaceChildren();
  part("wizard").replaceChildren();
}

/**
 * Reads and draws the sheet again (once a press under way ends); `quiet` when nobody here
 * asked (see `app.run`).
 */
async function reload({ quiet = false } = {}) {
  if (!view) return;
  const id = view.id;
  const again = async () => {
    const saved = await api.nsuSheet(id);
    const notes = await notesOf(saved.character);
    if (!view || view.id !== id) return;
    view.saved = saved;
    view.notes = notes;
    // Drawn once a press under way ends (kit/press.js): the table's news landed so, the
    // moment a tap took the focus out of a field, and the tapped box was replaced.
    afterPress(render);
  };
  // In turn with the changes: a read begun before a save cannot draw over what it saved.
  const inTurnWithChanges = (task) => {
    const step = queue.then(task);
    queue = step.catch(() => {});
    return step;
  };
  await app.run("The sheet could not be loaded.", again, { quiet, queue: inTurnWithChanges });
}

/**
 * The action roll (roll.js): a mood, aspect or skill tapped on the sheet (`start`: {moodLine} |
 * {aspect} | {skillLine}) opens the quick roll with it filled in; nothing tapped, the wizard.
 * The sheet reloads once it closes.
 */
async function roll(start = {}) {
  if (!view) return;
  // A mood, aspect or skill tapped: the quick roll (one screen); the toolbar's Roll: the wizard.
  const tapped = Object.keys(start).length > 0;
  await openRollWizard(view.id, tapped ? { ...start, quick: true } : start);
  await reload();
}

/** "I helped with…": a roll made on another device changes this character's mood. */
async function helpedWith() {
  if (!view) return;
  const done = await openHelpedWith(view.saved, app);
  if (done) await reload();
}

async function rename() {
  if (!view) return;
  await app.renameCharacter(view.saved.character);
  await reload();
}

function openWizard(step = null) {
  if (!view) return;
  view.wizard = { step: step ?? wizardAt(view.saved) };
  render();
  part("wizard-heading")?.focus();
}

/**
 * Saves the sheet after `edits` (one edit, a list, or a function of the sheet) as one change,
 * then toasts `message` (a string or a function of the new view) with Undo. Changes run one
 * after another, each on the sheet the previous one saved. Resolves true when the sheet is
 * saved (or nothing needed saving), false when the core refused it.
 */
export function change(title, edits, message) {
  if (!view) return Promise.resolve(false);
  const id = view.id;
  const step = queue.then(async () => {
    let ok = false;
    await app.run(title, async () => {
      if (!view || view.id !== id) return;
      const before = view.saved.sheet;
      const after =
        typeof edits === "function"
          ? edits(before)
          : [].concat(edits).reduce((sheet, edit) => editSheet(sheet, edit), before);
      if (sameSheet(before, after)) {
        ok = true;
        render();
        return;
      }
      try {
        const saved = await api.saveNsuSheet(id, after);
        if (view && view.id === id) view.saved = saved;
      } finally {
        // A refused sheet re-renders from the last saved one.
        render();
      }
      ok = true;
      app.toast(typeof message === "function" ? message(view.saved) : message, { kind: "character", id });
    });
    return ok;
  });
  queue = step;
  return step;
}

/** The sheet tab's state, for the wizard. */
export const currentView = () => view;

/** Closes the wizard and shows the sheet. */
export function closeWizard() {
  if (!view) return;
  view.wizard = null;
  render();
  app.focusHeading();
}

/** Moves the wizard to `step` (already saved by the caller). */
export function showWizardStep(step) {
  if (!view || !view.wizard) return;
  view.wizard.step = step;
  render();
  part("wizard-heading")?.focus();
}

// ---- rendering ----------------------------------------------------------------------------

/**
 * Re-renders the tab from `view`, keeping the focus on the control with the same
 * data-focus-key, and keeping what the person is typing in a text field that was redrawn.
 */
function render() {
  if (!view) return;
  const active = document.activeElement;
  const focusKey = active?.dataset?.focusKey;
  const typing =
    active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA") && active.type !== "checkbox"
      ? { value: active.value, start: active.selectionStart, end: active.selectionEnd }
      : null;

  const { character, creation_missing: missing } = view.saved;
  app.setTitle(character);
  const creating = missing.length > 0;
  editing = sheetEditing(view.id, creating);
  root.dataset.mode = editing ? "edit" : "play";
  part("sheet-mode-slot").replaceChildren(
    view.wizard ? "" : modeToggle({ id: "sheet-mode", characterId: view.id, editing, onToggle: () => render() }),
  );
  part("sheet-creation").hidden = !creating || view.wizard !== null;
  part("sheet-creation-text").textContent = creating
    ? `Creation is not finished. Still needed: ${missing.join(", ")}.`
    : "";
  part("wizard-open").textContent = "Continue creation";
  // A roll needs the aspects' dice (a mood may be named in the roll itself), so a half-made
  // character rolls too; without aspects the reason shows beside the button (no hover on a phone).
  const rolls = canRoll();
  const roller = part("sheet-roll");
  roller.disabled = !rolls;
  const why = part("sheet-roll-why");
  why.hidden = rolls;
  why.textContent = rolls ? "" : "Give Body, Mind and Heart their dice to roll.";
  if (rolls) roller.removeAttribute("aria-describedby");
  else roller.setAttribute("aria-describedby", "sheet-roll-why");
  renderStrip(view.saved);
  part("sheet-body").hidden = view.wizard !== null;
  part("wizard").hidden = view.wizard === null;
  if (view.wizard) {
    part("sheet-body").replaceChildren();
    renderWizard(part("wizard"), view, { change, closeWizard, showWizardStep, rename });
  } else {
    part("wizard").replaceChildren();
    renderSheet(part("sheet-body"), view.saved);
  }

  if (focusKey) {
    const again = root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again && again !== active) {
      again.focus();
      if (typing && again.value !== typing.value && "value" in again) {
        again.value = typing.value;
        try {
          again.setSelectionRange(typing.start, typing.end);
        } catch {
          // Not every field keeps a selection (number inputs); the value is what matters.
        }
      }
    }
  }
}

/** The sticky one-line summary on a phone: each mood's level (overload marked) and harm. */
function renderStrip(saved) {
  const sheet = saved.sheet;
  const moods = sheet.moods
    .map((m, line) => (m ? `${m.name} ${m.level}/${trackLength(MOOD_LINE_DICE[line])}${m.overloaded ? " ⚠ overloaded" : ""}` : null))
    .filter(Boolean);
  const harm = `Harm ${sheet.harm.length}/${HARM_SLOTS}${saved.overcome ? " — Overcome" : ""}`;
  part("sheet-strip").replaceChildren(
    ...moods.map((t) => el("span", { class: `strip-item${t.includes("overloaded") ? " over" : ""}` }, t)),
    el("span", { class: `strip-item${saved.overcome ? " over" : ""}` }, harm),
  );
}

/**
 * Roll from the sheet: once the aspects have their dice (the core keeps none until all three
 * differ), even while creation goes on; the roll itself may name a new mood. The line beside
 * the Roll button says why otherwise.
 */
const canRoll = () => Boolean(view && view.saved.sheet.aspects);

/** From this width the sheet is two columns (sheet.css), each card as tall as its content. */
const WIDE = "(min-width: 900px)";

function renderSheet(host, saved) {
  const sheet = saved.sheet;
  const [who, aspects, moods, skills, details, sentiments, scars, recovery, rumours, notes] = [
    whoCard(sheet),
    aspectsCard(sheet),
    moodsCard(sheet),
    skillsCard(sheet),
    detailsCard(sheet, saved.overcome),
    sentimentsCard(sheet),
    scarsCard(sheet),
    recoveryCard(sheet),
    rumoursCard(sheet),
    notesCard(saved),
  ];
  // Wide, two columns of cards stacked each at its own height (no card stretched beside a
  // taller one: UX review D24), read column by column; narrow, one column, moods early.
  const parts = matchMedia(WIDE).matches
    ? [
        who,
        el("div", { class: "sheet-col" }, aspects, skills, sentiments, rumours),
        el("div", { class: "sheet-col" }, moods, details, scars, recovery),
        notes,
      ]
    : [who, aspects, moods, skills, details, sentiments, scars, recovery, rumours, notes];
  host.replaceChildren(...parts.filter(Boolean));
}

/** An SVG die shape (d8 diamond, d6 square, d4 triangle) or a circle, for boxes and badges. */
export function shape(kind, cls = "shape-icon") {
  const part =
    kind === CIRCLE
      ? svgEl("circle", { cx: "12", cy: "12", r: "9.5", class: "shape" })
      : svgEl("polygon", { points: SHAPES[kind], class: "shape" });
  return svgEl("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false", class: cls }, part);
}

function dieBadge(die, extra = "") {
  return el("span", { class: `die-badge die-d${die} ${extra}`.trim() }, shape(die), el("span", { class: "die-text" }, `d${die}`));
}

/** A die badge that starts a roll with what it stands for filled in (once the aspects have dice). */
function rollBadge(die, label, start, key, extra = "") {
  if (!canRoll()) return dieBadge(die, extra);
  return button(
    { class: `die-badge roll-badge die-d${die} ${extra}`.trim(), "aria-label": `d${die}: ${label}`, title: label, data: { focusKey: key }, on: { click: () => roll(start) } },
    shape(die),
    el("span", { class: "die-text" }, `d${die}`),
  );
}

function card(area, heading, subtitle, ...children) {
  const id = `sheet-${area}-heading`;
  return el(
    "section",
    { class: `sheet-card sheet-${area}`, "aria-labelledby": id },
    el("h3", { id, class: "sheet-card-heading" }, heading, subtitle ? el("span", { class: "sheet-sub" }, subtitle) : null),
    ...children,
  );
}


/**
 * The name box of a `kind` line (mood, skill, sentiment; `item` the one on it, or null): a
 * name committed is the change `${kind}-name` (with `extra`), said as `said(name)`; cleared, it
 * empties the line.
 */
function lineName(kind, line, item, { label, placeholder, extra = {}, said, tap = null, open = "open line" }) {
  if (!editing) {
    if (item && tap) return tapValue({ ...tap, text: item.name, cls: `${kind}-name ${tap.cls ?? ""}`.trim() });
    return textValue(item ? item.name : "", { cls: `${kind}-name`, empty: open });
  }
  return textField({
    cls: `${kind}-name`,
    key: `${kind}-${line}-name`,
    label,
    value: item ? item.name : "",
    placeholder,
    onCommit: (name) =>
      change(
        `The ${kind} was not saved.`,
        { type: `${kind}-name`, line, name, ...extra },
        name.trim() === "" ? `Cleared ${kind} line ${line + 1}.` : said(name.trim()),
      ),
  });
}

/**
 * A text field that saves when it is left or Enter is pressed (not on each keystroke).
 * `onCommit(text)` runs only when the text differs from `value`.
 */
export function textField({ id = null, cls, key, label, value, multiline = false, placeholder = null, visibleLabel = false, onCommit }) {
  const attrs = {
    id,
    class: cls,
    data: { focusKey: key },
    placeholder,
    autocomplete: "off",
    spellcheck: multiline ? "true" : "false",
  };
  if (!visibleLabel) attrs["aria-label"] = label;
  const input = multiline ? el("textarea", { ...attrs, rows: 3 }) : el("input", { ...attrs, type: "text" });
  input.value = value ?? "";
  const commit = () => {
    if (input.value !== (value ?? "")) {
      value = input.value;
      onCommit(input.value);
    }
  };
  input.addEventListener("change", commit);
  if (!multiline) {
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        commit();
      }
    });
  }
  if (!visibleLabel) return input;
  if (!input.id) input.id = `sheet-field-${key}`;
  return el("div", { class: "sheet-field" }, el("label", { for: input.id }, label), input);
}

function button(attrs, ...children) {
  return el("button", { type: "button", ...attrs }, ...children);
}

const quoted = (text) => `“${text}”`;

/** A small button on a listed detail (class `${cls} small`, focus key `key`): `edit` on the sheet. */
function slotButton(cls, key, label, text, failed, edit, said) {
  if (!editing) return null;
  return button({ class: `${cls} small`, data: { focusKey: key }, "aria-label": label, on: { click: () => change(failed, edit, said) } }, text);
}

// ---- name, pronouns, look -------------------------------------------------------------------

/**
 * Free-form notes for this character, one a line, each the table's (the character's notes,
 * `setCharacterNotes`) or private (the sheet's `private_notes`, read only by its player,
 * audit D10); one undoable change each. Shown once the core offers `setCharacterNotes`.
 */
function notesCard(saved) {
  if (typeof api.setCharacterNotes !== "function") return null;
  const c = saved.character;
  const tables = view.notes ?? c.notes ?? "";
  const lines = markedLines(tables, saved.sheet.private_notes);
  return el(
    "section",
    { class: "sheet-card sheet-notes", "aria-labelledby": "sheet-notes-heading" },
    el("h3", { id: "sheet-notes-heading", class: "sheet-card-heading" }, "Notes"),
    !editing
      ? markedList(lines, "sheet-notes-text")
      : markedLinesEditor({
          prefix: "note",
          label: "Note",
          lines,
          marks: saved.private_shown !== false,
          placeholder: "Anything worth remembering: people, promises, clues…",
          onCommit: async (next) => {
            const joined = joinMarked(next);
            if (joined.table !== joinMarked(markedLines(tables, "")).table) {
              await app.run("The notes were not saved.", async () => {
                const done = await api.setCharacterNotes(c.id, joined.table);
                view.notes = joined.table;
                app.toast(done && done.message ? done.message : "Saved the notes.", { kind: "character", id: c.id });
              });
            }
            if (joined.private !== (saved.sheet.private_notes ?? "")) {
              await change("The private notes were not saved.", { type: "private-notes", text: joined.private }, "Saved the private notes.");
            } else {
              render();
            }
          },
        }),
  );
}

function whoCard(sheet) {
  return el(
    "section",
    { class: "sheet-card sheet-who", "aria-label": "Pronouns and look" },
    ...[
      ["pronouns", "Pronouns"],
      ["look", "Look"],
    ].map(([field, label]) =>
      !editing ? labelledValue(label, textValue(sheet[field], { id: `sheet-${field}-text` })) : textField({
        id: `sheet-${field}`,
        key: `sheet-${field}`,
        label,
        visibleLabel: true,
        value: sheet[field],
        onCommit: (text) => change(`The ${field} was not saved.`, { type: "text", field, text }, `Saved the ${field}.`),
      }),
    ),
  );
}

// ---- aspects --------------------------------------------------------------------------------

/** Three die selects; on a set sheet, picking a die another aspect uses swaps the two. */
function aspectsCard(sheet) {
  const current = sheet.aspects ?? { body: "", mind: "", heart: "" };
  const note = el("p", { id: "aspects-note", class: "sheet-note", role: "status" });
  // Rows ordered by die (d8, d6, d4) once the dice are set, as the paper sheet pairs them.
  const order = sheet.aspects ? [...ASPECTS].sort((a, b) => Number(current[b].slice(1)) - Number(current[a].slice(1))) : ASPECTS;
  const rows = order.map((aspect) => {
    const id = `sheet-aspect-${aspect}`;
    if (!editing) return aspectPlayLine(aspect, current[aspect]);
    const select = el(
      "select",
      { id, class: "aspect-die", data: { focusKey: id, aspect } },
      current[aspect] ? null : el("option", { value: "" }, "choose"),
      ...["d4", "d6", "d8"].map((d) => el("option", { value: d }, d)),
    );
    select.value = current[aspect];
    select.addEventListener("change", () => {
      const next = { ...current, [aspect]: select.value };
      let words = `${ASPECT_NAMES[aspect]} uses ${select.value}.`;
      if (sheet.aspects) {
        // Keep the three dice a permutation: the aspect that had this die takes the old one.
        const other = ASPECTS.find((a) => a !== aspect && current[a] === select.value);
        if (other) {
          next[other] = current[aspect];
          words = `${ASPECT_NAMES[aspect]} now uses ${select.value} and ${ASPECT_NAMES[other]} ${current[aspect]} (swapped).`;
        }
      }
      const problem = aspectsProblem(next);
      if (problem) {
        // Not saved yet: the sheet keeps no aspects until all three differ.
        note.textContent = problem;
        current[aspect] = select.value;
        return;
      }
      change("The aspects were not saved.", { type: "aspects", aspects: next }, words);
    });
    const die = current[aspect] ? Number(current[aspect].slice(1)) : null;
    return el(
      "li",
      { class: "aspect-line", data: { aspect } },
      die
        ? rollBadge(die, `Roll with ${ASPECT_NAMES[aspect]}`, { aspect }, `aspect-${aspect}-roll`)
        : el("span", { class: "die-badge die-none" }, shape(CIRCLE), el("span", { class: "die-text" }, "?")),
      el("label", { for: id, class: "aspect-name" }, ASPECT_NAMES[aspect]),
      select,
    );
  });
  return card(
    "aspects",
    "Aspects",
    "yours when the Character is at risk",
    el("ul", { class: "sheet-list aspect-lines" }, ...rows),
    note,
  );
}

/** An aspect in play mode: its die and its name, each a tap that rolls with it; its die in words. */
function aspectPlayLine(aspect, dieWord) {
  const die = dieWord ? Number(dieWord.slice(1)) : null;
  const name = ASPECT_NAMES[aspect];
  return el(
    "li",
    { class: "aspect-line", data: { aspect } },
    die
      ? rollBadge(die, `Roll with ${name}`, { aspect }, `aspect-${aspect}-roll`)
      : el("span", { class: "die-badge die-none" }, shape(CIRCLE), el("span", { class: "die-text" }, "?")),
    die && canRoll()
      ? tapValue({ text: name, hint: "roll", cls: "aspect-name", onTap: () => roll({ aspect }), attrs: { data: { focusKey: `aspect-${aspect}-name` } } })
      : textValue(name, { cls: "aspect-name" }),
    textValue(dieWord, { cls: "aspect-die-word", empty: "no die yet" }),
  );
}

// ---- moods ----------------------------------------------------------------------------------

function moodsCard(sheet) {
  const lines = sheet.moods.map((mood, line) => moodLine(mood, line));
  return card(
    "moods",
    "Moods",
    "yours when the World is at risk",
    el("ol", { class: "sheet-list mood-lines" }, ...lines),
    el(
      "p",
      { class: "sheet-legend" },
      el("span", { class: "threshold-sample", "aria-hidden": "true" }),
      " Overload threshold: a mood with more marked boxes than this can become overloaded. Only one mood can be overloaded at a time.",
    ),
  );
}

function moodLine(mood, line) {
  const die = MOOD_LINE_DICE[line];
  const len = trackLength(die);
  const threshold = overloadThreshold(die);
  const level = mood ? mood.level : 0;
  const who = mood ? mood.name : `Open d${die} line`;
  const boxes = [];
  for (let box = 1; box <= len; box++) {
    const marked = box <= level;
    const next = tappedLevel(level, box);
    boxes.push(
      button(
        {
          class: `mood-box${marked ? " marked" : ""}${box > threshold ? " past" : ""}`,
          data: { box: String(box), focusKey: `mood-${line}-box-${box}` },
          "aria-pressed": marked ? "true" : "false",
          "aria-label": `${who} level ${box} of ${len}`,
          title: mood ? `Set the level to ${next}` : null,
          disabled: !mood,
          on: {
            click: () =>
              change("The mood level was not saved.", { type: "mood-box", line, box }, `${mood.name}: level ${next} of ${len}.`),
          },
        },
        shape(die, "box-shape"),
      ),
    );
    if (box === threshold) boxes.push(el("span", { class: "threshold-mark", "aria-hidden": "true", title: "Overload threshold" }));
  }
  const past = level > threshold;
  const levelText = mood
    ? `Level ${level} of ${len}${mood.overloaded ? ", overloaded" : past ? ", past threshold" : ""}`
    : "Open line";
  return el(
    "li",
    { class: `mood-line${mood ? "" : " open"}${mood && mood.overloaded ? " overloaded" : ""}`, data: { line: String(line), die: String(die) } },
    mood ? rollBadge(die, `Roll with ${mood.name}`, { moodLine: line }, `mood-${line}-roll`, "mood-die") : dieBadge(die, "mood-die"),
    lineName("mood", line, mood, {
      label: `Mood on d${die} line ${line + 1}`,
      placeholder: `name a d${die} mood`,
      said: (name) => (mood ? `Renamed the mood to ${quoted(name)}.` : `New mood ${quoted(name)} on a d${die} line.`),
      open: `open d${die} line`,
      tap: canRoll() ? { hint: "roll", onTap: () => roll({ moodLine: line }), attrs: { data: { focusKey: `mood-${line}-name` } } } : null,
    }),
    el(
      "div",
      {
        class: `mood-track track-${len}`,
        role: "group",
        "aria-label": `${who}: ${len} level boxes, overload threshold after box ${threshold}`,
      },
      ...boxes,
    ),
    el("span", { class: "mood-level", data: { level: String(level) } }, levelText),
    button(
      {
        class: "mood-overload toggle",
        data: { focusKey: `mood-${line}-overload` },
        "aria-pressed": mood && mood.overloaded ? "true" : "false",
        "aria-label": `${mood && mood.overloaded ? "Overloaded" : "Overload"}: ${who}`,
        disabled: !mood,
        on: {
          click: () =>
            change(
              "The overload was not saved.",
              { type: "mood-overloaded", line, on: !mood.overloaded },
              mood.overloaded ? `${mood.name} is no longer overloaded.` : `${mood.name} is overloaded.`,
            ),
        },
      },
      el("span", { class: "check", "aria-hidden": "true" }, mood && mood.overloaded ? "⚠" : "○"),
      el("span", { class: "overload-word" }, mood && mood.overloaded ? "Overloaded" : "Overload"),
    ),
  );
}

// ---- skills ---------------------------------------------------------------------------------

function skillsCard(sheet) {
  return card("skills", "Skills", "± a modifier; a box per aspect", el("ol", { class: "sheet-list skill-lines" }, ...sheet.skills.map((s, i) => skillLine(s, i, sheet))));
}

function skillLine(skill, line, sheet) {
  const who = skill ? skill.name : `Skill line ${line + 1}`;
  const step = (delta) =>
    change("The modifier was not saved.", { type: "skill-modifier", line, delta }, (v) => `${skill.name}: modifier ${v.sheet.skills[line].modifier}.`);
  return el(
    "li",
    { class: `skill-line${skill ? "" : " open"}`, data: { line: String(line) } },
    lineName("skill", line, skill, {
      label: `Skill line ${line + 1}`,
      placeholder: "name a skill (starts at 0)",
      extra: { modifier: 0 },
      said: (name) => (skill ? `Renamed the skill to ${quoted(name)}.` : `New skill ${quoted(name)} at 0.`),
      tap: canRoll() ? { hint: "roll", cls: "skill-roll", onTap: () => roll({ skillLine: line }), attrs: { data: { focusKey: `skill-${line}-roll` } } } : null,
    }),
    !editing
      ? textValue(skill ? `±${skill.modifier}` : "", { cls: "skill-modifier-text", empty: "" })
      : el(
      "div",
      { class: "stepper skill-stepper" },
      button(
        {
          class: "skill-minus",
          data: { focusKey: `skill-${line}-minus` },
          "aria-label": `Lower ${who} modifier`,
          disabled: !skill || skill.modifier === 0,
          on: { click: () => step(-1) },
        },
        "−",
      ),
      el("output", { class: "skill-modifier", "aria-label": `${who} modifier` }, skill ? `±${skill.modifier}` : ""),
      button(
        {
          class: "skill-plus",
          data: { focusKey: `skill-${line}-plus` },
          "aria-label": `Raise ${who} modifier`,
          disabled: !skill,
          on: { click: () => step(1) },
        },
        "+",
      ),
    ),
    !editing
      ? skillMarks(skill, who, sheet)
      : el(
      "div",
      { class: "skill-boxes", role: "group", "aria-label": `${who} aspect boxes` },
      ...ASPECTS.map((aspect) => {
        const marked = Boolean(skill && skill.boxes[aspect]);
        return button(
          {
            class: `skill-box${marked ? " marked" : ""}`,
            data: { aspect, focusKey: `skill-${line}-${aspect}` },
            "aria-pressed": marked ? "true" : "false",
            "aria-label": `${who}: ${ASPECT_NAMES[aspect]} box`,
            disabled: !skill,
            on: {
              click: () =>
                change(
                  "The skill box was not saved.",
                  { type: "skill-box", line, aspect },
                  `${skill.name}: ${ASPECT_NAMES[aspect]} box ${marked ? "cleared" : "marked"}.`,
                ),
            },
          },
          sheet.aspects ? shape(Number(sheet.aspects[aspect].slice(1)), "box-shape") : null,
          el("span", { class: "skill-box-letter" }, ASPECT_NAMES[aspect][0]),
        );
      }),
    ),
    editing && skill && canRoll()
      ? button(
          { class: "skill-roll", "aria-label": `Roll with ${skill.name}`, data: { focusKey: `skill-${line}-roll` }, on: { click: () => roll({ skillLine: line }) } },
          "Roll",
        )
      : null,
  );
}

/** A skill's aspect boxes in play mode: marks to read (set in edit mode), the marked ones said. */
function skillMarks(skill, who, sheet) {
  const marked = ASPECTS.filter((aspect) => Boolean(skill && skill.boxes[aspect]));
  return el(
    "div",
    { class: "skill-boxes skill-marks" },
    ...ASPECTS.map((aspect) =>
      el(
        "span",
        { class: `skill-box${marked.includes(aspect) ? " marked" : ""}`, "aria-hidden": "true" },
        sheet.aspects ? shape(Number(sheet.aspects[aspect].slice(1)), "box-shape") : null,
        el("span", { class: "skill-box-letter" }, ASPECT_NAMES[aspect][0]),
      ),
    ),
    el(
      "span",
      { class: "visually-hidden" },
      skill ? `${who}: ${marked.length === 0 ? "no aspect box marked" : `${marked.map((a) => ASPECT_NAMES[a]).join(", ")} marked`}` : "",
    ),
  );
}

// ---- harm and other details -----------------------------------------------------------------

/** A one-line add form: a labelled input and a button; `onAdd(text)` gets trimmed text. */
function addForm({ id, label, buttonText, disabled = false, extra = null, onAdd }) {
  if (!editing) return null;
  const input = el("input", { type: "text", id: `${id}-new`, autocomplete: "off", data: { focusKey: `${id}-new` }, disabled });
  const form = el(
    "form",
    {
      id: `${id}-form`,
      class: "sheet-add",
      autocomplete: "off",
      on: {
        submit: (e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (text === "") return;
          input.value = "";
          onAdd(text);
        },
      },
    },
    el("label", { for: input.id }, label),
    el("div", { class: "sheet-add-row" }, extra, input, el("button", { type: "submit", id: `${id}-add`, data: { focusKey: `${id}-add` }, disabled }, buttonText)),
  );
  return form;
}

function detailsCard(sheet, overcome) {
  const slots = [];
  for (let i = 0; i < HARM_SLOTS; i++) {
    const text = sheet.harm[i];
    slots.push(
      text === undefined
        ? el("li", { class: "harm-slot empty" }, el("span", { class: "slot-text muted" }, `Slot ${i + 1}: empty`))
        : el(
            "li",
            { class: "harm-slot filled", data: { index: String(i) } },
            el("span", { class: "slot-text" }, text),
            slotButton("harm-scar", `harm-${i}-scar`, `To scar: recover ${quoted(text)} into a scar`, "To scar", "The harm was not recovered.", { type: "harm-to-scar", index: i }, `${quoted(text)} is now a scar.`),
            slotButton("harm-remove", `harm-${i}-remove`, `Remove harm ${quoted(text)}`, "Remove", "The harm was not removed.", { type: "harm-remove", index: i }, `Removed harm ${quoted(text)}.`),
          ),
    );
  }
  const full = sheet.harm.length >= HARM_SLOTS;
  const harm = el(
    "div",
    { class: "sheet-subsection harm" },
    el(
      "h3",
      { id: "sheet-harm-heading", class: "sheet-card-heading" },
      "Harm details",
      el("span", { class: "sheet-sub", id: "harm-count" }, `${sheet.harm.length} of ${HARM_SLOTS}`),
    ),
    el(
      "p",
      { id: "overcome", class: "overcome-badge", role: "status", hidden: !overcome },
      el("strong", {}, "Overcome"),
      " — no action rolls until a harm detail is recovered.",
    ),
    el("ol", { class: "sheet-list harm-slots", "aria-labelledby": "sheet-harm-heading" }, ...slots),
    addForm({
      id: "harm",
      label: full ? "All four harm slots are filled" : "New harm detail",
      buttonText: "Record harm",
      disabled: full,
      onAdd: (text) =>
        change("The harm was not recorded.", { type: "harm-add", text }, (v) =>
          v.overcome ? `Recorded harm ${quoted(text)}. Overcome.` : `Recorded harm ${quoted(text)}.`,
        ),
    }),
  );

  const sign = el(
    "select",
    { id: "detail-new-sign", class: "detail-sign-select", "aria-label": "Positive or negative", data: { focusKey: "detail-new-sign" } },
    el("option", { value: "+" }, "+ positive"),
    el("option", { value: "-" }, "− negative"),
  );
  const other = el(
    "div",
    { class: "sheet-subsection other" },
    el("h3", { id: "sheet-other-heading", class: "sheet-card-heading" }, "Other details"),
    listOrNone(sheet.other_details, el("p", { class: "muted sheet-empty" }, "None yet."), () =>
      el(
        "ul",
        { class: "sheet-list other-details", "aria-labelledby": "sheet-other-heading" },
        ...sheet.other_details.map((d, i) =>
          el(
            "li",
            { class: `other-detail ${d.positive ? "positive" : "negative"}`, data: { index: String(i) } },
            !editing
              ? el("span", { class: "detail-sign", "aria-label": d.positive ? "Positive" : "Negative", role: "img" }, d.positive ? "+" : "−")
              : button(
              {
                class: "detail-sign",
                data: { focusKey: `detail-${i}-sign` },
                "aria-label": `${d.positive ? "Positive" : "Negative"} detail ${quoted(d.text)}: make it ${d.positive ? "negative" : "positive"}`,
                on: {
                  click: () =>
                    change("The detail was not changed.", { type: "detail-sign", index: i }, `${quoted(d.text)} is now ${d.positive ? "negative" : "positive"}.`),
                },
              },
              d.positive ? "+" : "−",
            ),
            el("span", { class: "slot-text" }, d.text),
            slotButton("detail-remove", `detail-${i}-remove`, `Remove detail ${quoted(d.text)}`, "Remove", "The detail was not removed.", { type: "detail-remove", index: i }, `Removed ${quoted(d.text)}.`),
          ),
        ),
      ),
    ),
    addForm({
      id: "detail",
      label: "New other detail",
      buttonText: "Add",
      extra: sign,
      onAdd: (text) =>
        change("The detail was not added.", { type: "detail-add", text, positive: sign.value === "+" }, `Added ${sign.value === "+" ? "positive" : "negative"} detail ${quoted(text)}.`),
    }),
  );
  return el("section", { class: "sheet-card sheet-details", "aria-label": "Harm and other details" }, harm, other);
}

// ---- sentiments, scars, recovery points, rumours ----------------------------------------------

function sentimentsCard(sheet) {
  return card(
    "sentiments",
    "Sentiments",
    "mark the next box: at risk, then lost",
    el("ol", { class: "sheet-list sentiment-lines" }, ...sheet.sentiments.map(sentimentLine)),
  );
}

function sentimentLine(sentiment, line) {
  const who = sentiment ? sentiment.name : `Sentiment line ${line + 1}`;
  const level = sentiment ? sentimentLevel(sentiment.state) : 0;
  const boxes = [
    [1, "at-risk", "At risk"],
    [2, "lost", "Lost"],
  ].map(([box, cls, word]) => {
    const marked = box <= level;
    return button(
      {
        class: `sentiment-box ${cls}${marked ? " marked" : ""}`,
        data: { box: String(box), focusKey: `sentiment-${line}-${cls}` },
        "aria-pressed": marked ? "true" : "false",
        "aria-label": `${who}: ${word}`,
        disabled: !sentiment,
        on: {
          click: () =>
            change("The sentiment was not saved.", { type: "sentiment-box", line, box }, (v) => {
              const s = v.sheet.sentiments[line];
              return `${s.name} is ${SENTIMENT_WORDS[s.state]}.`;
            }),
        },
      },
      shape(CIRCLE, "box-shape"),
      el("span", { class: "box-word" }, word),
    );
  });
  return el(
    "li",
    { class: `sentiment-line${sentiment ? ` ${sentiment.state}` : " open"}`, data: { line: String(line) } },
    lineName("sentiment", line, sentiment, {
      label: `Sentiment line ${line + 1}`,
      placeholder: "name a sentiment",
      said: (name) => `Sentiment ${quoted(name)} saved.`,
      open: "open line",
    }),
    el("span", { class: "sentiment-state" }, sentiment ? SENTIMENT_WORDS[sentiment.state] : "open"),
    el("div", { class: "sentiment-boxes", role: "group", "aria-label": `${who} state` }, ...boxes),
  );
}

function scarsCard(sheet) {
  return card(
    "scars",
    "Scars",
    "recovered harm, never counted as harm",
    listOrNone(sheet.scars, el("p", { class: "muted sheet-empty" }, "None yet."), () =>
      el(
        "ul",
        { class: "sheet-list scar-list" },
        ...sheet.scars.map((text, i) =>
          el(
            "li",
            { class: "scar", data: { index: String(i) } },
            el("span", { class: "slot-text" }, text),
            slotButton("scar-remove", `scar-${i}-remove`, `Remove scar ${quoted(text)}`, "Remove", "The scar was not removed.", { type: "scar-remove", index: i }, `Removed scar ${quoted(text)}.`),
          ),
        ),
      ),
    ),
    addForm({
      id: "scar",
      label: "New scar",
      buttonText: "Add scar",
      onAdd: (text) => change("The scar was not added.", { type: "scar-add", text }, `Added scar ${quoted(text)}.`),
    }),
  );
}

function recoveryCard(sheet) {
  const step = (delta) =>
    change("The recovery points were not saved.", { type: "recovery", delta }, (v) => `Recovery points: ${v.sheet.recovery_points}.`);
  return card(
    "recovery",
    "Recovery points",
    "earned in downtime, spent to recover harm",
    el(
      "div",
      { class: "stepper recovery-stepper" },
      button(
        { id: "recovery-minus", data: { focusKey: "recovery-minus" }, "aria-label": "One recovery point fewer", disabled: sheet.recovery_points === 0, on: { click: () => step(-1) } },
        "−",
      ),
      el("output", { id: "recovery-points", "aria-label": "Recovery points" }, String(sheet.recovery_points)),
      button({ id: "recovery-plus", data: { focusKey: "recovery-plus" }, "aria-label": "One more recovery point", on: { click: () => step(1) } }, "+"),
    ),
  );
}

function rumoursCard(sheet) {
  const lines = markedLines(sheet.rumours, sheet.private_rumours);
  return card(
    "rumours",
    "Rumours",
    "about the locations you wrote",
    !editing
      ? markedList(lines, "sheet-rumours-text")
      : markedLinesEditor({
          prefix: "rumour",
          label: "Rumour",
          lines,
          marks: view.saved.private_shown !== false,
          placeholder: "Add a rumour",
          onCommit: (next) => change("The rumours were not saved.", { type: "rumour-lines", lines: next }, "Saved the rumours."),
        }),
  );
}

/**
 * Lines in play mode (`lines` [{text, private}]): each line's text, a private one with a small
 * "private" marker. The core sends private lines only to the character's player (audit D10).
 */
function markedList(lines, id) {
  if (lines.length === 0) return textBlock("", { id });
  return el(
    "ul",
    { class: "sheet-list marked-lines", id },
    ...lines.map((line) =>
      el(
        "li",
        { class: `marked-line${line.private ? " private" : ""}` },
        el("span", { class: "slot-text" }, line.text),
        line.private ? el("span", { class: "private-mark", title: "Only you read this line" }, "private") : null,
      ),
    ),
  );
}

/**
 * Lines in edit mode, each the table's or private (audit D10): a text field and a "Private"
 * checkbox per line (ids `${prefix}-line-${i}`, `${prefix}-private-${i}`), then an empty line
 * to add one. Leaving a field or ticking a box commits every line: `onCommit(lines)`. Without
 * `marks` (a view that holds none of the character's private lines: not its player's) no box is
 * offered, as none could be saved.
 */
function markedLinesEditor({ prefix, label, lines, marks = true, placeholder, onCommit }) {
  const rows = [...lines, { text: "", private: false }].map((line, i) => {
    const fresh = i === lines.length;
    const input = el("input", {
      id: `${prefix}-line-${i}`,
      type: "text",
      class: "marked-text",
      autocomplete: "off",
      placeholder: fresh ? placeholder : null,
      "aria-label": fresh ? `New ${label.toLowerCase()}` : `${label} ${i + 1}`,
      data: { focusKey: `${prefix}-line-${i}` },
    });
    input.value = line.text;
    const box = el("input", {
      id: `${prefix}-private-${i}`,
      type: "checkbox",
      class: "marked-private",
      "aria-label": fresh ? `Private: new ${label.toLowerCase()}` : `Private: ${label.toLowerCase()} ${i + 1}`,
      data: { focusKey: `${prefix}-private-${i}` },
    });
    box.checked = Boolean(line.private);
    return { line, input, box };
  });
  const commit = () => {
    const next = rows.map(({ input, box }) => ({ text: input.value, private: box.checked }));
    const same = (a, b) => JSON.stringify(joinMarked(a)) === JSON.stringify(joinMarked(b));
    if (!same(next, lines)) onCommit(next);
  };
  for (const { input, box } of rows) {
    input.addEventListener("change", commit);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        commit();
      }
    });
    box.addEventListener("change", commit);
  }
  return el(
    "div",
    { class: "marked-editor" },
    el(
      "p",
      { class: "muted marked-hint" },
      marks
        ? "A private line is read only by you: the other players and the table never get it."
        : "Lines marked private are the character's player's: this device does not get them.",
    ),
    el(
      "ul",
      { class: "sheet-list marked-lines", id: `${prefix}-lines` },
      ...rows.map(({ input, box }) =>
        el(
          "li",
          { class: "marked-line" },
          input,
          marks ? el("label", { class: "marked-toggle", for: box.id }, box, el("span", {}, "Private")) : null,
        ),
      ),
    ),
  );
}
