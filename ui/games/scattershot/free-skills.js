// The game's list of free skills (RULES.md §4.2; seed: "The starting level of each Free Skill
// is given on that list"), on the table tab: the Gamemaster writes it one skill a line, a
// name then its starting level, and sheets take their free skills from it at that level.
// An empty list lets a sheet name any free skill (a group that has not written one down).
//
//   import { freeSkillsCard, parseFreeSkills } from "./free-skills.js";

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { card, field, form, listOrNone } from "./kit.js";

/**
 * Reads the box's lines ("Swimming 9", "First aid -1"): {skills} or {wrong} naming the first
 * line that is not a name and a whole number. Blank lines are skipped; the core checks the
 * rest (a name twice, a level out of range) and names the line by its place.
 */
export function parseFreeSkills(text) {
  const skills = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    const m = /^(.*\S)\s+([+−-]?\d+)$/.exec(line);
    if (!m) return { wrong: `Line ${i + 1}, “${line}”: write the skill's name, then its starting level (e.g. “Swimming 9”).` };
    skills.push({ name: m[1], starting_level: Number(m[2].replace("−", "-").replace("+", "")) });
  }
  return { skills };
}

const asLines = (list) => list.map((s) => `${s.name} ${s.starting_level}`).join("\n");

export function freeSkillsCard(ctx) {
  const list = ctx.table.free_skill_list;
  const box = el("textarea", { id: "sc-free-skills-text", rows: 6, maxlength: 20000 });
  box.value = ctx.ui.freeSkillsText ?? asLines(list);
  box.addEventListener("input", () => {
    ctx.ui.freeSkillsText = box.value;
  });
  return card(
    "sc-free-skills",
    "Free skills",
    el("p", { class: "muted hint" }, "The game's list: a sheet takes its free skills from it, at the starting level written here. Changing the list changes no sheet."),
    listOrNone(list, el("p", { class: "muted", id: "sc-free-skills-empty" }, "No list yet: a sheet may name any free skill and its level."), () =>
      el("ul", { id: "sc-free-skills-list" }, ...list.map((s) => el("li", {}, `${s.name} — starts at ${s.starting_level}`))),
    ),
    form({ id: "sc-free-skills-form", "aria-label": "The list of free skills" }, [
      field("One free skill a line: its name, then its starting level", box),
      el("button", { type: "submit", id: "sc-free-skills-save", class: "primary" }, "Save the list"),
    ], (b) => {
      const read = parseFreeSkills(box.value);
      ctx.move(
        "The list of free skills did not change.",
        async () => {
          if (read.wrong) throw new Error(read.wrong);
          const change = await api.scattershotTableEdit(ctx.gameId, { edit: "free_skill_list", skills: read.skills });
          ctx.ui.freeSkillsText = undefined;
          return change;
        },
        b,
      );
    }),
  );
}
