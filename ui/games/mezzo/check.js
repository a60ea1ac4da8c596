// The Mezzo action check tab (RULES.md §3.3): Leave to Chance between an element's action and
// its failure, or contested actions (one side per acting element). The table sets the sides
// and their base chances (a negligible side takes no part; "no check needed" when one side is
// left), casts Setting Laws and influence per player and adversity spends per element
// (Fortune's Favor, Overcome Flaws, an Unexpected Edge in a challenge) and the votes the table
// judges the acting elements' traits give, then buys scope perks (which close the voting; a
// perk whose prerequisite is missing is refused by the core with its reason). Each side's
// exact odds, with the spends named, follow every change (mezzoCheckPreview). The roll — in
// the app, or every die typed in — puts the check on the table (undoable); Sudden Surges are
// bought for the rolled check, then "Resolve" pays everything and says who takes effect. While
// a challenge is played (mezzoChallenge, read through `runningChallenge`, which the plot tab
// shares), the rolled check may instead be resolved as the major action of the acting
// challengers ticked (mezzoChallengeResolveMajors): the core's result is shown and its perks
// are declared on the Challenge tab. A tie is broken with d12s or settled by a compromise.
// The check waiting on the table comes from mezzoCheckPending (ctx.ui.pending). A table set to
// the D6 variant (Table tab) rolls one d6 per side: after the first roll each owner who may
// burst chooses burst or keep (the app's suggestion preselected: the burst that raises the
// expected score), with the rerolls rolled here or typed in (mezzoCheckBurst); then Sudden
// Surges and the result as above, and ties are broken with d6s.
//
//   import { renderCheck, newCheck } from "./check.js";
//   renderCheck(host, ctx);   // ctx from screen.js; ctx.ui.check is the state below

import * as api from "./api.js";
import { el, byId } from "../../kit/dom.js";
import {
  card,
  checkbox,
  field,
  form,
  numberInput,
  wholeNumber,
  button,
  select,
  dieBadge,
  diceWords,
  oddsBar,
  percent,
  handDice,
  plural,
  TEMPLATES,
  WORDS,
  lawFields,
  disclosure,
  entryChoice,
  totalSteppers,
  allElements,
} from "./kit.js";

const CHANCES = [
  ["negligible", "Negligible (0 votes)"],
  ["occasional", "Occasional (1 vote)"],
  ["common", "Common (2 votes)"],
];

/** The scope perks in their two ladders: [value, name, the one it needs first]. */
const PERKS = [
  ["extended_coverage", "Extended Coverage", null],
  ["local_coverage", "Local Coverage", "extended_coverage"],
  ["regional_coverage", "Regional Coverage", "local_coverage"],
  ["lingering_consequences", "Lingering Consequences", null],
  ["contagious_consequences", "Contagious Consequences", "lingering_consequences"],
  ["inescapable_consequences", "Inescapable Consequences", "contagious_consequences"],
];
const perkName = (value) => (PERKS.find(([v]) => v === value) ?? [null, value])[1];

/** An Unexpected Edge's properties as the core keeps them, the two shown first. */
const EDGE_PROPS = ["effects", "details", "requirements", "restrictions", "owner", "target", "set_up"];

/** The templates an unexpected edge may follow (an edge's; a trump comes only from a Push). */
const EDGE_TEMPLATES = TEMPLATES.filter(([value, , kind]) => kind === "edge" && value !== "trump");

/** How long an unexpected edge lasts: it is bought for the challenge at hand. */
const EDGE_LASTS = [
  ["challenge", "This challenge"],
  ["scene", "This scene"],
];

/** A fresh id (the preview needs one per new edge; the app gives the real one on the roll). */
function newId() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** An action check being set up, with nothing cast. */
export function newCheck(byHand = false) {
  return {
    description: "",
    actions: [{ element: "", description: "", chance: "common", aptitude: 0 }],
    failure: { on: true, description: "", chance: "occasional", aptitude: 0 },
    casts: {}, // per player: {law: {kind, side, fact, direction}, influence: {points, side}}
    spends: {}, // per element: {ff: {count, by, debt}, flaw: {flaw, by, debt}, edge: {on, name, …, fits, by, debt}}
    traitVotes: [], // [{element, trait, side, votes}]: the votes the table judges a trait gives
    entry: "players", // "players": each player's casts here; "totals": what the table counted
    totals: [], // per side: the votes the table counted beyond its base chance
    perks: [], // [{side, perk}] in the order bought
    hand: byHand, // the game's "roll real dice" preference
    handValues: [],
    preview: null,
    previewError: null,
    serial: 0,
    timer: null,
    surges: [], // [{element, by, allow_debt}] for the rolled check `surgesFor`
    surgesFor: null,
    tieHand: false,
    result: null, // CheckResult once resolved (or settled)
    majors: {}, // element → ticked, for "Resolve as major action"
    majorFor: null,
    major: null, // {message} once resolved as a challenge's major action
  };
}

/**
 * Starts setting up a check from a sheet: `element` acts, its trait `trait` counted for its
 * own side (an edge, a modifier or an extra +1 vote, a flaw −1; the table may change it).
 */
export function startCheckWith(ctx, element, trait) {
  const c = newCheck(ctx.diceByHand);
  c.actions[0].element = element.id;
  c.traitVotes = [{ element: element.id, trait: trait.id, side: 0, votes: trait.kind === "flaw" ? -1 : 1 }];
  ctx.ui.check = c;
  ctx.switchTab("check", { focus: "#mzc-description" });
}

// ---- the request ------------------------------------------------------------------------------

/** The sides as the core numbers them: the actions in order, then the failure side. */
function sidesOf(c) {
  const sides = c.actions.map((a) => ({
    kind: { kind: "action", element: a.element },
    description: a.description.trim(),
    chance: a.chance,
    aptitude: a.aptitude,
  }));
  if (c.failure.on || c.actions.length < 2) {
    sides.push({ kind: { kind: "failure" }, description: c.failure.description.trim(), chance: c.failure.chance, aptitude: c.failure.aptitude });
  }
  return sides;
}

const elementName = (ctx, id) => allElements(ctx.table).find((e) => e.id === id)?.name ?? "An element";

/** "Mira (“climbs the wall”)", "Failure". */
function sideName(ctx, side) {
  const who = side.kind.kind === "action" ? elementName(ctx, side.kind.element) : "Failure";
  const what = (side.description ?? "").trim();
  return what ? `${who} (“${what}”)` : who;
}

const shortName = (ctx, side) => (side.kind.kind === "action" ? elementName(ctx, side.kind.element) : "Failure");

function castsOf(c, playerId) {
  c.casts[playerId] = c.casts[playerId] ?? {
    law: { kind: "", side: 0, fact: "", direction: "for" },
    influence: { points: 0, side: 0 },
  };
  return c.casts[playerId];
}

/** Who spends an element's adversity by default: its claimer, else the first player. */
const defaultPayer = (ctx, e) => e.claimed_by ?? ctx.table.players[0]?.id ?? "";

function spendsOf(c, ctx, e) {
  const payer = defaultPayer(ctx, e);
  c.spends[e.id] = c.spends[e.id] ?? {
    ff: { count: 0, by: payer, debt: false },
    flaw: { flaw: "", by: payer, debt: false },
    edge: newEdge(payer),
  };
  return c.spends[e.id];
}

function newEdge(payer) {
  return {
    on: false,
    id: newId(),
    name: "",
    template: "",
    lasts: "challenge",
    properties: Object.fromEntries(EDGE_PROPS.map((k) => [k, ""])),
    fits: false,
    by: payer,
    debt: false,
  };
}

/** The edge an Unexpected Edge adds (its id is the app's on the roll); `name` as given. */
function edgeTrait(edge, name) {
  return {
    id: edge.id,
    kind: "edge",
    template: edge.template || null,
    name,
    properties: Object.fromEntries(EDGE_PROPS.map((k) => [k, edge.properties[k].trim()])),
    target_trait: null,
    granted_by: null,
    via: "unexpected_edge",
    lasts: edge.lasts,
    uses_left: null,
  };
}

/** The elements taking part: the acting ones (chosen) in side order. */
const actors = (c) => c.actions.map((a) => a.element).filter((id) => id !== "");

/** The CheckRequest the state stands for; with `forPreview` an empty fact gets a placeholder. */
function requestOf(ctx, forPreview = false) {
  const c = ctx.ui.check;
  const sides = sidesOf(c);
  const n = sides.length;
  const casts = [];
  for (const p of castingHere(ctx)) {
    const mine = castsOf(c, p.id);
    const law = mine.law;
    if (law.kind !== "" && law.side < n) {
      const fact = law.fact.trim() !== "" || !forPreview ? law.fact : `the fact ${p.name} names`;
      const body = law.kind === "potential" ? { law: "potential" } : { law: law.kind, fact };
      const direction = law.kind === "inertia" ? "against" : law.direction;
      casts.push({ kind: "law", player: p.id, side: law.side, law: body, direction });
    }
    if (mine.influence.points > 0 && mine.influence.side < n) {
      casts.push({ kind: "influence", player: p.id, side: mine.influence.side, points: mine.influence.points });
    }
  }
  for (const id of actors(c)) {
    const s = c.spends[id];
    if (!s) continue;
    for (let k = 0; k < s.ff.count; k++) {
      casts.push({ kind: "fortunes_favor", element: id, by: s.ff.by, allow_debt: s.ff.debt });
    }
    if (s.flaw.flaw !== "") {
      casts.push({ kind: "overcome_flaw", element: id, flaw: s.flaw.flaw, by: s.flaw.by, allow_debt: s.flaw.debt });
    }
    if (s.edge.on) {
      const name = s.edge.name.trim() !== "" || !forPreview ? s.edge.name.trim() : "the unexpected edge";
      casts.push({
        kind: "unexpected_edge",
        element: id,
        edge: edgeTrait(s.edge, name),
        no_fitting_trait: s.edge.fits,
        by: s.edge.by,
        allow_debt: s.edge.debt,
      });
    }
  }
  for (const v of c.traitVotes) {
    if (v.side < n && actors(c).includes(v.element)) {
      casts.push({ kind: "trait", side: v.side, element: v.element, trait_id: v.trait, votes: v.votes });
    }
  }
  if (byTotals(ctx)) {
    for (let side = 0; side < n; side++) {
      const votes = c.totals[side] ?? 0;
      if (votes > 0) casts.push({ kind: "counted", side, votes });
    }
  }
  return {
    setup: { description: c.description.trim(), sides, involved: [] },
    casts,
    perks: c.perks.filter((p) => p.side < n),
  };
}

/** Whether votes cast elsewhere come in as totals per side: always on a player's own device. */
const byTotals = (ctx) => ctx.role === "player" || ctx.ui.check.entry === "totals";

/** The players casting on this device: a player device's own; on a shared one all, or none with totals. */
function castingHere(ctx) {
  if (ctx.role === "player") return ctx.devicePlayers;
  return ctx.ui.check.entry === "totals" ? [] : ctx.table.players;
}

// ---- the live preview -------------------------------------------------------------------------

function schedulePreview(ctx) {
  const c = ctx.ui.check;
  clearTimeout(c.timer);
  c.timer = setTimeout(() => preview(ctx), 120);
}

async function preview(ctx) {
  const c = ctx.ui.check;
  const serial = ++c.serial;
  if (c.actions.some((a) => a.element === "")) {
    c.preview = null;
    c.previewError = null;
    refreshLive(ctx);
    return;
  }
  try {
    const answer = await api.mezzoCheckPreview(ctx.gameId, requestOf(ctx, true));
    if (serial !== c.serial || ctx.ui.check !== c) return;
    c.preview = answer;
    c.previewError = null;
  } catch (e) {
    if (serial !== c.serial || ctx.ui.check !== c) return;
    c.previewError = e && e.message ? e.message : String(e);
  }
  refreshLive(ctx);
}

/** Redraws the odds, the perks' state and the dice boxes in place. */
function refreshLive(ctx) {
  const c = ctx.ui.check;
  const odds = byId("mzc-odds-body");
  if (odds) odds.replaceChildren(...oddsContent(ctx));
  const host = byId("mzc-hand-host");
  const sig = handSignature(ctx);
  if (host && (sig !== c.handSig || host.childElementCount === 0)) host.replaceChildren(...handContent(ctx));
  const roll = byId("mzc-roll");
  if (roll) roll.disabled = !canRoll(c);
}

const canRoll = (c) => c.preview !== null && c.previewError === null && c.preview.no_check_needed === null;

function tallyWords(t) {
  const parts = [`base ${t.base}`];
  if (t.laws_cast !== 0) {
    parts.push(`laws ${t.laws > 0 ? "+" : ""}${t.laws}${t.laws !== t.laws_cast ? ` (held to ±2 from ${t.laws_cast > 0 ? "+" : ""}${t.laws_cast})` : ""}`);
  }
  if (t.influence) parts.push(`influence ${t.influence}`);
  if (t.fortunes_favor) parts.push(`Fortune's Favor ${t.fortunes_favor}`);
  if (t.traits) parts.push(`traits ${t.traits > 0 ? "+" : ""}${t.traits}`);
  if (t.perks) parts.push(`perks −${t.perks}`);
  return parts.join(", ");
}

const traitName = (ctx, element, id) =>
  allElements(ctx.table).find((e) => e.id === element)?.traits.find((t) => t.id === id)?.name ?? "a trait";

const signed = (n) => (n > 0 ? `+${n}` : `−${-n}`);

/** The spends and trait votes cast for side `i` of `check`, in words (Fortune's Favor is in the tally). */
function castWords(ctx, check, i) {
  const side = check.sides[i];
  const mine = side.kind.kind === "action" ? side.kind.element : null;
  const words = [];
  for (const cast of check.casts) {
    const debt = cast.allow_debt ? ", debt allowed" : "";
    if (cast.kind === "overcome_flaw" && cast.element === mine) {
      words.push(`Overcome Flaws: ${traitName(ctx, cast.element, cast.flaw)} (2 adversity${debt})`);
    } else if (cast.kind === "unexpected_edge" && cast.element === mine) {
      words.push(`Unexpected Edge “${cast.edge.name}” (5 adversity${debt})`);
    } else if (cast.kind === "trait" && cast.side === i) {
      words.push(`${traitName(ctx, cast.element, cast.trait_id)} ${signed(cast.votes)}`);
    }
  }
  return words;
}

function oddsContent(ctx) {
  const c = ctx.ui.check;
  const pv = c.preview;
  const parts = [];
  if (c.previewError) parts.push(el("p", { class: "mz-problem", id: "mzc-odds-problem", role: "status" }, c.previewError));
  if (c.actions.some((a) => a.element === "")) {
    parts.push(el("p", { class: "muted", id: "mzc-odds-wait" }, "Pick the acting element of every action to see the odds."));
    return parts;
  }
  if (!pv) {
    if (!c.previewError) parts.push(el("p", { class: "muted" }, "Working out the odds…"));
    return parts;
  }
  if (pv.no_check_needed !== null) {
    parts.push(el("p", { class: "mz-winner", id: "mzc-no-check", role: "status" }, pv.summary));
    parts.push(el("p", { class: "mz-hint muted" }, "A negligible side cannot happen: nothing is cast, bought or rolled."));
    return parts;
  }
  const sides = pv.check.sides;
  parts.push(
    el(
      "ol",
      { class: "mz-odds-list", id: "mzc-odds-list" },
      ...sides.map((s, i) => {
        const share = pv.odds[i];
        const t = pv.tallies[i];
        const dice = pv.dice[i];
        let diceText;
        if (s.dropped) diceText = "negligible: takes no part";
        else if (dice.locked_out) diceText = "every die locked out by restraints: scores 1";
        else if (dice.d6) diceText = d6Words(dice.d6);
        else diceText = dice.dice.length === 0 ? "no dice (scores 1)" : diceWords(dice.dice);
        return el(
          "li",
          { class: `mz-odds-option${s.dropped ? " dropped" : ""}`, data: { side: String(i) } },
          el(
            "div",
            { class: "mz-row" },
            el("strong", { class: "grow mz-odds-name" }, sideName(ctx, s)),
            el("strong", { class: "mz-odds-pct", id: `mzc-odds-pct-${i}`, title: `exactly ${share.exact}` }, percent(share.probability)),
          ),
          oddsBar(share.probability),
          el(
            "p",
            { class: "mz-odds-detail" },
            el("span", { class: "mz-votes", id: `mzc-votes-${i}` }, plural(Math.max(t.dice_votes, 0), "vote")),
            !s.dropped && el("span", { class: "muted" }, ` (${tallyWords(t)})`),
            " · ",
            el("span", { class: "mz-dice-words", id: `mzc-dice-${i}` }, diceText),
            s.perks.length > 0 && el("span", { class: "muted" }, ` · perks: ${s.perks.map(perkName).join(", ")}`),
            castWords(ctx, pv.check, i).length > 0 &&
              el("span", { class: "mzc-spends", id: `mzc-spends-${i}` }, ` · ${castWords(ctx, pv.check, i).join("; ")}`),
            !s.dropped && dice.restraints > 0 && el("span", { class: "muted" }, ` · ${plural(dice.restraints, "restraint")}`),
            el("span", { class: "visually-hidden" }, ` Chance to take effect ${percent(share.probability)}, exactly ${share.exact}.`),
          ),
          !s.dropped && dice.dice.length > 0 && el("div", { class: "mz-dice", "aria-hidden": "true" }, ...dice.dice.map((d) => dieBadge(d))),
        );
      }),
    ),
    el(
      "p",
      { class: "mz-hint muted hint", id: "mzc-odds-hint" },
      pv.check.variant === "d6"
        ? "D6 variant (set on the Table tab). Exact chances, assuming each owner bursts when that raises the expected score; a tie counts as shared evenly (the d6 tiebreak is fair)."
        : "Exact chances; a tie counts as shared evenly (the d12 tiebreak is fair).",
    ),
  );
  if (pv.first_check_awards.length > 0) {
    const one = pv.first_check_awards.length === 1;
    parts.push(
      el(
        "div",
        { class: "mzc-awards" },
        el(
          "p",
          { class: "mz-hint", id: "mzc-awards" },
          // Only elements made before the app gave these slots on introduction get here.
          `First action check: ${pv.first_check_awards.map((id) => elementName(ctx, id)).join(", ")} ${one ? "gains" : "each gain"} 4 edge slots. ` +
            `The rules give them when an element is introduced, before its first check (${one ? "this one was" : "these were"} made by an older version of the app): ` +
            `give ${one ? "them" : "the slots"} now and fill them on the sheet, or they come with the result.`,
        ),
        button("Give the slots now", (b) => giveFirstCheckSlots(ctx, pv.first_check_awards, b), { id: "mzc-awards-now" }),
      ),
    );
  }
  return parts;
}

/** The first-check edge slots, before the check (audit #5): one undoable move per element;
 * the check being set up stays as it is, and then gives none. */
async function giveFirstCheckSlots(ctx, elements, b) {
  for (const id of elements) {
    const done = await ctx.move("The slots were not given.", () => api.mezzoAwardEdgeSlots(ctx.gameId, id, { kind: "first_action_check" }), b);
    if (!done) return;
  }
}

// ---- dice typed in by hand ------------------------------------------------------------------

/** The dice the roll asks for, side by side: [{sides, label}], or null before the odds. */
function diceAsked(ctx) {
  const c = ctx.ui.check;
  const pv = c.preview;
  if (!pv || pv.no_check_needed !== null) return null;
  return pv.dice.flatMap((d, i) => {
    if (!d || d.locked_out) return [];
    const name = shortName(ctx, pv.check.sides[i]);
    return d.dice.map((sides, k) => ({ sides, label: d.dice.length === 1 ? name : `${name} die ${k + 1}` }));
  });
}

function handSignature(ctx) {
  const c = ctx.ui.check;
  return c.hand ? JSON.stringify(diceAsked(ctx)) : "none";
}

function handContent(ctx) {
  const c = ctx.ui.check;
  c.handSig = handSignature(ctx);
  c.read = null;
  if (!c.hand) return [];
  const asked = diceAsked(ctx);
  if (!asked) return [el("p", { class: "muted" }, "The dice show once the sides are set.")];
  if (asked.length === 0) return [el("p", { class: "muted" }, "No side has dice: every side scores 1.")];
  const boxes = handDice(asked, "mzc-die", "Each die's face, side by side, in this order", (faces) => {
    c.handValues = faces;
  }, c.handValues);
  c.read = boxes.read;
  return [boxes.node];
}

// ---- the challenge being played ---------------------------------------------------------------

/**
 * The challenge being played (mezzoChallenge, not over), read again whenever the screen's table
 * changes (after a move, an undo or a reload): {loaded, challenge}. While it loads, `loaded` is
 * false and the shown tab is drawn again once it is known. Shared by the check and plot tabs.
 */
export function runningChallenge(ctx) {
  const r = ctx.ui.running ?? { table: null, loaded: false, challenge: null };
  ctx.ui.running = r;
  if (r.table !== ctx.table) {
    const table = ctx.table;
    const tab = ctx.ui.tab;
    r.table = table;
    r.loaded = false;
    api
      .mezzoChallenge(ctx.gameId)
      .then(
        (ch) => (ch && !ch.over ? ch : null),
        () => null,
      )
      .then((ch) => {
        if (r.table !== table) return;
        r.challenge = ch;
        r.loaded = true;
        if (ctx.ui.tab === tab && ctx.ui.table === table) ctx.render();
      });
  }
  return r;
}

// ---- rendering ---------------------------------------------------------------------------------

/** Fills `host` with the check: its set-up and odds, the rolled check, a tie, or the result. */
export function renderCheck(host, ctx) {
  const c = ctx.ui.check;
  const t = ctx.table;
  const pending = ctx.ui.pending ?? null;
  const running = runningChallenge(ctx);
  if (c.major && !pending) {
    host.append(majorCard(ctx));
    return;
  }
  if (pending) {
    c.result = null;
    c.major = null;
    if (c.surgesFor !== pending.check.id) {
      c.surges = [];
      c.surgesFor = pending.check.id;
    }
    const next = pending.check.phase === "tied" ? tieCard(ctx, pending) : (pending.open_bursts ?? []).length > 0 ? burstCard(ctx, pending) : rolledCard(ctx, pending, running);
    host.append(next);
    return;
  }
  if (c.result) {
    host.append(resultCard(ctx));
    return;
  }
  if (t.players.length === 0 || allElements(t).length === 0) {
    host.append(
      card(
        "mzc-empty",
        "Action check",
        el("p", { class: "muted" }, "Add players on the Table tab and story elements on the Story elements tab first: an element acts, players cast."),
      ),
    );
    return;
  }
  const locked = c.perks.length > 0;
  host.append(
    el(
      "div",
      { class: "mz-conflict-grid mz-check-grid" },
      sidesCard(ctx),
      castsCard(ctx, locked),
      oddsCard(ctx),
      perksAndRollCard(ctx),
    ),
  );
  schedulePreview(ctx);
}

/** A D6 die in words: "d6 ×2, burst on 1–3". */
function d6Words(die) {
  const t = die.threshold;
  return `d6 ×${die.multiplier}${t === 1 ? ", burst on a 1" : t > 1 ? `, burst on 1–${t}` : ""}`;
}

/** The rolled check's dice, side by side, with the summary the app wrote (bursts and surges come after). */
function rolledDiceCard(ctx, check, pending) {
  return card(
    "mzc-rolled",
    `Rolled: ${check.description || "the action check"}`,
    el("p", { class: "mz-summary", id: "mzc-rolled-summary", role: "status" }, pending.summary),
    rolledSides(ctx, check, null),
  );
}

/** The tiebreak die of the check's dice: a d12, a d6 in the D6 variant. */
const tieDie = (check) => (check.variant === "d6" ? 6 : 12);

function chanceSelect(value, attrs) {
  const s = select(CHANCES, attrs);
  s.value = value;
  return s;
}

function sidesCard(ctx) {
  const c = ctx.ui.check;
  const elements = allElements(ctx.table);
  const changed = () => {
    c.handValues = [];
    schedulePreview(ctx);
  };
  const what = el("input", { type: "text", id: "mzc-description", maxlength: 500, data: { focusKey: "mzc-description" } });
  what.value = c.description;
  what.addEventListener("input", () => {
    c.description = what.value;
  });
  const actions = c.actions.map((a, i) => {
    const taken = c.actions.filter((_, k) => k !== i).map((b) => b.element);
    const pick = select(
      [["", "Choose…"], ...elements.filter((e) => !taken.includes(e.id)).map((e) => [e.id, e.name])],
      { id: `mzc-actor-${i}`, class: "mzc-actor", data: { focusKey: `mzc-actor-${i}` } },
    );
    pick.value = a.element;
    pick.addEventListener("change", () => {
      a.element = pick.value;
      ctx.render();
    });
    const does = el("input", { type: "text", id: `mzc-action-${i}`, maxlength: 500, data: { focusKey: `mzc-action-${i}` } });
    does.value = a.description;
    does.addEventListener("input", () => {
      a.description = does.value;
    });
    const chance = chanceSelect(a.chance, { id: `mzc-chance-${i}`, class: "mzc-chance", data: { focusKey: `mzc-chance-${i}` } });
    chance.addEventListener("change", () => {
      a.chance = chance.value;
      changed();
    });
    const aptitude = numberInput({ id: `mzc-aptitude-${i}`, min: 0, max: 20, value: a.aptitude, data: { focusKey: `mzc-aptitude-${i}` } });
    aptitude.addEventListener("input", () => {
      const n = wholeNumber(aptitude);
      a.aptitude = n !== null && n > 0 ? n : 0;
      changed();
    });
    return el(
      "fieldset",
      { class: "mzc-side", data: { side: String(i) } },
      el("legend", {}, c.actions.length === 1 ? "The action" : `Action ${i + 1}`),
      el(
        "div",
        { class: "mz-fields" },
        field("Acting element", pick),
        field("What it attempts", does),
        field("Base chance", chance),
        field("Aptitude extras", aptitude),
      ),
      c.actions.length > 1 &&
        button("Remove this action", () => removeAction(ctx, i), {
          class: "mzc-remove-action",
          "aria-label": `Remove action ${i + 1}`,
          data: { focusKey: `mzc-remove-action-${i}` },
        }),
    );
  });
  const failWhat = el("input", { type: "text", id: "mzc-failure", maxlength: 500, data: { focusKey: "mzc-failure" } });
  failWhat.value = c.failure.description;
  failWhat.addEventListener("input", () => {
    c.failure.description = failWhat.value;
  });
  const failChance = chanceSelect(c.failure.chance, { id: "mzc-failure-chance", data: { focusKey: "mzc-failure-chance" } });
  failChance.addEventListener("change", () => {
    c.failure.chance = failChance.value;
    changed();
  });
  const contested = c.actions.length > 1;
  const failOn = checkbox("A way for every action to fail (the failure side)", {
    id: "mzc-failure-on",
    checked: c.failure.on || !contested,
    disabled: !contested,
    data: { focusKey: "mzc-failure-on" },
  });
  failOn.box.addEventListener("change", () => {
    c.failure.on = failOn.box.checked;
    c.perks = [];
    resetSides(c, (s) => (s >= c.actions.length ? 0 : s));
    ctx.render();
  });
  const withFailure = c.failure.on || !contested;
  return card(
    "mzc-sides",
    "The action check",
    field("What is being attempted", what),
    ...actions,
    button("Add a contested action", () => addAction(ctx), {
      id: "mzc-add-action",
      disabled: c.actions.length >= 7 || elements.length <= c.actions.length,
      data: { focusKey: "mzc-add-action" },
    }),
    el("p", { class: "mz-hint muted hint" }, "Contested: each acting element is a side of its own; the highest roll takes effect."),
    el(
      "fieldset",
      { class: "mzc-side mzc-failure" },
      el("legend", {}, "Failure"),
      contested ? failOn.node : el("p", { class: "mz-hint muted" }, "One action always has a way to fail."),
      withFailure &&
        el("div", { class: "mz-fields" }, field("How it fails", failWhat), field("Base chance of failure", failChance)),
    ),
    disclosure("How base chance works", el("p", { class: "mz-hint muted hint" }, "Base chance replaces free votes: negligible 0, occasional 1, common 2 (each Aptitude a step more). When a side is negligible and one is left, no check is needed.")),
  );
}

/** Moves every side reference in the casts and perks through `shift` (-1 drops it). */
function resetSides(c, shift) {
  for (const mine of Object.values(c.casts)) {
    for (const part of [mine.law, mine.influence]) {
      const moved = shift(part.side);
      if (moved === -1) {
        part.side = 0;
        if (part === mine.law) part.kind = "";
        else part.points = 0;
      } else part.side = moved;
    }
  }
  c.perks = c.perks.map((p) => ({ ...p, side: shift(p.side) })).filter((p) => p.side >= 0);
  c.traitVotes = c.traitVotes.map((v) => ({ ...v, side: shift(v.side) })).filter((v) => v.side >= 0);
  const totals = [];
  c.totals.forEach((n, side) => {
    const moved = shift(side);
    if (moved >= 0) totals[moved] = n;
  });
  c.totals = totals;
  c.handValues = [];
}

function addAction(ctx) {
  const c = ctx.ui.check;
  const n = c.actions.length;
  c.actions.push({ element: "", description: "", chance: "common", aptitude: 0 });
  // The failure side moves one place on.
  resetSides(c, (s) => (s >= n ? s + 1 : s));
  ctx.render(`#mzc-actor-${n}`);
}

function removeAction(ctx, i) {
  const c = ctx.ui.check;
  c.actions.splice(i, 1);
  resetSides(c, (s) => (s === i ? -1 : s > i ? s - 1 : s));
  ctx.render(`#mzc-actor-${Math.min(i, c.actions.length - 1)}`);
}

function sideSelect(ctx, value, attrs) {
  const sides = sidesOf(ctx.ui.check);
  const s = select(sides.map((side, i) => [String(i), sideName(ctx, side)]), attrs);
  s.value = String(Math.min(value, sides.length - 1));
  return s;
}

function castsCard(ctx, locked) {
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
          el("p", { class: "mz-hint muted hint" }, "No free votes in an action check. Each player: one Setting Law (laws count at most ±2 per side) and influence (a vote per point, paid when the check resolves)."),
        ),
      ...castingHere(ctx).map((p) => playerCasts(p, ctx)),
    ),
    el(
      "fieldset",
      { class: "mzc-cast-group", disabled: locked },
      el("legend", {}, "Adversity of the acting elements"),
      acting.length === 0
        ? el("p", { class: "muted" }, "Pick the acting elements first.")
        : el("div", {}, ...acting.map((e) => elementSpends(e, ctx))),
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

function playerCasts(p, ctx) {
  const c = ctx.ui.check;
  const mine = castsOf(c, p.id);
  const id = (what) => `mzc-${what}-${p.id}`;
  const changed = () => schedulePreview(ctx);
  const lawSide = sideSelect(ctx, mine.law.side, { id: id("law-side"), data: { focusKey: id("law-side") } });
  const law = lawFields(mine.law, { id, key: "side", target: lawSide, targetLabel: "On side", changed });
  const points = numberInput({ id: id("influence"), min: 0, max: p.influence, value: mine.influence.points, data: { focusKey: id("influence") } });
  points.addEventListener("input", () => {
    const n = wholeNumber(points);
    mine.influence.points = n !== null && n > 0 ? n : 0;
    changed();
  });
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
  );
}

function payerSelect(ctx, value, attrs) {
  const s = select(ctx.table.players.map((p) => [p.id, p.name]), attrs);
  s.value = value;
  return s;
}

function elementSpends(e, ctx) {
  const c = ctx.ui.check;
  const mine = spendsOf(c, ctx, e);
  const id = (what) => `mzc-${what}-${e.id}`;
  const changed = () => schedulePreview(ctx);
  const ff = numberInput({ id: id("ff"), min: 0, value: mine.ff.count, data: { focusKey: id("ff") } });
  ff.addEventListener("input", () => {
    const n = wholeNumber(ff);
    mine.ff.count = n !== null && n > 0 ? Math.min(n, 20) : 0;
    changed();
  });
  const ffBy = payerSelect(ctx, mine.ff.by, { id: id("ff-by"), data: { focusKey: id("ff-by") } });
  ffBy.addEventListener("change", () => {
    mine.ff.by = ffBy.value;
    changed();
  });
  const ffDebt = checkbox("Take a shortfall as adversity debt", { id: id("ff-debt"), checked: mine.ff.debt });
  ffDebt.box.addEventListener("change", () => {
    mine.ff.debt = ffDebt.box.checked;
    changed();
  });
  const flaws = e.traits.filter((tr) => tr.kind === "flaw");
  let flawPart = null;
  if (flaws.length > 0) {
    const flaw = select([["", "None"], ...flaws.map((f) => [f.id, f.name])], { id: id("flaw"), data: { focusKey: id("flaw") } });
    flaw.value = mine.flaw.flaw;
    flaw.addEventListener("change", () => {
      mine.flaw.flaw = flaw.value;
      changed();
    });
    const flawBy = payerSelect(ctx, mine.flaw.by, { id: id("flaw-by") });
    flawBy.addEventListener("change", () => {
      mine.flaw.by = flawBy.value;
      changed();
    });
    const flawDebt = checkbox("Take a shortfall as adversity debt", { id: id("flaw-debt"), checked: mine.flaw.debt });
    flawDebt.box.addEventListener("change", () => {
      mine.flaw.debt = flawDebt.box.checked;
      changed();
    });
    flawPart = el(
      "div",
      {},
      el("div", { class: "mz-fields" }, field("Overcome a flaw (2 adversity)", flaw), field("Paid by", flawBy)),
      flawDebt.node,
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
    el("div", { class: "mz-fields" }, field("Fortune's Favor votes (2 adversity each)", ff), field("Paid by", ffBy)),
    ffDebt.node,
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

function oddsCard(ctx) {
  return card("mzc-odds", "Chances to take effect", el("div", { id: "mzc-odds-body" }, ...oddsContent(ctx)));
}

function perksAndRollCard(ctx) {
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

async function roll(ctx, b) {
  const c = ctx.ui.check;
  let dice = { kind: "rolled" };
  if (c.hand) {
    const faces = c.read ? c.read() : null;
    if (faces === null) return;
    dice = { kind: "entered", values: faces };
  }
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
  const pending = await ctx.step("The check was not rolled.", () => api.mezzoCheckRoll(ctx.gameId, request, dice), (p) => p.summary, b);
  if (pending) ctx.render("#mzc-rolled-heading");
}

// ---- the rolled check: Sudden Surges, then the result -----------------------------------------

function rolledSides(ctx, check, scores) {
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
function burstCard(ctx, pending) {
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
  return el(
    "div",
    { class: "mz-stack" },
    rolledDiceCard(ctx, check, pending),
    card(
      "mzc-bursts",
      "Bursts",
      el("p", { class: "mz-hint muted hint" }, "D6 variant: an owner whose first roll is within the burst threshold may add 1 to the multiplier and reroll once. The owner chooses after seeing the roll; Sudden Surges and the result come after."),
      ...choices,
      hand.node,
      boxes && boxes.node,
      button(
        bursting.length === 0 ? "Keep the rolls" : bursting.length === 1 ? "Burst and reroll" : "Burst and reroll these",
        async (b) => {
          let dice = { kind: "rolled" };
          if (boxes) {
            const faces = boxes.read();
            if (faces === null) return;
            dice = { kind: "entered", values: faces };
          }
          const done = await ctx.step("The bursts were not taken.", () => api.mezzoCheckBurst(ctx.gameId, bursting, dice), (p) => p.summary, b);
          if (done) ctx.render("#mzc-rolled-heading");
        },
        { id: "mzc-burst-go", class: "primary mz-big-button" },
      ),
      el("div", { class: "actions" }, button("Take the roll back", (b) => ctx.undoLast(b), { id: "mzc-unroll" })),
    ),
  );
}

function rolledCard(ctx, pending, running) {
  const c = ctx.ui.check;
  const check = pending.check;
  const t = ctx.table;
  const surgeRows = check.sides
    .map((s, i) => [s, i])
    .filter(([s]) => !s.dropped && s.kind.kind === "action")
    .map(([s, i]) => {
      const e = allElements(t).find((x) => x.id === s.kind.element);
      if (!e) return null;
      const id = (what) => `mzc-${what}-${e.id}`;
      const bought = c.surges.filter((x) => x.element === e.id).length;
      const by = payerSelect(ctx, defaultPayer(ctx, e), { id: id("surge-by"), data: { focusKey: id("surge-by") } });
      const debt = checkbox("Take a shortfall as adversity debt", { id: id("surge-debt") });
      return el(
        "div",
        { class: "mz-cast-part mzc-surge", data: { elementId: e.id, side: String(i) } },
        el(
          "p",
          { class: "mz-cast-title", id: id("surge-title") },
          `${e.name}: ${e.adversity} adversity${e.adversity_debt > 0 ? `, debt ${e.adversity_debt}` : ""}`,
          bought > 0 ? ` — ${plural(bought, "Sudden Surge")} bought (${3 * bought} adversity)` : "",
        ),
        el("div", { class: "mz-fields" }, field("Paid by", by)),
        debt.node,
        el(
          "div",
          { class: "actions" },
          button("Buy a Sudden Surge (+1, 3 adversity)", () => {
            c.surges.push({ element: e.id, by: by.value, allow_debt: debt.box.checked });
            ctx.render(`#${id("surge")}`);
          }, { id: id("surge"), class: "mzc-surge-buy", "aria-describedby": id("surge-title"), data: { focusKey: id("surge") } }),
          bought > 0 &&
            button("Take one back", () => {
              c.surges.splice(c.surges.map((x) => x.element).lastIndexOf(e.id), 1);
              ctx.render(`#${id("surge")}`);
            }, { id: id("surge-back"), class: "mzc-surge-back", data: { focusKey: id("surge-back") } }),
        ),
      );
    })
    .filter(Boolean);
  return el(
    "div",
    { class: "mz-stack" },
    rolledDiceCard(ctx, check, pending),
    card(
      "mzc-surges",
      "Sudden Surges",
      el("p", { class: "mz-hint muted hint" }, "After the roll and before the result: 3 adversity of an acting element for +1 to its own result. Paid when the check resolves."),
      ...surgeRows,
      button("Resolve the check", (b) => resolve(ctx, b), { id: "mzc-resolve", class: "primary mz-big-button" }),
      majorPart(ctx, check, running),
      button("Take the roll back", (b) => ctx.undoLast(b), { id: "mzc-unroll" }),
    ),
  );
}

/**
 * While a challenge is played: the rolled check resolved as the major action of the acting
 * elements ticked (challengers still in that have not acted this round), with the surges chosen.
 */
function majorPart(ctx, check, running) {
  const c = ctx.ui.check;
  if (!running.loaded) return el("p", { class: "muted", id: "mzc-major-wait" }, "Looking for a challenge being played…");
  const ch = running.challenge;
  if (!ch) return null;
  const part = (...children) =>
    el(
      "section",
      { class: "mzc-major", id: "mzc-major", "aria-labelledby": "mzc-major-heading" },
      el("h4", { id: "mzc-major-heading", tabindex: "-1" }, `Or resolve it as a major action in “${ch.description || "the challenge"}”`),
      ...children,
    );
  if (ch.phase !== "rounds") {
    return part(
      el(
        "p",
        { class: "mz-hint", id: "mzc-major-none" },
        `Round ${ch.round} of the challenge is not taking major actions now (${ch.phase === "perks" ? "perks are being resolved" : "challengers are departing"}): see the Challenge tab.`,
      ),
    );
  }
  const acting = check.sides.filter((s) => s.kind.kind === "action" && !s.dropped).map((s) => s.kind.element);
  const eligible = ch.challengers.filter((x) => x.status === "in" && !x.acted && acting.includes(x.element));
  if (c.majorFor !== check.id) {
    c.majorFor = check.id;
    c.majors = Object.fromEntries(eligible.map((x) => [x.element, true]));
  }
  if (eligible.length === 0) {
    return part(
      el(
        "p",
        { class: "mz-hint", id: "mzc-major-none" },
        "No acting element of this check can take a major action now: each must be a challenger still in that has not acted this round.",
      ),
    );
  }
  const boxes = eligible.map((x) => {
    const box = checkbox(`${x.name}'s major action (${x.side_name || `side ${x.side + 1}`})`, {
      id: `mzc-major-${x.element}`,
      class: "mzc-major-pick",
      checked: c.majors[x.element] ?? false,
      data: { focusKey: `mzc-major-${x.element}` },
    });
    box.box.addEventListener("change", () => {
      c.majors[x.element] = box.box.checked;
    });
    return box;
  });
  return part(
    el("p", { class: "mz-hint muted hint" }, "The check resolves with the Sudden Surges above and counts as the major action of each challenger ticked, against the highest opposing roll."),
    el("fieldset", { class: "mzc-major-picks" }, el("legend", {}, "Whose major action it is"), el("div", { class: "mz-checks" }, ...boxes.map((x) => x.node))),
    button("Resolve as major action", (b) => resolveMajor(ctx, eligible, b), { id: "mzc-resolve-major", class: "primary" }),
  );
}

async function resolveMajor(ctx, eligible, b) {
  const c = ctx.ui.check;
  const majors = eligible.filter((x) => c.majors[x.element]).map((x) => x.element);
  if (majors.length === 0) {
    const first = byId(`mzc-major-${eligible[0].element}`);
    if (first) first.focus();
    return;
  }
  const out = await ctx.move(
    "The check was not resolved as a major action.",
    () => api.mezzoChallengeResolveMajors(ctx.gameId, c.surges, majors),
    b,
  );
  if (!out) return;
  c.major = { message: out.change.message, challenge: out.challenge ?? null };
  ctx.render("#mzc-major-result-heading");
}

/** The check resolved as a major action: the core's words, and where its perks are declared. */
function majorCard(ctx) {
  const c = ctx.ui.check;
  const ch = c.major.challenge;
  const open = ch && ch.phase === "perks";
  return card(
    "mzc-major-result",
    "Resolved as a major action",
    el("p", { class: "mz-summary", id: "mzc-major-message", role: "status" }, c.major.message),
    el(
      "p",
      { class: "mz-hint", id: "mzc-major-next" },
      open
        ? "Declare the perks it earned on the Challenge tab."
        : "Its result is recorded in the challenge: any perks are declared on the Challenge tab.",
    ),
    el(
      "div",
      { class: "actions" },
      button("Go to the Challenge tab", () => ctx.switchTab("challenge"), { id: "mzc-to-challenge", class: "primary" }),
      button("New action check", () => {
        ctx.ui.check = newCheck(ctx.diceByHand);
        ctx.render("#mzc-description");
      }, { id: "mzc-major-new" }),
    ),
  );
}

async function resolve(ctx, b) {
  const c = ctx.ui.check;
  const outcome = await ctx.move("The check was not resolved.", () => api.mezzoCheckResolve(ctx.gameId, c.surges), b);
  if (!outcome) return;
  c.result = outcome.result;
  ctx.render(ctx.ui.pending ? "#mzc-tie-heading" : "#mzc-result-heading");
}

function tieCard(ctx, pending) {
  const c = ctx.ui.check;
  const check = pending.check;
  const tied = check.tied;
  const scores = check.sides.map((s) => s.score);
  const text = el("textarea", { id: "mzc-compromise", rows: 2, maxlength: 500 });
  const hand = checkbox("Dice rolled by hand", { id: "mzc-tie-hand", checked: c.tieHand, data: { focusKey: "mzc-tie-hand" } });
  hand.box.addEventListener("change", () => {
    c.tieHand = hand.box.checked;
    ctx.render();
  });
  const boxes = c.tieHand
    ? handDice(tied.map((i) => ({ sides: tieDie(check), label: shortName(ctx, check.sides[i]) })), "mzc-tie-die", `One d${tieDie(check)} per tied side`)
    : null;
  return card(
    "mzc-tie",
    `A tie: ${check.description || "the action check"}`,
    el("p", { class: "mz-summary", id: "mzc-tie-summary", role: "status" }, pending.summary),
    rolledSides(ctx, check, scores),
    form(
      { id: "mzc-compromise-form", "aria-label": "Agree on a compromise" },
      [
        field("Agree on a compromise (a majority supports it)", text),
        el("button", { type: "submit", id: "mzc-compromise-submit" }, "Agree on this compromise"),
      ],
      async (b) => {
        const words = text.value.trim();
        if (words === "") return text.focus();
        const out = await ctx.move("The compromise was not recorded.", () => api.mezzoCheckCompromise(ctx.gameId, words), b);
        if (!out) return;
        c.result = out.result;
        ctx.render("#mzc-result-heading");
      },
    ),
    el(
      "div",
      { class: "mz-tie-break" },
      el("p", { class: "mz-cast-title" }, `Or break the tie: a d${tieDie(check)} per tied side, again while tied.`),
      hand.node,
      boxes && boxes.node,
      button(
        `Break the tie with d${tieDie(check)}s`,
        async (b) => {
          let dice = { kind: "rolled" };
          if (boxes) {
            const faces = boxes.read();
            if (faces === null) return;
            dice = { kind: "entered", values: faces };
          }
          const out = await ctx.move("The tie was not broken.", () => api.mezzoCheckBreakTie(ctx.gameId, dice), b);
          if (!out) return;
          c.result = out.result;
          ctx.render(ctx.ui.pending ? "#mzc-tie-heading" : "#mzc-result-heading");
        },
        { id: "mzc-break-tie" },
      ),
    ),
  );
}

/** The outcome in words: which side took effect and what that means for the action. */
function outcomeWords(ctx, check) {
  const o = check.outcome;
  if (!o) return "";
  if (o.kind === "compromise") return `Settled by compromise: “${o.text}”.`;
  const side = check.sides[o.winner];
  if (side.kind.kind === "failure") {
    return check.sides.filter((s) => s.kind.kind === "action").length === 1
      ? `The action fails: ${sideName(ctx, side)} takes effect.`
      : `Every action fails: ${sideName(ctx, side)} takes effect.`;
  }
  return `${sideName(ctx, side)} takes effect: the action succeeds${o.tiebreak ? " (after the d${tieDie(check)} tiebreak)" : ""}.`;
}

/**
 * The winning side bought Lingering Consequences: its side effects may be kept on the arc (the
 * plot tab lists them), contagious when it bought Contagious Consequences too.
 */
function keepConsequences(ctx, check) {
  const o = check.outcome;
  const side = o && (o.kind === "won" || o.kind === "no_check_needed") ? check.sides[o.winner] : null;
  if (!side || !side.perks.includes("lingering_consequences")) return null;
  const contagious = side.perks.includes("contagious_consequences");
  const text = [check.description, side.description].filter((x) => (x ?? "").trim() !== "").join(": ") || sideName(ctx, side);
  return el(
    "div",
    { class: "mz-row mzc-consequences" },
    el("p", { class: "grow muted", id: "mzc-consequences-note" }, contagious ? "Contagious Consequences: its side effects outlast the arc." : "Lingering Consequences: its side effects spread until the arc ends."),
    button(
      "Keep them on the arc",
      (b) => ctx.move("The consequences were not kept.", () => api.mezzoPutConsequence(ctx.gameId, null, text, contagious), b),
      { id: "mzc-keep-consequences", "aria-describedby": "mzc-consequences-note" },
    ),
  );
}

function resultCard(ctx) {
  const c = ctx.ui.check;
  const r = c.result;
  const check = r.check;
  return card(
    "mzc-result",
    `Resolved: ${check.description || "the action check"}`,
    el("p", { class: "mz-winner", id: "mzc-outcome" }, outcomeWords(ctx, check)),
    el("p", { class: "mz-summary", id: "mzc-summary", role: "status" }, r.summary),
    rolledSides(ctx, check, check.sides.map((s) => s.score)),
    keepConsequences(ctx, check),
    el(
      "div",
      { class: "actions" },
      button("New action check", () => {
        ctx.ui.check = newCheck(ctx.diceByHand);
        ctx.render("#mzc-description");
      }, { id: "mzc-new", class: "primary" }),
      // A player may back the loser: the challenge screen sets it up (challenge.js, fromCheck).
      check.outcome?.kind === "won" &&
        button("Start a challenge from this check", () => {
          ctx.ui.fromCheck = check;
          ctx.switchTab("challenge", { focus: "#mzch-from-check" });
        }, { id: "mzc-challenge-from" }),
    ),
  );
}
