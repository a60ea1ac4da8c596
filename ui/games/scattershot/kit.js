// Small pieces the Scattershot screens share: the rules' names in words and the ratings a
// roll may use. The layout pieces (labelled fields, cards, forms, odds bars, dice typed in by
// hand, progress on buttons) are the kit's (kit/forms.js), passed on here.
//
//   import { card, field, STATISTICS, ratingsOf } from "./kit.js";

export * from "../../kit/forms.js";

/** The six statistics, in the sheet's order: [value, word]. */
export const STATISTICS = [
  ["strength", "Strength"],
  ["agility", "Agility"],
  ["hit_points", "Hit Points"],
  ["reaction", "Reaction"],
  ["observation", "Observation"],
  ["power", "Power"],
];

/** The difficulty classes with their base ratings (RULES.md §4.2). */
export const DIFFICULTIES = [
  ["easy", "Easy", 11],
  ["intermediate", "Intermediate", 10],
  ["difficult", "Difficult", 9],
  ["exceptional", "Exceptional", 8],
  ["renowned", "Renowned", 7],
  ["incredible", "Incredible", 6],
  ["nigh_impossible", "Nigh Impossible", 5],
  ["legendary", "Legendary", 4],
];

export const ABILITY_KINDS = [
  ["superpower", "Superpower"],
  ["magic", "Magic"],
  ["spell", "Spell"],
];

export const RESOURCES = [
  ["hit_points", "Hit Points"],
  ["power", "Power"],
];

const wordOf = (list, value) => (list.find(([v]) => v === value) ?? [value, value])[1];
export const statisticWord = (value) => wordOf(STATISTICS, value);
export const difficultyWord = (value) => wordOf(DIFFICULTIES, value);
export const abilityKindWord = (value) => wordOf(ABILITY_KINDS, value);
export const resourceWord = (value) => wordOf(RESOURCES, value);

export const READINGS = {
  catastrophic_failure: "Catastrophic Failure",
  failure: "Failure",
  success: "Success",
  telling_blow: "Telling Blow",
};

/** "+3", "−2", "0". */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/**
 * Every rating a sheet view offers a roll, as {key, rating, name, value}: `rating` is what the
 * roll request sends ({kind: "statistic", statistic} | {kind: "skill", index} | …); a listed
 * skill not bought, at its default, also has `restriction` and `from` ("Agility −3").
 */
export function ratingsOf(sheetView) {
  const s = sheetView.sheet;
  return [
    ...sheetView.statistics.map((st) => ({
      key: `statistic:${st.statistic}`,
      rating: { kind: "statistic", statistic: st.statistic },
      name: st.name,
      value: st.rating,
    })),
    ...s.free_skills.map((f, index) => ({
      key: `free_skill:${index}`,
      rating: { kind: "free_skill", index },
      name: f.name,
      value: sheetView.free_skill_ratings[index],
    })),
    ...s.skills.map((k, index) => ({
      key: `skill:${index}`,
      rating: { kind: "skill", index },
      name: k.name,
      value: sheetView.skill_ratings[index],
    })),
    ...s.special_abilities.map((a, index) => ({
      key: `special_ability:${index}`,
      rating: { kind: "special_ability", index },
      name: a.name,
      value: sheetView.ability_ratings[index],
    })),
    // Listed skills not bought, at their defaults (audit D-SC5), with the restriction.
    ...(sheetView.defaults ?? []).map((d) => ({
      key: `default:${d.listing}`,
      rating: { kind: "default", listing: d.listing },
      name: `${d.name} by default`,
      value: d.rating,
      restriction: d.restriction,
      from: d.from,
    })),
  ];
}

/** "3 experience dice", "1 experience die". */
export const experienceDice = (n) => `${n} experience ${n === 1 ? "die" : "dice"}`;
