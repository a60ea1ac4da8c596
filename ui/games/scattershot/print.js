// The printed Scattershot's Mechanix sheet: statistics with points and ratings, the resources
// (Hit Points, Power) as tracks to tick, free skills, skills and special abilities with their
// ratings, qualities, residual modifiers, experience dice, who the character is. `load` reads
// the sheet the Sheet tab shows (scattershotSheet: this device's own view).
//
//   import * as sc from "./print.js";
//   const page = sc.layout(await sc.load(gameId, characterId));   // layout(null): blank

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { page, section, columns, lines, numberBox, track, table, signed } from "../../shell/print-kit.js";

export const TITLE = "Scattershot’s Mechanix";

const STATISTICS = ["Strength", "Agility", "Hit Points", "Reaction", "Observation", "Power"];
const RESOURCE_NAME = { hit_points: "Hit Points", power: "Power" };

/** The character's sheet view (ScattershotSheetView). */
export async function load(_gameId, character) {
  return api.scattershotSheet(character);
}

/** The sheet as a page; `v` null: a blank sheet. */
export function layout(v) {
  const s = v?.sheet ?? null;
  const stats = v
    ? v.statistics.map((x) => [x.name, String(x.points), signed(x.rating)])
    : STATISTICS.map((name) => [name, "", ""]);
  const resources = section(
    "Resources",
    ...(v ? v.resources : [{ resource: "hit_points" }, { resource: "power" }]).map((r) =>
      el(
        "div",
        { class: "ps-resource" },
        el("div", { class: "ps-row" }, el("span", { class: "ps-label-strong" }, RESOURCE_NAME[r.resource] ?? r.resource), numberBox("Now", r.current ?? ""), numberBox("Most", r.maximum ?? "")),
        track(Math.min(Math.max(r.maximum ?? 20, 0), 30), Math.min(Math.max(r.current ?? 0, 0), 30), "square", RESOURCE_NAME[r.resource] ?? r.resource),
      ),
    ),
    el("div", { class: "ps-row ps-wrap" }, numberBox(v?.player ? `Experience dice (${v.player.name}'s stock)` : "Experience dice", v?.player ? v.player.dice : s ? s.experience_dice : ""), numberBox("Points spent", v ? v.points_spent : ""), numberBox("Residual modifier", v ? signed(v.temporary_modifier) : "")),
  );
  const freeSkills = (s?.free_skills ?? []).map((k, i) => [k.name, signed(v.free_skill_ratings[i] ?? 0)]);
  const skills = (s?.skills ?? []).map((k, i) => [k.name, k.difficulty ?? "", String(k.points ?? ""), signed(v.skill_ratings[i] ?? 0)]);
  const abilities = (s?.special_abilities ?? []).map((a, i) => [a.name, a.kind ?? "", a.difficulty ?? "", signed(v.ability_ratings[i] ?? 0), a.notes ?? ""]);
  const qualities = (s?.qualities ?? []).map((q) => [q.name, q.kind ?? "", q.situation ?? "", signed(q.modifier ?? 0)]);
  const modifiers = (s?.modifiers ?? []).map((m) => [m.text ?? "", signed(m.value ?? 0)]);
  return page(
    TITLE,
    [["Name", v?.character?.name ?? ""], ["Player / NPC", s ? (s.npc ? "NPC" : "Player character") : ""]],
    columns(section("Statistics", table(["Statistic", "Points", "Rating"], stats, 6)), resources),
    columns(section("Free skills", table(["Free skill", "Rating"], freeSkills, 5)), section("Skills", table(["Skill", "Difficulty", "Points", "Rating"], skills, 5))),
    section("Special abilities", table(["Ability", "Kind", "Difficulty", "Rating", "Notes"], abilities, 3)),
    columns(section("Advantages and disadvantages", table(["Quality", "Kind", "Situation", "Modifier"], qualities, 3)), section("Residual modifiers", table(["Modifier", "Value"], modifiers, 3))),
    section("Who the character is", lines(s?.description ? [s.description] : [], 3)),
  );
}
