// Small pieces the Mezzo screens share: labelled fields, cards, checkboxes, step dice as
// badges, odds as bars, dice typed in by hand, and the rules' names in words. The layout pieces
// every game shares (fields, cards, forms, odds bars, typed dice) are the kit's (kit/forms.js).
//
//   import { field, card, dieBadge, oddsBar, handDice, WORDS } from "./kit.js";
//   host.append(card("mz-players", "Players", list));

import { el } from "../../kit/dom.js";
import { stepper } from "../../kit/components.js";
import { field, form, numberInput, oddsBar, percent, select, wholeNumber } from "../../kit/forms.js";

// The layout pieces every game shares, passed on so a Mezzo tab imports its pieces from one place.
export * from "../../kit/forms.js";
// The shared components (kit.js): one-tap steppers, disclosures, the sticky summary strip.
export { stepper, disclosure, statStrip } from "../../kit/components.js";

/**
 * How the votes cast elsewhere come in, on a shared device: each player's casts here, or the
 * totals the table counted. Radios `${prefix}-entry-players` and `${prefix}-entry-totals`.
 */
/**
 * A tie settled by a compromise, a conflict's (`prefix` "mz") or an action check's ("mzc"): the
 * text box `#${prefix}-compromise` in its form; `agree(words, button)` records the words once
 * something is written.
 */
export function compromiseForm(prefix, agree) {
  const text = el("textarea", { id: `${prefix}-compromise`, rows: 2, maxlength: 500 });
  return form(
    { id: `${prefix}-compromise-form`, "aria-label": "Agree on a compromise" },
    [
      field("Agree on a compromise (a majority supports it)", text),
      el("button", { type: "submit", id: `${prefix}-compromise-submit` }, "Agree on this compromise"),
    ],
    (b) => {
      const words = text.value.trim();
      if (words === "") return text.focus();
      return agree(words, b);
    },
  );
}

export function entryChoice(prefix, value, onChange) {
  return el(
    "fieldset",
    { class: "mz-entry", id: `${prefix}-entry` },
    el("legend", {}, "How the votes come in"),
    ...[
      ["players", "Each player's casts, here"],
      ["totals", "The totals the table counted"],
    ].map(([v, label]) => {
      const radio = el("input", { type: "radio", name: `${prefix}-entry`, id: `${prefix}-entry-${v}`, value: v, checked: value === v, data: { focusKey: `${prefix}-entry-${v}` } });
      radio.addEventListener("change", () => onChange(v, radio));
      return el("label", { class: "mz-check", for: radio.id }, radio, el("span", {}, label));
    }),
  );
}

/**
 * The rules' bounds (src/rules/mezzo/conflict.rs; the source sets none, DEV-13): the most votes
 * an option or side holds (35 d12s, the most the exact odds count) and the most options of a
 * conflict or sides of a check or challenge. No real table comes near them.
 */
export const MAX_VOTES = 175;
export const MAX_OPTIONS = 32;
export const MAX_SIDES = 32;

/**
 * The votes the table counted, one stepper per option or side (`${prefix}-total-${i}`, 0 to
 * MAX_VOTES; its buttons `…-minus` and `…-plus`): `items` are [{label, value}]; `onChange(i, next)`.
 */
export function totalSteppers({ prefix, title, hint, items, onChange }) {
  return el(
    "div",
    { class: "mz-cast-part mz-totals", id: `${prefix}-totals` },
    el("p", { class: "mz-cast-title" }, title),
    el("p", { class: "mz-hint muted" }, hint),
    el(
      "div",
      { class: "mz-total-list" },
      ...items.map((item, i) =>
        stepper({ label: item.label, id: `${prefix}-total-${i}`, value: item.value, min: 0, max: MAX_VOTES, onChange: (next) => onChange(i, next) }),
      ),
    ),
  );
}

/** "d12 + d4", or "no dice" for none. */
export const diceWords = (dice) => (dice.length === 0 ? "no dice" : dice.map((d) => `d${d}`).join(" + "));

/** A die as a badge: its size and, once rolled, the face it shows. */
export function dieBadge(sides, face = null, extra = "") {
  const label = face === null ? `a d${sides}` : `a d${sides} showing ${face}`;
  return el(
    "span",
    { class: `mz-die d${sides} ${face === null ? "unrolled" : ""} ${extra}`.trim(), role: "img", "aria-label": label, title: label },
    face !== null && el("span", { class: "mz-die-face", "aria-hidden": "true" }, String(face)),
    el("span", { class: "mz-die-size", "aria-hidden": "true" }, `d${sides}`),
  );
}

/**
 * A live preview (of a check, a conflict): `ask()` runs `delay` ms after the last change; its
 * answer is kept in `state.preview` (its error in `state.previewError`) unless a later ask or
 * another state took its place (`current()` false), and then `show()` draws it.
 */
export function previewSoon(state, current, ask, show, delay = 120) {
  clearTimeout(state.timer);
  state.timer = setTimeout(async () => {
    const serial = ++state.serial;
    try {
      const answer = await ask();
      if (serial !== state.serial || !current()) return;
      state.preview = answer;
      state.previewError = null;
    } catch (e) {
      if (serial !== state.serial || !current()) return;
      state.previewError = e && e.message ? e.message : String(e);
    }
    show();
  }, delay);
}

/**
 * One line of live odds (a check's side, a conflict's option) in a list: its name and chance
 * (`${prefix}-odds-pct-${i}`), the bar, its votes (`${prefix}-votes-${i}`) and `detail` after
 * them, the chance in words for a screen reader (`chance`), and the step dice as badges.
 */
export function oddsLine({ cls, data, prefix, i, name, share, votes, detail, chance, dice, extra }) {
  return el(
    "li",
    { class: cls, data },
    el(
      "div",
      { class: "mz-row" },
      el("strong", { class: "grow mz-odds-name" }, name),
      el("strong", { class: "mz-odds-pct", id: `${prefix}-odds-pct-${i}`, title: `exactly ${share.exact}` }, percent(share.probability)),
    ),
    oddsBar(share.probability),
    el(
      "p",
      { class: "mz-odds-detail" },
      el("span", { class: "mz-votes", id: `${prefix}-votes-${i}` }, votes),
      ...detail,
      el("span", { class: "visually-hidden" }, ` ${chance} ${percent(share.probability)}, exactly ${share.exact}.`),
    ),
    dice.length > 0 && el("div", { class: "mz-dice", "aria-hidden": "true" }, ...dice.map((d) => dieBadge(d))),
    extra,
  );
}

/**
 * Under the rules hints: an option's (or a side's) chance `goal` ("to win") with one more
 * vote on it — any source: a free vote, an influence point… — and the change, the largest
 * of them marked (issue 34; the core's NextVoteOdds). Nothing for an option at the most votes.
 */
export function nextVoteLine(next, now, id, goal) {
  if (!next) return null;
  const change = Math.round((next.with_vote.probability - now.probability) * 1000) / 10;
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  return el(
    "p",
    { class: `mz-next-vote hint${next.best ? " best" : ""}`, id, title: `exactly ${next.with_vote.exact}` },
    `One more vote here: ${percent(next.with_vote.probability)} ${goal} (${sign}${Math.abs(change).toFixed(1)} points)`,
    next.best && el("strong", { class: "mz-best" }, " — the largest change"),
  );
}

/**
 * Under the rules hints: an owner's chance `goal` ("to win") kept and burst, the better one
 * marked (issue 34; the core's BurstOdds).
 */
export function burstOddsLine(odds, id, goal) {
  const way = (word, share, better) =>
    el("span", better ? { class: "best" } : {}, `${word}: ${percent(share.probability)} ${goal}`, better && el("strong", { class: "mz-best" }, " — better"));
  return el(
    "p",
    { class: "mz-burst-odds hint", id },
    way("Keep", odds.keep, odds.better === "keep"),
    " · ",
    way("Burst", odds.burst, odds.better === "burst"),
    odds.better === "either" && " (the same either way)",
  );
}

/** The rules' words for the values the app sends. */
export const WORDS = {
  kind: { character: "Character", object: "Object", location: "Location", faction: "Faction", goal: "Goal" },
  traitKind: { edge: "Edge", flaw: "Flaw", modifier: "Modifier", extra: "Extra" },
  via: {
    edge_slot: "in an edge slot",
    free_extra: "free extra",
    unexpected_edge: "unexpected edge",
    boon: "boon",
    granted: "granted by play",
  },
  lasts: {
    lasting: "until lost",
    scene: "until the end of the scene",
    next_challenge: "through the next challenge",
    challenge: "until the end of the challenge",
    arc: "until the end of the arc",
  },
  protection: {
    edge: "the Plot Protection edge",
    claim: "a player's claim",
    challenge: "taking part in a challenge",
    lent: "lent by a Heroic Sacrifice",
  },
  property: {
    requirements: "Requirements",
    restrictions: "Restrictions",
    owner: "Owner",
    target: "Target",
    set_up: "Set-up",
    effects: "Effects",
    details: "Details",
  },
};

/** The source's templates and named traits: [value, name, trait kind]. */
export const TEMPLATES = [
  ["ability", "Ability", "edge"],
  ["asset", "Asset", "edge"],
  ["attractant", "Attractant", "edge"],
  ["background", "Background", "edge"],
  ["empowering_gift", "Empowering Gift", "edge"],
  ["repellent", "Repellent", "edge"],
  ["resistance", "Resistance", "edge"],
  ["signature_flaw", "Signature Flaw", "edge"],
  ["favored_flaw", "Favored Flaw", "edge"],
  ["plot_protection", "Plot Protection", "edge"],
  ["trump", "Trump", "edge"],
  ["dulled_edge", "Dulled Edge", "flaw"],
  ["impaired_ability", "Impaired Ability", "flaw"],
  ["vulnerability", "Vulnerability", "flaw"],
  ["restraint", "Restraint", "flaw"],
  ["one_shot", "One-Shot", "modifier"],
  ["transient_flaw", "Transient Flaw", "modifier"],
  ["wound", "Wound", "modifier"],
  ["treacherous_edge", "Treacherous Edge", "modifier"],
  ["phantom_edge", "Phantom Edge", "modifier"],
  ["aptitude", "Aptitude", "extra"],
  ["cross_training", "Cross Training", "extra"],
  ["extraordinary_ability", "Extraordinary Ability", "extra"],
  ["focused", "Focused", "extra"],
  ["forte", "Forte", "extra"],
  ["specialty", "Specialty", "extra"],
  ["versatile", "Versatile", "extra"],
  ["fortified", "Fortified", "extra"],
  ["asset_investment", "Asset Investment", "extra"],
  ["empower_self", "Empower Self", "extra"],
  ["lingering_gift", "Lingering Gift", "extra"],
  ["shared_gift", "Shared Gift", "extra"],
  ["empowering_flaw", "Empowering Flaw", "extra"],
  ["corrosive_wound", "Corrosive Wound", "extra"],
  ["targeted_wound", "Targeted Wound", "extra"],
  ["pervasive_wound", "Pervasive Wound", "extra"],
  ["vicious_wound", "Vicious Wound", "extra"],
];

export const templateName = (value) => (TEMPLATES.find(([v]) => v === value) ?? [null, value])[1];

/** The Setting Laws a player may invoke, once each per conflict or check. */
export const LAWS = [
  ["", "No law"],
  ["consistency", "Consistency (±1)"],
  ["inertia", "Inertia (−1)"],
  ["potential", "Potential (±1)"],
];

/**
 * A player's Setting Law: the law, what it is invoked on (`target`: a select of options or
 * sides, whose value is kept as `law[key]`), the fact (Consistency, Inertia) and the
 * direction (Consistency, Potential); only the fields the law needs are shown. `id(what)`
 * names each control (and its focus key, so a re-render keeps the focus). Returns the four
 * labelled fields; every change updates `law` and calls `changed`.
 */
export function lawFields(law, { id, key, target, targetLabel, changed, extraLaws = [], facts = [], hooks = [] }) {
  const attrs = (what) => ({ id: id(what), data: { focusKey: id(what) } });
  // The game's own laws and the arc's Themes join the list, each invoked like Potential (±1).
  const kind = select([...LAWS, ...extraLaws], attrs("law"));
  if (!LAWS.some(([v]) => v === law.kind) && !extraLaws.some(([v]) => v === law.kind)) law.kind = "";
  kind.value = law.kind;
  const fact = el("input", { type: "text", maxlength: 500, ...attrs("law-fact") });
  fact.value = law.fact;
  // The facts register (and, for Inertia, the open plot hooks), offered by name; free text stays possible.
  const suggestions = el("datalist", { id: id("law-facts") });
  const fillSuggestions = () =>
    suggestions.replaceChildren(
      ...facts.map((f) => el("option", { value: f })),
      ...(kind.value === "inertia" ? hooks.map((h) => el("option", { value: h })) : []),
    );
  fillSuggestions();
  fact.setAttribute("list", id("law-facts"));
  const registered = facts.length > 0 || hooks.length > 0;
  const pick =
    registered &&
    select(
      [
        ["", "Type it, or pick one"],
        ...facts.map((f) => [`fact:${f}`, f]),
        ...hooks.map((h) => [`hook:${h}`, `Open hook: ${h}`]),
      ],
      attrs("law-fact-pick"),
    );
  const direction = select(
    [
      ["for", "For it (+1)"],
      ["against", "Against it (−1)"],
    ],
    attrs("law-direction"),
  );
  direction.value = law.direction;
  const targetField = field(targetLabel, target);
  const factField = field("The fact", fact, registered ? "Type it, or choose one the table established." : null);
  const pickField = pick && field("Established fact", pick);
  const directionField = field("Direction", direction);
  const sync = () => {
    targetField.hidden = kind.value === "";
    factField.hidden = kind.value !== "consistency" && kind.value !== "inertia";
    if (pickField) pickField.hidden = factField.hidden;
    if (pick) {
      // Open hooks are Inertia's (the seed: in the end-of-arc dispute).
      for (const o of pick.options) o.hidden = o.value.startsWith("hook:") && kind.value !== "inertia";
    }
    directionField.hidden = kind.value === "" || kind.value === "inertia";
    fillSuggestions();
  };
  sync();
  const on = (control, event, update) =>
    control.addEventListener(event, () => {
      update();
      changed();
    });
  on(kind, "change", () => {
    law.kind = kind.value;
    sync();
  });
  on(target, "change", () => (law[key] = Number(target.value)));
  on(fact, "input", () => (law.fact = fact.value));
  if (pick) {
    on(pick, "change", () => {
      if (pick.value === "") return;
      law.fact = pick.value.slice(pick.value.indexOf(":") + 1);
      fact.value = law.fact;
    });
  }
  on(direction, "change", () => (law.direction = direction.value));
  return [field("Setting Law", kind), targetField, pickField, factField, suggestions, directionField].filter(Boolean);
}

/** Every element of the table: the characters first, then the table's own. */
export const allElements = (t) => [...t.characters, ...t.elements];

/**
 * A count on a cast form: `part[key]` from 0 to `max` (what is not a whole number above 0
 * counts 0), `changed()` told at each keystroke. `attrs`: the input's id and the rest.
 */
export function countInput(part, key, max, attrs, changed) {
  const input = numberInput({ ...attrs, min: 0, max, value: part[key] });
  input.addEventListener("input", () => {
    const n = wholeNumber(input);
    part[key] = n !== null && n > 0 ? n : 0;
    changed();
  });
  return input;
}

/** An element picked on a cast form among `choices` ([id, name]) or none: `part.element`, `changed()` told. */
export function elementPick(part, choices, attrs, changed) {
  const s = select([["", "None"], ...choices], attrs);
  s.value = part.element;
  s.addEventListener("change", () => {
    part.element = s.value;
    changed();
  });
  return s;
}
