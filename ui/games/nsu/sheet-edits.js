// Pure edits of a No Stone Unturned sheet (NsuSheet, see api.js) for the sheet screen and the
// creation wizard. No DOM and no API calls: every function takes a sheet and returns a new
// one (the argument is never changed), so it can be checked with plain `node`. The core
// validates whatever is saved; these only shape the change a tap or a typed name asks for.
//
//   import { editSheet } from "./sheet-edits.js";
//   const next = editSheet(sheet, { type: "mood-box", line: 0, box: 3 });

/** The die of each mood line, as printed on the official sheet (RULES.md §1.1). */
export const MOOD_LINE_DICE = [8, 8, 6, 6, 4, 4];
export const ASPECTS = ["body", "mind", "heart"];
export const ASPECT_NAMES = { body: "Body", mind: "Mind", heart: "Heart" };
export const HARM_SLOTS = 4;
/** Sentiment boxes in order: marking the next box moves connected → at risk → lost. */
export const SENTIMENT_STATES = ["connected", "at_risk", "lost"];
export const SENTIMENT_WORDS = { connected: "connected", at_risk: "at risk", lost: "lost" };

/** Boxes on a mood's level track: die + 1. */
export const trackLength = (die) => die + 1;
/** A mood is past its overload threshold when its level is above die / 2. */
export const overloadThreshold = (die) => die / 2;

/**
 * The level after tapping box `box` (1-based) of a track at `level`: the track fills up to
 * that box, and tapping the last marked box clears it.
 */
export const tappedLevel = (level, box) => (box === level ? box - 1 : box);

/** The level of a sentiment (0 connected, 1 at risk, 2 lost) and back. */
export const sentimentLevel = (state) => SENTIMENT_STATES.indexOf(state);

const clean = (text) => String(text ?? "").trim();

/** True when both sheets hold the same data (saving one over the other changes nothing). */
export const sameSheet = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Why `aspects` ({body, mind, heart}, each "d4"|"d6"|"d8"|"") is not a permutation of the
 * three dice, in words, or null when it is one.
 */
export function aspectsProblem(aspects) {
  const missing = ASPECTS.filter((a) => !aspects[a]);
  if (missing.length > 0) {
    return `Choose a die for ${missing.map((a) => ASPECT_NAMES[a]).join(" and ")}.`;
  }
  for (let i = 0; i < ASPECTS.length; i++) {
    for (let j = i + 1; j < ASPECTS.length; j++) {
      if (aspects[ASPECTS[i]] === aspects[ASPECTS[j]]) {
        return (
          `${ASPECT_NAMES[ASPECTS[i]]} and ${ASPECT_NAMES[ASPECTS[j]]} both use ${aspects[ASPECTS[i]]}; ` +
          "each aspect needs its own die (one d4, one d6, one d8)."
        );
      }
    }
  }
  return null;
}


/** A line named `raw` (cleaned): emptied when the name is, renamed when it holds something, else `fresh(name)`. */
function nameLine(lines, line, raw, fresh) {
  const name = clean(raw);
  if (name === "") lines[line] = null;
  else if (lines[line]) lines[line].name = name;
  else lines[line] = fresh(name);
}

/**
 * Lines of free text each marked the table's or private (audit D10): the lines of `tableText`,
 * then those of `privateText`, as [{text, private}], empty lines left out.
 */
export function markedLines(tableText, privateText) {
  const split = (text, priv) =>
    String(text ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .map((text) => ({ text, private: priv }));
  return [...split(tableText, false), ...split(privateText, true)];
}

/** The two texts of marked `lines` ([{text, private}]): {table, private}, one line each, empty lines left out. */
export function joinMarked(lines) {
  const text = (priv) =>
    lines
      .filter((l) => Boolean(l.private) === priv)
      .map((l) => clean(l.text))
      .filter((t) => t !== "")
      .join("\n");
  return { table: text(false), private: text(true) };
}

/**
 * Returns the sheet after `edit`. Edits:
 *   {type: "text", field: "pronouns"|"look"|"rumours", text}
 *   {type: "rumour-lines", lines: [{text, private}]}   the table's rumours and the private ones
 *   {type: "private-notes", text}              the notes only the character's player reads
 *   {type: "mood-name", line, name}            empty name: the line is open again
 *   {type: "mood-box", line, box}              box 1-based, see tappedLevel
 *   {type: "mood-overloaded", line, on}
 *   {type: "aspects", aspects: {body, mind, heart} | null}
 *   {type: "skill-name", line, name, modifier} modifier for a new skill (0 in play, 1 at creation)
 *   {type: "skill-modifier", line, delta}      never below 0
 *   {type: "skill-box", line, aspect}          toggles
 *   {type: "sentiment-name", line, name}
 *   {type: "sentiment-box", line, box}         box 1 at risk, 2 lost, see tappedLevel
 *   {type: "harm-add", text} | {type: "harm-remove", index} | {type: "harm-to-scar", index}
 *   {type: "scar-add", text} | {type: "scar-remove", index}
 *   {type: "detail-add", text, positive} | {type: "detail-remove", index} | {type: "detail-sign", index}
 *   {type: "recovery", delta}                  never below 0
 */
export function editSheet(sheet, edit) {
  const s = structuredClone(sheet);
  switch (edit.type) {
    case "text":
      s[edit.field] = String(edit.text ?? "");
      break;
    case "rumour-lines": {
      const joined = joinMarked(edit.lines);
      s.rumours = joined.table;
      // A sheet from the core leaves out an empty private text: left out here too.
      if (joined.private !== "" || "private_rumours" in s) s.private_rumours = joined.private;
      break;
    }
    case "private-notes":
      s.private_notes = String(edit.text ?? "");
      break;
    case "mood-name":
      nameLine(s.moods, edit.line, edit.name, (name) => ({ name, level: 0, overloaded: false }));
      break;
    case "mood-box": {
      const mood = s.moods[edit.line];
      if (mood) mood.level = tappedLevel(mood.level, edit.box);
      // Reaching 0 ends an overload (decision 2026-11-25; the core refuses one at 0).
      if (mood && mood.level === 0) mood.overloaded = false;
      break;
    }
    case "mood-overloaded": {
      const mood = s.moods[edit.line];
      if (mood) mood.overloaded = Boolean(edit.on);
      break;
    }
    case "aspects":
      s.aspects = edit.aspects ? { ...edit.aspects } : null;
      break;
    case "skill-name":
      nameLine(s.skills, edit.line, edit.name, (name) => ({ name, modifier: edit.modifier ?? 0, boxes: { body: false, mind: false, heart: false } }));
      break;
    case "skill-modifier": {
      const skill = s.skills[edit.line];
      if (skill) skill.modifier = Math.max(0, skill.modifier + edit.delta);
      break;
    }
    case "skill-box": {
      const skill = s.skills[edit.line];
      if (skill) skill.boxes[edit.aspect] = !skill.boxes[edit.aspect];
      break;
    }
    case "sentiment-name":
      nameLine(s.sentiments, edit.line, edit.name, (name) => ({ name, state: "connected" }));
      break;
    case "sentiment-box": {
      const sentiment = s.sentiments[edit.line];
      if (sentiment) {
        sentiment.state = SENTIMENT_STATES[tappedLevel(sentimentLevel(sentiment.state), edit.box)];
      }
      break;
    }
    case "harm-add":
      s.harm.push(clean(edit.text));
      break;
    case "harm-remove":
      s.harm.splice(edit.index, 1);
      break;
    case "harm-to-scar":
      s.scars.push(...s.harm.splice(edit.index, 1));
      break;
    case "scar-add":
      s.scars.push(clean(edit.text));
      break;
    case "scar-remove":
      s.scars.splice(edit.index, 1);
      break;
    case "detail-add":
      s.other_details.push({ text: clean(edit.text), positive: Boolean(edit.positive) });
      break;
    case "detail-remove":
      s.other_details.splice(edit.index, 1);
      break;
    case "detail-sign": {
      const detail = s.other_details[edit.index];
      if (detail) detail.positive = !detail.positive;
      break;
    }
    case "recovery":
      s.recovery_points = Math.max(0, s.recovery_points + edit.delta);
      break;
    default:
      throw new Error(`unknown sheet edit ${edit.type}`);
  }
  return s;
}

/** The mood line of each die size the wizard fills: the first filled one, else the first. */
export function creationMoodLines(sheet) {
  const lines = {};
  for (const die of [8, 6, 4]) {
    const ofDie = MOOD_LINE_DICE.flatMap((d, line) => (d === die ? [line] : []));
    lines[die] = ofDie.find((line) => sheet.moods[line]) ?? ofDie[0];
  }
  return lines;
}
