// Shared components every system's screens use instead of their own copies. Their CSS is in
// styles.css (section "kit"), with the shared tokens (spacing, radius, colours).
//
//   import { stepper, disclosure, statStrip, tabs, pill, diceFaces } from "./components.js";
//   host.append(stepper({ label: "Momentum", value: 2, min: 0, max: 5, onChange: (n) => save(n) }));
//   host.append(disclosure("New character", form));                   // a <details> with a chevron
//   host.append(statStrip([{ label: "HP", value: 7 }, { label: "Power", value: "3/5" }]));
//   host.append(tabs({ label: "Ledger of", items: [["ada", "Ada"], ["bo", "Bo"]], current: "ada", onSelect }));
//   host.append(pill("hidden"));                                      // info, not a button
//   host.append(diceFaces([3, 6, 1], { label: "The dice" }));
//   await busy(button, () => api.save(…));                         // the button shows progress meanwhile

import { el } from "./dom.js";

let serial = 0;
const nextId = (prefix) => `${prefix}-${++serial}`;

/**
 * A number with − and + one-tap buttons (each ≥ 44 px) either side. `onChange(next)` gets the
 * new value (the caller saves it; the stepper shows it at once and goes back when the
 * promise it returns resolves false). `id` names the value's element; buttons get
 * `${id}-minus` / `${id}-plus` when given.
 */
export function stepper({ label, value, min = -Infinity, max = Infinity, step = 1, onChange, id = null, disabled = false }) {
  const valueId = id ?? nextId("stepper");
  let current = Number(value);
  const output = el("output", { id: valueId, class: "stepper-value", "aria-live": "polite" }, String(current));
  const labelId = `${valueId}-label`;
  const minus = el(
    "button",
    { type: "button", id: id ? `${id}-minus` : null, class: "stepper-minus", "aria-label": `${label}: one less`, data: { focusKey: `${valueId}-minus` } },
    "−",
  );
  const plus = el(
    "button",
    { type: "button", id: id ? `${id}-plus` : null, class: "stepper-plus", "aria-label": `${label}: one more`, data: { focusKey: `${valueId}-plus` } },
    "+",
  );
  const sync = () => {
    output.textContent = String(current);
    minus.disabled = disabled || current - step < min;
    plus.disabled = disabled || current + step > max;
  };
  const move = async (delta) => {
    const before = current;
    const next = current + delta;
    if (next < min || next > max) return;
    current = next;
    sync();
    const ok = await onChange?.(next);
    if (ok === false) {
      current = before;
      sync();
    }
  };
  minus.addEventListener("click", () => move(-step));
  plus.addEventListener("click", () => move(step));
  sync();
  return el(
    "div",
    { class: "stepper", role: "group", "aria-labelledby": labelId },
    el("span", { id: labelId, class: "stepper-label" }, label),
    el("span", { class: "stepper-controls" }, minus, output, plus),
  );
}

/**
 * A `<details>` whose `<summary>` shows `summaryText` with a chevron that turns when open
 * (styles.css gives every summary in the app the chevron). Set `.open = true` to start open.
 */
export function disclosure(summaryText, ...content) {
  return el("details", { class: "disclosure" }, el("summary", {}, summaryText), el("div", { class: "disclosure-body" }, ...content));
}

/**
 * The sticky summary line of a sheet: `items` are `{ label, value, tone? }` (tone "good",
 * "warn" or "bad" colours the value). It sticks under the screen's bar while the sheet scrolls.
 */
export function statStrip(items, { label = "Summary" } = {}) {
  return el(
    "dl",
    // A bar stacked under the frame's (the layout check lets the page scroll under it).
    { class: "stat-strip", "aria-label": label, data: { layout: "bar" } },
    ...items.map((item) =>
      el(
        "div",
        { class: item.tone ? `stat stat-${item.tone}` : "stat" },
        el("dt", {}, item.label),
        el("dd", {}, String(item.value)),
      ),
    ),
  );
}

/**
 * A row of tabs styled as tabs (underlined, not like action buttons): `items` are
 * [[key, text]]; the current one has aria-current="page". `idPrefix` names the buttons
 * `${idPrefix}-${key}`.
 */
export function tabs({ label, items, current, onSelect, idPrefix = null }) {
  return el(
    "nav",
    { class: "tabs", "aria-label": label },
    ...items.map(([key, text]) =>
      el(
        "button",
        {
          type: "button",
          class: "tab",
          id: idPrefix ? `${idPrefix}-${key}` : null,
          "aria-current": key === current ? "page" : "false",
          data: { tab: key, focusKey: idPrefix ? `${idPrefix}-${key}` : null },
          on: { click: () => onSelect(key) },
        },
        text,
      ),
    ),
  );
}

/** A small piece of information (a state, a count): plain text in a quiet outline, not a button. */
export function pill(text, tone = null) {
  return el("span", { class: tone ? `pill pill-${tone}` : "pill" }, text);
}

/** A line of status text (not a link, not a button): `tone` "good", "warn" or "bad". */
export function status(text, tone = null) {
  return el("p", { class: tone ? `status status-${tone}` : "status", role: "status" }, text);
}

/** Dice as faces: `values` numbers; `sides` (a number, or one per die) shown as a small label. */
export function diceFaces(values, { label = "Dice", sides = null } = {}) {
  return el(
    "ul",
    { class: "dice-faces", "aria-label": label },
    ...values.map((v, i) => {
      const s = Array.isArray(sides) ? sides[i] : sides;
      return el("li", { class: "die-face", title: s ? `d${s}` : null }, String(v));
    }),
  );
}

/**
 * How `element` is found again once its part of the page is drawn anew: by its focus key,
 * else by its id; null when it has neither.
 */
export function sameSelector(element) {
  const key = element.dataset?.focusKey;
  if (key) return `[data-focus-key="${CSS.escape(key)}"]`;
  return element.id ? `#${CSS.escape(element.id)}` : null;
}

/** Whether the focus fell to the page's body (its control was disabled, hidden or redrawn). */
export const focusLost = () => document.activeElement === null || document.activeElement === document.body;

/**
 * Runs `action` with `button` showing progress (disabled, aria-busy, a spinner in CSS) and
 * puts it back afterwards when it is still on the page.
 */
export async function busy(button, action) {
  const b = button instanceof HTMLButtonElement ? button : null;
  // Disabling the focused button drops the focus to the page's body: it comes back when
  // the work is done (to the button, or the one drawn in its place: same focus key or id),
  // unless the work moved it somewhere on purpose.
  const hadFocus = b !== null && document.activeElement === b;
  const same = b ? sameSelector(b) : null;
  if (b) {
    if (b.getAttribute("aria-busy") === "true") return undefined;
    b.disabled = true;
    b.setAttribute("aria-busy", "true");
    b.classList.add("busy");
  }
  try {
    return await action();
  } finally {
    if (b) {
      b.disabled = false;
      b.removeAttribute("aria-busy");
      b.classList.remove("busy");
      if (hadFocus && focusLost()) {
        const again = b.isConnected ? b : same && document.querySelector(same);
        if (again && !again.disabled && again.getClientRects().length > 0) again.focus();
      }
    }
  }
}
