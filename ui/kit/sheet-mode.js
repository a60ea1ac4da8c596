// A sheet you play from (issue 32): at the table a character's sheet reads as a sheet — its
// values as text, each a tap target that rolls or steps — and editing is a mode, "✎ Edit" in
// the sheet's head and "Done" to go back. Every game's sheet uses these pieces.
//
//   import { sheetEditing, modeToggle, textValue, tapValue, textBlock } from "../../kit/sheet-mode.js";
//   const editing = sheetEditing(characterId, stillBeingMade);
//   head.append(modeToggle({ id: "x-sheet-mode", characterId, editing, onToggle: () => redraw() }));
//   row.append(editing ? nameInput : tapValue({ text: name, hint: "roll", onTap: roll }));
//
// A character still being made opens in edit mode, a finished one in play mode; a tap on the
// toggle is remembered per character while the app is open (not saved: the next start opens
// each sheet by its default again).

import { el } from "./dom.js";

/** Per character id, the mode its toggle last chose (true: editing), while the app is open. */
const chosen = new Map();

/**
 * Whether the sheet of `characterId` shows its form fields: the mode its toggle last chose,
 * else edit mode while the character is still being made (`making`) and play mode once not.
 * With `sticky` the mode the sheet first opened in is kept until the toggle changes it (a
 * sheet whose making has no end of its own, as a Mezzo character's traits: the first trait
 * added does not turn the sheet to play under the person adding the next).
 */
export function sheetEditing(characterId, making, { sticky = false } = {}) {
  if (chosen.has(characterId)) return chosen.get(characterId);
  if (sticky) chosen.set(characterId, Boolean(making));
  return Boolean(making);
}

/**
 * The mode's toggle: "✎ Edit" in play mode, "Done" in edit mode (a button, keyboard reachable,
 * 44 px like every button). A tap flips the mode of `characterId` and calls `onToggle(editing)`,
 * which draws the sheet again. Its id is its focus key, so the focus stays on it.
 */
export function modeToggle({ id, characterId, editing, onToggle, cls = "" }) {
  return el(
    "button",
    {
      type: "button",
      id,
      class: `sheet-mode-toggle${editing ? " primary" : ""} ${cls}`.trim(),
      data: { focusKey: id, mode: editing ? "edit" : "play" },
      on: {
        click: () => {
          chosen.set(characterId, !editing);
          onToggle(!editing);
        },
      },
    },
    editing ? "Done" : "✎ Edit",
  );
}

/**
 * A value in play mode, as text (`text`, or `empty` in muted words when blank): a `<span>`
 * with the class `sheet-value` and `cls`, and `id` when given.
 */
export function textValue(text, { cls = "", id = null, empty = "—" } = {}) {
  const blank = text === null || text === undefined || String(text).trim() === "";
  return el("span", { class: `sheet-value ${blank ? "muted " : ""}${cls}`.trim(), id }, blank ? empty : String(text));
}

/**
 * A longer text in play mode (notes, a description), its lines kept: a `<p>` with the class
 * `sheet-value sheet-text` (and `cls`), `empty` in muted words when blank.
 */
export function textBlock(text, { cls = "", id = null, empty = "Nothing written yet." } = {}) {
  const blank = text === null || text === undefined || String(text).trim() === "";
  return el("p", { class: `sheet-value sheet-text ${blank ? "muted " : ""}${cls}`.trim(), id }, blank ? empty : String(text));
}

/**
 * A value in play mode that does something at a tap (rolls with it, steps it): a button that
 * reads as the value, `text` then a small `hint` ("roll ›"); its accessible name is the two
 * ("River lore · roll"), starting with the visible text. `attrs` go on the button (id, class,
 * data: the focus key).
 */
export function tapValue({ text, hint = null, onTap, cls = "", attrs = {} }) {
  const { data = {}, ...rest } = attrs;
  return el(
    "button",
    {
      type: "button",
      ...rest,
      class: `sheet-value sheet-tap ${cls}`.trim(),
      "aria-label": hint ? `${text} · ${hint}` : null,
      data,
      on: { click: onTap },
    },
    el("span", { class: "sheet-tap-text" }, String(text)),
    hint ? el("span", { class: "sheet-tap-hint", "aria-hidden": "true" }, ` ${hint} ›`) : null,
  );
}

/** A labelled value in play mode: the label's words, then the value (`textValue` or any node). */
export function labelledValue(label, value, { cls = "" } = {}) {
  return el(
    "div",
    { class: `sheet-labelled ${cls}`.trim() },
    el("span", { class: "sheet-label" }, label),
    typeof value === "string" || value === null || value === undefined ? textValue(value) : value,
  );
}
