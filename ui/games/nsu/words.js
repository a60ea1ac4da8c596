// Plain words for a No Stone Unturned roll, shared by the roll wizard (roll.js) and the
// roll log (log.js): grants, events, dice and choices of a settled roll (RollRecord).
//
//   import { grantWords, eventWords, diceWords } from "./words.js";
//   list.append(...record.grants.map((g) => el("li", {}, grantWords(g))));
//
// `names` tells whose sheet an event is on: {roller, helper, rollerSheet, helperSheet}
// (sheets are NsuSheet objects or null; without one a line is named by its number).

export { MOOD_LINE_DICE } from "./sheet-edits.js";
export const ASPECT_WORDS = { body: "Body", mind: "Mind", heart: "Heart" };
export const AT_RISK_WORDS = { character: "Character", world: "World" };
const SENTIMENT_WORDS = { connected: "connected", at_risk: "at risk", lost: "lost" };
const MARK_REASONS = {
  risked: "it was risked and the player did not win by 2 or more",
  final_box: "a mood filled its last box",
  overload_ended_without_winning: "an overload ended without a win",
};
const SIDE_WORDS = { player: "the player", arbiters: "the Arbiters", tie: "both sides" };

export const quoted = (text) => `“${text}”`;

/** "Player adds one hard detail", "An ally adds a hard negative detail against the winner". */
export function grantWords(grant) {
  const who = { player: "Player adds", arbiters: "The Arbiters add", ally: "An ally adds" }[grant.by];
  const kind = grant.kind === "scene" ? "scene" : "hard";
  if (grant.against) return `${who} a ${kind} negative detail against the winner (${SIDE_WORDS[grant.against]})`;
  return `${who} one ${kind} detail`;
}

/** The note the results table always carries. */
export const GRANT_NOTE = "A hard detail may be a scene or soft detail instead.";

/** "The player wins by 3", "The Arbiters win by 1", "A tie". */
export function winnerWords(record) {
  if (record.winner === "tie") return "A tie (difference 0)";
  const who = record.winner === "player" ? "The player wins" : "The Arbiters win";
  return `${who} by ${record.difference}`;
}

function moodName(sheet, line) {
  const mood = sheet && sheet.moods ? sheet.moods[line] : null;
  return mood ? quoted(mood.name) : `mood line ${line + 1}`;
}

function skillName(sheet, line) {
  const skill = sheet && sheet.skills ? sheet.skills[line] : null;
  return skill ? quoted(skill.name) : `skill line ${line + 1}`;
}

function sentimentName(sheet, line) {
  const s = sheet && sheet.sentiments ? sheet.sentiments[line] : null;
  return s ? quoted(s.name) : `sentiment line ${line + 1}`;
}

/** One RollEvent in words. */
export function eventWords(event, names) {
  const helper = event.who === "helper";
  const person = helper ? names.helper || "the helper" : names.roller || "the roller";
  const sheet = helper ? names.helperSheet : names.rollerSheet;
  const whose = `${person}’s`;
  switch (event.event) {
    case "mood_line_filled":
      return `${whose} new mood ${quoted(event.name)} (${event.die}) is written on mood line ${event.line + 1}`;
    case "skill_line_filled":
      return `New skill ${quoted(event.name)} at +0`;
    case "mood_incremented":
      return `${whose} mood ${moodName(sheet, event.line)}: level ${event.before} → ${event.after} (+1)`;
    case "skill_box_marked":
      return `Skill ${skillName(names.rollerSheet, event.line)}: the ${ASPECT_WORDS[event.aspect]} box is marked`;
    case "sentiment_marked":
      return (
        `${whose} sentiment ${sentimentName(sheet, event.line)}: ` +
        `${SENTIMENT_WORDS[event.before]} → ${SENTIMENT_WORDS[event.after]} (${MARK_REASONS[event.reason]})`
      );
    case "overload_ended":
      return (
        `${whose} mood ${moodName(sheet, event.line)} is no longer overloaded` +
        (event.level_before !== event.level_after ? ` (level ${event.level_before} → ${event.level_after})` : "")
      );
    case "mood_overloaded":
      return `${whose} mood ${moodName(sheet, event.line)} is overloaded (the die showed ${event.die_value}, under level ${event.level})`;
    case "mood_final_box":
      return (
        `${whose} mood ${quoted(event.name_before)} filled its last box and evolved into ${quoted(event.name_after)} ` +
        `(named by ${SIDE_WORDS[event.renamed_by]}), level ${event.level_before} → ${event.level_after}` +
        (event.overload_ended ? "; its overload ended" : "")
      );
    default:
      return event.event;
  }
}

const list = (values) => values.join(" and ");

/** The dice of a settled roll: what was rolled, what counted, the skill and the helper. */
export function diceWords(record, helperName = null) {
  const roll = record.roll;
  const plan = roll.plan;
  const ch = record.choices;
  const aspect = ASPECT_WORDS[roll.setup.aspect];
  const aspectKept = roll.aspect_rolls[ch.aspect_kept ?? 0];
  const moodKept = roll.mood_rolls[ch.mood_kept ?? 0];
  const parts = [];
  let a = `${aspect} ${plan.aspect_die}: ${list(roll.aspect_rolls.map(String))}`;
  if (roll.aspect_rolls.length > 1) a += `, ${aspectKept} counts`;
  if (roll.setup.skill) a += `, skill ${ch.skill_sign === "minus" ? "−" : "+"}${plan.skill_modifier} → ${record.aspect_total}`;
  parts.push(a);
  let m = `mood ${plan.mood_die}: ${list(roll.mood_rolls.map(String))}`;
  if (roll.mood_rolls.length > 1) m += `, ${moodKept} counts`;
  parts.push(m);
  if (roll.help) {
    const who = helperName || "the helper";
    const faces = roll.help.second === undefined || roll.help.second === null ? [roll.help.value] : [roll.help.value, roll.help.second];
    const edge = roll.help.edge && roll.help.edge !== "none" ? ` with ${roll.help.edge}` : "";
    const counted = faces.length > 1 ? `, ${faces[ch.helper_kept ?? 0]} counted` : "";
    const where = roll.help.mood ? "" : " (typed in from their device)";
    parts.push(`${who}’s ${roll.help.die}${edge}${where}: ${faces.join(" and ")}${counted}${ch.use_helper_die ? " (used in place of the mood die)" : " (not used)"}`);
  }
  return parts.join("; ");
}

/** The choices made after the dice, in words (empty when there was nothing to choose). */
export function choiceWords(record) {
  const roll = record.roll;
  const ch = record.choices;
  const out = [];
  if (roll.aspect_rolls.length > 1) {
    const who = roll.plan.aspect_edge === "advantage" ? "the player" : "the Arbiters";
    out.push(`${who} kept aspect die ${(ch.aspect_kept ?? 0) + 1}`);
  }
  if (roll.mood_rolls.length > 1) {
    const who = roll.plan.mood_edge === "advantage" ? "the player" : "the Arbiters";
    out.push(`${who} kept mood die ${(ch.mood_kept ?? 0) + 1}`);
  }
  if (roll.setup.skill) out.push(`skill ${ch.skill_sign === "minus" ? "subtracted" : "added"}`);
  if (roll.help) out.push(ch.use_helper_die ? "the helper’s die was used" : "the helper’s die was not used");
  return out.join(", ");
}

/** A face-down card by its back and place only ("Face-down card 1 east of the settlement, D2 R3"): never its name. */
export function cardBackWords(card) {
  const levels = card.danger_level ? `, D${card.danger_level} R${card.reward_level}` : "";
  return `Face-down card ${whereWords(card.position)}${levels}`;
}

/** Where a card lies, in words for people (the grid's numbers stay out of sight). */
export function whereWords(position) {
  if (!position) return "not on the map";
  const { x, y } = position;
  if (x === 0 && y === 0) return "at the settlement";
  const parts = [];
  if (y !== 0) parts.push(`${Math.abs(y)} ${y < 0 ? "north" : "south"}`);
  if (x !== 0) parts.push(`${Math.abs(x)} ${x < 0 ? "west" : "east"}`);
  return `${parts.join(", ")} of the settlement`;
}
