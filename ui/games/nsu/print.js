// The printed No Stone Unturned sheet, laid out like the official one: aspects and moods side
// by side (die shapes: d8 a diamond, d6 a square, d4 a triangle; the overload indicator and
// the mood levels, one box per level, a bar at the overload threshold), skills with their
// three aspect boxes and modifier, harm details with the recovery points kept beside them,
// other details, sentiments with At Risk and Lost.
// `load` reads the sheet the Sheet tab shows (nsuSheet: this device's own view).
//
//   import * as nsu from "./print.js";
//   const page = nsu.layout(await nsu.load(gameId, characterId));   // layout(null): blank

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { page, section, columns, lines, shape, track, numberBox } from "../../shell/print-kit.js";
import { markedLines } from "./sheet-edits.js";

export const TITLE = "No Stone Unturned";

const DICE = ["d8", "d6", "d4"];
const SHAPE = { d8: "diamond", d6: "square", d4: "triangle" };
const SIDES = { d8: 8, d6: 6, d4: 4 };
const ASPECTS = ["body", "mind", "heart"];
const ASPECT_NAME = { body: "Body", mind: "Mind", heart: "Heart" };
/** The die of each mood line (two lines per die). */
const MOOD_DIE = ["d8", "d8", "d6", "d6", "d4", "d4"];

/** The character's sheet view (NsuSheetView). */
export async function load(_gameId, character) {
  return api.nsuSheet(character);
}

/** The sheet as a page; `view` null: a blank sheet. */
export function layout(view) {
  const s = view?.sheet ?? null;
  const aspectOf = (die) => ASPECTS.find((a) => s?.aspects?.[a] === die) ?? null;
  const aspects = section(
    "Aspects",
    el("p", { class: "ps-sub" }, "Yours when the character is at risk"),
    ...DICE.map((die) => {
      const a = aspectOf(die);
      return el("div", { class: "ps-row ps-aspect" }, el("span", { class: "ps-line" }, a ? ASPECT_NAME[a] : ""), el("span", { class: "ps-die" }, shape(SHAPE[die], false, die), el("span", { class: "ps-die-label" }, die)));
    }),
  );
  const moods = section(
    "Moods",
    el("p", { class: "ps-sub" }, "Yours when the world is at risk · mood levels: increment the mood when rolled"),
    ...MOOD_DIE.map((die, i) => {
      const m = s?.moods?.[i] ?? null;
      return el(
        "div",
        { class: "ps-row ps-mood" },
        shape(SHAPE[die], Boolean(m?.overloaded), m?.overloaded ? "overloaded" : "overload indicator"),
        el("span", { class: "ps-line" }, m?.name ?? ""),
        track(SIDES[die] + 1, m?.level ?? 0, SHAPE[die], `${die} mood level`, SIDES[die] / 2),
      );
    }),
    el("p", { class: "ps-sub ps-legend" }, "Overload indicator · the bar is the overload threshold (die / 2): past it, a mood may overload"),
  );
  // Each skill's three boxes in the order of the aspects' dice (d8, d6, d4), as on paper.
  const skills = section(
    "Skills",
    ...Array.from({ length: 6 }, (_, i) => {
      const k = s?.skills?.[i] ?? null;
      return el(
        "div",
        { class: "ps-row ps-skill" },
        el("span", { class: "ps-skill-boxes" }, ...DICE.map((die) => shape(SHAPE[die], Boolean(k && aspectOf(die) && k.boxes?.[aspectOf(die)]), `${die} aspect box`))),
        el("span", { class: "ps-line" }, k?.name ?? ""),
        el("span", { class: "ps-modifier" }, k ? `±${k.modifier}` : "±"),
      );
    }),
  );
  const harm = s?.harm ?? [];
  const others = (s?.other_details ?? []).map((d) => `${d.positive ? "+" : "−"} ${d.text}`);
  const details = el(
    "div",
    {},
    // Recovery points are kept next to the harm details (SRD Part 3); four harm: Overcome.
    section(
      "Harm details",
      lines(harm, 4, "ps-two"),
      el(
        "div",
        { class: "ps-overcome" },
        el("span", { class: "ps-label-strong" }, view?.overcome ? "Overcome now (4 harm)" : "Overcome at 4 harm"),
        numberBox("Recovery points", view ? (s?.recovery_points ?? 0) : ""),
      ),
    ),
    section("Other details", lines([...others, ...(s?.scars ?? []).map((t) => `Scar: ${t}`)], 8, "ps-two")),
  );
  const sentiments = section(
    "Sentiments",
    ...Array.from({ length: 3 }, (_, i) => {
      const t = s?.sentiments?.[i] ?? null;
      const state = t?.state ?? "connected";
      return el(
        "div",
        { class: "ps-row ps-sentiment" },
        el("span", { class: "ps-line" }, t?.name ?? ""),
        shape("circle", Boolean(t) && (state === "at_risk" || state === "lost"), "at risk"),
        shape("circle", Boolean(t) && state === "lost", "lost"),
      );
    }),
    el("p", { class: "ps-sub ps-legend ps-right" }, "At Risk · Lost"),
  );
  const fields = [
    ["Name", view?.character?.name ?? ""],
    ["Look", s?.look ?? ""],
    ["Pronouns", s?.pronouns ?? ""],
  ];
  const extra = [];
  // The view is this device's (print honours the viewer): private lines only for their player,
  // each marked so a printout passed across the table says which lines to keep to yourself.
  const rumours = markedLines(s?.rumours, s?.private_rumours).map((l) => (l.private ? `${l.text} (private)` : l.text));
  // (Notes, the table's or private, are not printed: the paper sheet has no place for them.)
  // Side by side, as the other details are, so a second rumour does not push the page over.
  const half = Math.ceil(rumours.length / 2);
  if (rumours.length === 1) extra.push(section("Rumours", lines(rumours, 1)));
  if (rumours.length > 1) extra.push(section("Rumours", columns(lines(rumours.slice(0, half)), lines(rumours.slice(half)))));
  return page(TITLE, fields, columns(aspects, moods), columns(skills, details), sentiments, ...extra);
}
