// The game's skill listings (RULES.md §4.2; audit D-SC5; seed: each listing gives "information
// on 'how to Default to the Skill'", and defaults "have specified Opportunity restrictions"),
// on the table tab. The seeds hold no listings, so the group writes its own: a skill's name,
// its difficulty and, optionally, how to default to it (a statistic or a fixed rating, a
// modifier, the Opportunity restriction). A sheet may buy a skill from the list; a character
// who has not bought a listed skill with a default may roll it at that default. A rule that
// takes a default away ("Can't Cook") is the table's to apply.
//
//   import { skillListingsCard, defaultWords } from "./skill-listings.js";

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { button, card, DIFFICULTIES, difficultyWord, field, form, listOrNone, numberInput, select, signed, STATISTICS, statisticWord, wholeNumber } from "./kit.js";

/** "Agility −3", "6", "6 +1": where a default's rating comes from. */
export function defaultWords(d) {
  const base = d.from.statistic ? statisticWord(d.from.statistic) : String(d.from.rating);
  return d.modifier ? `${base} ${signed(d.modifier)}` : base;
}

const listingWords = (l) =>
  l.default
    ? `${l.name} — ${difficultyWord(l.difficulty)}; by default ${defaultWords(l.default)}, ${l.default.restriction}`
    : `${l.name} — ${difficultyWord(l.difficulty)}; no default (only bought)`;

export function skillListingsCard(ctx) {
  const list = ctx.table.skill_listings ?? [];
  const save = (listings, failed, b) =>
    ctx.move(failed, () => api.scattershotTableEdit(ctx.gameId, { edit: "skill_listings", listings }), b);
  const name = el("input", { type: "text", id: "sc-listing-name", maxlength: 200, required: true });
  const difficulty = select(
    DIFFICULTIES.map(([value, word, base]) => [value, `${word} (${base})`]),
    { id: "sc-listing-difficulty" },
  );
  const from = select(
    [["", "No default (only bought)"], ...STATISTICS.map(([v, w]) => [v, `From ${w}`]), ["rating", "From a fixed rating"]],
    { id: "sc-listing-from" },
  );
  const rating = numberInput({ id: "sc-listing-rating", min: -99, max: 99, value: 0, class: "sc-small" });
  const modifier = numberInput({ id: "sc-listing-modifier", min: -99, max: 99, value: 0, class: "sc-small" });
  const restriction = el("input", { type: "text", id: "sc-listing-restriction", maxlength: 300 });
  const ratingField = field("Fixed rating", rating);
  const defaultFields = el(
    "div",
    { class: "sc-grid", id: "sc-listing-default" },
    ratingField,
    field("Modifier to the default", modifier),
    field("Opportunity restriction when defaulting", restriction, null, "field sc-wide"),
  );
  const showDefault = () => {
    defaultFields.hidden = from.value === "";
    ratingField.hidden = from.value !== "rating";
  };
  from.addEventListener("change", showDefault);
  showDefault();
  return card(
    "sc-skill-listings",
    "Skill listings",
    el("p", { class: "muted hint" }, "The game's skills: a sheet may buy one from here at its difficulty, and a character who has not bought a skill with a default may roll it at that default, under its restriction. A disadvantage that takes a default away is the table's to apply."),
    listOrNone(list, el("p", { class: "muted", id: "sc-skill-listings-empty" }, "No listings yet."), () =>
      el(
        "ul",
        { id: "sc-skill-listings-list", class: "sc-listings" },
        ...list.map((l, i) =>
          el(
            "li",
            { class: "sc-listing" },
            el("span", { id: `sc-listing-${i}` }, listingWords(l)),
            button("Remove", (b) => save(list.filter((_, j) => j !== i), `${l.name} stays listed.`, b), {
              class: "sc-listing-remove",
              id: `sc-listing-${i}-remove`,
              "aria-label": `Remove ${l.name}`,
            }),
          ),
        ),
      ),
    ),
    form({ id: "sc-listing-form", "aria-label": "A new skill listing" }, [
      el("div", { class: "sc-grid" }, field("Skill", name), field("Difficulty class (base rating)", difficulty)),
      field("How to default to it", from, null, "field sc-wide"),
      defaultFields,
      el("button", { type: "submit", id: "sc-listing-add", class: "primary" }, "Add the listing"),
    ], (b) => {
      const listing = { name: name.value, difficulty: difficulty.value };
      if (from.value !== "") {
        const n = wholeNumber(modifier);
        const r = from.value === "rating" ? wholeNumber(rating) : 0;
        listing.default = {
          from: from.value === "rating" ? { rating: r } : { statistic: from.value },
          modifier: n,
          restriction: restriction.value,
        };
      }
      ctx.move(
        "The skill listing was not added.",
        async () => {
          const d = listing.default;
          if (d && d.modifier === null) throw new Error("Modifier to the default: write a whole number (0 for none).");
          if (d && d.from.rating === null) throw new Error("Fixed rating: write a whole number.");
          return api.scattershotTableEdit(ctx.gameId, { edit: "skill_listings", listings: [...list, listing] });
        },
        b,
      );
    }),
  );
}
