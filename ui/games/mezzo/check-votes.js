// The Mezzo action check's votes: each player's Setting Law and influence (or the totals typed
// in), each acting element's adversity spends and edges, and the votes its traits give.

import { el } from "../../kit/dom.js";
import { EDGE_LASTS, EDGE_PROPS, actors, byTotals, castingHere, castsOf, newBallotSpend, sideName, sidesOf, spendsOf } from "./check-attempt.js";
import { schedulePreview, signed, traitName } from "./check-odds.js";
import { sideSelect } from "./check-sides.js";
import {
  TEMPLATES,
  WORDS,
  allElements,
  button,
  card,
  checkbox,
  countInput,
  disclosure,
  elementPick,
  entryChoice,
  field,
  form,
  lawFields,
  numberInput,
  select,
  totalSteppers,
  wholeNumber,
  listOrNone,
} from "./kit.js";

/** The templates an unexpected edge may follow (an edge's; a trump comes only from a Push). */
const EDGE_TEMPLATES = TEMPLATES.filter(([value, , kind]) => kind === "edge" && value !== "trump");

export function castsCard(ctx, locked) {
  const t = ctx.table;
  const c = ctx.ui.check;
  const acting = actors(c).map((id) => allElements(t).find((e) => e.id === id)).filter(Boolean);
  return card(
    "mzc-casts",
    "Votes and spends",
    locked &&
      el("p", { class: "mz-hint", id: "mzc-locked", role: "status" }, "The voting is closed: a scope perk was bought. Take the perks back to change the votes."),
    el(
      "fieldset",
      { class: "mzc-cast-group", disabled: locked },
      el("legend", {}, "Players"),
      ctx.role !== "player" && entryPart(ctx),
      byTotals(ctx) && totalsPart(ctx),
      castingHere(ctx).length > 0 &&
        disclosure(
          "What a player casts",
          el("p", { class: "mz-hint muted hint" }, "No free votes in an action check. Each player: one Setting Law — the game's own laws and the arc's Themes too (laws count at most ±2 per side) — influence (a vote per point), Victory Narration votes and Ill Fated debt, as in a conflict. Paid when the check resolves."),
        ),
      ...castingHere(ctx).map((p) => playerCasts(p, ctx)),
      !byTotals(ctx) && discoverPart(ctx),
    ),
    el(
      "fieldset",
      { class: "mzc-cast-group", disabled: locked },
      el("legend", {}, "Adversity of the acting elements"),
      listOrNone(acting, "Pick the acting elements first.", () => el("div", {}, ...acting.map((e) => elementSpends(e, ctx)))),
      disclosure(
        "What each spend does",
        el("p", { class: "mz-hint muted hint" }, "Fortune's Favor: 2 adversity for a vote for the element's own action. Overcome Flaws: 2 adversity and a flaw is ignored (a Restraint then locks nothing out). Unexpected Edge: 5 adversity, in a challenge. Paid when the check resolves. Traits: the votes the table judges a trait gives a side (Aptitude aside), each once."),
      ),
    ),
  );
}

/** On a shared device: each player's casts here, or the totals the table counted per side. */
function entryPart(ctx) {
  const c = ctx.ui.check;
  return entryChoice("mzc", c.entry, (value) => {
    c.entry = value;
    c.handValues = [];
    ctx.render(`#mzc-entry-${value}`);
  });
}

/** One stepper per side: the votes the table counted for it beyond its base chance. */
function totalsPart(ctx) {
  const c = ctx.ui.check;
  return totalSteppers({
    prefix: "mzc",
    title: "Votes the table counted, beyond the base chance",
    hint: "Laws and influence cast on other devices; nothing is paid here for them.",
    items: sidesOf(c).map((side, i) => ({ label: sideName(ctx, side), value: c.totals[i] ?? 0 })),
    onChange: (i, next) => {
      c.totals[i] = next;
      c.handValues = [];
      ctx.render();
    },
  });
}

/**
 * `p`'s part of the form: their law, influence, Victory Narration and Ill Fated (only what they
 * hold). A phone's ballot in a check open for votes (check-open.js) draws the same form, with
 * its ids' prefix and nothing to preview.
 */
export function playerCasts(p, ctx, { prefix = "mzc", changed = () => schedulePreview(ctx) } = {}) {
  const c = ctx.ui.check;
  const mine = castsOf(c, p.id);
  const id = (what) => `${prefix}-${what}-${p.id}`;
  const lawSide = sideSelect(ctx, mine.law.side, { id: id("law-side"), data: { focusKey: id("law-side") } });
  const src = sourcesOf(ctx);
  const law = lawFields(mine.law, {
    id,
    key: "side",
    target: lawSide,
    targetLabel: "On side",
    changed,
    extraLaws: [...src.laws.map((l) => [`custom:${l.id}`, `${l.name} (±1)`]), ...src.themes.map((th) => [`theme:${th.by}`, `Theme: ${th.text} (±1)`])],
    facts: src.facts.map((f) => f.text),
  });
  const points = countInput(mine.influence, "points", p.influence, { id: id("influence"), data: { focusKey: id("influence") } }, changed);
  const pointsSide = sideSelect(ctx, mine.influence.side, { id: id("influence-side"), data: { focusKey: id("influence-side") } });
  pointsSide.addEventListener("change", () => {
    mine.influence.side = Number(pointsSide.value);
    changed();
  });
  return el(
    "div",
    { class: "mz-cast-part mzc-player", data: { playerId: p.id } },
    el("p", { class: "mz-cast-title" }, `${p.name}: ${p.influence} influence`),
    el("div", { class: "mz-fields" }, ...law),
    el("div", { class: "mz-fields" }, field(`Influence points (of ${p.influence})`, points), field("For side", pointsSide)),
    ...otherSources(p, mine, ctx, src, id, changed),
  );
}

/**
 * A phone's ballot: Fortune's Favor and a flaw overcome for each acting element whose adversity
 * is `p`'s to spend (their own, or nobody's), paid by `p` when the check resolves.
 */
export function playerSpends(p, ctx, { prefix, changed = () => {} }) {
  const c = ctx.ui.check;
  const mine = castsOf(c, p.id);
  const known = new Map(allElements(ctx.table).map((e) => [e.id, e]));
  const acting = actors(c)
    .map((eid) => known.get(eid))
    .filter((e) => e && spendsFor(p, e));
  return acting.map((e) => {
    const s = (mine.spends[e.id] = mine.spends[e.id] ?? newBallotSpend());
    const id = (what) => `${prefix}-${what}-${p.id}-${e.id}`;
    const ff = numberInput({ id: id("ff"), min: 0, value: s.ff, data: { focusKey: id("ff") } });
    ff.addEventListener("input", () => {
      const n = wholeNumber(ff);
      s.ff = n !== null && n > 0 ? Math.min(n, 20) : 0;
      changed();
    });
    const flaws = e.traits.filter((tr) => tr.kind === "flaw");
    let flaw = null;
    if (flaws.length > 0) {
      flaw = select([["", "None"], ...flaws.map((f) => [f.id, f.name])], { id: id("flaw"), data: { focusKey: id("flaw") } });
      flaw.value = s.flaw;
      flaw.addEventListener("change", () => {
        s.flaw = flaw.value;
        changed();
      });
    }
    const debt = checkbox("Take a shortfall as adversity debt", { id: id("debt"), checked: s.debt });
    debt.box.addEventListener("change", () => {
      s.debt = debt.box.checked;
      changed();
    });
    return el(
      "div",
      { class: "mz-cast-part mzc-element", data: { elementId: e.id } },
      el("p", { class: "mz-cast-title" }, `${e.name}: ${e.adversity} adversity${e.adversity_debt > 0 ? `, debt ${e.adversity_debt}` : ""}`),
      el("div", { class: "mz-fields" }, field("Fortune's Favor votes (2 adversity each)", ff), flaw && field("Overcome a flaw (2 adversity)", flaw)),
      debt.node,
    );
  });
}

/** What the table recorded that votes are drawn from (read with the tab). */
const sourcesOf = (ctx) => ({ laws: [], themes: [], facts: [], victory_votes: [], discoveries: [], ...(ctx.ui.sources ?? {}) });

/** A claimed element's votes and debt are its claimer's; an unclaimed one's anyone's. */
const spendsFor = (p, e) => !e.claimed_by || e.claimed_by === p.id;

/** `p`'s Victory Narration votes and the Ill Fated debt of an acting element, shown only when there is some to spend. */
function otherSources(p, mine, ctx, src, id, changed) {
  const c = ctx.ui.check;
  const parts = [];
  const known = new Map(allElements(ctx.table).map((e) => [e.id, e]));
  const attrs = (what) => ({ id: id(what), data: { focusKey: id(what) } });
  const number = (part, key, max, what) => countInput(part, key, max, attrs(what), changed);
  const pick = (part, choices, what) => elementPick(part, choices, attrs(what), changed);
  const sidePick = (part, what) => {
    const s = sideSelect(ctx, part.side, { id: id(what), data: { focusKey: id(what) } });
    s.addEventListener("change", () => {
      part.side = Number(s.value);
      changed();
    });
    return s;
  };
  const banked = src.victory_votes.filter((v) => known.has(v.element) && spendsFor(p, known.get(v.element)));
  if (banked.length > 0) {
    parts.push(
      el(
        "div",
        { class: "mz-fields" },
        field("Victory Narration: victor", pick(mine.narration, banked.map((v) => [v.element, `${v.name} (${v.votes} ${v.votes === 1 ? "vote" : "votes"} bought)`]), "narration-element")),
        field("Narration votes", number(mine.narration, "votes", Math.max(...banked.map((v) => v.votes)), "narration-votes")),
        field("For side", sidePick(mine.narration, "narration-side")),
      ),
    );
  }
  const debtors = actors(c)
    .map((eid) => known.get(eid))
    .filter((e) => e && e.adversity_debt > 0 && spendsFor(p, e));
  if (debtors.length > 0) {
    parts.push(
      el(
        "div",
        { class: "mz-fields" },
        field("Ill Fated: element in debt", pick(mine.ill, debtors.map((e) => [e.id, `${e.name} (${e.adversity_debt} debt)`]), "ill-element")),
        field("Debt paid off (a vote each)", number(mine.ill, "points", Math.max(...debtors.map((e) => e.adversity_debt)), "ill-points")),
        field("For the side that hinders it", sidePick(mine.ill, "ill-side")),
      ),
    );
  }
  return parts;
}

/** The extra vote of each detail a Discover perk of the table's challenge added: for the side where it exists. */
function discoverPart(ctx) {
  const c = ctx.ui.check;
  const details = sourcesOf(ctx).discoveries;
  if (details.length === 0) return null;
  c.discover = c.discover ?? {};
  const sides = sidesOf(c);
  return el(
    "div",
    { class: "mz-cast-part", id: "mzc-story-votes" },
    el("p", { class: "mz-cast-title" }, "Votes from the story"),
    el(
      "div",
      { class: "mz-fields" },
      ...details.map((detail, i) => {
        const s = select([["-1", "Not cast"], ...sides.map((side, k) => [String(k), sideName(ctx, side)])], {
          id: `mzc-discover-${i}`,
          class: "mzc-discover-vote",
          data: { focusKey: `mzc-discover-${i}` },
        });
        s.value = String(c.discover[detail] ?? -1);
        s.addEventListener("change", () => {
          c.discover[detail] = Number(s.value);
          schedulePreview(ctx);
        });
        return field(`Discovered “${detail}”: an extra vote where it exists`, s);
      }),
    ),
  );
}

export function payerSelect(ctx, value, attrs) {
  const s = select(ctx.table.players.map((p) => [p.id, p.name]), attrs);
  s.value = value;
  return s;
}

function elementSpends(e, ctx) {
  const c = ctx.ui.check;
  const mine = spendsOf(c, ctx, e);
  const id = (what) => `mzc-${what}-${e.id}`;
  const changed = () => schedulePreview(ctx);
  // Who pays a spend of adversity (`spend.by`) and whether a shortfall is taken as adversity
  // debt (`spend.debt`): Fortune's Favor and overcoming a flaw alike.
  const payment = (spend, what, attrs = {}) => {
    const by = payerSelect(ctx, spend.by, { id: id(`${what}-by`), ...attrs });
    by.addEventListener("change", () => {
      spend.by = by.value;
      changed();
    });
    const debt = checkbox("Take a shortfall as adversity debt", { id: id(`${what}-debt`), checked: spend.debt });
    debt.box.addEventListener("change", () => {
      spend.debt = debt.box.checked;
      changed();
    });
    return { by, debt };
  };
  const ff = numberInput({ id: id("ff"), min: 0, value: mine.ff.count, data: { focusKey: id("ff") } });
  ff.addEventListener("input", () => {
    const n = wholeNumber(ff);
    mine.ff.count = n !== null && n > 0 ? Math.min(n, 20) : 0;
    changed();
  });
  const ffPaid = payment(mine.ff, "ff", { data: { focusKey: id("ff-by") } });
  const flaws = e.traits.filter((tr) => tr.kind === "flaw");
  let flawPart = null;
  if (flaws.length > 0) {
    const flaw = select([["", "None"], ...flaws.map((f) => [f.id, f.name])], { id: id("flaw"), data: { focusKey: id("flaw") } });
    flaw.value = mine.flaw.flaw;
    flaw.addEventListener("change", () => {
      mine.flaw.flaw = flaw.value;
      changed();
    });
    const flawPaid = payment(mine.flaw, "flaw");
    flawPart = el(
      "div",
      {},
      el("div", { class: "mz-fields" }, field("Overcome a flaw (2 adversity)", flaw), field("Paid by", flawPaid.by)),
      flawPaid.debt.node,
    );
  }
  return el(
    "div",
    { class: "mz-cast-part mzc-element", data: { elementId: e.id } },
    el(
      "p",
      { class: "mz-cast-title" },
      `${e.name}: ${e.adversity} adversity${e.adversity_debt > 0 ? `, debt ${e.adversity_debt}` : ""}`,
    ),
    el("div", { class: "mz-fields" }, field("Fortune's Favor votes (2 adversity each)", ff), field("Paid by", ffPaid.by)),
    ffPaid.debt.node,
    flawPart,
    edgePart(e, ctx, mine.edge),
    traitVotesPart(e, ctx),
  );
}

/** Unexpected Edge: 5 adversity for an edge with no slot, in a challenge the element has no fitting trait for. */
function edgePart(e, ctx, edge) {
  const id = (what) => `mzc-${what}-${e.id}`;
  const changed = () => schedulePreview(ctx);
  const buy = checkbox(`Buy an Unexpected Edge for ${e.name} (5 adversity)`, {
    id: id("edge-on"),
    class: "mzc-edge-on",
    checked: edge.on,
    disabled: !e.in_challenge && !edge.on,
    "aria-describedby": id("edge-hint"),
    data: { focusKey: id("edge-on") },
  });
  buy.box.addEventListener("change", () => {
    edge.on = buy.box.checked;
    ctx.render(edge.on ? `#${id("edge-name")}` : null);
  });
  const hint = el(
    "p",
    { class: "mz-hint muted", id: id("edge-hint") },
    e.in_challenge
      ? "Only when none of its traits fits the challenge. The edge takes no slot; paid when the check resolves."
      : `Only in a challenge: ${e.name} is not taking part in one.`,
  );
  if (!edge.on) return el("div", { class: "mzc-edge" }, buy.node, hint);
  const name = el("input", { type: "text", id: id("edge-name"), class: "mzc-edge-name", maxlength: 120, required: true, data: { focusKey: id("edge-name") } });
  name.value = edge.name;
  name.addEventListener("input", () => {
    edge.name = name.value;
    name.removeAttribute("aria-invalid");
    changed();
  });
  const template = select([["", "No template"], ...EDGE_TEMPLATES.map(([v, label]) => [v, label])], {
    id: id("edge-template"),
    data: { focusKey: id("edge-template") },
  });
  template.value = edge.template;
  template.addEventListener("change", () => {
    edge.template = template.value;
    changed();
  });
  const lasts = select(EDGE_LASTS, { id: id("edge-lasts"), data: { focusKey: id("edge-lasts") } });
  lasts.value = edge.lasts;
  lasts.addEventListener("change", () => {
    edge.lasts = lasts.value;
    changed();
  });
  const area = (k) => {
    const a = el("textarea", { id: id(`edge-${k}`), rows: 2, maxlength: 2000, data: { focusKey: id(`edge-${k}`) } });
    a.value = edge.properties[k];
    a.addEventListener("input", () => {
      edge.properties[k] = a.value;
      changed();
    });
    return field(WORDS.property[k], a);
  };
  const more = el(
    "details",
    { class: "mzc-edge-more", open: ctx.ui.open?.[id("edge-more")] ?? false },
    el("summary", {}, "More properties"),
    el("div", { class: "mz-fields" }, ...EDGE_PROPS.slice(2).map(area)),
  );
  more.addEventListener("toggle", () => {
    if (more.isConnected && ctx.ui.open) ctx.ui.open[id("edge-more")] = more.open;
  });
  const fits = checkbox(`No trait of ${e.name} fits this challenge (the table agrees)`, { id: id("edge-fits"), checked: edge.fits, data: { focusKey: id("edge-fits") } });
  fits.box.addEventListener("change", () => {
    edge.fits = fits.box.checked;
    changed();
  });
  const by = payerSelect(ctx, edge.by, { id: id("edge-by"), data: { focusKey: id("edge-by") } });
  by.addEventListener("change", () => {
    edge.by = by.value;
    changed();
  });
  const debt = checkbox("Take a shortfall as adversity debt", { id: id("edge-debt"), checked: edge.debt, data: { focusKey: id("edge-debt") } });
  debt.box.addEventListener("change", () => {
    edge.debt = debt.box.checked;
    changed();
  });
  return el(
    "div",
    { class: "mzc-edge on", id: id("edge"), role: "group", "aria-label": `Unexpected Edge of ${e.name}` },
    buy.node,
    hint,
    el("div", { class: "mz-fields" }, field("The edge's name", name), field("Template", template), field("Lasts for", lasts)),
    el("div", { class: "mz-fields" }, ...EDGE_PROPS.slice(0, 2).map(area)),
    more,
    fits.node,
    el("div", { class: "mz-fields" }, field("Paid by", by)),
    debt.node,
  );
}

/** The votes the table judges the element's traits give a side (each trait once per check). */
function traitVotesPart(e, ctx) {
  const c = ctx.ui.check;
  const id = (what) => `mzc-${what}-${e.id}`;
  const counted = c.traitVotes.filter((v) => v.element === e.id);
  const left = e.traits.filter((t) => !counted.some((v) => v.trait === t.id));
  const sides = sidesOf(c);
  const own = sides.findIndex((s) => s.kind.kind === "action" && s.kind.element === e.id);
  const list =
    counted.length > 0 &&
    el(
      "ul",
      { class: "mz-list mzc-trait-votes", id: id("trait-votes"), "aria-label": `Trait votes of ${e.name}` },
      ...counted.map((v) => {
        const words = `${traitName(ctx, e.id, v.trait)}: ${signed(v.votes)} ${Math.abs(v.votes) === 1 ? "vote" : "votes"} for ${sides[v.side] ? sideName(ctx, sides[v.side]) : "a side no longer there"}`;
        const wordsId = `mzc-trait-vote-${v.trait}`;
        return el(
          "li",
          { class: "mz-row" },
          el("span", { class: "grow", id: wordsId }, words),
          button(
            "Remove",
            () => {
              c.traitVotes = c.traitVotes.filter((x) => x !== v);
              c.handValues = [];
              ctx.render(`#${id("trait-pick")}`);
            },
            { class: "mzc-trait-vote-remove", "aria-describedby": wordsId, data: { focusKey: `mzc-trait-vote-remove-${v.trait}` } },
          ),
        );
      }),
    );
  if (left.length === 0) return el("div", { class: "mzc-traits" }, list || el("p", { class: "muted" }, `${e.name} has no trait to count.`));
  const pick = select(left.map((t) => [t.id, `${t.name} (${WORDS.traitKind[t.kind] ?? t.kind})`]), { id: id("trait-pick"), data: { focusKey: id("trait-pick") } });
  const votes = numberInput({ id: id("trait-votes-n"), min: -20, max: 20, value: 1, data: { focusKey: id("trait-votes-n") } });
  const side = sideSelect(ctx, Math.max(own, 0), { id: id("trait-side"), data: { focusKey: id("trait-side") } });
  return el(
    "div",
    { class: "mzc-traits" },
    list,
    form(
      { class: "mz-form", id: id("trait-form"), "aria-label": `Count a trait of ${e.name}` },
      [
        el(
          "div",
          { class: "mz-fields" },
          field("Trait", pick),
          field("Votes (negative takes away)", votes),
          field("For side", side),
        ),
        el("button", { type: "submit", id: id("trait-add"), data: { focusKey: id("trait-add") } }, "Count the trait"),
      ],
      () => {
        const n = Number(votes.value);
        if (!Number.isInteger(n) || n === 0 || n < -20 || n > 20) {
          votes.setAttribute("aria-invalid", "true");
          votes.focus();
          return;
        }
        c.traitVotes.push({ element: e.id, trait: pick.value, side: Number(side.value), votes: n });
        c.handValues = [];
        ctx.render(`#${id("trait-add")}`);
      },
    ),
  );
}
