// The Mezzo action check's attempt: a check being set up (newCheck, or one started from an
// element's trait), the sides, casts and spends as the core reads them (the request), and the
// challenge being played that a rolled check may be resolved in (shared with the plot tab).

import * as api from "./api.js";
import { allElements } from "./kit.js";

export const CHANCES = [
  ["negligible", "Negligible (0 votes)"],
  ["occasional", "Occasional (1 vote)"],
  ["common", "Common (2 votes)"],
];

/** The scope perks in their two ladders: [value, name, the one it needs first]. */
export const PERKS = [
  ["extended_coverage", "Extended Coverage", null],
  ["local_coverage", "Local Coverage", "extended_coverage"],
  ["regional_coverage", "Regional Coverage", "local_coverage"],
  ["lingering_consequences", "Lingering Consequences", null],
  ["contagious_consequences", "Contagious Consequences", "lingering_consequences"],
  ["inescapable_consequences", "Inescapable Consequences", "contagious_consequences"],
];
export const perkName = (value) => (PERKS.find(([v]) => v === value) ?? [null, value])[1];

/** An Unexpected Edge's properties as the core keeps them, the two shown first. */
export const EDGE_PROPS = ["effects", "details", "requirements", "restrictions", "owner", "target", "set_up"];

/** How long an unexpected edge lasts: it is bought for the challenge at hand. */
export const EDGE_LASTS = [
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
    discover: {}, // detail a Discover perk added → the side it votes for (-1: not cast)
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
  // Roll is one tap away (issue 32); the description may stay empty. By hand, the form first.
  ctx.switchTab("check", { focus: c.hand ? "#mzc-description" : "#mzc-roll-quick" });
}

// ---- the request ------------------------------------------------------------------------------

/** The sides as the core numbers them: the actions in order, then the failure side. */
export function sidesOf(c) {
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

export const elementName = (ctx, id) => allElements(ctx.table).find((e) => e.id === id)?.name ?? "An element";

/** "Mira (“climbs the wall”)", "Failure". */
export function sideName(ctx, side) {
  const who = side.kind.kind === "action" ? elementName(ctx, side.kind.element) : "Failure";
  const what = (side.description ?? "").trim();
  return what ? `${who} (“${what}”)` : who;
}

export const shortName = (ctx, side) => (side.kind.kind === "action" ? elementName(ctx, side.kind.element) : "Failure");

export function castsOf(c, playerId) {
  c.casts[playerId] = c.casts[playerId] ?? {
    law: { kind: "", side: 0, fact: "", direction: "for" },
    influence: { points: 0, side: 0 },
    narration: { element: "", side: 0, votes: 0 },
    ill: { element: "", side: 0, points: 0 },
    // A phone's ballot only: Fortune's Favor and a flaw overcome, per acting element
    // ({ff, flaw, debt}); on the table's device these are the elements' spends (spendsOf).
    spends: {},
  };
  return c.casts[playerId];
}

/**
 * A phone's form for a ballot cast before, when a check open for votes first shows there:
 * `playerId`'s part of the form made anew and filled from `casts` (castsOfPlayer's inverse).
 */
export function formFromBallot(c, playerId, casts) {
  delete c.casts[playerId];
  const mine = castsOf(c, playerId);
  for (const cast of casts) {
    if (cast.kind === "law") {
      const l = cast.law;
      const kind = l.law === "custom" ? `custom:${l.id}` : l.law === "theme" ? `theme:${l.by}` : l.law;
      mine.law = { kind, side: cast.side, fact: l.fact ?? "", direction: cast.direction };
    }
    if (cast.kind === "influence") mine.influence = { points: cast.points, side: cast.side };
    if (cast.kind === "narration") mine.narration = { element: cast.element, side: cast.side, votes: cast.votes };
    if (cast.kind === "ill_fated") mine.ill = { element: cast.element, side: cast.side, points: cast.points };
    if (cast.kind === "fortunes_favor" || cast.kind === "overcome_flaw") {
      const s = (mine.spends[cast.element] = mine.spends[cast.element] ?? newBallotSpend());
      if (cast.kind === "fortunes_favor") s.ff += 1;
      else s.flaw = cast.flaw;
      s.debt = s.debt || cast.allow_debt;
    }
  }
  return mine;
}

/** A phone ballot's spends of one acting element's adversity: none yet. */
export const newBallotSpend = () => ({ ff: 0, flaw: "", debt: false });

/** Who spends an element's adversity by default: its claimer, else the first player. */
export const defaultPayer = (ctx, e) => e.claimed_by ?? ctx.table.players[0]?.id ?? "";

export function spendsOf(c, ctx, e) {
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
export const actors = (c) => c.actions.map((a) => a.element).filter((id) => id !== "");

/**
 * What player `p` casts from their part of the form `mine` (a law, influence, Victory Narration,
 * Ill Fated, and on a phone Fortune's Favor and a flaw overcome) on the check's `n` sides: the
 * table's form and a phone's ballot build them here.
 */
export function castsOfPlayer(p, mine, n, acting, forPreview = false) {
  const casts = [];
  const law = mine.law;
  if (law.kind !== "" && law.side < n) {
    const fact = law.fact.trim() !== "" || !forPreview ? law.fact : `the fact ${p.name} names`;
    // The game's own laws ("custom:<id>") and the arc's Themes ("theme:<player>") count like Potential.
    const [kind, ref] = law.kind.split(":");
    const body =
      kind === "potential" ? { law: "potential" } : kind === "custom" ? { law: "custom", id: ref } : kind === "theme" ? { law: "theme", by: ref } : { law: kind, fact };
    const direction = kind === "inertia" ? "against" : law.direction;
    casts.push({ kind: "law", player: p.id, side: law.side, law: body, direction });
  }
  if (mine.influence.points > 0 && mine.influence.side < n) {
    casts.push({ kind: "influence", player: p.id, side: mine.influence.side, points: mine.influence.points });
  }
  const nv = mine.narration;
  if (nv.element !== "" && nv.votes > 0 && nv.side < n) {
    casts.push({ kind: "narration", element: nv.element, by: p.id, side: nv.side, votes: nv.votes });
  }
  const ill = mine.ill;
  if (ill.element !== "" && ill.points > 0 && ill.side < n && acting.includes(ill.element)) {
    casts.push({ kind: "ill_fated", element: ill.element, by: p.id, side: ill.side, points: ill.points });
  }
  for (const [element, s] of Object.entries(mine.spends ?? {})) {
    if (!acting.includes(element)) continue;
    for (let k = 0; k < s.ff; k++) casts.push({ kind: "fortunes_favor", element, by: p.id, allow_debt: s.debt });
    if (s.flaw !== "") casts.push({ kind: "overcome_flaw", element, flaw: s.flaw, by: p.id, allow_debt: s.debt });
  }
  return casts;
}

/**
 * The CheckRequest the state stands for; with `forPreview` an empty fact gets a placeholder.
 * The ballots of a check open for votes count with it, unless `withBallots` is false (the
 * open check's roll adds them in the core).
 */
export function requestOf(ctx, forPreview = false, withBallots = true) {
  const c = ctx.ui.check;
  const sides = sidesOf(c);
  const n = sides.length;
  const casts = [];
  for (const p of castingHere(ctx)) casts.push(...castsOfPlayer(p, castsOf(c, p.id), n, actors(c), forPreview));
  if (!byTotals(ctx)) {
    for (const detail of ctx.ui.sources?.discoveries ?? []) {
      const side = c.discover?.[detail] ?? -1;
      if (side >= 0 && side < n) casts.push({ kind: "discover", detail, side });
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
  const open = ctx.ui.openCheck;
  if (open && withBallots) casts.push(...open.ballots.flatMap((b) => b.casts));
  return {
    setup: open ? { description: open.setup.description, sides: open.setup.sides, involved: open.setup.involved } : { description: c.description.trim(), sides, involved: [] },
    casts,
    perks: c.perks.filter((p) => p.side < n),
  };
}

/**
 * The check open for votes is the one set up here (its description and sides, once per open
 * check): the table's device and a phone both show and cast on those sides.
 */
export function followOpenCheck(c, open) {
  if (c.openFor === open.setup.id) return;
  c.openFor = open.setup.id;
  c.description = open.setup.description;
  const kinds = open.setup.sides;
  c.actions = kinds.filter((s) => s.kind.kind === "action").map((s) => ({ element: s.kind.element, description: s.description, chance: s.chance, aptitude: s.aptitude }));
  const failure = kinds.find((s) => s.kind.kind === "failure");
  c.failure = failure ? { on: true, description: failure.description, chance: failure.chance, aptitude: failure.aptitude } : { ...c.failure, on: false };
  c.perks = [];
  c.handValues = [];
}

/** Whether votes cast elsewhere come in as totals per side: always on a player's own device. */
export const byTotals = (ctx) => ctx.role === "player" || ctx.ui.check.entry === "totals";

/** The players casting on this device: a player device's own; on a shared one all, or none with totals. */
export function castingHere(ctx) {
  if (ctx.role === "player") return ctx.devicePlayers;
  if (ctx.ui.check.entry === "totals") return [];
  // A player who voted from their own device casts nothing more here.
  const voted = new Set((ctx.ui.openCheck?.ballots ?? []).map((b) => b.player));
  return ctx.table.players.filter((p) => !voted.has(p.id));
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
