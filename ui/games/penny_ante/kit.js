// Small pieces the Penny Ante screens share: labelled fields, accounts as select values,
// die faces, odds in words, pennies in words, dice typed in by hand. Number boxes, buttons
// and progress on them are the kit's (kit/forms.js), passed on here.
//
//   import { field, dieFace, oddsLine, busy, accountKey } from "./kit.js";
//   host.append(field("Ante", numberInput({ id: "ante", min: 1, value: 1 })));

import { el, SVG } from "../../kit/dom.js";
import { busy, uid, numberInput, wholeNumber, select, button, field as kitField, checkbox as kitCheckbox } from "../../kit/forms.js";
import { notesCard } from "../../kit/notes.js";

export { uid, numberInput, wholeNumber, select, button, notesCard };

/** The kit's labelled field (kit/forms.js), its hint in Penny's look (`penny-hint`). */
export const field = (label, control, hint = null, cls = "field") => kitField(label, control, hint, cls, "penny");

/** The kit's checkbox with its label on the right, in Penny's look (`penny-check`). */
export const checkbox = (label, attrs = {}) => kitCheckbox(label, attrs, "penny");

/** "1 penny", "3 pennies". */
export const pennies = (n) => `${n} ${n === 1 || n === -1 ? "penny" : "pennies"}`;

/** A stable string for an account, for select values and data attributes. */
export function accountKey(account) {
  return account.id ? `${account.kind}:${account.id}` : account.kind;
}

/** The account a key from `accountKey` stands for. */
export function accountOf(key) {
  const [kind, id] = key.split(":");
  return id ? { kind, id } : { kind };
}

export const sameAccount = (a, b) => accountKey(a) === accountKey(b);

export const SIDE_WORDS = { challenger: "Challenger", opponent: "Opponent" };
export const otherSide = (side) => (side === "challenger" ? "opponent" : "challenger");

export const pct = (p) => `${(p * 100).toFixed(1)}%`;

/** "Win 41.7% · Tie 2.3% · Lose 56.0%". */
export function oddsLine(odds) {
  return `Win ${pct(odds.win)} · Tie ${pct(odds.tie)} · Lose ${pct(odds.lose)}`;
}

/** The exact odds as three labelled numbers, the exact fractions on hover and for readers. */
export function oddsBlock(odds, id = "penny-odds") {
  const part = (key, label, i) =>
    el(
      "p",
      { class: `penny-odds-${key}`, title: `${label}: ${odds.exact[i]} of the equally likely outcomes` },
      el("span", {}, label),
      el("strong", { id: `${id}-${key}` }, pct(odds[key])),
      el("span", { class: "visually-hidden" }, ` (exactly ${odds.exact[i]})`),
    );
  return el(
    "div",
    { class: "penny-odds", id, role: "group", "aria-label": "Your exact odds at the showdown" },
    part("win", "Win", 0),
    part("tie", "Tie", 1),
    part("lose", "Lose", 2),
  );
}

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

function svg(label, cls) {
  const node = document.createElementNS(SVG, "svg");
  node.setAttribute("viewBox", "0 0 100 100");
  if (label) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  node.setAttribute("class", cls);
  const face = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ x: 4, y: 4, width: 92, height: 92, rx: 18, class: "penny-die-face" })) {
    face.setAttribute(k, String(v));
  }
  node.append(face);
  return node;
}

/** A die showing `value` (1–6) as pips; `label` is what a screen reader says ("" hides it from one). */
export function dieFace(value, label = `a ${value}`, extra = "") {
  const node = svg(label, `penny-die ${extra}`.trim());
  for (const [cx, cy] of PIPS[value] ?? []) {
    const pip = document.createElementNS(SVG, "circle");
    pip.setAttribute("cx", String(cx));
    pip.setAttribute("cy", String(cy));
    pip.setAttribute("r", "9");
    pip.setAttribute("class", "penny-pip");
    node.append(pip);
  }
  return node;
}

/** A die nobody at the table may see (in a cup, or rolled and not shown yet). */
export function hiddenDie(label = "a hidden die") {
  const node = svg(label, "penny-die hidden");
  const mark = document.createElementNS(SVG, "text");
  mark.setAttribute("x", "50");
  mark.setAttribute("y", "66");
  mark.setAttribute("text-anchor", "middle");
  mark.setAttribute("class", "penny-die-mark");
  mark.textContent = "?";
  node.append(mark);
  return node;
}

/** A row of die faces. */
export function diceRow(values, { label = "Dice", cls = "" } = {}) {
  return el(
    "div",
    { class: `penny-dice ${cls}`.trim(), role: "group", "aria-label": label },
    ...values.map((v) => dieFace(v)),
  );
}

/**
 * Boxes for dice rolled by hand: one number box (1–6) per die, ids `${prefix}-1`…
 * `read()` returns the values, or null (and marks the box) when one is missing or not 1–6.
 */
export function handDice(count, prefix, what = "Die") {
  const inputs = [];
  const fields = [];
  for (let i = 0; i < count; i++) {
    const input = numberInput({ id: `${prefix}-${i + 1}`, min: 1, max: 6, class: "penny-die-input", required: true });
    inputs.push(input);
    fields.push(field(count === 1 ? what : `${what} ${i + 1}`, input, null, "field penny-die-field"));
  }
  return {
    node: el(
      "fieldset",
      { class: "penny-hand-dice" },
      el("legend", {}, count === 1 ? "The die as it landed (1–6)" : `The ${count} dice as they landed (1–6 each)`),
      el("div", { class: "penny-die-fields" }, ...fields),
    ),
    read() {
      const values = [];
      for (const input of inputs) {
        const v = wholeNumber(input);
        const bad = v === null || v < 1 || v > 6;
        input.setAttribute("aria-invalid", bad ? "true" : "false");
        if (bad) {
          input.focus();
          return null;
        }
        values.push(v);
      }
      return values;
    },
  };
}

/** Runs an action with its button showing progress (the shared one). */
export { busy };

/** A small card with a heading. */
export function card(id, title, ...children) {
  const headingId = `${id}-heading`;
  return el(
    "section",
    { id, class: "penny-card", "aria-labelledby": headingId },
    el("h3", { id: headingId }, title),
    ...children,
  );
}

/** The app's sentences with a capital after each full stop ("… 4. the House narrates."). */
export function sentences(text) {
  return String(text ?? "").replace(/(^|[.!?]\s+)([a-z])/g, (_, lead, letter) => lead + letter.toUpperCase());
}

/** The shared one-tap counter (the value `#${id}`, its buttons `#${id}-minus`, `#${id}-plus`). */
export { stepper } from "../../kit/components.js";

// ---- the House's secrets on a device passed around ---------------------------------------

/**
 * On a device passed around: the House's secrets (purses, hidden characteristics) open only
 * after the device is handed to the House; the core leaves them out until then.
 */
export function houseSecretsControl(ctx) {
  if (ctx.role !== "both") return null;
  if (ctx.ui.house) {
    return el(
      "p",
      { class: "notice", role: "status", id: "penny-house-shown" },
      "Showing the House's secrets. ",
      button("Hide them", () => ctx.switchTab(ctx.ui.tab), { id: "penny-house-hide" }),
    );
  }
  return button(
    "Show the House's secrets",
    () => {
      ctx.ui.handOverHouse = true;
      ctx.render("#penny-house-heading");
    },
    { id: "penny-house-show" },
  );
}

/**
 * A card that shows the House's secrets where they may show (the ledger, the log): while the
 * device is being handed to the House, only the hand-over; else its heading, the control that
 * shows or hides the secrets (at a table with antagonists), then `children`.
 */
export function secretsCard(ctx, id, title, ...children) {
  if (ctx.ui.handOverHouse) return el("section", { class: "penny-card", id }, houseHandOver(ctx));
  return card(id, title, ctx.table.antagonists.length > 0 && houseSecretsControl(ctx), ...children);
}

/** "Hand the device to the House": nothing secret shows until the House says it holds it. */
export function houseHandOver(ctx) {
  const back = () => {
    ctx.ui.handOverHouse = false;
    ctx.render("#penny-house-show");
  };
  return el(
    "div",
    { class: "hand-over", id: "penny-house-hand-over" },
    el("h3", { id: "penny-house-heading", tabindex: "-1" }, "Hand the device to the House"),
    el("p", {}, "Only the House should look: the antagonists' purses, hidden characteristics and what moved in and out of them open here."),
    el(
      "div",
      { class: "actions" },
      button(
        "I am the House: show the secrets",
        async (b) => {
          ctx.ui.handOverHouse = false;
          ctx.ui.house = true;
          await ctx.reloadTable(b);
        },
        { id: "penny-house-ready", class: "primary" },
      ),
      button("Cancel", back, { id: "penny-house-cancel" }),
    ),
  );
}

/** Quick repayments: 1 penny, 5, or all that is owed (as far as the pile goes). */
export function repayButtons(prefix, owed, pile, ctx, call, failed) {
  const choices = [...new Set([1, 5, owed])].filter((n) => n <= owed).sort((a, b) => a - b);
  return el(
    "div",
    { class: "penny-quick", role: "group", "aria-label": "Pay back" },
    ...choices.map((n) =>
      button(n === owed ? `Pay back all ${n}` : `Pay back ${n}`, (b) => ctx.move(failed, () => call(n), b), {
        id: `${prefix}-repay-${n === owed ? "all" : n}`,
        disabled: pile !== null && pile !== undefined && n > pile,
        data: { focusKey: `${prefix}-repay-${n}` },
      }),
    ),
  );
}
