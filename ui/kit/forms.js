// The screens' form and layout pieces, shared by every game: labelled fields, cards, forms,
// checkboxes, number boxes, odds bars, dice typed in by hand, buttons that show progress.
// Their look is in kit/styles.css (cards) and kit/screen.css (forms, one-box forms, hints, checkboxes: the `mz-`
// classes, and `penny-` for Penny Ante's look of the same pieces); the odds bars and the typed
// dice are still styled in mezzo.css, where they began.
//
//   import { card, field, numberInput, oddsBar, handDice } from "../../kit/forms.js";
//   host.append(card("mz-players", "Players", field("Name", numberInput({ min: 1 }))));

import { el } from "./dom.js";
import { busy } from "./components.js";

export { busy };

let serial = 0;

/** A fresh element id with `prefix`. */
export const uid = (prefix) => `${prefix}-${++serial}`;

/** A number box for whole pennies or die faces. */
export function numberInput(attrs = {}) {
  const input = el("input", { type: "number", inputmode: "numeric", step: 1, ...attrs });
  if (attrs.value !== undefined) input.value = String(attrs.value);
  return input;
}

/** The whole number typed in `input`, or null when it is empty or not a whole number. */
export function wholeNumber(input) {
  const text = input.value.trim();
  if (!/^-?\d+$/.test(text)) return null;
  return Number(text);
}

/** A <select> of [value, text] pairs. */
export function select(options, attrs = {}) {
  return el("select", attrs, ...options.map(([value, text]) => el("option", { value }, text)));
}

/** A button; `on` is its click handler, which gets the button. */
export function button(label, onClick, attrs = {}) {
  const b = el("button", { type: "button", ...attrs }, label);
  b.addEventListener("click", () => onClick(b));
  return b;
}

/**
 * A label above `control` (given an id when it has none); `hint` below it, linked. `prefix`
 * names the hint's class (`${prefix}-hint`) and the ids made here: "mz" (the kit's), or a
 * game's own ("penny").
 */
export function field(label, control, hint = null, cls = "field", prefix = "mz") {
  if (!control.id) control.id = uid(`${prefix}-f`);
  const parts = [el("label", { for: control.id }, label), control];
  if (hint) {
    const hintId = uid(`${prefix}-h`);
    control.setAttribute("aria-describedby", hintId);
    parts.push(el("p", { class: `${prefix}-hint muted`, id: hintId }, hint));
  }
  return el("div", { class: cls }, ...parts);
}

/** A checkbox with its label on the right (the label's class `${prefix}-check`, as field's). */
export function checkbox(label, attrs = {}, prefix = "mz") {
  const box = el("input", { type: "checkbox", id: attrs.id ?? uid(`${prefix}-c`), ...attrs });
  return { box, node: el("label", { class: `${prefix}-check`, for: box.id }, box, el("span", {}, label)) };
}

/** A card with a heading. */
export function card(id, title, ...children) {
  const headingId = `${id}-heading`;
  return el(
    "section",
    { id, class: "mz-card", "aria-labelledby": headingId },
    el("h3", { id: headingId, tabindex: "-1" }, title),
    ...children,
  );
}

/** A form whose submit runs `onSubmit(submitButton)` (Enter works in its boxes); `${prefix}-form`, as field's. */
export function form(attrs, children, onSubmit, prefix = "mz") {
  const node = el("form", { class: `${prefix}-form`, autocomplete: "off", ...attrs }, ...children);
  node.addEventListener("submit", (event) => {
    event.preventDefault();
    onSubmit(node.querySelector("button[type='submit']"));
  });
  return node;
}

/**
 * A one-box form: the label above, the box and its button side by side (so the button lines up
 * with the box at any width), the hint below; classes `${prefix}-one`, `${prefix}-one-row`.
 */
export function inlineForm({ label, ariaLabel, control, button: text, buttonAttrs = {}, hint = null, onSubmit, id, prefix = "mz" }) {
  if (!control.id) control.id = uid(`${prefix}-i`);
  const hintId = hint ? uid(`${prefix}-h`) : null;
  if (hintId) control.setAttribute("aria-describedby", hintId);
  return form(
    { class: `${prefix}-form ${prefix}-one`, "aria-label": ariaLabel, id },
    [
      el("label", { for: control.id }, label),
      el("div", { class: `${prefix}-one-row` }, control, el("button", { type: "submit", ...buttonAttrs }, text)),
      hint && el("p", { class: `${prefix}-hint muted`, id: hintId }, hint),
    ],
    onSubmit,
  );
}

/** The number in `input` when it is a whole number from `min` up, else null (the box is marked). */
export function readCount(input, min = 1, max = Infinity) {
  const n = wholeNumber(input);
  const bad = n === null || n < min || n > max;
  input.setAttribute("aria-invalid", bad ? "true" : "false");
  if (bad) {
    input.focus();
    return null;
  }
  return n;
}

/** "41.7%". */
export const percent = (p) => `${(p * 100).toFixed(1)}%`;

/**
 * A horizontal bar filled to `share` (0 to 1; beyond is shown full or empty). `kind` is the
 * class of its look (`${kind}` and `${kind}-fill`, over screen.css's `.meter`); `extra` adds
 * classes. Hidden from screen readers: the number beside it says it in words.
 */
export function meter(share, kind, extra = "") {
  const fill = el("span", { class: `meter-fill ${kind}-fill` });
  fill.style.width = `${Math.max(0, Math.min(1, share)) * 100}%`;
  return el("span", { class: `meter ${kind} ${extra}`.trim(), "aria-hidden": "true" }, fill);
}

/** A horizontal bar for a probability (the number beside it says it in words). */
export const oddsBar = (probability, extra = "") => meter(probability, "mz-meter", extra);

/**
 * Number boxes for dice rolled by hand, one per entry of `dice` ([{sides, label}]); ids
 * `${prefix}-1`, `${prefix}-2`…. `read()` returns the faces or null (marking the first bad box).
 * `onInput` runs after each keystroke (to add boxes that depend on the faces).
 */
export function handDice(dice, prefix, legend, onInput = null, values = []) {
  const inputs = dice.map((d, i) => {
    const input = numberInput({
      id: `${prefix}-${i + 1}`,
      min: 1,
      max: d.sides,
      class: "mz-die-input",
      required: true,
      data: { focusKey: `${prefix}-${i + 1}` },
    });
    if (values[i] !== undefined && values[i] !== null) input.value = String(values[i]);
    if (onInput) input.addEventListener("input", () => onInput(current()));
    return input;
  });
  const current = () => inputs.map((input) => wholeNumber(input));
  return {
    node: el(
      "fieldset",
      { class: "mz-hand-dice" },
      el("legend", {}, legend),
      el(
        "div",
        { class: "mz-die-fields" },
        ...dice.map((d, i) => field(`${d.label} (d${d.sides})`, inputs[i], null, "field mz-die-field")),
      ),
    ),
    read() {
      const faces = [];
      for (let i = 0; i < inputs.length; i++) {
        const v = wholeNumber(inputs[i]);
        const bad = v === null || v < 1 || v > dice[i].sides;
        inputs[i].setAttribute("aria-invalid", bad ? "true" : "false");
        if (bad) {
          inputs[i].focus();
          return null;
        }
        faces.push(v);
      }
      return faces;
    },
    current,
  };
}

/**
 * The dice a roll sends: typed in (`byHand`: the faces `read()` gives, a handDice's) or rolled
 * in the app; null while a typed face is missing or bad, so the move waits.
 */
export function handOrRolled(byHand, read) {
  if (!byHand) return { kind: "rolled" };
  const faces = read ? read() : null;
  return faces === null ? null : { kind: "entered", values: faces };
}

/** `list(items)` while there are items, else `none`: words (shown muted) or a node of its own. */
export function listOrNone(items, none, list) {
  if (items.length > 0) return list(items);
  return typeof none === "string" ? el("p", { class: "muted" }, none) : none;
}

/** "1 vote", "3 votes". */
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
