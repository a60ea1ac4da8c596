// The Scattershot roll tab (RULES.md §4.3): a Made-It-By roll from its setup to its result.
//
// - Setup: the actor (a character with a rating from its sheet and the advantages or
//   disadvantages that apply, or someone without a sheet with a rating typed in), the
//   situation's modifier, a resistor for a contested roll, the Factor / Points / Bonus
//   facets (typed, or from the table's UE chart at the action's Magnitude) and the resource
//   the result comes off (and, in a contest, what a negative RMIB takes). The exact odds (the MIB distribution,
//   P(success), P(Telling Blow), P(Catastrophic Failure)) follow every change, before any die.
// - Roll (issue 32): one tap from the set-up: the core starts the roll and rolls every 2d10;
//   with no experience die in any pool (nobody may bid) the Decision Phase ends, and with no
//   complication or benefit to choose the roll concludes. A tap on a sheet's rating opens the
//   set-up with it and that character's last choices; the odds' summary sits by the Roll button.
//   "Start the roll" stays for step by step (and dice typed in); "Roll again" on the result.
// - Decision Phase: each party's 2d10, rolled here or typed in; experience dice from any
//   player's stock (or a character's with no player) or the Gamemaster's stock into either number, each added or subtracted
//   as its roller chooses, as often as the table likes (a bidding war); then the end of the
//   phase, which pays the dice. Under the rules hints, each bid's exact chances from the core
//   (a die as + and as − into each MIB, or the waiting die's two signs; tapping a sign's row
//   chooses it), the best for each side marked.
// - Application Phase: complications bought up to 0, benefits spent, then the conclusion.
// - The result: the final number, its reading, and what came off a resource at once (also
//   in mechanical play); a Telling Blow's or Catastrophic Failure's points split as the
//   actor's player chooses; a success's Bonus kept on the actor as a residual modifier.
//
//   import { renderRoll, newRollDraft } from "./roll.js";
//   renderRoll(host, ctx);   // ctx from screen.js; ctx.ui.roll holds the draft

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import {
  button,
  card,
  checkbox,
  field,
  form,
  handDice,
  numberInput,
  oddsBar,
  percent,
  plural,
  RESOURCES,
  READINGS,
  ratingsOf,
  readCount,
  resourceWord,
  select,
  signed,
} from "./kit.js";

/** The most resistors a contest takes (the core's MAX_RESISTORS). */
const MAX_RESISTORS = 5;

/** A resistor's name in moves: "resistor" (the first), "resistor_2", "resistor_3"… */
const resistorKey = (i) => (i === 0 ? "resistor" : `resistor_${i + 1}`);
const partyIndex = (party) => (party === "resistor" ? 0 : Number(party.slice("resistor_".length)) - 1);
const resistorsOf = (roll) => roll.resistors ?? [];
/** A party's part of the roll on the table. */
const partOf = (roll, party) => (party === "actor" ? roll.actor : resistorsOf(roll)[partyIndex(party)]);
/** [key, word] of every party of the roll on the table: the actor, then each resistor. */
function partiesOf(roll) {
  const n = resistorsOf(roll).length;
  return [["actor", "Actor"], ...resistorsOf(roll).map((_, i) => [resistorKey(i), n > 1 ? `Resistor ${i + 1}` : "Resistor"])];
}
/** What the core shows of a party: its name, basic MIB and room. */
function shownOf(r, party) {
  if (party === "actor") return { name: r.actor_name, basic: r.actor_basic, room: r.actor_room };
  return r.resistor_views[partyIndex(party)] ?? {};
}
/** The draft's side of `party` ("actor", "resistor", "resistor_2"…). */
const draftSide = (draft, party) =>
  party === "actor" || party === "resistor" ? draft[party] : draft.more[partyIndex(party) - 1];
/** The keys of the draft's resistors. */
const draftResistors = (draft) => ["resistor", ...draft.more.map((_, i) => resistorKey(i + 1))];

/** A side as the setup form holds it. */
const newSide = () => ({ character: "", rating: "", value: "", rolled: "", known: "rating", qualities: [], modifier: "0", description: "" });

/** The roll being set up; it stays while the screen is open. */
export function newRollDraft() {
  return {
    actor: newSide(),
    resistor: newSide(),
    /** The resistors after the first (audit D-SC6: a contest of several). */
    more: [],
    contested: false,
    facets: null,
    ownFacets: false,
    magnitude: "",
    target: "",
    resource: "hit_points",
    resistorTarget: "",
    resistorResource: "hit_points",
    byHand: false,
  };
}

/**
 * A draft for a roll started from a sheet: `character` acts with the rating `ratingKey`
 * (a key of `ratingsOf`), the rest as that character's last set-up (issue 32), else as in
 * `previous` (a contest, its resistor); dice by hand as in `previous`.
 */
export function rollDraftFor(character, ratingKey, previous = null) {
  // The set-up left on the Roll tab is its actor's latest choices, rolled or not.
  if (previous) remember(previous);
  const last = lastChoices.get(character);
  const draft = last ? copyDraft(last) : previous ? { ...previous, actor: newSide() } : newRollDraft();
  if (previous) draft.byHand = previous.byHand;
  draft.more = draft.more ?? [];
  draft.actor.character = character;
  draft.actor.rating = ratingKey;
  return draft;
}

/** Each character's last roll set-up (while the app is open): a tap on its sheet starts there. */
const lastChoices = new Map();
const copyDraft = (draft) => JSON.parse(JSON.stringify(draft));
const remember = (draft) => {
  if (draft.actor.character) lastChoices.set(draft.actor.character, copyDraft(draft));
};

/** Fills `host` with the roll on the table (if any) and the setup of the next one. */
export function renderRoll(host, ctx) {
  const roll = ctx.table.roll;
  const live = roll && roll.roll.phase !== "done";
  host.append(handToggle(ctx));
  if (live) {
    host.append(liveRoll(roll, ctx));
    return;
  }
  if (roll) host.append(resultCard(roll, ctx));
  host.append(setupCard(ctx));
}

/**
 * A checkbox for one yes/no of the roll's draft (`ctx.ui.roll[key]`): ticking it draws the tab
 * again, since the form changes with it. The id is also its focus key, so it keeps the focus.
 */
function draftToggle(ctx, key, label, id) {
  const toggle = checkbox(label, { id, data: { focusKey: id } });
  toggle.box.checked = ctx.ui.roll[key];
  toggle.box.addEventListener("change", () => {
    ctx.ui.roll[key] = toggle.box.checked;
    ctx.render();
  });
  return toggle;
}

/** "Dice rolled by hand": type the faces in instead of rolling here (starts as the game's preference). */
function handToggle(ctx) {
  const { node } = draftToggle(ctx, "byHand", "Dice rolled by hand", "sc-roll-by-hand");
  return el("div", { class: "mz-row sc-hand-toggle" }, node);
}

// ---- setup -------------------------------------------------------------------------------------

function setupCard(ctx) {
  const draft = ctx.ui.roll;
  const t = ctx.table;
  if (!draft.facets) draft.facets = { ...t.facets };
  const oddsHost = el("div", { id: "sc-roll-odds", class: "sc-odds", "aria-live": "polite" });
  const refresh = () => showOdds(oddsHost, ctx);

  const contested = draftToggle(ctx, "contested", "Contested: a resistor rolls against the actor", "sc-roll-contested");
  draft.more = draft.more ?? [];
  // More resistors (the actor's MIB is set against the best of theirs).
  const addResistor =
    draft.contested &&
    draft.more.length + 1 < MAX_RESISTORS &&
    button(
      "Add a resistor",
      () => {
        draft.more.push(newSide());
        ctx.render();
      },
      { id: "sc-roll-add-resistor", data: { focusKey: "sc-roll-add-resistor" } },
    );

  const facet = (name, label) => {
    const input = numberInput({ id: `sc-roll-${name}`, min: 0, max: 100, value: draft.facets[name], class: "sc-small" });
    input.addEventListener("input", () => {
      draft.facets[name] = input.value;
      refresh();
    });
    return field(label, input);
  };

  // Who takes a result, and on which resource: one for the actor's result, one for the
  // resistor's (a negative contested result), each kept in two of the draft's fields.
  const resultTarget = (id, whoKey, resourceKey) => {
    const who = select([["", "Nothing"], ...t.characters.map((c) => [c.id, c.name])], { id, data: { focusKey: id } });
    who.value = draft[whoKey];
    const resourceOf = select(RESOURCES, { id: `${id}-resource` });
    resourceOf.value = draft[resourceKey];
    resourceOf.disabled = draft[whoKey] === "";
    who.addEventListener("change", () => {
      draft[whoKey] = who.value;
      resourceOf.disabled = draft[whoKey] === "";
      refresh();
    });
    resourceOf.addEventListener("change", () => {
      draft[resourceKey] = resourceOf.value;
      refresh();
    });
    return [who, resourceOf];
  };
  const [target, resource] = resultTarget("sc-roll-target", "target", "resource");

  const charted = t.ue_chart.length > 0;
  const useChart = charted && !draft.ownFacets;
  const own = draftToggle(ctx, "ownFacets", "Type this roll's facets instead of the UE chart", "sc-roll-own-facets");
  const magnitude = numberInput({ id: "sc-roll-magnitude", value: draft.magnitude, class: "sc-small" });
  magnitude.addEventListener("input", () => {
    draft.magnitude = magnitude.value;
    refresh();
  });

  const [against, againstResource] = resultTarget("sc-roll-resistor-target", "resistorTarget", "resistorResource");

  const node = card(
    "sc-roll-setup",
    t.roll ? "The next roll" : "A Made-It-By roll",
    quickBar(ctx),
    el("p", { class: "muted hint" }, "MIB = rating + modifiers − 2d10. Every choice is below; the odds follow every change."),
    form(
      { id: "sc-roll-form" },
      [
        el(
          "div",
          { class: "sc-roll-grid" },
          el(
            "div",
            { class: "sc-roll-setup-fields" },
            el("div", { class: "mz-row" }, contested.node),
            el(
              "div",
              { class: "sc-sides" },
              sideFields("actor", "Actor", ctx, refresh),
              ...(draft.contested
                ? draftResistors(draft).map((key, i) =>
                    sideFields(key, draft.more.length > 0 ? `Resistor ${i + 1}` : "Resistor", ctx, refresh),
                  )
                : []),
            ),
            draft.contested &&
              el(
                "div",
                { class: "mz-row" },
                addResistor,
                draft.more.length > 0 &&
                  el("p", { class: "muted hint", id: "sc-roll-best-hint" }, "The actor's MIB is set against the best of the resistors'."),
              ),
            el(
              "fieldset",
              { class: "sc-fieldset" },
              el("legend", {}, "The action's facets and its result"),
              charted && el("div", { class: "mz-row" }, own.node),
              el(
                "div",
                { class: "sc-grid" },
                useChart && field("Magnitude", magnitude, "the UE chart's index for the Factor"),
                !useChart && facet("factor", "Factor"),
                !useChart && facet("points", "Points"),
                !useChart && facet("bonus", "Bonus"),
                field("Result comes off", target),
                field("Resource", resource),
                draft.contested && field("A negative RMIB comes off", against),
                draft.contested && field("Its resource", againstResource),
              ),
              el(
                "p",
                { class: "mz-hint muted hint" },
                useChart
                  ? "The UE chart gives the Factor at the Magnitude, the Points and Bonus at the final MIB. A result comes off when the roll concludes, during mechanical play too."
                  : "A result takes MIB × Factor off the resource when the roll concludes, during mechanical play too.",
              ),
            ),
            el(
              "button",
              { type: "submit", id: "sc-roll-start", class: draft.byHand ? "primary" : "", data: { focusKey: "sc-roll-start" } },
              "Start the roll",
            ),
            !draft.byHand && el("p", { class: "muted hint" }, "Start the roll: step by step, each die in its own tap."),
          ),
          oddsHost,
        ),
      ],
      (b) => {
        const request = requestOf(ctx, true);
        if (!request) return;
        remember(ctx.ui.roll);
        ctx.move("The roll did not start.", () => api.scattershotRoll(ctx.gameId, { move: "start", request }), b);
      },
    ),
  );
  refresh();
  return node;
}

/**
 * The set-up's head: the odds in one line (from the core, as the panel below) and Roll, which
 * rolls in one tap as far as the rules leave something to decide. With dice rolled by hand,
 * "Start the roll" below is the way.
 */
function quickBar(ctx) {
  return el(
    "div",
    { class: "quick-bar", id: "sc-quick-bar" },
    el("p", { class: "quick-odds", id: "sc-odds-summary", "aria-live": "polite" }, "Odds: …"),
    !ctx.ui.roll.byHand && quickButton(ctx, "Roll", "sc-roll-quick"),
  );
}

/** A button that rolls the draft in one move (Roll, Roll again). */
function quickButton(ctx, words, id) {
  return button(
    words,
    (b) => {
      const request = requestOf(ctx, true);
      if (!request) return;
      remember(ctx.ui.roll);
      step(ctx, "The roll was not rolled.", { move: "quick", request }, b);
    },
    { id, class: "primary quick-roll", data: { focusKey: id } },
  );
}

/** "Succeeds 58.0% · Telling Blow 12.0% · Catastrophic 3.0%". */
function summaryWords(preview) {
  const o = preview.odds;
  const what = preview.resistors.length > 0 ? "Actor succeeds" : "Succeeds";
  return `${what} ${percent(o.success)} · Telling Blow ${percent(o.telling_blow)} · Catastrophic ${percent(o.catastrophic)}`;
}

/** One side's fields: who, which rating, advantages that apply, the situation's modifier. */
function sideFields(party, legend, ctx, refresh) {
  const side = draftSide(ctx.ui.roll, party);
  const resisting = party !== "actor";
  const t = ctx.table;
  const nobody = party === "actor" ? "Someone else (no sheet)" : "Someone elsewhere";
  const who = select([["", nobody], ...t.characters.map((c) => [c.id, c.name])], {
    id: `sc-roll-${party}`,
    data: { focusKey: `sc-roll-${party}` },
  });
  who.value = side.character;
  who.addEventListener("change", () => {
    side.character = who.value;
    side.rating = "";
    side.qualities = [];
    ctx.render();
  });
  const sheet = side.character ? ctx.ui.sheets[side.character] : null;
  // Its own row: the names ("Someone else (no sheet)") are longer than a rating's box.
  const whoField = field(party === "actor" ? "Who acts" : "Who resists", who);
  whoField.classList.add("sc-wide");
  const parts = [whoField];
  if (sheet) {
    const ratings = ratingsOf(sheet);
    if (!ratings.some((r) => r.key === side.rating)) side.rating = ratings[0]?.key ?? "";
    const rating = select(
      ratings.map((r) => [r.key, `${r.name} (${r.value})`]),
      { id: `sc-roll-${party}-rating`, data: { focusKey: `sc-roll-${party}-rating` } },
    );
    rating.value = side.rating;
    // A listed skill not bought, at its default (audit D-SC5): its Opportunity restriction
    // is shown before the roll.
    const note = el("p", { class: "sc-default-note sc-wide", id: `sc-roll-${party}-default-note`, role: "status" });
    const showNote = () => {
      const chosen = ratings.find((r) => r.key === side.rating);
      note.hidden = !chosen?.restriction;
      note.textContent = chosen?.restriction ? `By default, from ${chosen.from}. Opportunity restriction: ${chosen.restriction}` : "";
    };
    showNote();
    rating.addEventListener("change", () => {
      side.rating = rating.value;
      showNote();
      refresh();
    });
    // Its own row: a skill's name, or one rolled by default, is longer than a number's box.
    const ratingField = field("Rating", rating);
    ratingField.classList.add("sc-wide");
    parts.push(ratingField, note);
    const qualities = sheet.sheet.qualities;
    if (qualities.length > 0) {
      parts.push(
        el(
          "fieldset",
          { class: "sc-fieldset sc-qualities" },
          el("legend", {}, "Advantages and disadvantages that apply"),
          ...qualities.map((q, i) => {
            const words = `${q.name} (${signed(q.modifier)}${q.situation ? `, ${q.situation}` : ""})`;
            const { box, node } = checkbox(words, { id: `sc-roll-${party}-quality-${i}` });
            box.checked = side.qualities.includes(i);
            box.addEventListener("change", () => {
              side.qualities = box.checked ? [...side.qualities, i] : side.qualities.filter((x) => x !== i);
              refresh();
            });
            return node;
          }),
        ),
      );
    }
  } else {
    const description = el("input", { type: "text", id: `sc-roll-${party}-description`, maxlength: 200 });
    description.value = side.description;
    description.addEventListener("input", () => {
      side.description = description.value;
    });
    const rolled = resisting && side.known === "rolled";
    if (resisting) {
      // A resistor on another device: their rating (both 2d10 rolled here), or the MIB they
      // rolled themselves (only the actor's dice are unknown).
      const known = select(
        [
          ["rating", "Their rating (rolled here)"],
          ["rolled", "The MIB they rolled"],
        ],
        { id: `sc-roll-${party}-known`, data: { focusKey: `sc-roll-${party}-known` } },
      );
      known.value = side.known;
      known.addEventListener("change", () => {
        side.known = known.value;
        ctx.render();
      });
      parts.push(field("What you know", known));
    }
    if (rolled) {
      const mib = numberInput({ id: `sc-roll-${party}-rolled`, value: side.rolled, class: "sc-small" });
      mib.addEventListener("input", () => {
        side.rolled = mib.value;
        refresh();
      });
      parts.push(field("Their MIB", mib, "as they rolled it, modifiers and all"), field("Who (optional)", description));
      return sideFieldset(party, legend, parts, ctx);
    }
    const value = numberInput({ id: `sc-roll-${party}-value`, value: side.value, class: "sc-small" });
    value.addEventListener("input", () => {
      side.value = value.value;
      refresh();
    });
    parts.push(field("Rating", value), field("Who or what (optional)", description));
  }
  const modifier = numberInput({ id: `sc-roll-${party}-modifier`, value: side.modifier, class: "sc-small" });
  modifier.addEventListener("input", () => {
    side.modifier = modifier.value;
    refresh();
  });
  parts.push(field("Situation modifier", modifier, "+ easier, − harder"));
  const dodge = checkbox("Last-Ditch Dodge (−2)", { id: `sc-roll-${party}-dodge`, data: { focusKey: `sc-roll-${party}-dodge` } });
  dodge.box.checked = Boolean(side.dodge);
  dodge.box.addEventListener("change", () => {
    side.dodge = dodge.box.checked;
    refresh();
  });
  parts.push(dodge.node);
  return sideFieldset(party, legend, parts, ctx);
}

function sideFieldset(party, legend, parts, ctx) {
  // A resistor after the first may be taken out of the contest again.
  const draft = ctx.ui.roll;
  const removable = party !== "actor" && party !== "resistor";
  const remove =
    removable &&
    button(
      `Remove ${legend.toLowerCase()}`,
      () => {
        draft.more.splice(partyIndex(party) - 1, 1);
        ctx.render();
      },
      { id: `sc-roll-${party}-remove`, class: "danger", data: { focusKey: `sc-roll-${party}-remove` } },
    );
  return el(
    "fieldset",
    { class: "sc-fieldset sc-side", id: `sc-roll-${party}-side` },
    el("legend", {}, legend),
    remove && el("div", { class: "mz-row" }, remove),
    el("div", { class: "sc-grid" }, ...parts.filter((p) => !p.classList.contains("sc-qualities"))),
    ...parts.filter((p) => p.classList.contains("sc-qualities")),
  );
}

/** The request the draft makes, or null (with the bad box marked when `mark`). */
function requestOf(ctx, mark) {
  const draft = ctx.ui.roll;
  const side = (party) => {
    const s = draftSide(draft, party);
    const out = { qualities: s.qualities, modifier: 0, description: s.description.trim() };
    if (party !== "actor" && !s.character && s.known === "rolled") {
      const rolled = byNumber(`sc-roll-${party}-rolled`, s.rolled, mark);
      if (rolled === null) return null;
      return { rolled, qualities: [], modifier: 0, description: out.description };
    }
    const modifier = byNumber(`sc-roll-${party}-modifier`, s.modifier, mark);
    if (modifier === null) return null;
    out.modifier = modifier;
    if (s.dodge) out.last_ditch_dodge = true;
    if (s.character) {
      const sheet = ctx.ui.sheets[s.character];
      const rating = sheet && ratingsOf(sheet).find((r) => r.key === s.rating);
      if (!rating) return null;
      out.character = s.character;
      out.rating = rating.rating;
      out.description = "";
    } else {
      const value = byNumber(`sc-roll-${party}-value`, s.value, mark);
      if (value === null) return null;
      out.value = value;
      out.qualities = [];
    }
    return out;
  };
  const actor = side("actor");
  if (!actor) return null;
  const request = { actor };
  if (draft.contested) {
    request.resistors = [];
    for (const key of draftResistors(draft)) {
      const resistor = side(key);
      if (!resistor) return null;
      request.resistors.push(resistor);
    }
  }
  if (ctx.table.ue_chart.length > 0 && !draft.ownFacets) {
    if (String(draft.magnitude).trim() !== "") {
      const m = byNumber("sc-roll-magnitude", draft.magnitude, mark);
      if (m === null) return null;
      request.magnitude = m;
    }
  } else {
    const facets = {};
    for (const name of ["factor", "points", "bonus"]) {
      const n = byNumber(`sc-roll-${name}`, draft.facets[name], mark);
      if (n === null) return null;
      facets[name] = n;
    }
    request.facets = facets;
  }
  if (draft.target) request.target = { character: draft.target, resource: draft.resource };
  if (draft.contested && draft.resistorTarget) {
    request.resistor_target = { character: draft.resistorTarget, resource: draft.resistorResource };
  }
  return request;
}

/** The whole number in `text`, or null (marking and focusing the box `id` when `mark`). */
function byNumber(id, text, mark) {
  const ok = /^\s*-?\d+\s*$/.test(String(text));
  const box = document.getElementById(id);
  if (box) box.setAttribute("aria-invalid", ok ? "false" : "true");
  if (!ok) {
    if (mark && box) box.focus();
    return null;
  }
  return Number(text);
}

/** Asks the core for the exact odds of the draft and shows them in `host`. */
let oddsSerial = 0;
async function showOdds(host, ctx) {
  const request = requestOf(ctx, false);
  const serial = ++oddsSerial;
  const summary = () => document.getElementById("sc-odds-summary");
  if (!request) {
    host.replaceChildren(el("p", { class: "muted", id: "sc-odds-waiting" }, "Give every side a rating and whole-number modifiers to see the odds."));
    if (summary()) summary().textContent = "Odds: give every side a rating and whole-number modifiers.";
    return;
  }
  let preview = null;
  let problem = null;
  try {
    preview = await api.scattershotRollPreview(ctx.gameId, request);
  } catch (e) {
    problem = e && e.message ? e.message : String(e);
  }
  if (serial !== oddsSerial || !host.isConnected) return;
  if (problem) {
    host.replaceChildren(el("p", { class: "sc-problem", id: "sc-odds-problem", role: "alert" }, problem));
    if (summary()) summary().textContent = "Odds: see the problem below.";
    return;
  }
  host.replaceChildren(...oddsView(preview).filter(Boolean)); // no "null" for a part left out (D3)
  if (summary()) summary().textContent = summaryWords(preview);
}

function breakdown(side) {
  if (side.rolled !== null && side.rolled !== undefined) {
    return `${side.name || "Someone elsewhere"}: rolled elsewhere, MIB ${side.rolled} (typed in)`;
  }
  const parts = [side.defaulted ? `${side.defaulted.skill} by default ${side.rating} (${side.defaulted.restriction})` : `rating ${side.rating}`];
  if (side.situation) parts.push(`situation ${signed(side.situation)}`);
  if (side.residual) parts.push(`advantages and disadvantages ${signed(side.residual)}`);
  if (side.temporary) parts.push(`residual modifiers ${signed(side.temporary)}`);
  if (side.dodge) parts.push(`Last-Ditch Dodge ${signed(side.dodge)}`);
  if (side.advantages) parts.push(`combat advantages held against ${side.name || "it"} ${signed(side.advantages)}`);
  if (side.reduced) parts.push(`reduced resources ${signed(side.reduced)}`);
  return `${side.name || "Someone"}: ${parts.join(", ")} → ${side.rating + side.modifier} − 2d10`;
}

/** The odds: three chances with bars, how they are counted, and the MIB distribution. */
function oddsView(preview) {
  const o = preview.odds;
  const line = (id, label, p, ways, cls) =>
    el(
      "div",
      { class: `sc-odds-line ${cls}` },
      el("span", { class: "sc-odds-label" }, label),
      oddsBar(p, cls),
      el("strong", { id }, percent(p)),
      el("span", { class: "muted sc-odds-ways" }, `${ways} of ${o.outcomes}`),
    );
  const cj = preview.critical_juncture;
  return [
    el("h4", {}, "Odds before the roll"),
    el("p", { class: "sc-breakdown", id: "sc-odds-actor" }, breakdown(preview.actor)),
    ...preview.resistors.map((r, i) => el("p", { class: "sc-breakdown", id: `sc-odds-${resistorKey(i)}` }, breakdown(r))),
    line("sc-odds-success", preview.resistors.length > 0 ? "Actor succeeds (RMIB ≥ 0)" : "Success (MIB ≥ 0)", o.success, o.ways[0], "sc-success"),
    line("sc-odds-telling", `Telling Blow (≥ ${cj})`, o.telling_blow, o.ways[1], "sc-telling"),
    line("sc-odds-catastrophic", `Catastrophic Failure (< −${cj})`, o.catastrophic, o.ways[2], "sc-catastrophic"),
    preview.resistors.length > 0 &&
      el("p", { class: "muted hint" }, "In a contest the Critical Juncture counts only when one side's own MIB reaches it."),
    preview.resistors.length > 1 &&
      el("p", { class: "muted hint", id: "sc-odds-best" }, "Against the best of the resistors' MIBs, every die of every side counted."),
    distribution(o.mib, cj),
  ];
}

/** The MIB distribution as columns, with every value in a table for screen readers. */
function distribution(mib, cj) {
  const top = Math.max(...mib.map(([, p]) => p));
  const bars = mib.map(([m, p]) => {
    const bar = el("span", {
      class: `sc-dist-bar${m >= cj ? " sc-telling" : m < -cj ? " sc-catastrophic" : m >= 0 ? " sc-success" : ""}`,
      title: `MIB ${m}: ${percent(p)}`,
    });
    bar.style.height = `${top > 0 ? Math.max(2, (p / top) * 100) : 0}%`;
    return bar;
  });
  const low = mib[0]?.[0];
  const high = mib[mib.length - 1]?.[0];
  return el(
    "figure",
    { class: "sc-dist", id: "sc-odds-distribution" },
    el("div", { class: "sc-dist-bars", "aria-hidden": "true" }, ...bars),
    el(
      "figcaption",
      { class: "muted" },
      `Every MIB from ${low} to ${high}; green succeeds, dark green is a Telling Blow, red a Catastrophic Failure.`,
    ),
    el(
      "details",
      { class: "sc-dist-table" },
      el("summary", {}, "Every MIB and its chance"),
      el(
        "table",
        {},
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "MIB"), el("th", { scope: "col" }, "Chance"))),
        el("tbody", {}, ...mib.map(([m, p]) => el("tr", {}, el("td", {}, String(m)), el("td", {}, percent(p))))),
      ),
    ),
  );
}

// ---- the roll on the table ---------------------------------------------------------------------

function step(ctx, title, stepMove, b, dice = { kind: "rolled" }) {
  return ctx.move(title, () => api.scattershotRoll(ctx.gameId, stepMove, dice), b);
}

function liveRoll(r, ctx) {
  const roll = r.roll;
  const decision = roll.phase === "decision";
  const parties = partiesOf(roll);
  const contest = resistorsOf(roll).length > 0;
  const number = r.mib ?? r.basic;
  const rolled = number !== null && number !== undefined;
  // The Decision Phase cannot end while an experience die waits for its sign or a party's
  // 2d10 (rolled here, or typed in from elsewhere for the resistor) are still to come.
  const undecidable =
    r.waiting_sign !== null ||
    roll.actor.dice === null ||
    resistorsOf(roll).some((p) => p.dice === null && p.action.rolled === undefined);
  return card(
    "sc-roll-live",
    contest ? "A contested roll on the table" : "A roll on the table",
    el(
      "p",
      { id: "sc-roll-phase", class: "sc-phase" },
      decision
        ? `Decision Phase: ${rolled ? "the 2d10 are rolled" : "roll the 2d10"}; anyone may add experience dice, each added or subtracted as its roller chooses.`
        : "Application Phase: buy the number up to 0 with complications, or spend it on benefits; then conclude.",
    ),
    el("div", { class: "sc-parties" }, ...parties.map(([p, word]) => partyCard(r, p, word, ctx))),
    el(
      "p",
      { class: "sc-number" },
      !contest ? "MIB: " : parties.length > 2 ? "RMIB (actor − the best resistor): " : "RMIB (actor − resistor): ",
      el("strong", { id: "sc-roll-number" }, !rolled ? "not rolled yet" : number < 0 ? `−${-number}` : String(number)),
      roll.automatic_benefits > 0 &&
        el(
          "span",
          { class: "muted", id: "sc-roll-automatic" },
          ` (${roll.automatic_benefits} point(s) above the Critical Juncture went to the actor's benefits)`,
        ),
    ),
    decision ? experienceForm(r, ctx) : null,
    decision && r.waiting_sign === null ? bidsHint(r, ctx) : null,
    el(
      "div",
      { class: "mz-row sc-roll-actions" },
      decision
        ? button("End the Decision Phase", (b) => step(ctx, "The Decision Phase did not end.", { move: "decide" }, b), {
            id: "sc-roll-decide",
            class: "primary",
            disabled: undecidable,
          })
        : button("Conclude the roll", (b) => step(ctx, "The roll was not concluded.", { move: "conclude" }, b), {
            id: "sc-roll-conclude",
            class: "primary",
          }),
      decision &&
        button("Conclude as it stands", (b) => step(ctx, "The roll was not concluded.", { move: "settle" }, b), {
          id: "sc-roll-settle",
          title: "Ends the Decision Phase and concludes: no more bids, no complications, no benefits",
          disabled: undecidable,
        }),
      button("Abandon the roll", (b) => step(ctx, "The roll was not abandoned.", { move: "abandon" }, b), {
        id: "sc-roll-abandon",
        class: "danger",
      }),
    ),
  );
}

/** One party: its rating, its 2d10, its experience dice, its number and what it may adjust. */
function partyCard(r, party, word, ctx) {
  const roll = r.roll;
  const p = partOf(roll, party);
  const shown = shownOf(r, party);
  const name = shown.name || p.action.description || "Someone";
  const { basic, room } = shown;
  const elsewhere = p.action.rolled !== undefined && p.action.rolled !== null;
  const children = [
    el("h4", {}, `${word}: ${name}`),
    elsewhere
      ? el("p", { id: `sc-rolled-${party}` }, `Rolled elsewhere: MIB ${p.action.rolled}, typed in`)
      : el("p", {}, `Rating ${p.action.rating}, modifiers ${signed(p.action.modifier)}`),
  ];
  if (elsewhere) {
    // No 2d10 here: the number was typed in.
  } else if (p.dice) {
    children.push(
      el("p", { id: `sc-dice-${party}-faces` }, `2d10: ${p.dice[0]} and ${p.dice[1]}`),
    );
  } else if (roll.phase === "decision") {
    children.push(diceForm(party, ctx));
  }
  if (p.experience.length > 0) {
    children.push(
      el(
        "ul",
        { class: "sc-xp-list", id: `sc-xp-${party}`, "aria-label": `Experience dice for the ${party}` },
        ...p.experience.map((d) =>
          el(
            "li",
            { class: `sc-xp ${d.sign ?? "waiting"}` },
            `${cap(ctx.nameOf(d.contributor))}: d${d.sides} showing ${d.face}, `,
            el("strong", {}, d.sign === "add" ? `+${d.face}` : d.sign === "subtract" ? `−${d.face}` : "add or subtract?"),
          ),
        ),
      ),
    );
  }
  const waiting = r.waiting_sign && r.waiting_sign[0] === party ? r.waiting_sign[1] : null;
  if (waiting) children.push(signChoice(waiting, ctx), bidsHint(r, ctx));
  if (basic !== null && basic !== undefined) {
    // How the core's number is made up, term by term.
    const terms = elsewhere ? [`${p.action.rolled}`] : [`${p.action.rating + p.action.modifier}`, `− ${p.dice[0] + p.dice[1]}`];
    for (const d of p.experience.filter((x) => x.sign)) terms.push(d.sign === "add" ? `+ ${d.face}` : `− ${d.face}`);
    children.push(
      el("p", {}, "Own MIB: ", el("span", { class: "muted" }, `${terms.join(" ")} = `), el("strong", { id: `sc-basic-${party}` }, String(basic))),
    );
    if (shown.counts && resistorsOf(roll).length > 1) {
      children.push(el("p", { class: "sc-counts", id: `sc-counts-${party}` }, "The best of the resistors': it counts against the actor."));
    }
  }
  if (p.complications > 0) children.push(el("p", { id: `sc-comp-${party}-taken` }, `${plural(p.complications, "complication")} taken`));
  if (p.benefits > 0) children.push(el("p", { id: `sc-benefit-${party}-taken` }, `${plural(p.benefits, "point")} spent on benefits`));
  if (room) children.push(...adjustForms(party, room, ctx));
  return el("section", { class: "sc-party", id: `sc-party-${party}`, "aria-label": `${word}: ${name}` }, ...children);
}

/** The 2d10: a button to roll them here, or two boxes for dice rolled by hand. */
function diceForm(party, ctx) {
  if (!ctx.ui.roll.byHand) {
    return button("Roll 2d10", (b) => step(ctx, "The dice were not rolled.", { move: "dice", party }, b), {
      id: `sc-dice-${party}`,
      class: "primary",
      data: { focusKey: `sc-dice-${party}` },
    });
  }
  const dice = handDice(
    [
      { sides: 10, label: "First die" },
      { sides: 10, label: "Second die" },
    ],
    `sc-dice-${party}`,
    "The 2d10 as rolled",
  );
  return form({ class: "mz-form sc-hand" }, [dice.node, el("button", { type: "submit", id: `sc-dice-${party}-enter` }, "Enter the 2d10")], (b) => {
    const values = dice.read();
    if (values) step(ctx, "The dice were not entered.", { move: "dice", party }, b, { kind: "entered", values });
  });
}

/** The experience die just rolled: its roller adds or subtracts it. */
function signChoice(die, ctx) {
  return el(
    "div",
    { class: "sc-sign", role: "group", "aria-label": `${ctx.nameOf(die.contributor)}'s ${die.face}: add or subtract` },
    el("p", {}, `${cap(ctx.nameOf(die.contributor))} rolled ${die.face}. Add it or subtract it?`),
    el(
      "div",
      { class: "mz-row" },
      button(`Add +${die.face}`, (b) => step(ctx, "The die was not added.", { move: "sign", sign: "add" }, b), {
        id: "sc-sign-add",
        class: "primary",
      }),
      button(`Subtract −${die.face}`, (b) => step(ctx, "The die was not subtracted.", { move: "sign", sign: "subtract" }, b), {
        id: "sc-sign-subtract",
      }),
    ),
  );
}

/** The name a party goes by on the roll: its character's, its description, or "the actor". */
function partyName(r, party) {
  const p = partOf(r.roll, party);
  const fallback = party === "actor" ? "the actor" : resistorsOf(r.roll).length > 1 ? `resistor ${partyIndex(party) + 1}` : "the resistor";
  return shownOf(r, party).name || p?.action.description || fallback;
}

/** "58.0% success, 12.0% Telling Blow, 3.0% Catastrophic Failure". */
function chancesWords(c) {
  return `${percent(c.success.p)} success, ${percent(c.telling_blow.p)} Telling Blow, ${percent(c.catastrophic.p)} Catastrophic Failure`;
}

/** " — best for Ada", " — best for Ada and for Bo", "". */
function bestWords(bid, r) {
  const sides = [];
  if (bid.best_for_actor) sides.push(partyName(r, "actor"));
  if (bid.best_for_resistor) sides.push(resistorsOf(r.roll).length > 1 ? "the resistors" : partyName(r, "resistor"));
  return sides.length ? ` — best for ${sides.join(" and for ")}` : "";
}

/**
 * The bidding war's chances from the core (issue 34), behind the rules-hints switch: each
 * experience die as + and as − into each MIB, with the chances after it and the best for each
 * side marked; while a die waits for its sign, its two signs, each row a button that chooses
 * that sign (as the Add and Subtract buttons do). Nothing is offered once no die may go in.
 */
function bidsHint(r, ctx) {
  const waiting = r.waiting_sign !== null;
  const list = el("ul", { class: "sc-bids-list", id: "sc-bids-list" });
  const now = el("p", { class: "sc-bids-now", id: "sc-bids-now" });
  const node = el(
    "section",
    { id: "sc-bids", class: "hint sc-bids", "aria-label": waiting ? "The chances of each sign" : "The chances of each bid" },
    el("h4", {}, waiting ? "The chances of each sign" : "The chances of each bid"),
    resistorsOf(r.roll).length > 0 &&
      el("p", { class: "muted" }, "Chances of the RMIB: a success is the actor's; a Catastrophic Failure is the resistor's Telling Blow."),
    now,
    list,
  );
  api
    .scattershotBidding(ctx.gameId)
    .then((b) => {
      if (b.bids.length === 0) {
        node.remove();
        return;
      }
      if (b.now) now.textContent = `If nobody bids again: ${chancesWords(b.now)}.`;
      else now.remove();
      list.replaceChildren(
        ...b.bids.map((bid) => {
          const id = `sc-bid-${bid.party}-${bid.sign}`;
          const cls = bid.best_for_actor || bid.best_for_resistor ? "sc-bid best" : "sc-bid";
          const sign = bid.sign === "add" ? "+" : "−";
          const title = `${bid.chances.success.ways} · ${bid.chances.telling_blow.ways} · ${bid.chances.catastrophic.ways} of ${bid.chances.success.outcomes} equally likely outcomes`;
          if (bid.face === null) {
            const text = `Add a d${b.sides} to ${partyName(r, bid.party)}'s MIB as ${sign}: ${chancesWords(bid.chances)}${bestWords(bid, r)}`;
            return el("li", { class: cls, id, title }, text);
          }
          const verb = bid.sign === "add" ? `Add the ${bid.face}` : `Subtract the ${bid.face}`;
          const text = `${verb} (${sign}${bid.face}): ${chancesWords(bid.chances)}${bestWords(bid, r)}`;
          const choose = button(
            text,
            (btn) => step(ctx, bid.sign === "add" ? "The die was not added." : "The die was not subtracted.", { move: "sign", sign: bid.sign }, btn),
            { id, class: cls, title },
          );
          return el("li", {}, choose);
        }),
      );
    })
    .catch(() => node.remove()); // no bidding to show: the roll works as before
  return node;
}

/** Anyone adds an experience die from their own pool to either number. */
function experienceForm(r, ctx) {
  const t = ctx.table;
  const sides = r.roll.settings.experience_die;
  const roll = r.roll;
  const party = select(
    partiesOf(roll).map(([p, w]) => [p, `the ${w.toLowerCase()}'s number`]),
    { id: "sc-xp-party", data: { focusKey: "sc-xp-party" } },
  );
  // The pools are paid when the phase ends: what each has put in so far is still in its pool.
  const committed = (id) =>
    [roll.actor, ...resistorsOf(roll)].flatMap((p) => p.experience).filter((d) => d.contributor === id).length;
  // Short words, so the choice is not cut off on a phone: "Bo: 1 of 2 left".
  const holds = (id, n) => (committed(id) ? `${n - committed(id)} of ${n} left` : `${n} left`);
  // A player's one stock serves every character they play (audit D-SC4); a character with no
  // player holds its own.
  const contributor = select(
    [
      ...t.players.map((p) => [p.id, `${p.name}'s stock: ${holds(p.id, p.dice)}`]),
      ...t.characters.filter((c) => !c.player).map((c) => [c.id, `${c.name}: ${holds(c.id, c.experience_dice)}`]),
      [ctx.gameId, `Gamemaster: ${holds(ctx.gameId, t.gm_dice)}`],
    ],
    { id: "sc-xp-contributor", data: { focusKey: "sc-xp-contributor" } },
  );
  const remembered = ctx.ui.roll.xp ?? {};
  if (remembered.party) party.value = remembered.party;
  if (remembered.contributor) contributor.value = remembered.contributor;
  const keep = () => {
    ctx.ui.roll.xp = { party: party.value, contributor: contributor.value };
  };
  party.addEventListener("change", keep);
  contributor.addEventListener("change", keep);
  const face = ctx.ui.roll.byHand ? numberInput({ id: "sc-xp-face", min: 1, max: sides, class: "sc-small" }) : null;
  const waiting = r.waiting_sign !== null;
  return form(
    { id: "sc-xp-form", class: "mz-form sc-xp-form", "aria-label": "Add an experience die" },
    [
      el("h4", {}, `Experience dice (d${sides})`),
      el(
        "div",
        { class: "sc-grid" },
        field("Whose die (dice left)", contributor),
        field("Into", party),
        face && field(`The face rolled (1–${sides})`, face),
      ),
      el(
        "button",
        { type: "submit", id: "sc-xp-roll", disabled: waiting, data: { focusKey: "sc-xp-roll" } },
        face ? "Add the experience die" : "Roll an experience die",
      ),
      waiting && el("p", { class: "muted" }, "The last die's roller chooses first."),
    ],
    (b) => {
      keep();
      let dice = { kind: "rolled" };
      if (face) {
        const n = readCount(face, 1, sides);
        if (n === null) return;
        dice = { kind: "entered", values: [n] };
      }
      step(ctx, "The experience die was not added.", { move: "experience", party: party.value, contributor: contributor.value }, b, dice);
    },
  );
}

/** Complications (up to 0, within the Epic Index) and benefits (down to 0) for a party. */
function adjustForms(party, room, ctx) {
  const forms = [];
  const one = (kind, max, label, verb) => {
    const count = numberInput({ id: `sc-${kind}-${party}-count`, min: 1, max, value: max, class: "sc-small" });
    return form(
      { class: "mz-form mz-one sc-adjust", "aria-label": label },
      [
        el("label", { for: count.id }, label),
        el("div", { class: "mz-one-row" }, count, el("button", { type: "submit", id: `sc-${kind}-${party}` }, verb)),
      ],
      (b) => {
        const n = readCount(count, 1, max);
        if (n === null) return;
        const stepMove = kind === "comp" ? { move: "complications", party, count: n } : { move: "benefits", party, count: n };
        step(ctx, kind === "comp" ? "The complications were not taken." : "The benefits were not spent.", stepMove, b);
      },
    );
  };
  forms.push(el("p", {}, `Its own number: ${room.number}`));
  if (room.complications > 0) {
    forms.push(one("comp", room.complications, `Complications to take (up to ${room.complications}, +1 each)`, "Take complications"));
  }
  if (room.benefits > 0) {
    forms.push(one("benefit", room.benefits, `Points to spend on benefits (up to ${room.benefits})`, "Spend on benefits"));
  }
  return forms;
}

// ---- the result --------------------------------------------------------------------------------

function resultCard(r, ctx) {
  const o = r.roll.outcome;
  const reading = READINGS[o.reading] ?? o.reading;
  const lines = [
    el(
      "p",
      { class: `sc-result sc-${o.reading}` },
      `${resistorsOf(r.roll).length > 0 ? "RMIB" : "MIB"} `,
      el("strong", { id: "sc-roll-mib" }, String(o.mib)),
      ": ",
      el("strong", { id: "sc-roll-reading" }, reading),
    ),
  ];
  const words = [];
  if (o.actor_benefits) words.push(`the actor took ${plural(o.actor_benefits, "benefit")}`);
  if (o.actor_complications) words.push(`the actor took ${plural(o.actor_complications, "complication")}`);
  const them = resistorsOf(r.roll).length > 1 ? "the resistors" : "the resistor";
  if (o.resistor_benefits) words.push(`${them} took ${plural(o.resistor_benefits, "benefit")}`);
  if (o.resistor_complications) words.push(`${them} took ${plural(o.resistor_complications, "complication")}`);
  if (words.length) lines.push(el("p", { id: "sc-roll-adjustments" }, `${cap(words.join("; "))}.`));
  const effect = (id, result, name) =>
    el(
      "p",
      { id },
      result.amount === 0
        ? `Nothing comes off ${name}'s ${resourceWord(result.resource)}.`
        : `${name} ${r.result_waits ? "will lose" : "lost"} ${result.amount} ${resourceWord(result.resource)}${
            r.result_waits ? " at the lull, when mechanical play ends" : ""
          } (${id === "sc-roll-effect" ? "MIB" : "|RMIB|"} × Factor ${r.roll.facets.factor}).`,
    );
  if (r.result) lines.push(effect("sc-roll-effect", r.result, r.target_name));
  if (r.resistor_result) lines.push(effect("sc-roll-resistor-effect", r.resistor_result, r.resistor_target_name));
  if (o.juncture_points > 0) lines.push(junctureForm(r, ctx));
  if (r.residual_bonus) lines.push(bonusForm(r, ctx));
  lines.push(
    el(
      "div",
      { class: "mz-row sc-roll-actions" },
      !ctx.ui.roll.byHand && quickButton(ctx, "Roll again", "sc-roll-again"),
      button("Clear it from the table", (b) => step(ctx, "The roll was not cleared.", { move: "abandon" }, b), {
        id: "sc-roll-clear",
      }),
    ),
  );
  return card("sc-roll-result", "The last roll", ...lines);
}

/**
 * A Telling Blow's or Catastrophic Failure's points, split by the actor's player: to the
 * actor (benefits; complications on a Catastrophic Failure) and the rest to the subject
 * (complications; benefits on a Catastrophic Failure). Shows the split once chosen.
 */
function junctureForm(r, ctx) {
  const o = r.roll.outcome;
  const telling = o.reading === "telling_blow";
  const actor = r.actor_name || "the actor";
  const subject = r.subject_name || "the subject";
  const mine = telling ? "benefits" : "complications";
  const theirs = telling ? "complications" : "benefits";
  const points = o.juncture_points;
  if (r.roll.juncture) {
    const j = r.roll.juncture;
    return el(
      "p",
      { id: "sc-juncture-done" },
      `${telling ? "Telling Blow" : "Catastrophic Failure"}: ${plural(j.to_actor, mine.slice(0, -1))} for ${actor}, ${plural(j.to_subject, theirs.slice(0, -1))} for ${subject}.`,
    );
  }
  const input = numberInput({ id: "sc-juncture-actor", min: 0, max: points, value: telling ? 0 : points, class: "sc-small" });
  const rest = el("span", { id: "sc-juncture-rest" });
  const show = () => {
    const n = Number(input.value);
    rest.textContent = Number.isInteger(n) && n >= 0 && n <= points ? `${points - n} as ${theirs} for ${subject}` : "";
  };
  input.addEventListener("input", show);
  show();
  return form(
    { id: "sc-juncture", "aria-label": "Where the points go" },
    [
      el(
        "p",
        {},
        `${plural(points, "point")} to account for (the UE chart's Points). ${actor}'s player chooses: ${mine} for ${actor}, or ${theirs} for ${subject}.`,
      ),
      el("div", { class: "sc-inline-end" }, field(`${cap(mine)} for ${actor}`, input), rest),
      el("button", { type: "submit", id: "sc-juncture-save" }, "Account for the points"),
    ],
    (b) => {
      const toActor = readCount(input, 0, points);
      if (toActor === null) return;
      step(ctx, "The points were not accounted for.", { move: "juncture", to_actor: toActor, to_subject: points - toActor }, b);
    },
  );
}

const LASTS = [
  ["session", "Until the end of the session"],
  ["mechanical_play", "Until mechanical play ends"],
  ["until_removed", "Until removed"],
];

/** A success's Bonus kept on the actor as a residual modifier (once). */
function bonusForm(r, ctx) {
  if (!r.actor) {
    return el("p", { class: "muted" }, `A success may leave a residual modifier of ${signed(r.residual_bonus)} (the Bonus).`);
  }
  if (r.bonus_recorded) {
    return el("p", { id: "sc-roll-bonus-kept" }, `${r.actor_name} keeps the Bonus of ${signed(r.residual_bonus)} as a residual modifier.`);
  }
  const lasts = select(LASTS, { id: "sc-roll-bonus-lasts" });
  return form(
    { id: "sc-roll-keep", "aria-label": "Keep the Bonus" },
    [
      el("p", {}, `The result leaves a residual modifier of ${signed(r.residual_bonus)} (the Bonus).`),
      el(
        "div",
        { class: "sc-inline-end" },
        field("It lasts", lasts),
        el("button", { type: "submit", id: "sc-roll-keep-bonus" }, `Keep it on ${r.actor_name}`),
      ),
    ],
    (b) => step(ctx, "The Bonus was not kept.", { move: "record_bonus", lasts: lasts.value }, b),
  );
}

const cap = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);
