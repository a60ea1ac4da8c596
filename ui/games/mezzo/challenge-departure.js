// The Mezzo challenge's departures: momentum boosts drawn and awarded, momentum spent by the
// leavers on the options with their costs, and the departure closed.

import { el } from "../../kit/dom.js";
import { perkFields, perkOf } from "./challenge-perks.js";
import {
  NOBODY,
  PERKS,
  elementOf,
  flawWords,
  flawsOf,
  hasModifier,
  nameOf,
  newPerk,
  playMove,
  state,
  statusWords,
} from "./challenge-state.js";
import { button, card, field, form, numberInput, plural, readCount, select } from "./kit.js";

// ---- departures -----------------------------------------------------------------------------------

function ownerWords(ctx, owner) {
  if (owner.kind === "challenger") return `${nameOf(ctx, owner.element)}'s wounds and restraints`;
  return `a trump of ${nameOf(ctx, owner.goal)}`;
}

export function departureCard(ctx, ch) {
  const d = ch.departure;
  const leavers = d.leavers.map((id) => ch.challengers.find((c) => c.element === id)).filter(Boolean);
  const parts = [
    el("ul", { class: "mz-list", id: "mzch-leavers" }, ...leavers.map((c) => el("li", {}, el("strong", {}, c.name), ` — ${statusWords(c)} · momentum ${c.momentum}`))),
  ];
  if (d.boosts.length > 0) {
    parts.push(
      el("h4", {}, "Momentum boosts"),
      el(
        "ul",
        { class: "mz-list", id: "mzch-boosts" },
        ...d.boosts.map((b) => el("li", {}, `From ${ownerWords(ctx, b.owner)}: ${plural(b.awards, "award")} left, to ${b.targets.map((id) => nameOf(ctx, id)).join(", ") || "nobody"}`)),
      ),
    );
  }
  if (d.trump_draw) {
    const points = numberInput({ id: "mzch-draw-points", min: 0, max: d.trump_draw.most, value: d.trump_draw.most });
    parts.push(
      form({ id: "mzch-draw-form", "aria-label": "The trump draws momentum" }, [
        field(`Momentum the trump draws from ${nameOf(ctx, d.trump_draw.goal)} (0 to ${d.trump_draw.most})`, points, "Each point drawn is one more award."),
        el("button", { type: "submit", class: "primary", id: "mzch-draw" }, "Draw"),
      ], (b) => {
        const n = readCount(points, 0, d.trump_draw.most);
        if (n !== null) playMove(ctx, "The trump did not draw.", { move: "draw_trump", points: n }, b);
      }),
    );
  } else if (d.award_choices.length > 0) {
    parts.push(
      el("p", { id: "mzch-award-hint" }, "They are tied on the least momentum: the table picks who gets the next award."),
      el(
        "div",
        { class: "actions mzch-awards" },
        ...d.award_choices.map((id) =>
          button(`Award to ${nameOf(ctx, id)}`, (b) => playMove(ctx, "The boost was not awarded.", { move: "award_boost", to: id }, b), { id: `mzch-award-${id}` }),
        ),
      ),
    );
  }
  for (const id of d.may_spend) {
    const c = ch.challengers.find((x) => x.element === id);
    if (c) parts.push(spendForm(ctx, ch, c));
  }
  parts.push(
    el(
      "div",
      { class: "actions" },
      button("Close the departure", (b) => playMove(ctx, "The leavers could not depart.", { move: "depart" }, b), {
        id: "mzch-depart",
        class: "primary mz-big-button",
        disabled: d.boosts.length > 0,
        data: { focusKey: "mzch-depart" },
      }),
    ),
    el("p", { class: "mz-hint muted" }, "Momentum not spent is lost when the challenge ends."),
  );
  return card("mzch-departure", "Leaving the challenge", ...parts);
}

const BOONS = [
  ["uses:1", "One use (1)", 1],
  ["uses:3", "3 uses (2)", 2],
  ["uses:5", "5 uses (3)", 3],
  ["one_challenge", "One challenge (3)", 3],
  ["uses:7", "7 uses (4)", 4],
  ["one_arc", "The rest of the arc (5)", 5],
];

function spendForm(ctx, ch, c) {
  const s = state(ctx);
  s.spend = s.spend ?? {};
  const mine = (s.spend[c.element] = s.spend[c.element] ?? { kind: "", fromStake: false });
  const victory = c.how === "victory";
  // A stake's pool pays only for what supports the stake, and only for a victor.
  const pool = victory ? (c.stake_momentum ?? 0) : 0;
  if (pool === 0) mine.fromStake = false;
  if (c.momentum === 0 && pool > 0) mine.fromStake = true;
  const budget = mine.fromStake ? pool : c.momentum;
  const options = victory
    ? [
        ["victory_narration", "Victory narration (1 a vote)"],
        ...(c.stake ? [["claiming_stakes", "Claiming stakes (1 a perk)"]] : []),
        ["lasting_effect", "A lasting effect (1)"],
        ...(mine.fromStake ? [] : [["boon", "A boon (1 to 5)"]]),
      ]
    : [["defeat_conversion", "Adversity (2 momentum each)"]];
  if (!options.some(([v]) => v === mine.kind)) mine.kind = options[0][0];
  const p = `mzch-spend-${c.element}`;
  const kind = select(options, { id: `${p}-kind`, data: { focusKey: `${p}-kind` } });
  kind.value = mine.kind;
  kind.addEventListener("change", () => {
    mine.kind = kind.value;
    ctx.render(`#${p}-kind`);
  });
  const fields = [];
  if (pool > 0) {
    const from = select([["own", `Its own momentum (${c.momentum})`], ["stake", `Its stake's pool (${pool})`]], { id: `${p}-from`, data: { focusKey: `${p}-from` } });
    from.value = mine.fromStake ? "stake" : "own";
    from.addEventListener("change", () => {
      mine.fromStake = from.value === "stake";
      ctx.render(`#${p}-from`);
    });
    fields.push(field("Pay with", from, "The pool is spent in support of the stake: claiming it, victory narration or a lasting effect."));
  }
  const spendOn = field("Spend on", kind);
  spendOn.classList.add("mzch-wide"); // its own row, so each choice shows whole on a phone
  fields.push(spendOn);
  let read = null;
  if (mine.kind === "victory_narration" || mine.kind === "defeat_conversion") {
    const most = mine.kind === "defeat_conversion" ? Math.floor(c.momentum / 2) : budget;
    const n = numberInput({ id: `${p}-count`, min: 1, max: most, value: Math.max(1, most) });
    const label = { victory_narration: "Votes", defeat_conversion: "Adversity" }[mine.kind];
    fields.push(field(`${label} (at most ${most})`, n));
    read = () => {
      const v = readCount(n, 1, Math.max(1, most));
      if (v === null) return null;
      if (mine.kind === "victory_narration") return { kind: "victory_narration", votes: v };
      return { kind: "defeat_conversion", adversity: v };
    };
  } else if (mine.kind === "claiming_stakes") {
    // One major perk a point, chosen with its target as a major action's perks are; it
    // takes effect now, and what would end with this challenge lasts through the next.
    mine.perk = mine.perk ?? newPerk();
    fields.push(el("p", { class: "mz-hint muted mzch-wide", id: `${p}-stake` }, `Stake: ${c.stake}. Effects that end with a challenge last until the end of the next one.`));
    fields.push(
      ...perkFields(ctx, ch, mine.perk, {
        allowed: PERKS.filter(([, , major]) => major),
        actorSide: c.side,
        candidates: ch.challengers,
        px: `${p}-claim`,
        claimed: true,
        onKind: (k) => {
          mine.perk = { ...newPerk(), kind: k, target: mine.perk.target };
        },
      }),
    );
    read = () => {
      const perk = perkOf(mine.perk);
      return perk ? { kind: "claiming_stakes", perks: 1, uses: [perk] } : null;
    };
  } else if (mine.kind === "lasting_effect") {
    const everyone = [...ch.challengers.map((x) => x.element), ...ch.goals.map((g) => g.element)];
    const flaws = everyone.flatMap((id) => {
      const e = elementOf(ctx, id);
      return flawsOf(e).map((f) => [`${id}:${f.id}`, `${e.name}: ${flawWords(e, f)}`, hasModifier(e, f.id, "transient_flaw")]);
    });
    const which = select(flaws.length > 0 ? flaws.map(([v, n, tr]) => [v, `${n} — ${tr ? "remove Transient" : "make Transient"}`]) : [["", "No flaw in this challenge"]], { id: `${p}-flaw` });
    fields.push(field("Flaw", which));
    read = () => {
      const found = flaws.find(([v]) => v === which.value);
      if (!found) return null;
      const [element, flaw] = found[0].split(":");
      return { kind: "lasting_effect", element, flaw, transient: !found[2], part_of_stake: false };
    };
  } else if (mine.kind === "boon") {
    const lasting = select(BOONS.filter(([, , cost]) => cost <= budget).map(([v, n]) => [v, n]), { id: `${p}-boon` });
    const edge = el("input", { type: "text", id: `${p}-edge`, maxlength: 200 });
    fields.push(field("How long (cost)", lasting), field("The boon's edge", edge));
    read = () => {
      const v = lasting.value;
      const boon = v.startsWith("uses:") ? { kind: "uses", uses: Number(v.slice(5)) } : { kind: v };
      return { kind: "boon", boon, edge: { name: edge.value.trim() } };
    };
  }
  const by = c.claimed_by ?? NOBODY;
  return form(
    { id: `${p}-form`, class: "mz-form mzch-spend", "aria-label": `${c.name} spends momentum` },
    [
      el("h4", {}, `${c.name} spends momentum (${c.momentum} left${pool > 0 ? `, ${pool} in its stake's pool` : ""}, ${victory ? "victory" : "defeat"})`),
      el("div", { class: "mz-fields" }, ...fields),
      el("button", { type: "submit", id: `${p}-submit` }, mine.kind === "claiming_stakes" ? "Claim: the perk takes effect (1)" : "Spend"),
    ],
    (b) => {
      const spend = read ? read() : null;
      if (!spend) return;
      const after = spend.kind === "claiming_stakes" ? () => (mine.perk = { ...newPerk(), kind: mine.perk.kind }) : null;
      playMove(ctx, "The momentum was not spent.", { move: "spend", challenger: c.element, by, spend, from_stake: mine.fromStake }, b, after);
    },
  );
}
