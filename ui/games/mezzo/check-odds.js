// The Mezzo action check's live odds: the preview asked again after every change, each side's
// chance with its tally and the spends named, and the dice the roll asks for when typed in.

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { elementName, perkName, requestOf, shortName, sideName } from "./check-attempt.js";
import { allElements, button, diceWords, handDice, nextVoteLine, percent, plural, oddsLine, previewSoon } from "./kit.js";

// ---- the live preview -------------------------------------------------------------------------

/** The check's odds asked again after a change; an action with no element yet has none. */
export function schedulePreview(ctx) {
  const c = ctx.ui.check;
  const ask = () => (c.actions.some((a) => a.element === "") ? null : api.mezzoCheckPreview(ctx.gameId, requestOf(ctx, true)));
  previewSoon(c, () => ctx.ui.check === c, ask, () => refreshLive(ctx));
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
  const summary = byId("mzc-odds-summary");
  if (summary) summary.textContent = summaryWords(ctx);
}

/**
 * The odds in one line for the set-up's head (issue 32): "Mira 56.7% · Failure 43.3%", each
 * side's chance to take effect from the core's preview, or why there is none yet.
 */
export function summaryWords(ctx) {
  const c = ctx.ui.check;
  const pv = c.preview;
  if (c.actions.some((a) => a.element === "")) return "Odds: pick the acting element of every action.";
  if (c.previewError) return "Odds: see the problem below.";
  if (!pv) return "Odds: working them out…";
  if (pv.no_check_needed !== null) return pv.summary;
  return pv.check.sides
    .map((s, i) => (s.dropped ? null : `${shortName(ctx, s)} ${percent(pv.odds[i].probability)}`))
    .filter(Boolean)
    .join(" · ");
}

export const canRoll = (c) => c.preview !== null && c.previewError === null && c.preview.no_check_needed === null;

function tallyWords(t) {
  const parts = [`base ${t.base}`];
  if (t.laws_cast !== 0) {
    parts.push(`laws ${t.laws > 0 ? "+" : ""}${t.laws}${t.laws !== t.laws_cast ? ` (held to ±2 from ${t.laws_cast > 0 ? "+" : ""}${t.laws_cast})` : ""}`);
  }
  if (t.influence) parts.push(`influence ${t.influence}`);
  if (t.fortunes_favor) parts.push(`Fortune's Favor ${t.fortunes_favor}`);
  if (t.traits) parts.push(`traits ${t.traits > 0 ? "+" : ""}${t.traits}`);
  if (t.narration) parts.push(`narration ${t.narration}`);
  if (t.ill_fated) parts.push(`Ill Fated ${t.ill_fated}`);
  if (t.discover) parts.push(`discovered ${t.discover}`);
  if (t.perks) parts.push(`perks −${t.perks}`);
  return parts.join(", ");
}

export const traitName = (ctx, element, id) =>
  allElements(ctx.table).find((e) => e.id === element)?.traits.find((t) => t.id === id)?.name ?? "a trait";

export const signed = (n) => (n > 0 ? `+${n}` : `−${-n}`);

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

const playerName = (ctx, id) => ctx.table.players.find((p) => p.id === id)?.name ?? "A player";

/** The vote or spend `cast` of the check's request, in words ("Acrobatics", "Ann's law"). */
function castName(ctx, cast, sides) {
  const side = (i) => (sides[i] ? shortName(ctx, sides[i]) : `side ${i + 1}`);
  switch (cast.kind) {
    case "trait":
      return `${traitName(ctx, cast.element, cast.trait_id)} (${signed(cast.votes)} for ${side(cast.side)})`;
    case "law":
      return `${playerName(ctx, cast.player)}'s law for ${side(cast.side)}`;
    case "influence":
      return `${playerName(ctx, cast.player)}'s influence for ${side(cast.side)}`;
    case "fortunes_favor":
      return `Fortune's Favor for ${elementName(ctx, cast.element)}`;
    case "overcome_flaw":
      return `Overcome Flaws: ${traitName(ctx, cast.element, cast.flaw)}`;
    case "unexpected_edge":
      return `The Unexpected Edge “${cast.edge.name}”`;
    case "counted":
      return `The votes counted for ${side(cast.side)}`;
    case "narration":
      return `${playerName(ctx, cast.by)}'s Victory Narration for ${side(cast.side)}`;
    case "ill_fated":
      return `Ill Fated debt of ${elementName(ctx, cast.element)} for ${side(cast.side)}`;
    case "discover":
      return `Discovered “${cast.detail}” for ${side(cast.side)}`;
    default:
      return "A vote";
  }
}

/**
 * The preview's refusal in words for the table: the core names the refused part by its place
 * in the request ("casts[1].trait_id: …", kept for imports and the command line); here it is
 * named as the player sees it, "Acrobatics (+1 for Mira) is not counted: …".
 */
export function problemWords(ctx, message) {
  const m = /^(casts|perks)\[(\d+)\][\w.[\]]*: ([\s\S]*)$/.exec(message);
  if (!m) return message.replace(/^[a-z_]+(\[\d+\])?(\.[a-z_]+(\[\d+\])?)*: /, "");
  const request = requestOf(ctx, true);
  const i = Number(m[2]);
  const why = m[3];
  if (m[1] === "perks") {
    const perk = request.perks[i];
    return perk ? `The perk ${perkName(perk.perk)} is not bought: ${why}` : why;
  }
  const cast = request.casts[i];
  return cast ? `${castName(ctx, cast, request.setup.sides)} is not counted: ${why}` : why;
}

export function oddsContent(ctx) {
  const c = ctx.ui.check;
  const pv = c.preview;
  const parts = [];
  if (c.previewError) {
    const words = problemWords(ctx, c.previewError);
    const stale = pv ? " The odds below are greyed: they are from before it. Take it off to roll." : "";
    parts.push(el("p", { class: "mz-problem", id: "mzc-odds-problem", role: "status" }, `${words}${/[.!?]$/.test(words) ? "" : "."}${stale}`));
  }
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
      { class: `mz-odds-list${c.previewError ? " stale" : ""}`, id: "mzc-odds-list" },
      ...sides.map((s, i) => {
        const share = pv.odds[i];
        const t = pv.tallies[i];
        const dice = pv.dice[i];
        let diceText;
        if (s.dropped) diceText = "negligible: takes no part";
        else if (dice.locked_out) diceText = "every die locked out by restraints: scores 1";
        else if (dice.d6) diceText = d6Words(dice.d6);
        else diceText = dice.dice.length === 0 ? "no dice (scores 1)" : diceWords(dice.dice);
        return oddsLine({
          cls: `mz-odds-option${s.dropped ? " dropped" : ""}`,
          data: { side: String(i) },
          prefix: "mzc",
          i,
          name: sideName(ctx, s),
          share,
          votes: plural(Math.max(t.dice_votes, 0), "vote"),
          detail: [
            !s.dropped && el("span", { class: "muted" }, ` (${tallyWords(t)})`),
            " · ",
            el("span", { class: "mz-dice-words", id: `mzc-dice-${i}` }, diceText),
            s.perks.length > 0 && el("span", { class: "muted" }, ` · perks: ${s.perks.map(perkName).join(", ")}`),
            castWords(ctx, pv.check, i).length > 0 &&
              el("span", { class: "mzc-spends", id: `mzc-spends-${i}` }, ` · ${castWords(ctx, pv.check, i).join("; ")}`),
            !s.dropped && dice.restraints > 0 && el("span", { class: "muted" }, ` · ${plural(dice.restraints, "restraint")}`),
          ],
          chance: "Chance to take effect",
          dice: s.dropped ? [] : dice.dice,
          extra: nextVoteLine(pv.next_vote.find((v) => v.option === i), share, `mzc-next-vote-${i}`, "to take effect"),
        });
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

/** A D6 die in words: "d6 ×2, burst on 1–3". */
export function d6Words(die) {
  const t = die.threshold;
  return `d6 ×${die.multiplier}${t === 1 ? ", burst on a 1" : t > 1 ? `, burst on 1–${t}` : ""}`;
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

export function handContent(ctx) {
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
