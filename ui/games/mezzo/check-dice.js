// The Mezzo action check's dice: the odds card, scope perks bought, the roll (in the app or
// typed in), the rolled dice side by side and the D6 variant's bursts.

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { PERKS, actors, perkName, requestOf, shortName, sideName, sidesOf } from "./check-attempt.js";
import { canRoll, handContent, oddsContent } from "./check-odds.js";
import { button, burstOddsLine, card, checkbox, diceWords, dieBadge, disclosure, form, handDice, plural, select, handOrRolled } from "./kit.js";

/** The rolled check's dice, side by side, with the summary the app wrote (bursts and surges come after). */
export function rolledDiceCard(ctx, check, pending) {
  return card(
    "mzc-rolled",
    `Rolled: ${check.description || "the action check"}`,
    el("p", { class: "mz-summary", id: "mzc-rolled-summary", role: "status" }, pending.summary),
    rolledSides(ctx, check, null),
  );
}

/** A step on the rolled check: its dice, then the card `id` with its hint and `children`. */
export function rolledStep(ctx, pending, id, title, hint, ...children) {
  return el(
    "div",
    { class: "mz-stack" },
    rolledDiceCard(ctx, pending.check, pending),
    card(id, title, el("p", { class: "mz-hint muted hint" }, hint), ...children),
  );
}

/** The tiebreak die of the check's dice: a d12, a d6 in the D6 variant. */
export const tieDie = (check) => (check.variant === "d6" ? 6 : 12);

export function oddsCard(ctx) {
  return card("mzc-odds", "Chances to take effect", el("div", { id: "mzc-odds-body" }, ...oddsContent(ctx)));
}

export function perksAndRollCard(ctx) {
  const c = ctx.ui.check;
  const sides = sidesOf(c);
  const perkParts = sides.map((side, i) => {
    if (side.chance === "negligible" && side.aptitude === 0) return null;
    const bought = c.perks.filter((p) => p.side === i).map((p) => p.perk);
    return el(
      "div",
      { class: "mz-cast-part mzc-perks", data: { side: String(i) } },
      el("p", { class: "mz-cast-title" }, sideName(ctx, side)),
      bought.length > 0
        ? el(
            "ul",
            { class: "mz-tags", id: `mzc-bought-${i}`, "aria-label": `Perks bought for ${shortName(ctx, side)}` },
            ...bought.map((perk) => el("li", { class: "mz-tag" }, perkName(perk))),
          )
        : el("p", { class: "muted", id: `mzc-bought-${i}` }, "No perk bought."),
      perkForm(ctx, i, side, bought),
    );
  });
  const hand = checkbox("Dice rolled by hand", { id: "mzc-hand", checked: c.hand, data: { focusKey: "mzc-hand" } });
  hand.box.addEventListener("change", () => {
    c.hand = hand.box.checked;
    ctx.render();
  });
  return card(
    "mzc-perks-roll",
    "Scope perks and the roll",
    disclosure("How scope perks work", el("p", { class: "mz-hint muted hint" }, "After every vote is cast, a side may buy scope perks with its own votes, 1 each: Extended → Local → Regional coverage, Lingering → Contagious → Inescapable consequences (each needs the one before). Buying one closes the voting.")),
    ...perkParts,
    el("div", { class: "mz-switch" }, hand.node),
    el("div", { id: "mzc-hand-host" }, ...handContent(ctx)),
    button(c.hand ? "Roll with these dice" : "Roll the dice", (b) => roll(ctx, b), {
      id: "mzc-roll",
      class: "primary mz-big-button",
      disabled: !canRoll(c),
    }),
    el("p", { class: "mz-hint muted" }, "Nothing is paid by the roll: Sudden Surges come next, then the check resolves."),
  );
}

/** A perk to buy for side `i` (the ones it needs first named) and the last one to take back. */
function perkForm(ctx, i, side, bought) {
  const c = ctx.ui.check;
  const left = PERKS.filter(([value]) => !bought.includes(value));
  const pick = select(
    left.map(([value, name, needs]) => [value, needs && !bought.includes(needs) ? `${name} (needs ${perkName(needs)})` : name]),
    { id: `mzc-perk-pick-${i}`, class: "mzc-perk-pick", data: { focusKey: `mzc-perk-pick-${i}` } },
  );
  const next = left.find(([, , needs]) => !needs || bought.includes(needs));
  if (next) pick.value = next[0];
  return el(
    "div",
    {},
    left.length > 0 &&
      form(
        { class: "mz-form mz-one", "aria-label": `Buy a scope perk for ${shortName(ctx, side)}` },
        [
          el("label", { for: pick.id }, "Scope perk (1 vote)"),
          el(
            "div",
            { class: "mz-one-row" },
            pick,
            el("button", { type: "submit", id: `mzc-perk-buy-${i}`, class: "mzc-buy-perk", data: { focusKey: `mzc-perk-buy-${i}` } }, "Buy"),
          ),
        ],
        (b) => buyPerk(ctx, i, pick.value, b),
      ),
    bought.length > 0 &&
      button(
        `Take back ${perkName(bought[bought.length - 1])}`,
        () => {
          const last = c.perks.map((p) => p.side).lastIndexOf(i);
          c.perks.splice(last, 1);
          c.handValues = [];
          ctx.render(`#mzc-perk-pick-${i}`);
        },
        { class: "mzc-unbuy", id: `mzc-unbuy-${i}`, data: { focusKey: `mzc-unbuy-${i}` } },
      ),
  );
}

/** Buys a perk if the core accepts it (it says why not, e.g. a missing prerequisite). */
async function buyPerk(ctx, side, perk, b) {
  const c = ctx.ui.check;
  const next = [...c.perks, { side, perk }];
  const request = { ...requestOf(ctx, true), perks: next };
  let ok = false;
  await ctx.run(`${perkName(perk)} was not bought.`, async () => {
    b.disabled = true;
    try {
      c.preview = await api.mezzoCheckPreview(ctx.gameId, request);
      c.previewError = null;
      ok = true;
    } finally {
      b.disabled = false;
    }
  });
  if (!ok) return;
  c.perks = next;
  c.handValues = [];
  ctx.render(`#mzc-perk-pick-${side}`);
}

/** Rolls the check set up (the Roll buttons, Roll again): its pending check comes next. */
export async function roll(ctx, b) {
  const c = ctx.ui.check;
  const dice = handOrRolled(c.hand, c.read);
  if (!dice) return;
  for (const id of actors(c)) {
    const edge = c.spends[id]?.edge;
    if (edge && edge.on && edge.name.trim() === "") {
      const box = byId(`mzc-edge-name-${id}`);
      if (box) {
        box.setAttribute("aria-invalid", "true");
        box.focus();
      }
      return;
    }
  }
  const request = requestOf(ctx);
  c.result = null;
  c.major = null;
  // A check open for votes rolls with the table's own casts; the core adds every ballot.
  const open = ctx.ui.openCheck;
  const call = open ? () => api.mezzoRollOpenCheck(ctx.gameId, requestOf(ctx, false, false).casts, request.perks, dice) : () => api.mezzoCheckRoll(ctx.gameId, request, dice);
  const pending = await ctx.step("The check was not rolled.", call, (p) => p.summary, b);
  if (pending && open) ctx.ui.openCheck = await api.mezzoOpenCheck(ctx.gameId);
  if (pending) ctx.render("#mzc-rolled-heading");
}

// ---- the rolled dice, and the D6 variant's bursts ---------------------------------------------

export function rolledSides(ctx, check, scores) {
  return el(
    "ol",
    { class: "mz-result-list", id: "mzc-rolled-list" },
    ...check.sides.map((s, i) => {
      const r = s.roll;
      // Before the result the surges are the ones being bought here; after it, the check's own.
      const bought = scores ? check.surges ?? [] : ctx.ui.check.surges;
      const surges = bought.filter((x) => s.kind.kind === "action" && x.element === s.kind.element).length;
      return el(
        "li",
        { class: `mz-result-option${s.dropped ? " dropped" : ""}`, data: { side: String(i) } },
        el("div", { class: "mz-row" }, el("strong", { class: "grow" }, sideName(ctx, s))),
        s.dropped
          ? el("p", { class: "muted" }, "Negligible: takes no part.")
          : el(
              "p",
              { class: "mz-result-detail" },
              r.locked_out ? "every die locked out: " : r.dice.length === 0 ? "no dice: " : r.d6 ? d6RollWords(r.d6) : `${diceWords(r.dice.map((d) => d.sides))} · highest ${r.highest}`,
              surges > 0 ? ` + ${plural(surges, "Sudden Surge")}` : "",
              // The seed's Specialty: level with the best other side, and no minor perk among its selections.
              s.specialty_minus ? el("span", { class: "mz-specialty-minus", id: `mzc-specialty-${i}` }, " − 1 (Specialty with no minor perk: rolled only well enough for a minor perk)") : "",
              " · score ",
              el("strong", { class: "mz-score", id: `mzc-score-${i}` }, String(scores && scores[i] !== null ? scores[i] : r.highest + surges)),
            ),
        r && r.dice.length > 0 &&
          el(
            "div",
            { class: "mz-dice" },
            ...r.dice.map((d, k) => dieBadge(d.sides, d.face, r.d6 ? (k === r.dice.length - 1 ? "best" : "") : d.face === r.highest ? "best" : "")),
          ),
      );
    }),
  );
}

/** A side's d6 roll in words: "first 2 ×1, burst: 4 ×2 = 8". */
function d6RollWords(d) {
  const first = `d6 shows ${d.first} ×${d.multiplier}`;
  if (d.reroll !== null && d.reroll !== undefined) return `${first}, burst: ${d.reroll} ×${d.multiplier + 1} = ${d.reroll * (d.multiplier + 1)}`;
  if (!d.decided) return `${first} = ${d.first * d.multiplier}, may burst`;
  return `${first} = ${d.first * d.multiplier}${d.first <= d.threshold ? ", kept" : ""}`;
}

/**
 * D6 variant, after the first roll: each side whose first roll is within its burst threshold
 * waits for its owner — burst (multiplier + 1, one reroll) or keep — with the app's suggestion
 * preselected; the rerolls are rolled here or typed in.
 */
export function burstCard(ctx, pending) {
  const c = ctx.ui.check;
  const check = pending.check;
  if (c.burstsFor !== check.id) {
    c.burstsFor = check.id;
    c.bursts = Object.fromEntries(pending.open_bursts.map((i) => [i, pending.suggested_bursts.includes(i)]));
  }
  const choices = pending.open_bursts.map((i) => {
    const side = check.sides[i];
    const d = side.roll.d6;
    const suggested = pending.suggested_bursts.includes(i);
    const odds = pending.burst_odds.find((o) => o.option === i);
    const radio = (burst, label) => {
      const id = `mzc-burst-${i}-${burst ? "yes" : "no"}`;
      const r = el("input", { type: "radio", name: `mzc-burst-${i}`, id, value: burst ? "burst" : "keep", checked: c.bursts[i] === burst, data: { focusKey: id } });
      r.addEventListener("change", () => {
        c.bursts[i] = burst;
        ctx.render(`#${id}`);
      });
      return el("label", { class: "mz-check", for: id }, r, el("span", {}, label));
    };
    return el(
      "fieldset",
      { class: "mz-cast-part mzc-burst", id: `mzc-burst-${i}`, data: { side: String(i) } },
      el("legend", {}, `${sideName(ctx, side)}: first roll ${d.first} (×${d.multiplier} = ${d.first * d.multiplier}), burst on ${d.threshold === 1 ? "a 1" : `1–${d.threshold}`}`),
      radio(true, `Burst: reroll at ×${d.multiplier + 1} (${d.multiplier + 1} to ${6 * (d.multiplier + 1)})${suggested ? " — suggested" : ""}`),
      radio(false, `Keep ${d.first * d.multiplier}${suggested ? "" : " — suggested"}`),
      el(
        "p",
        { class: "mz-hint muted", id: `mzc-burst-why-${i}` },
        suggested
          ? `A reroll averages ${(3.5 * (d.multiplier + 1)).toFixed(1)}, more than the ${d.first * d.multiplier} kept: the owner decides.`
          : `A reroll averages ${(3.5 * (d.multiplier + 1)).toFixed(1)}, no more than the ${d.first * d.multiplier} kept: the owner decides.`,
      ),
      odds && burstOddsLine(odds, `mzc-burst-odds-${i}`, "to take effect"),
    );
  });
  const bursting = pending.open_bursts.filter((i) => c.bursts[i]);
  const hand = checkbox("Rerolls rolled by hand", { id: "mzc-burst-hand", checked: c.burstHand ?? false, data: { focusKey: "mzc-burst-hand" } });
  hand.box.addEventListener("change", () => {
    c.burstHand = hand.box.checked;
    ctx.render("#mzc-burst-hand");
  });
  const boxes =
    c.burstHand && bursting.length > 0
      ? handDice(bursting.map((i) => ({ sides: 6, label: `${shortName(ctx, check.sides[i])} reroll` })), "mzc-burst-die", "Each reroll's face, in this order")
      : null;
  return rolledStep(
    ctx,
    pending,
    "mzc-bursts",
    "Bursts",
    "D6 variant: an owner whose first roll is within the burst threshold may add 1 to the multiplier and reroll once. The owner chooses after seeing the roll; Sudden Surges and the result come after.",
    ...choices,
    hand.node,
    boxes && boxes.node,
    button(
      bursting.length === 0 ? "Keep the rolls" : bursting.length === 1 ? "Burst and reroll" : "Burst and reroll these",
      async (b) => {
        const dice = handOrRolled(Boolean(boxes), boxes && boxes.read);
        if (!dice) return;
        const done = await ctx.step("The bursts were not taken.", () => api.mezzoCheckBurst(ctx.gameId, bursting, dice), (p) => p.summary, b);
        if (done) ctx.render("#mzc-rolled-heading");
      },
      { id: "mzc-burst-go", class: "primary mz-big-button" },
    ),
    el("div", { class: "actions" }, button("Take the roll back", (b) => ctx.undoLast(b), { id: "mzc-unroll" })),
  );
}
