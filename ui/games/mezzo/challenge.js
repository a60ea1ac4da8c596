// The Mezzo challenge tab (RULES.md §3.4). With no challenge being played: a form to start one
// (its description, two or more sides, the challengers — characters and obstacles — each on a
// side with an optional stake, and the goals with their supporters), and Rest & Recuperation on
// an element's flaws. While one is played: the round and phase, each side with its challengers
// (status, stake, momentum, adversity, whether they acted this round, their flaws), then what
// the phase allows —
//   rounds:    a major action (the acting challengers and the failure side as an action check,
//              rolled in the app, every die typed in, or the scores typed in; or the check
//              rolled on the Action check tab), surrender, changed stakes, a complication, a
//              newcomer or a goal, and the round's end with its trump effects;
//   perks:     the open action's perks traded, declared on their targets with the fields each
//              needs, removed by a Final Counter, or settled;
//   departure: momentum boosts drawn and awarded (the table picks among those tied), momentum
//              spent by the leavers (the options with their costs), the departure closed;
//   over:      how it ended, and the next challenge.
// Every move is one undoable `ctx.move` (toast with Undo); the core's refusals show with their
// message. The challenge is read here (mezzoChallenge) whenever the table the screen holds
// changes: after a move, an undo or a reload.
//
//   import { renderChallenge } from "./challenge.js";
//   renderChallenge(host, ctx);   // ctx from screen.js; state in ctx.ui.challengeUi

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import {
  card,
  checkbox,
  field,
  form,
  numberInput,
  readCount,
  button,
  select,
  handDice,
  diceWords,
  plural,
  WORDS,
  templateName,
  disclosure,
  allElements,
} from "./kit.js";

/** The player id a move names when the element has no claimer (anyone may act for it). */
const NOBODY = "00000000-0000-0000-0000-000000000000";

const CHANCES = [
  ["negligible", "Negligible (0 votes)"],
  ["occasional", "Occasional (1 vote)"],
  ["common", "Common (2 votes)"],
];

/** The perks: [value, name, major, what it does]. */
const PERKS = [
  ["hinder", "Hinder", false, "a Dulled Edge or Impaired Ability flaw, One-Shot and Transient"],
  ["recover", "Recover", false, "removes a One-Shot, Transient flaw gained in this challenge"],
  ["discover", "Discover", false, "the acting challenger finds something useful"],
  ["expose", "Expose", false, "a Vulnerability flaw, One-Shot and Transient"],
  ["bind", "Bind", true, "a Restraint flaw, Transient"],
  ["break_free", "Break Free", true, "removes a Transient restraint for a minor flaw"],
  ["damage", "Damage", true, "a new wound, or 2 extras on a wound"],
  ["heal", "Heal", true, "a wound gained in this challenge loses up to 2 extras or turns One-Shot"],
  ["push", "Push", true, "a goal of the actor's side gains a trump"],
  ["ruin", "Ruin", true, "another side's goal loses a trump"],
];
const perkName = (value) => (PERKS.find(([v]) => v === value) ?? [null, value])[1];

const MINOR_FLAWS = [
  ["impaired_ability", "Impaired Ability"],
  ["dulled_edge", "Dulled Edge"],
];
const WOUND_FLAWS = [...MINOR_FLAWS, ["vulnerability", "Vulnerability"]];
const WOUND_EXTRAS = [
  ["corrosive_wound", "Corrosive Wound"],
  ["targeted_wound", "Targeted Wound"],
  ["pervasive_wound", "Pervasive Wound"],
  ["vicious_wound", "Vicious Wound"],
];

const RESULT_WORDS = {
  double_success: "at least double: 2 major perks",
  success: "higher: 1 major perk",
  tie: "tied: 1 minor perk",
  failure: "lower: no perk, 1 adversity",
};

const WHY_WORDS = {
  surrender: "surrendered",
  no_opponents: "no opponent left",
  withdrawal: "Victorious Withdrawal",
  exile: "Defeated Exile",
  locked_out: "every die locked out",
  taken_out: "taken out by a wound",
};

const PHASE_WORDS = {
  rounds: "major actions",
  perks: "perks being resolved",
  departure: "challengers leaving",
  over: "over",
};

// ---- state and loading ------------------------------------------------------------------------

function newDraft() {
  return { description: "", sides: [{ name: "" }, { name: "" }], sideOf: {}, stakeOf: {}, supporters: {} };
}

function state(ctx) {
  ctx.ui.challengeUi = ctx.ui.challengeUi ?? {
    loadedFor: null,
    loaded: false,
    challenge: null,
    pending: null,
    draft: newDraft(),
    starting: false, // the start form is shown below a finished challenge
    major: newMajor(ctx.diceByHand),
    perk: newPerk(),
    rr: { element: "" },
  };
  return ctx.ui.challengeUi;
}

/** A major action's form; with the game's "roll real dice" preference it starts with every die typed in. */
function newMajor(byHand = false) {
  return {
    description: "",
    actors: {}, // id → {on, chance, major}
    failure: { on: true, chance: "occasional" },
    mode: byHand ? "dice" : "rolled", // "rolled" | "dice" | "scores"
    preview: null,
    previewFor: null,
    previewError: null,
    values: [],
    scores: {},
  };
}

function newPerk() {
  return { kind: "", target: "", template: "", targetTrait: "", name: "", detail: "", wound: "new", extras: [], expend: [], takesOut: false, restraint: "", effect: "one_shot", healExtras: [], goal: "" };
}

/** Reads the challenge (and a rolled check waiting) when the table changed, then redraws. */
async function load(ctx, s) {
  const table = ctx.table;
  s.loadedFor = table;
  await ctx.run("The challenge could not be loaded.", async () => {
    const [challenge, pending, plot] = await Promise.all([api.mezzoChallenge(ctx.gameId), api.mezzoCheckPending(ctx.gameId), api.mezzoPlot(ctx.gameId)]);
    if (s.loadedFor !== table) return;
    s.challenge = challenge;
    s.pending = pending;
    s.noEscape = plot?.no_escape ?? [];
    s.loaded = true;
    if (ctx.ui.tab === "challenge") ctx.render();
  });
}

/**
 * One challenge move through ctx.move: `call` resolves with {change, challenge}; the challenge
 * it carries is kept with the table it came with (no second read).
 */
async function play(ctx, title, call, b, after = null) {
  const s = state(ctx);
  const result = await ctx.move(
    title,
    () =>
      call().then((r) => {
        if (r && r.change) {
          s.challenge = r.challenge ?? null;
          s.loadedFor = r.change.view;
          if (after) after(r);
        }
        return r;
      }),
    b,
  );
  return result;
}

const playMove = (ctx, title, draft, b, after = null) =>
  play(ctx, title, () => api.mezzoChallengePlay(ctx.gameId, draft), b, after);

// ---- reading the table --------------------------------------------------------------------------

const elementOf = (ctx, id) => allElements(ctx.table).find((e) => e.id === id) ?? null;
const nameOf = (ctx, id) => state(ctx).challenge?.names?.[id] ?? elementOf(ctx, id)?.name ?? "An element";
const modifiersOf = (e, id) => e.traits.filter((t) => t.kind === "modifier" && t.target_trait === id);
const extrasOf = (e, id) => e.traits.filter((t) => t.kind === "extra" && t.target_trait === id);
const hasModifier = (e, id, template) => modifiersOf(e, id).some((m) => m.template === template);
const flawsOf = (e) => (e ? e.traits.filter((t) => t.kind === "flaw") : []);
const woundsOf = (e) => flawsOf(e).filter((f) => hasModifier(e, f.id, "wound"));
const restraintsOf = (e) => flawsOf(e).filter((f) => f.template === "restraint");
const oneShotsOf = (e) => flawsOf(e).filter((f) => hasModifier(e, f.id, "one_shot"));
const fleeting = (e, f) => hasModifier(e, f.id, "one_shot") && hasModifier(e, f.id, "transient_flaw");

/** "Twisted Ankle (Impaired Ability · Wound · Transient Flaw)". */
function flawWords(e, f) {
  const parts = [f.template && templateName(f.template), ...modifiersOf(e, f.id).map((m) => m.name), ...extrasOf(e, f.id).map((x) => x.name)];
  const more = parts.filter(Boolean);
  return more.length > 0 ? `${f.name} (${more.join(" · ")})` : f.name;
}

function statusWords(c) {
  if (c.status === "in") return "In";
  const how = c.how === "victory" ? "victory" : "defeat";
  const why = WHY_WORDS[c.why] ?? c.why;
  return c.status === "leaving" ? `Leaving in ${how} (${why})` : `Left in ${how} (${why})`;
}

const sideLabel = (ch, i) => {
  const name = ch.sides[i]?.name ?? "";
  return name ? `Side ${i + 1}: ${name}` : `Side ${i + 1}`;
};

// ---- rendering ---------------------------------------------------------------------------------

/** Fills `host` with the challenge tab. */
export function renderChallenge(host, ctx) {
  const s = state(ctx);
  if (s.loadedFor !== ctx.table) load(ctx, s);
  if (!s.loaded) {
    host.append(card("mzch-loading", "Challenge", el("p", { class: "muted" }, "Reading the challenge…")));
    return;
  }
  const ch = s.challenge;
  // A lost action check's "Start a challenge from this check" (check.js) lands here.
  if (ctx.ui.fromCheck) {
    s.fromCheck = ctx.ui.fromCheck;
    ctx.ui.fromCheck = null;
    s.draft = draftFromCheck(s.fromCheck);
    s.starting = true;
  }
  if (!ch) {
    host.append(startCard(ctx), restCard(ctx));
    return;
  }
  if (s.fromCheck && !ch.over) host.append(startCard(ctx));
  host.append(statusCard(ctx, ch), sidesView(ctx, ch));
  if (ch.phase === "rounds") {
    host.append(el("div", { class: "mzch-grid" }, majorCard(ctx, ch), roundCard(ctx, ch)));
  } else if (ch.phase === "perks") {
    host.append(perksCard(ctx, ch));
  } else if (ch.phase === "departure") {
    host.append(departureCard(ctx, ch));
  }
  const escape = noEscapeCard(ctx, ch);
  if (escape) host.append(escape);
  if (ch.actions.length > 0) host.append(actionsCard(ctx, ch));
  if (ch.over) {
    if (s.starting) host.append(startCard(ctx));
    host.append(restCard(ctx));
  }
}

// ---- the start -----------------------------------------------------------------------------------

/** The start form's draft from a lost check: the losers on side 1, the winner on side 2. */
function draftFromCheck(check) {
  const d = newDraft();
  d.description = check.description ?? "";
  check.sides.forEach((side, i) => {
    if (side.kind.kind === "action" && side.score != null) d.sideOf[side.kind.element] = i === check.outcome?.winner ? "1" : "0";
  });
  return d;
}

/** What the start form says about the lost check it starts from, with a way back out. */
function fromCheckPart(ctx, check) {
  const s = state(ctx);
  const who = (side) => (side.kind.kind === "action" ? nameOf(ctx, side.kind.element) : "The failure");
  const rolled = check.sides.filter((x) => x.score != null);
  const winner = check.sides[check.outcome?.winner];
  const losers = rolled.filter((x) => x !== winner).map(who);
  const scores = rolled.map((x) => `${who(x)} ${x.score}`).join(", ");
  return el(
    "div",
    { class: "mzch-from-check" },
    el(
      "p",
      { id: "mzch-from-check", tabindex: "-1" },
      `From the action check “${check.description || "untitled"}”: ${losers.join(" and ")} lost (${scores}). Its scores are the first round's major actions; whoever backs the loser joins the loser's side.`,
    ),
    el(
      "div",
      { class: "actions" },
      button(
        "Not from this check",
        () => {
          s.fromCheck = null;
          s.draft = newDraft();
          s.starting = false;
          ctx.render("#mzch-start-heading");
        },
        { id: "mzch-from-check-cancel" },
      ),
    ),
  );
}

function startCard(ctx) {
  const s = state(ctx);
  const d = s.draft;
  const elements = allElements(ctx.table);
  const takers = elements.filter((e) => e.kind !== "goal");
  const goals = elements.filter((e) => e.kind === "goal");
  if (takers.length < 2) {
    return card(
      "mzch-start",
      "Start a challenge",
      el("p", { class: "muted", id: "mzch-start-empty" }, "A challenge needs at least two story elements on opposing sides: add characters and obstacles (objects, locations, factions) on the Story elements tab."),
    );
  }
  const description = el("input", { type: "text", id: "mzch-description", maxlength: 500, data: { focusKey: "mzch-description" } });
  description.value = d.description;
  description.addEventListener("input", () => {
    d.description = description.value;
  });
  const sides = d.sides.map((side, i) => {
    const name = el("input", { type: "text", id: `mzch-side-name-${i}`, maxlength: 200, data: { focusKey: `mzch-side-name-${i}` } });
    name.value = side.name;
    name.addEventListener("input", () => {
      side.name = name.value;
    });
    return el(
      "li",
      { class: "mz-option" },
      field(`Side ${i + 1}: what it wants`, name),
      d.sides.length > 2 &&
        button(
          "Remove",
          () => {
            d.sides.splice(i, 1);
            for (const [id, v] of Object.entries(d.sideOf)) {
              if (v === String(i)) d.sideOf[id] = "";
              else if (v !== "" && Number(v) > i) d.sideOf[id] = String(Number(v) - 1);
            }
            ctx.render("#mzch-add-side");
          },
          { "aria-label": `Remove side ${i + 1}`, data: { focusKey: `mzch-remove-side-${i}` } },
        ),
    );
  });
  const sideChoices = [["", "Not taking part"], ...d.sides.map((side, i) => [String(i), side.name.trim() ? `Side ${i + 1}: ${side.name.trim()}` : `Side ${i + 1}`])];
  const rows = takers.map((e) => {
    const pick = select(sideChoices, { id: `mzch-side-of-${e.id}`, data: { focusKey: `mzch-side-of-${e.id}` } });
    pick.value = d.sideOf[e.id] ?? "";
    pick.addEventListener("change", () => {
      d.sideOf[e.id] = pick.value;
      ctx.render();
    });
    const stake = el("input", { type: "text", id: `mzch-stake-of-${e.id}`, maxlength: 500, data: { focusKey: `mzch-stake-of-${e.id}` } });
    stake.value = d.stakeOf[e.id] ?? "";
    stake.addEventListener("input", () => {
      d.stakeOf[e.id] = stake.value;
    });
    const nameId = `mzch-taker-${e.id}`;
    return el(
      "li",
      { class: "mzch-taker", data: { elementId: e.id } },
      el("div", { class: "mz-row" }, el("strong", { class: "grow", id: nameId }, e.name), el("span", { class: "mz-badge mz-kind" }, WORDS.kind[e.kind] ?? e.kind)),
      el("div", { class: "mz-fields" }, field("Side", pick), field("Stake (optional)", stake)),
    );
  });
  const chosen = takers.filter((e) => (d.sideOf[e.id] ?? "") !== "");
  const goalRows = goals.map((g) => {
    d.supporters[g.id] = (d.supporters[g.id] ?? []).filter((id) => chosen.some((e) => e.id === id));
    const boxes = chosen.map((e) => {
      const box = checkbox(e.name, { id: `mzch-supports-${g.id}-${e.id}`, checked: d.supporters[g.id].includes(e.id), data: { focusKey: `mzch-supports-${g.id}-${e.id}` } });
      box.box.addEventListener("change", () => {
        const list = d.supporters[g.id];
        d.supporters[g.id] = box.box.checked ? [...list, e.id] : list.filter((x) => x !== e.id);
      });
      return box.node;
    });
    return el(
      "fieldset",
      { class: "mzch-goal-setup" },
      el("legend", {}, `Goal: ${g.name}`),
      chosen.length === 0 ? el("p", { class: "muted" }, "Put challengers on sides first.") : el("div", { class: "mz-checks" }, ...boxes),
      el("p", { class: "mz-hint muted" }, "Its supporters, all of one side. With none it is not part of this challenge."),
    );
  });
  return card(
    "mzch-start",
    s.fromCheck ? "Start a challenge from the action check" : s.challenge ? "Start the next challenge" : "Start a challenge",
    form(
      { id: "mzch-start-form", "aria-label": "A new challenge" },
      [
        s.fromCheck && fromCheckPart(ctx, s.fromCheck),
        field("What the challenge is about", description),
        el("h4", {}, "Sides"),
        el("ol", { class: "mz-options", id: "mzch-sides-setup" }, ...sides),
        el(
          "div",
          { class: "actions" },
          button(
            "Add a side",
            () => {
              d.sides.push({ name: "" });
              ctx.render(`#mzch-side-name-${d.sides.length - 1}`);
            },
            { id: "mzch-add-side", disabled: d.sides.length >= 8, data: { focusKey: "mzch-add-side" } },
          ),
        ),
        el("h4", {}, "Challengers"),
        el("p", { class: "mz-hint muted hint" }, "Characters and obstacles (objects, locations, factions). Each side starts with at least one; each challenger holds at most one stake."),
        el("ul", { class: "mz-list mz-cards", id: "mzch-takers" }, ...rows),
        goals.length > 0 && el("h4", {}, "Goals"),
        ...goalRows,
        el("button", { type: "submit", class: "primary mz-big-button", id: "mzch-start-submit", data: { focusKey: "mzch-start-submit" } }, s.fromCheck ? "Start the challenge from this check" : "Start the challenge"),
      ],
      (b) => start(ctx, b),
    ),
  );
}

async function start(ctx, b) {
  const s = state(ctx);
  const d = s.draft;
  const takers = allElements(ctx.table).filter((e) => e.kind !== "goal" && (d.sideOf[e.id] ?? "") !== "");
  const draft = {
    description: d.description.trim(),
    sides: d.sides.map((side) => ({ name: side.name.trim() })),
    challengers: takers.map((e) => {
      const stake = (d.stakeOf[e.id] ?? "").trim();
      return { element: e.id, side: Number(d.sideOf[e.id]), ...(stake ? { stake } : {}) };
    }),
    goals: Object.entries(d.supporters)
      .filter(([, list]) => list.length > 0)
      .map(([element, supporters]) => ({ element, supporters })),
  };
  const from = s.fromCheck;
  const call = from ? () => api.mezzoChallengeFromCheck(ctx.gameId, from.id, draft) : () => api.mezzoChallengeStart(ctx.gameId, draft);
  const done = await play(ctx, "The challenge was not started.", call, b, () => {
    s.fromCheck = null;
    s.draft = newDraft();
    s.starting = false;
    s.major = newMajor(ctx.diceByHand);
    s.perk = newPerk();
  });
  if (done) ctx.render("#mzch-status-heading");
}

// ---- the challenge as it stands ---------------------------------------------------------------------

function statusCard(ctx, ch) {
  const s = state(ctx);
  const title = ch.description ? `Challenge: ${ch.description}` : "Challenge";
  let line;
  if (ch.over) line = `Over after round ${ch.round}.`;
  else line = `Round ${ch.round} · ${PHASE_WORDS[ch.phase] ?? ch.phase}`;
  const parts = [el("p", { class: "mz-summary", id: "mzch-round" }, line)];
  if (ch.phase === "rounds") {
    const waiting = ch.challengers.filter((c) => c.status === "in" && !c.acted).map((c) => c.name);
    parts.push(
      el(
        "p",
        { class: "muted", id: "mzch-next" },
        waiting.length > 0 ? `Still to act this round: ${waiting.join(", ")}.` : "Everyone still in has acted: end the round.",
      ),
    );
  }
  if (ch.over) {
    parts.push(endWords(ch));
    if (!s.starting) {
      parts.push(
        button(
          "Start the next challenge",
          () => {
            s.starting = true;
            ctx.render("#mzch-description");
          },
          { id: "mzch-next-challenge", class: "primary", data: { focusKey: "mzch-next-challenge" } },
        ),
      );
    }
  }
  return el(
    "section",
    { id: "mzch-status", class: `mz-card mzch-status ${ch.phase}`, "aria-labelledby": "mzch-status-heading" },
    el("h3", { id: "mzch-status-heading", tabindex: "-1" }, title),
    ...parts,
  );
}

function endWords(ch) {
  return el(
    "ul",
    { class: "mzch-ending", id: "mzch-ending" },
    ...ch.challengers.map((c) =>
      el("li", { class: c.how === "victory" ? "victory" : "defeat" }, el("strong", {}, c.name), ` — ${statusWords(c).replace(/^Left in /, "").replace(/^Leaving in /, "")}`),
    ),
  );
}

function sidesView(ctx, ch) {
  return el(
    "div",
    { class: "mzch-sides", id: "mzch-sides" },
    ...ch.sides.map((side) => {
      const who = ch.challengers.filter((c) => c.side === side.side);
      const goals = ch.goals.filter((g) => g.side === side.side);
      const headingId = `mzch-side-${side.side}-heading`;
      return el(
        "section",
        { class: "mz-card mzch-side", id: `mzch-side-${side.side}`, "aria-labelledby": headingId },
        el("h3", { id: headingId }, sideLabel(ch, side.side)),
        !ch.over && el("p", { class: "muted" }, `${plural(side.still_in, "challenger")} still in`),
        el("ul", { class: "mz-list" }, ...who.map((c) => challengerItem(ctx, ch, c))),
        goals.length > 0 &&
          el(
            "ul",
            { class: "mz-list mzch-goals", "aria-label": "Goals" },
            ...goals.map((g) =>
              el(
                "li",
                { class: "mzch-goal", id: `mzch-goal-${g.element}` },
                el("strong", {}, `Goal: ${g.name}`),
                el("p", { class: "muted" }, `${plural(g.trumps, "trump")} · momentum ${g.momentum}${g.triggered ? " · its trumps triggered" : ""} · supported by ${g.supporters.map((id) => nameOf(ctx, id)).join(", ")}`),
              ),
            ),
          ),
      );
    }),
  );
}

function challengerItem(ctx, ch, c) {
  const e = elementOf(ctx, c.element);
  const flaws = flawsOf(e);
  const stats = [
    ["Momentum", c.momentum, "momentum"],
    ["Adversity", c.adversity_debt > 0 ? `${c.adversity} (debt ${c.adversity_debt})` : c.adversity, "adversity"],
  ];
  return el(
    "li",
    { class: `mzch-challenger ${c.status}`, id: `mzch-challenger-${c.element}`, data: { elementId: c.element } },
    el(
      "div",
      { class: "mz-row" },
      el("strong", { class: "mz-name grow" }, c.name),
      el("span", { class: "mz-badge mz-kind" }, WORDS.kind[c.kind] ?? c.kind),
    ),
    el("p", { class: `mzch-state ${c.status}`, id: `mzch-status-${c.element}` }, statusWords(c), c.status === "in" ? (c.acted ? " · acted this round" : " · not acted yet") : ""),
    c.stake && el("p", { class: "mzch-stake", id: `mzch-stake-${c.element}` }, `Stake: ${c.stake}`, c.stake_momentum > 0 ? ` · its pool: ${c.stake_momentum} momentum (shared by its owners)` : ""),
    el(
      "dl",
      { class: "mzch-stats" },
      ...stats.map(([label, value, key]) => el("div", { class: "mzch-stat" }, el("dt", {}, label), el("dd", { id: `mzch-${key}-${c.element}` }, String(value)))),
    ),
    c.may_surrender && el("p", { class: "mz-hint" }, "Just wounded or bound: may surrender at once."),
    flaws.length > 0 &&
      el(
        "ul",
        { class: "mz-tags", id: `mzch-flaws-${c.element}`, "aria-label": `Flaws of ${c.name}` },
        ...flaws.map((f) => el("li", { class: "mz-tag flaw" }, flawWords(e, f))),
      ),
  );
}

function actionsCard(ctx, ch) {
  const items = [...ch.actions].reverse().map((a) => {
    const perks = a.declared.length > 0 ? ` Declared: ${a.declared.map((p) => perkWords(ctx, p)).join(", ")}.` : "";
    let closed = "";
    if (a.open) closed = " Perks open.";
    else if (a.closed?.kind === "settled") closed = " Settled.";
    else if (a.closed?.kind === "countered") closed = ` Countered by ${nameOf(ctx, a.closed.by)}.`;
    else if (a.closed?.kind === "lapsed") closed = " Lapsed: its challenger left.";
    return el(
      "li",
      { class: `mzch-action ${a.result}`, id: `mzch-action-${a.index}` },
      el("strong", {}, `Round ${a.round} · ${a.name}: ${a.score} against ${a.opposing}`),
      el("span", { class: "mzch-result" }, ` — ${RESULT_WORDS[a.result] ?? a.result}.`),
      a.traded > 0 ? ` Traded ${plural(a.traded, "major perk")} for minor perks.` : "",
      perks,
      closed,
    );
  });
  return card("mzch-actions", "Major actions", el("ol", { class: "mz-list", id: "mzch-action-list" }, ...items));
}

function perkWords(ctx, p) {
  const name = perkName(p.kind);
  if (p.kind === "discover") return `${name} (“${p.detail}”)`;
  const target = p.target ?? p.goal;
  return target ? `${name} on ${nameOf(ctx, target)}` : name;
}

// ---- a major action ----------------------------------------------------------------------------------

function majorCard(ctx, ch) {
  const s = state(ctx);
  const m = s.major;
  const inNow = ch.challengers.filter((c) => c.status === "in");
  for (const c of inNow) {
    // `major` stays null until the table says otherwise: by default an action is the major
    // action of a challenger that has not acted this round.
    m.actors[c.element] = m.actors[c.element] ?? { on: false, chance: "common", major: null };
  }
  const acting = inNow.filter((c) => m.actors[c.element].on);
  const changed = () => {
    m.values = [];
    ctx.render();
  };
  const what = el("input", { type: "text", id: "mzch-major-description", maxlength: 500, data: { focusKey: "mzch-major-description" } });
  what.value = m.description;
  what.addEventListener("input", () => {
    m.description = what.value;
  });
  const actorRows = inNow.map((c) => {
    const a = m.actors[c.element];
    const on = checkbox(`${c.name} acts${c.acted ? " (acted this round)" : ""}`, { id: `mzch-acts-${c.element}`, checked: a.on, data: { focusKey: `mzch-acts-${c.element}` } });
    on.box.addEventListener("change", () => {
      a.on = on.box.checked;
      changed();
    });
    const chance = select(CHANCES, { id: `mzch-chance-${c.element}`, data: { focusKey: `mzch-chance-${c.element}` } });
    chance.value = a.chance;
    chance.addEventListener("change", () => {
      a.chance = chance.value;
      changed();
    });
    const major = checkbox("Its major action this round", { id: `mzch-major-${c.element}`, checked: isMajor(a, c), disabled: c.acted, data: { focusKey: `mzch-major-${c.element}` } });
    major.box.addEventListener("change", () => {
      a.major = major.box.checked;
    });
    return el(
      "li",
      { class: "mzch-actor" },
      on.node,
      a.on && el("div", { class: "mz-fields" }, field(`Base chance for ${c.name}`, chance), major.node),
    );
  });
  const failOn = checkbox("A failure side opposes", { id: "mzch-failure-on", checked: m.failure.on, data: { focusKey: "mzch-failure-on" } });
  failOn.box.addEventListener("change", () => {
    m.failure.on = failOn.box.checked;
    changed();
  });
  const failChance = select(CHANCES, { id: "mzch-failure-chance", data: { focusKey: "mzch-failure-chance" } });
  failChance.value = m.failure.chance;
  failChance.addEventListener("change", () => {
    m.failure.chance = failChance.value;
    changed();
  });
  // On a D6 table each owner chooses a burst after seeing the first roll: that two-step roll
  // is the Action check tab's, so here only the final scores can be typed in.
  const d6 = ctx.table?.variant === "d6";
  if (d6) m.mode = "scores";
  const modes = (d6 ? [["scores", "Type in the scores"]] : [
    ["rolled", "Roll in the app"],
    ["dice", "Type in the dice"],
    ["scores", "Type in the scores"],
  ]).map(([value, label]) => {
    const input = el("input", { type: "radio", name: "mzch-mode", id: `mzch-mode-${value}`, value, checked: m.mode === value, data: { focusKey: `mzch-mode-${value}` } });
    input.addEventListener("change", () => {
      m.mode = value;
      ctx.render();
    });
    return el("label", { class: "mz-radio", for: input.id }, input, el("span", {}, label));
  });
  const sides = majorSides(m, acting);
  let entry = null;
  if (sides.length >= 2 && m.mode === "dice") entry = diceEntry(ctx, m, sides);
  if (sides.length >= 2 && m.mode === "scores") entry = scoreEntry(ctx, m, sides);
  const majors = acting.filter((c) => isMajor(m.actors[c.element], c));
  const ready = sides.length >= 2 && majors.length > 0;
  const pendingNote = s.pending && s.pending.check.phase === "rolled" ? pendingCard(ctx, ch) : null;
  return card(
    "mzch-major",
    "Major action",
    disclosure("How a major action is compared", el("p", { class: "mz-hint muted hint" }, "An action check: each acting challenger is a side; its roll is compared with the highest opposing roll (the failure side and other sides' actions).")),
    field("What is attempted (optional)", what),
    el("fieldset", { class: "mzch-actors" }, el("legend", {}, "Who acts"), el("ul", { class: "mz-list" }, ...actorRows)),
    el(
      "fieldset",
      { class: "mzch-failure" },
      el("legend", {}, "Failure"),
      failOn.node,
      m.failure.on && field("Base chance of failure", failChance),
    ),
    el("fieldset", { class: "mz-approaches mzch-modes" }, el("legend", {}, "The roll"), ...modes),
    d6 &&
      el(
        "p",
        { class: "muted", id: "mzch-d6-note" },
        "This table rolls the D6 variant: roll the major action on the Action check tab, where each owner chooses a burst after the first roll; the check then waits here to be recorded. Or type in the final scores.",
      ),
    sides.length < 2 && el("p", { class: "muted", id: "mzch-major-hint" }, "Choose who acts; with one actor, keep the failure side."),
    entry,
    button(m.mode === "rolled" ? "Roll the major action" : "Record the major action", (b) => recordMajor(ctx, ch, b), {
      id: "mzch-major-submit",
      class: "primary mz-big-button",
      disabled: !ready,
      data: { focusKey: "mzch-major-submit" },
    }),
    pendingNote,
  );
}

const isMajor = (a, c) => !c.acted && (a.major ?? true);

/** The check's sides in the core's order: the actors in the order listed, then the failure. */
function majorSides(m, acting) {
  const sides = acting.map((c) => ({ kind: { kind: "action", element: c.element }, description: "", chance: m.actors[c.element].chance, aptitude: 0, label: c.name }));
  if (m.failure.on) sides.push({ kind: { kind: "failure" }, description: "", chance: m.failure.chance, aptitude: 0, label: "Failure" });
  return sides;
}

function requestOf(m, sides) {
  return {
    setup: {
      description: m.description.trim(),
      sides: sides.map(({ kind, description, chance, aptitude }) => ({ kind, description, chance, aptitude })),
      involved: [],
    },
    casts: [],
    perks: [],
  };
}

/** Boxes for every die of the check, once the core said which dice it rolls. */
function diceEntry(ctx, m, sides) {
  const signature = JSON.stringify(requestOf(m, sides));
  if (m.previewFor !== signature) {
    m.previewFor = signature;
    m.preview = null;
    m.previewError = null;
    api
      .mezzoCheckPreview(ctx.gameId, requestOf(m, sides))
      .then((p) => {
        if (m.previewFor !== signature) return;
        m.preview = p;
        ctx.render();
      })
      .catch((e) => {
        if (m.previewFor !== signature) return;
        m.previewError = e && e.message ? e.message : String(e);
        ctx.render();
      });
  }
  if (m.previewError) return el("p", { class: "mz-problem", id: "mzch-dice-problem" }, m.previewError);
  if (!m.preview) return el("p", { class: "muted" }, "Reading the dice…");
  const p = m.preview;
  if (p.no_check_needed !== null) {
    return el("p", { class: "mz-problem", id: "mzch-dice-problem" }, "A negligible side takes no part and only one is left: no check is needed, so there is nothing to compare. Raise a base chance.");
  }
  const asked = p.dice.flatMap((d, i) => {
    if (!d || d.locked_out) return [];
    const name = sides[i].label;
    return d.dice.map((size, k) => ({ sides: size, label: d.dice.length === 1 ? name : `${name} die ${k + 1}` }));
  });
  const summary = p.dice.map((d, i) => `${sides[i].label}: ${d ? (d.locked_out ? "locked out" : diceWords(d.dice)) : "no part"}`).join(" · ");
  const boxes = handDice(asked, "mzch-die", "Each die's face, in this order", (faces) => {
    m.values = faces;
  }, m.values);
  m.read = boxes.read;
  return el("div", { id: "mzch-dice" }, el("p", { class: "muted", id: "mzch-dice-summary" }, summary), boxes.node);
}

function scoreEntry(ctx, m, sides) {
  const inputs = sides.map((side, i) => {
    const key = side.kind.kind === "action" ? side.kind.element : "failure";
    const input = numberInput({ id: `mzch-score-${key}`, min: 1, max: 99, required: true, data: { focusKey: `mzch-score-${key}` } });
    if (m.scores[key] !== undefined) input.value = String(m.scores[key]);
    input.addEventListener("input", () => {
      m.scores[key] = input.value;
    });
    return field(`${side.label}'s score`, input, null, "field mz-die-field");
  });
  return el("fieldset", { class: "mz-hand-dice", id: "mzch-scores" }, el("legend", {}, "Each side's score (its highest die, plus Sudden Surges)"), el("div", { class: "mz-die-fields" }, ...inputs));
}

async function recordMajor(ctx, ch, b) {
  const s = state(ctx);
  const m = s.major;
  const inNow = ch.challengers.filter((c) => c.status === "in");
  const acting = inNow.filter((c) => m.actors[c.element]?.on);
  const sides = majorSides(m, acting);
  const majors = acting.filter((c) => isMajor(m.actors[c.element], c)).map((c) => c.element);
  const reset = () => {
    s.major = { ...newMajor(), mode: m.mode, failure: { ...m.failure } };
  };
  if (m.mode === "scores") {
    const rolls = [];
    for (const side of sides) {
      const key = side.kind.kind === "action" ? side.kind.element : "failure";
      const input = document.getElementById(`mzch-score-${key}`);
      const score = input ? readCount(input, 1, 999) : null;
      if (score === null) return;
      rolls.push({ kind: side.kind, score });
    }
    const done = await playMove(ctx, "The major action was not recorded.", { move: "major_actions", rolls, majors }, b, reset);
    if (done) ctx.render(focusAfterMajor());
    return;
  }
  let dice = { kind: "rolled" };
  if (m.mode === "dice") {
    const faces = m.read ? m.read() : null;
    if (faces === null) return;
    dice = { kind: "entered", values: faces };
  }
  const done = await play(ctx, "The major action was not rolled.", () => api.mezzoChallengeRollMajors(ctx.gameId, requestOf(m, sides), majors, dice), b, reset);
  if (done) ctx.render(focusAfterMajor());
}

const focusAfterMajor = () => "#mzch-status-heading";

/** A check rolled on the Action check tab (with its casts and perks) waits: record it here. */
function pendingCard(ctx, ch) {
  const s = state(ctx);
  const check = s.pending.check;
  const actors = check.sides.filter((x) => x.kind.kind === "action" && !x.dropped).map((x) => x.kind.element);
  const eligible = ch.challengers.filter((c) => c.status === "in" && !c.acted && actors.includes(c.element));
  if (eligible.length === 0) return null;
  const boxes = eligible.map((c) => checkbox(`${c.name}'s major action`, { id: `mzch-pending-major-${c.element}`, checked: true }));
  return el(
    "div",
    { class: "mzch-pending", id: "mzch-pending" },
    el("h4", {}, "The check rolled on the Action check tab"),
    el("p", { class: "muted" }, `${check.description || "Action check"}: ${check.sides.map((x) => `${x.kind.kind === "action" ? nameOf(ctx, x.kind.element) : "Failure"} ${x.roll ? x.roll.highest : "—"}`).join(" · ")}`),
    el("div", { class: "mz-checks" }, ...boxes.map((x) => x.node)),
    button(
      "Record it as major actions",
      async (b) => {
        const majors = eligible.filter((_, i) => boxes[i].box.checked).map((c) => c.element);
        const done = await play(ctx, "The check was not recorded.", () => api.mezzoChallengeResolveMajors(ctx.gameId, [], majors), b, () => {
          s.pending = null;
        });
        if (done) ctx.render(focusAfterMajor());
      },
      { id: "mzch-pending-submit" },
    ),
  );
}

// ---- the rest of a round ----------------------------------------------------------------------------

function roundCard(ctx, ch) {
  const inNow = ch.challengers.filter((c) => c.status === "in");
  const who = (id) => select(inNow.map((c) => [c.element, c.name]), { id, data: { focusKey: id } });

  const quitter = who("mzch-surrender-who");
  const surrender = form({ id: "mzch-surrender-form", "aria-label": "Surrender" }, [
    field("Who surrenders", quitter, "Takes its major action, unless it just gained a wound or restraint."),
    el("button", { type: "submit", class: "danger", id: "mzch-surrender" }, "Surrender"),
  ], (b) => playMove(ctx, "The challenger did not surrender.", { move: "surrender", challenger: quitter.value }, b));

  const changer = who("mzch-stakes-who");
  const newStake = el("input", { type: "text", id: "mzch-stakes-text", maxlength: 500 });
  const joining = select(
    [["", "Stays on its side"], ...ch.sides.filter((x) => x.still_in > 0).map((x) => [String(x.side), `Joins ${sideLabel(ch, x.side)}`]), ["new", "Starts a new side"]],
    { id: "mzch-stakes-side" },
  );
  const newSide = el("input", { type: "text", id: "mzch-stakes-new-side", maxlength: 200 });
  const stakes = form({ id: "mzch-stakes-form", "aria-label": "Change stakes" }, [
    el("div", { class: "mz-fields" }, field("Who", changer), field("New stake", newStake), field("Side", joining), field("New side's name (if new)", newSide)),
    el("button", { type: "submit", id: "mzch-stakes-submit" }, "Change stakes"),
  ], (b) => {
    const j = joining.value === "" ? null : joining.value === "new" ? { kind: "new_side", name: newSide.value.trim() } : { kind: "side", side: Number(joining.value) };
    playMove(ctx, "The stakes were not changed.", { move: "change_stakes", challenger: changer.value, stake: newStake.value, joining: j }, b);
  });

  const trumpSelects = ch.goals
    .filter((g) => g.trumps > 0 && !g.triggered)
    .map((g) => {
      // Using an effect spends a trump per challenger it moves; trumps kept trigger a boost
      // when the goal's supporters are all gone.
      const supporters = g.supporters.filter((id) => inNow.some((c) => c.element === id)).length;
      const opponents = inNow.filter((c) => c.side !== g.side).length;
      const s = select(
        [
          ["", `${g.name}: no trump effect`],
          ["victorious_withdrawal", `${g.name}: Victorious Withdrawal (its supporters leave in victory; spends ${plural(supporters, "trump")})`],
          ["defeated_exile", `${g.name}: Defeated Exile (its opponents leave in defeat; spends ${plural(opponents, "trump")})`],
        ],
        { id: `mzch-trump-${g.element}`, data: { goal: g.element } },
      );
      return { g, s };
    });
  const end = form({ id: "mzch-end-round-form", "aria-label": "End the round" }, [
    ...trumpSelects.map(({ g, s }) => field(`Trumps of ${g.name} (${g.trumps})`, s)),
    el("button", { type: "submit", class: "primary", id: "mzch-end-round" }, `End round ${ch.round}`),
  ], (b) => {
    const trumps = trumpSelects.filter(({ s }) => s.value !== "").map(({ g, s }) => ({ kind: s.value, goal: g.element }));
    playMove(ctx, "The round did not end.", { move: "end_round", trumps }, b);
  });

  const parts = [
    el("h4", {}, "End the round"),
    end,
    el("h4", {}, "Surrender"),
    surrender,
    el("h4", {}, "Change stakes (in place of a major action)"),
    stakes,
  ];
  if (ch.counterable.length > 0) {
    const goal = select(ch.counterable.map((p) => [p.goal, nameOf(ctx, p.goal)]), { id: "mzch-complicate-goal" });
    const text = el("input", { type: "text", id: "mzch-complicate-text", maxlength: 500 });
    parts.push(
      el("h4", {}, "A complication"),
      form({ id: "mzch-complicate-form", "aria-label": "A complication" }, [
        el("div", { class: "mz-fields" }, field("The Push on", goal), field("Why the task is not finished yet", text)),
        el("button", { type: "submit", id: "mzch-complicate" }, "Counter the Push"),
      ], (b) => playMove(ctx, "The complication was refused.", { move: "complicate", goal: goal.value, text: text.value }, b)),
    );
  }
  parts.push(joinForms(ctx, ch));
  return card("mzch-round-moves", "The round", ...parts);
}

/** A newcomer joins, or a goal is added (inside a closed disclosure: rarely needed). */
function joinForms(ctx, ch) {
  const s = state(ctx);
  const taking = new Set([...ch.challengers.map((c) => c.element), ...ch.goals.map((g) => g.element)]);
  const free = allElements(ctx.table).filter((e) => !taking.has(e.id));
  const newcomers = free.filter((e) => e.kind !== "goal");
  const goals = free.filter((e) => e.kind === "goal");
  const parts = [];
  if (newcomers.length > 0) {
    const who = select(newcomers.map((e) => [e.id, e.name]), { id: "mzch-join-who" });
    const side = select([...ch.sides.filter((x) => x.still_in > 0).map((x) => [String(x.side), sideLabel(ch, x.side)]), ["new", "A new side"]], { id: "mzch-join-side" });
    const newName = el("input", { type: "text", id: "mzch-join-new-side", maxlength: 200 });
    const stake = el("input", { type: "text", id: "mzch-join-stake", maxlength: 500 });
    parts.push(
      form({ id: "mzch-join-form", "aria-label": "A challenger joins" }, [
        el("div", { class: "mz-fields" }, field("Who joins", who), field("Side", side), field("New side's name (if new)", newName), field("Stake (optional)", stake)),
        el("button", { type: "submit", id: "mzch-join" }, "Join the challenge"),
      ], (b) => {
        const joining = side.value === "new" ? { kind: "new_side", name: newName.value.trim() } : { kind: "side", side: Number(side.value) };
        const text = stake.value.trim();
        playMove(ctx, "The challenger did not join.", { move: "add_challenger", element: who.value, joining, stake: text ? text : null }, b);
      }),
    );
  }
  if (goals.length > 0) {
    const goal = select(goals.map((e) => [e.id, e.name]), { id: "mzch-goal-which" });
    const inNow = ch.challengers.filter((c) => c.status === "in");
    const boxes = inNow.map((c) => checkbox(c.name, { id: `mzch-goal-supporter-${c.element}` }));
    parts.push(
      form({ id: "mzch-goal-form", "aria-label": "A goal" }, [
        field("Goal", goal),
        el("fieldset", {}, el("legend", {}, "Supported by (one side)"), el("div", { class: "mz-checks" }, ...boxes.map((x) => x.node))),
        el("button", { type: "submit", id: "mzch-add-goal" }, "Add the goal"),
      ], (b) => {
        const supporters = inNow.filter((_, i) => boxes[i].box.checked).map((c) => c.element);
        playMove(ctx, "The goal was not added.", { move: "add_goal", element: goal.value, supporters }, b);
      }),
    );
  }
  if (parts.length === 0) return null;
  const details = el("details", { class: "mzch-more", id: "mzch-more", open: s.moreOpen ?? false }, el("summary", {}, "A newcomer or a goal"), ...parts);
  details.addEventListener("toggle", () => {
    if (details.isConnected) s.moreOpen = details.open;
  });
  return details;
}

// ---- perks -------------------------------------------------------------------------------------------

function perksCard(ctx, ch) {
  const s = state(ctx);
  const a = ch.actions.find((x) => x.index === ch.open_action);
  if (!a) return card("mzch-perks", "Perks", el("p", { class: "muted" }, "No perks are open."));
  const p = s.perk;
  if (p.action !== a.index) {
    s.perk = { ...newPerk(), action: a.index };
    return perksCard(ctx, ch);
  }
  const left = el(
    "p",
    { class: "mz-summary", id: "mzch-perks-left" },
    `${a.name}: ${plural(a.majors_left, "major perk")} and ${plural(a.minors_left, "minor perk")} left`,
  );
  const declared = a.declared.length > 0
    ? el("ul", { class: "mz-list", id: "mzch-declared" }, ...a.declared.map((d, i) => el("li", {}, perkWords(ctx, d), temptingTarget(ctx, a, d, i))))
    : el("p", { class: "muted", id: "mzch-declared" }, "Nothing declared yet.");
  const counterer = select(ch.challengers.filter((c) => c.status === "in").map((c) => [c.element, c.name]), { id: "mzch-counter-who" });
  return card(
    "mzch-perks",
    `Perks of ${a.name}'s major action`,
    el("p", { class: "muted" }, `${a.score} against ${a.opposing}: ${RESULT_WORDS[a.result] ?? a.result}.`),
    left,
    el("h4", {}, "Declared"),
    declared,
    a.majors_left > 0 &&
      button("Trade a major perk for two minor perks", (b) => playMove(ctx, "The perk was not traded.", { move: "trade", action: a.index }, b), { id: "mzch-trade", data: { focusKey: "mzch-trade" } }),
    a.majors_left + a.minors_left > 0 ? declareForm(ctx, ch, a) : null,
    el(
      "div",
      { class: "actions mzch-settle" },
      button(
        a.majors_left + a.minors_left > 0 ? "Settle (the rest is forfeited)" : "Settle: the perks take effect",
        (b) => playMove(ctx, "The perks did not settle.", { move: "settle", action: a.index }, b),
        { id: "mzch-settle", class: a.majors_left + a.minors_left > 0 ? "mz-big-button" : "primary mz-big-button", data: { focusKey: "mzch-settle" } },
      ),
    ),
    el(
      "details",
      { class: "mzch-more", id: "mzch-counter" },
      el("summary", {}, "Final Counter"),
      form({ id: "mzch-counter-form", "aria-label": "Final Counter" }, [
        field("Who sacrifices its Plot Protection", counterer, "Removes every perk of this action."),
        el("button", { type: "submit", class: "danger", id: "mzch-counter-submit" }, "Final Counter"),
      ], (b) => playMove(ctx, "The Final Counter was refused.", { move: "final_counter", action: a.index, element: counterer.value }, b)),
    ),
  );
}

/** The element a harmful perk targets (as the core's PerkUse::harms), or null. */
function harmed(p) {
  if (["hinder", "expose", "bind", "damage"].includes(p.kind)) return p.target;
  return p.kind === "ruin" ? p.goal : null;
}

/** Tempting Target (Adversity Debt): offered on a harmful perk whose target owes debt. */
function temptingTarget(ctx, a, p, i) {
  const target = harmed(p);
  const e = target ? elementOf(ctx, target) : null;
  if (!e || !(e.adversity_debt > 0)) return null;
  return el(
    "div",
    { class: "actions mzch-tempting" },
    button(
      `Tempting Target: ${a.name} takes 1 adversity, ${e.name} pays off 1 debt`,
      (b) => play(ctx, "Tempting Target was refused.", () => api.mezzoTemptingTarget(ctx.gameId, a.index, target), b),
      { id: `mzch-tempting-${i}`, data: { focusKey: `mzch-tempting-${i}` } },
    ),
  );
}

function declareForm(ctx, ch, a) {
  const s = state(ctx);
  const p = s.perk;
  const allowed = PERKS.filter(([, , major]) => (major ? a.majors_left > 0 : a.minors_left > 0));
  const actor = ch.challengers.find((c) => c.element === a.challenger);
  const fields = perkFields(ctx, ch, p, {
    allowed,
    actorSide: actor?.side,
    candidates: ch.challengers.filter((c) => c.status === "in"),
    px: "mzch",
    onKind: (kind) => {
      s.perk = { ...newPerk(), action: a.index, kind, target: p.target };
    },
  });
  return form(
    { id: "mzch-declare-form", "aria-label": "Declare a perk" },
    [
      el("h4", {}, "Declare a perk"),
      el("div", { class: "mz-fields" }, ...fields),
      el("button", { type: "submit", class: "primary", id: "mzch-declare" }, "Declare"),
    ],
    (b) => {
      const perk = perkOf(p);
      if (!perk) return;
      playMove(ctx, "The perk was not declared.", { move: "declare", action: a.index, perk }, b, () => {
        s.perk = { ...newPerk(), action: a.index, kind: p.kind, target: p.target };
      }).then((done) => {
        if (done) ctx.render("#mzch-perks-heading");
      });
    },
  );
}

/**
 * The fields choosing a perk and its target, kept in `p` (a newPerk()). Shared by a major
 * action's perks and claiming stakes: `allowed` perks, the acting side, the challengers it may
 * target, an id prefix `px`, and what a new kind resets (`onKind`).
 */
function perkFields(ctx, ch, p, { allowed, actorSide, candidates, px, onKind, claimed = false }) {
  if (!allowed.some(([v]) => v === p.kind)) p.kind = allowed[0][0];
  const rerender = (focus) => ctx.render(focus);
  const kind = select(allowed.map(([v, n, major]) => [v, `${n} (${major ? "major" : "minor"})`]), { id: `${px}-perk-kind`, data: { focusKey: `${px}-perk-kind` } });
  kind.value = p.kind;
  kind.addEventListener("change", () => {
    onKind(kind.value);
    rerender();
  });
  const hint = PERKS.find(([v]) => v === p.kind)[3];
  const fields = [field("Perk", kind, hint)];
  const actor = { side: actorSide };
  const inNow = candidates;
  const onElement = !["discover", "push", "ruin"].includes(p.kind);
  let target = null;
  if (onElement) {
    // Harmful perks default to an opponent, helpful ones to the actor's side.
    const helpful = ["recover", "break_free", "heal"].includes(p.kind);
    const order = [...inNow].sort((x, y) => Number((x.side === actor?.side) !== helpful) - Number((y.side === actor?.side) !== helpful));
    if (!inNow.some((c) => c.element === p.target)) p.target = order[0]?.element ?? "";
    const pick = select(order.map((c) => [c.element, `${c.name} (side ${c.side + 1})`]), { id: `${px}-perk-target`, data: { focusKey: `${px}-perk-target` } });
    pick.value = p.target;
    pick.addEventListener("change", () => {
      p.target = pick.value;
      p.restraint = "";
      p.wound = "new";
      p.expend = [];
      p.healExtras = [];
      rerender();
    });
    fields.push(field("On", pick));
    target = elementOf(ctx, p.target);
  }
  const text = (id, label, key, hintText = null) => {
    const input = el("input", { type: "text", id, maxlength: 200, data: { focusKey: id } });
    input.value = p[key];
    input.addEventListener("input", () => {
      p[key] = input.value;
    });
    return field(label, input, hintText);
  };
  const templatePick = (choices, label) => {
    if (!choices.some(([v]) => v === p.template)) p.template = choices[0][0];
    const t = select(choices, { id: `${px}-perk-template`, data: { focusKey: `${px}-perk-template` } });
    t.value = p.template;
    t.addEventListener("change", () => {
      p.template = t.value;
      p.targetTrait = "";
      rerender();
    });
    const picked = [field(label, t)];
    // A Dulled Edge dulls one of the target's edges (or extras); an Impaired Ability may name an Ability.
    const selectable =
      p.template === "dulled_edge"
        ? (target?.traits ?? []).filter((x) => x.kind === "edge" || x.kind === "extra").map((x) => [x.id, x.name])
        : p.template === "impaired_ability"
          ? [["", "No Ability named"], ...(target?.traits ?? []).filter((x) => x.template === "ability").map((x) => [x.id, x.name])]
          : null;
    if (selectable) {
      if (!selectable.some(([v]) => v === p.targetTrait)) p.targetTrait = selectable[0]?.[0] ?? "";
      const which = select(selectable.length > 0 ? selectable : [["", "The target has no edge to dull"]], { id: `${px}-perk-trait`, data: { focusKey: `${px}-perk-trait` } });
      which.value = p.targetTrait;
      which.addEventListener("change", () => {
        p.targetTrait = which.value;
      });
      picked.push(field(p.template === "dulled_edge" ? "The edge it dulls" : "The Ability it impairs", which));
    }
    return picked;
  };
  const flawPick = (id, label, flaws, key) => {
    if (!flaws.some((f) => f.id === p[key])) p[key] = flaws[0]?.id ?? "";
    const f = select(flaws.length > 0 ? flaws.map((x) => [x.id, flawWords(target, x)]) : [["", "None"]], { id, data: { focusKey: id } });
    f.value = p[key];
    f.addEventListener("change", () => {
      p[key] = f.value;
      p.healExtras = [];
      rerender();
    });
    return field(label, f);
  };
  if (p.kind === "hinder") fields.push(...templatePick(MINOR_FLAWS, "Flaw"), text(`${px}-perk-name`, "The new flaw's name", "name"));
  if (p.kind === "expose") fields.push(text(`${px}-perk-name`, "The new Vulnerability's name", "name"));
  if (p.kind === "bind") fields.push(text(`${px}-perk-name`, "The new Restraint's name", "name"));
  if (p.kind === "discover") fields.push(text(`${px}-perk-detail`, "What the challenger finds", "detail"));
  // Recover and Heal work on what this challenge gave the target (the core's `gained`).
  const gained = ch.challengers.find((c) => c.element === target?.id)?.gained ?? [];
  if (p.kind === "recover") fields.push(flawPick(`${px}-perk-flaw`, "Flaw to remove", flawsOf(target).filter((f) => fleeting(target, f) && gained.includes(f.id)), "restraint"));
  if (p.kind === "break_free") {
    fields.push(
      flawPick(`${px}-perk-restraint`, "Restraint to remove", restraintsOf(target).filter((f) => hasModifier(target, f.id, "transient_flaw")), "restraint"),
      ...templatePick(WOUND_FLAWS, "The minor flaw it gains"),
      text(`${px}-perk-name`, "That flaw's name", "name"),
    );
  }
  if (p.kind === "damage") fields.push(...damageFields(ctx, p, target, templatePick, text, px, claimed));
  if (p.kind === "heal") fields.push(...healFields(ctx, p, target, flawPick, gained, px));
  if (p.kind === "push" || p.kind === "ruin") {
    const goals = ch.goals.filter((g) => (p.kind === "push" ? g.side === actor?.side : g.side !== actor?.side));
    if (!goals.some((g) => g.element === p.goal)) p.goal = goals[0]?.element ?? "";
    const g = select(goals.length > 0 ? goals.map((x) => [x.element, `${x.name} (${plural(x.trumps, "trump")})`]) : [["", "No goal fits"]], { id: `${px}-perk-goal`, data: { focusKey: `${px}-perk-goal` } });
    g.value = p.goal;
    g.addEventListener("change", () => {
      p.goal = g.value;
    });
    fields.push(field("Goal", g));
  }
  return fields;
}

function damageFields(ctx, p, target, templatePick, text, px, claimed) {
  const wounds = woundsOf(target);
  if (p.wound !== "new" && !wounds.some((w) => w.id === p.wound)) p.wound = "new";
  const how = select([["new", "A new wound"], ...wounds.map((w) => [w.id, `Worsen ${flawWords(target, w)} (+2 extras)`])], { id: `${px}-perk-wound`, data: { focusKey: `${px}-perk-wound` } });
  how.value = p.wound;
  how.addEventListener("change", () => {
    p.wound = how.value;
    ctx.render();
  });
  const out = [field("Wound", how)];
  if (p.wound === "new") out.push(...templatePick(WOUND_FLAWS, "The wound's flaw"), text(`${px}-perk-name`, "The wound's name", "name"));
  const shots = oneShotsOf(target).filter((f) => f.id !== p.wound);
  if (shots.length > 0) {
    const boxes = shots.map((f) => {
      const box = checkbox(`Expend ${flawWords(target, f)} (+1 extra)`, { id: `${px}-expend-${f.id}`, checked: p.expend.includes(f.id), data: { focusKey: `${px}-expend-${f.id}` } });
      box.box.addEventListener("change", () => {
        p.expend = box.box.checked ? [...p.expend, f.id] : p.expend.filter((x) => x !== f.id);
        ctx.render();
      });
      return box.node;
    });
    out.push(el("fieldset", { class: "mzch-wide" }, el("legend", {}, "One-Shot flaws to expend"), el("div", { class: "mz-checks" }, ...boxes)));
  }
  const wanted = (p.wound === "new" ? 0 : 2) + p.expend.length;
  while (p.extras.length < wanted) p.extras.push(WOUND_EXTRAS[0][0]);
  p.extras.length = wanted;
  p.extras.forEach((x, i) => {
    const s = select(WOUND_EXTRAS, { id: `${px}-extra-${i}`, data: { focusKey: `${px}-extra-${i}` } });
    s.value = x;
    s.addEventListener("change", () => {
      p.extras[i] = s.value;
    });
    out.push(field(`Extra ${i + 1}`, s));
  });
  // A claimed perk lands as its buyer leaves: it takes nobody out (the core refuses it).
  if (claimed) return out;
  const takes = checkbox("It takes the target out (it can no longer contribute)", { id: `${px}-takes-out`, checked: p.takesOut, data: { focusKey: `${px}-takes-out` } });
  takes.box.addEventListener("change", () => {
    p.takesOut = takes.box.checked;
  });
  out.push(el("div", { class: "mzch-wide" }, takes.node));
  return out;
}

function healFields(ctx, p, target, flawPick, gained, px) {
  const wounds = woundsOf(target).filter((w) => hasModifier(target, w.id, "transient_flaw") && gained.includes(w.id));
  const out = [flawPick(`${px}-perk-heal-wound`, "Wound", wounds, "restraint")];
  const wound = wounds.find((w) => w.id === p.restraint);
  const extras = wound ? extrasOf(target, wound.id) : [];
  if (extras.length === 0) {
    out.push(el("p", { class: "mz-hint muted" }, "A wound with no extras turns One-Shot."));
  } else {
    const boxes = extras.map((x) => {
      const box = checkbox(`Remove ${x.name}`, { id: `${px}-heal-extra-${x.id}`, checked: p.healExtras.includes(x.id) });
      box.box.addEventListener("change", () => {
        p.healExtras = box.box.checked ? [...p.healExtras, x.id] : p.healExtras.filter((y) => y !== x.id);
      });
      return box.node;
    });
    out.push(el("fieldset", { class: "mzch-wide" }, el("legend", {}, "Extras to remove (1 or 2; Vicious first)"), el("div", { class: "mz-checks" }, ...boxes)));
  }
  p.effect = extras.length === 0 ? "one_shot" : "remove_extras";
  return out;
}

/** The perk the form stands for, as the core reads it (new traits without ids). */
function perkOf(p) {
  const named = (template) => ({
    template,
    name: p.name.trim(),
    ...(p.targetTrait && ["dulled_edge", "impaired_ability"].includes(template) ? { target_trait: p.targetTrait } : {}),
  });
  switch (p.kind) {
    case "hinder":
      return { kind: "hinder", target: p.target, flaw: named(p.template) };
    case "expose":
      return { kind: "expose", target: p.target, flaw: named("vulnerability") };
    case "bind":
      return { kind: "bind", target: p.target, restraint: named("restraint") };
    case "discover":
      return { kind: "discover", detail: p.detail };
    case "recover":
      return { kind: "recover", target: p.target, flaw: p.restraint || null };
    case "break_free":
      return { kind: "break_free", target: p.target, restraint: p.restraint || null, flaw: named(p.template) };
    case "damage":
      return {
        kind: "damage",
        target: p.target,
        wound: p.wound === "new" ? { kind: "new_flaw", flaw: named(p.template) } : { kind: "worsen", wound: p.wound },
        expend: p.expend,
        extras: p.extras.map((x) => ({ template: x, name: templateName(x) })),
        takes_out: p.takesOut,
      };
    case "heal":
      return {
        kind: "heal",
        target: p.target,
        wound: p.restraint || null,
        effect: p.effect === "one_shot" ? { kind: "one_shot" } : { kind: "remove_extras", extras: p.healExtras },
      };
    case "push":
      return { kind: "push", goal: p.goal || null };
    case "ruin":
      return { kind: "ruin", goal: p.goal || null };
    default:
      return null;
  }
}

// ---- No Escape -------------------------------------------------------------------------------------

/**
 * No Escape's pay-off, where it applies: a challenger that named a target for removal and
 * leaves (or left) this challenge in victory may spend 2 momentum to ignore the target's Plot
 * Protection until the challenge ends. The core checks the victory itself.
 */
function noEscapeCard(ctx, ch) {
  if (ch.over) return null;
  const s = state(ctx);
  const open = (s.noEscape ?? []).filter((n) => n.challenge === ch.id && !n.used);
  const ready = open.filter((n) => ch.challengers.some((c) => c.element === n.by && c.how === "victory"));
  if (ready.length === 0) return null;
  const players = ctx.table?.players ?? [];
  return card(
    "mzch-no-escape",
    "No Escape",
    ...ready.map((n) => {
      const c = ch.challengers.find((x) => x.element === n.by);
      const player = c.claimed_by ?? players[0]?.player?.id ?? players[0]?.id ?? NOBODY;
      return el(
        "div",
        { class: "mzch-no-escape-item" },
        el("p", {}, `${c.name} left in victory and named ${nameOf(ctx, n.target)} for removal (${c.momentum} momentum).`),
        button(
          `Ignore ${nameOf(ctx, n.target)}'s Plot Protection (2 momentum)`,
          (b) =>
            ctx.move(
              "No Escape was refused.",
              () =>
                api.mezzoIgnoreProtection(ctx.gameId, ch.id, { player, element: n.by }, n.target).then((r) => {
                  n.used = true;
                  return r;
                }),
              b,
            ),
          { id: `mzch-ignore-${n.target}`, class: "primary", disabled: c.momentum < 2, data: { focusKey: `mzch-ignore-${n.target}` } },
        ),
      );
    }),
  );
}

// ---- departures -----------------------------------------------------------------------------------

function ownerWords(ctx, owner) {
  if (owner.kind === "challenger") return `${nameOf(ctx, owner.element)}'s wounds and restraints`;
  return `a trump of ${nameOf(ctx, owner.goal)}`;
}

function departureCard(ctx, ch) {
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
        ...(c.stake ? [["claiming_stakes", "Claiming stakes (1 a major perk)"]] : []),
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
  fields.push(field("Spend on", kind));
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

// ---- Rest & Recuperation -------------------------------------------------------------------------

function restCard(ctx) {
  const s = state(ctx);
  const elements = allElements(ctx.table).filter((e) => e.kind !== "goal");
  if (elements.length === 0) return null;
  if (!elements.some((e) => e.id === s.rr.element)) s.rr.element = elements[0].id;
  const pick = select(elements.map((e) => [e.id, e.name]), { id: "mzch-rr-element", data: { focusKey: "mzch-rr-element" } });
  pick.value = s.rr.element;
  pick.addEventListener("change", () => {
    s.rr.element = pick.value;
    ctx.render();
  });
  const e = elementOf(ctx, s.rr.element);
  const rows = [];
  for (const f of flawsOf(e)) {
    const transient = hasModifier(e, f.id, "transient_flaw");
    const moves = [];
    if (fleeting(e, f)) {
      moves.push(button("Take a breather", (b) => ctx.move("The breather was refused.", () => api.mezzoTakeBreather(ctx.gameId, e.id, f.id), b), { id: `mzch-breather-${f.id}` }));
    }
    if (f.template === "restraint" && transient) {
      moves.push(button("Escape", (b) => ctx.move("The restraint stays.", () => api.mezzoEscapeRestraints(ctx.gameId, e.id, f.id), b), { id: `mzch-escape-${f.id}` }));
    }
    if (hasModifier(e, f.id, "wound") && transient) {
      const extras = extrasOf(e, f.id);
      const recovery = select(
        [["not_made", "No Recovery Check"], ["passed", "Recovery Check passed"], ["ample_time", "Triple the time taken"]],
        { id: `mzch-recovery-${f.id}` },
      );
      moves.push(
        field("Recovery (Vicious Wounds)", recovery, null, "field mzch-recovery"),
        button(
          extras.length > 0 ? `Treat: remove ${extras.slice(0, 2).map((x) => x.name).join(" and ")}` : "Treat: it turns One-Shot",
          (b) => {
            const vicious = extras.filter((x) => x.template === "vicious_wound");
            const removed = (vicious.length > 0 ? vicious : extras).slice(0, 2).map((x) => x.id);
            const effect = extras.length > 0 ? { kind: "remove_extras", extras: removed } : { kind: "one_shot" };
            ctx.move("The wound was not treated.", () => api.mezzoTreatWounds(ctx.gameId, e.id, f.id, effect, recovery.value), b);
          },
          { id: `mzch-treat-${f.id}` },
        ),
      );
    }
    rows.push(
      el(
        "li",
        { class: "mzch-rr-flaw" },
        el("p", {}, el("strong", {}, flawWords(e, f))),
        moves.length > 0 ? el("div", { class: "actions mzch-rr-moves" }, ...moves) : el("p", { class: "muted" }, "Nothing to recover here."),
      ),
    );
  }
  return card(
    "mzch-rest",
    "Rest & Recuperation",
    disclosure("What each rest does", el("p", { class: "mz-hint muted hint" }, "Outside challenges: Take Breather clears a One-Shot, Transient flaw; Escape Restraints removes a Transient restraint; Treat Wounds heals a Transient wound.")),
    field("Story element", pick),
    rows.length > 0 ? el("ul", { class: "mz-list", id: "mzch-rr-list" }, ...rows) : el("p", { class: "muted", id: "mzch-rr-list" }, "No flaws."),
  );
}

