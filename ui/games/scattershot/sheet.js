// The Scattershot sheets tab (RULES.md §4.2): one character's sheet and its edits.
//
// - The head: which character (a chooser of the game's characters), its stage (creation or
//   play), the development points spent against the creation limit, what a point costs in
//   experience dice once creation is over, the experience dice pool and the combat penalty.
// - The six statistics with their points and ratings: +1 each, and a point taken back while
//   in creation.
// - Resources (Hit Points, Power) current / maximum, each set by an explicit edit; the
//   experience dice pool set the same way; the creation limit (set, lifted) and "Finish
//   creation" while in creation.
// - Free skills (a point buys five, then +1 per point), skills and special abilities (bought
//   at their difficulty's base + 1, then raised), Power expended on a special ability,
//   advantages (bought with points) and disadvantages (added), removed as the rules allow.
// - Residual modifiers (a result's Bonus, a lasting consequence): each with its value and how
//   long it lasts (until removed, the session's end, mechanical play's end), added to every
//   roll of the character; added and removed here.
// - Who the character is: its description (the "contract" post-session rewards are judged
//   by) and whether it is a non-player character (the Gamemaster's).
//
// Every change is one sheet edit through ctx.edit (a toast with Undo; a refusal, in the
// core's words, in the error area). Controls carry ids starting with `sc-sheet-`.
//
//   import { renderSheet } from "./sheet.js";
//   renderSheet(host, ctx);   // ctx from screen.js; ctx.ui.sheet is the sheet shown

import * as api from "../../shell/api.js";
import { el } from "../../kit/dom.js";
import { notesCard } from "../../kit/notes.js";
import { stepper } from "../../kit/components.js";
import { sheetEditing, modeToggle, textBlock, labelledValue } from "../../kit/sheet-mode.js";
import { rollDraftFor } from "./roll.js";
import {
  ABILITY_KINDS,
  abilityKindWord,
  button,
  card,
  DIFFICULTIES,
  difficultyWord,
  experienceDice,
  field,
  form,
  inlineForm,
  meter,
  numberInput,
  plural,
  readCount,
  resourceWord,
  select,
  signed,
  listOrNone,
} from "./kit.js";

/** Fills `host` with the chooser and the sheet of the character chosen. */
export function renderSheet(host, ctx) {
  const t = ctx.table;
  const view = ctx.ui.sheet;
  if (t.characters.length === 0 || !view) {
    host.append(
      card(
        "sc-sheet-none",
        "Sheets",
        el("p", { class: "muted" }, "No characters in this game yet. Name one on home (← Home): its sheet opens here at once."),
      ),
    );
    return;
  }
  const s = { view, ctx, id: view.character.id, sheet: view.sheet, creation: view.sheet.stage === "creation" };
  // Play or edit (kit/sheet-mode.js): in play the names roll and the resources step; the
  // purchases, forms and removals are edit mode's. A character in creation opens in edit mode.
  s.editing = sheetEditing(s.id, s.creation);
  host.append(
    headCard(s),
    el("div", { class: "sc-sheet-grid" }, resourcesCard(s), statisticsCard(s), stageCard(s)),
    el("div", { class: "sc-sheet-grid" }, freeSkillsCard(s), skillsCard(s)),
    el("div", { class: "sc-sheet-grid" }, abilitiesCard(s), qualitiesCard(s)),
    el("div", { class: "sc-sheet-grid" }, modifiersCard(s), whoCard(s)),
    notes(s),
  );
}

/** The character's notes, when the app keeps them. */
function notes(s) {
  if (!api.setCharacterNotes) return "";
  const game = s.ctx.getGame(s.ctx.gameId);
  const known = s.ctx.ui.notes?.[s.id] ?? s.view.character.notes ?? game?.characters?.find((c) => c.id === s.id)?.notes ?? "";
  return notesCard("sc-sheet", s.id, known, {
    play: !s.editing,
    run: s.ctx.run,
    toast: s.ctx.toast,
    onSaved: (text) => {
      s.ctx.ui.notes = { ...(s.ctx.ui.notes ?? {}), [s.id]: text };
    },
  }, api.setCharacterNotes);
}

/** Starts a Made-It-By roll with this character acting at the rating `key` (see ratingsOf). */
function rollWith(s, key) {
  s.ctx.ui.roll = rollDraftFor(s.id, key, s.ctx.ui.roll);
  // Roll is one tap away (issue 32); with dice rolled by hand, "Start the roll".
  s.ctx.switchTab("roll", { focus: s.ctx.ui.roll.byHand ? "#sc-roll-start" : "#sc-roll-quick" });
}

// ---- shared pieces -------------------------------------------------------------------------

/** One sheet edit of the character shown; resolves with the change or null. */
const edit = (s, title, sheetEdit, b) => s.ctx.edit(title, s.id, sheetEdit, b);

/** What `points` development points cost now, in words: points in creation, dice after. */
function pointCost(s, points = 1) {
  if (s.creation) return plural(points, "development point");
  return experienceDice(points * s.view.dice_per_point);
}

/** Focuses `selector` once the tab is drawn again (after an edit that succeeded). */
function refocus(selector) {
  const target = document.querySelector(selector);
  if (target) target.focus();
}

/** A button that keeps the focus across a re-render (its id is its focus key). */
function keyButton(label, onClick, attrs) {
  return button(label, onClick, { ...attrs, data: { focusKey: attrs.id, ...(attrs.data ?? {}) } });
}

/** A text box with an id (its focus key too). */
const textBox = (id, attrs = {}) => el("input", { type: "text", id, maxlength: 200, data: { focusKey: id }, ...attrs });

/** A number box with an id (its focus key too). */
const numberBox = (id, attrs = {}) => numberInput({ id, data: { focusKey: id }, ...attrs });

/** A required text box's trimmed value, or null (the box is marked and focused). */
function readName(input) {
  const value = input.value.trim();
  input.setAttribute("aria-invalid", value === "" ? "true" : "false");
  if (value === "") {
    input.focus();
    return null;
  }
  return value;
}

/**
 * A form adding something named, `parts` inside: its `name` box is read first, then `changeOf(n)`
 * gives the edit for that name (null when another box is wrong); once done the name box has the
 * focus again.
 */
function namedForm(s, attrs, parts, name, failed, changeOf) {
  return form(attrs, parts, async (b) => {
    const n = readName(name);
    if (n === null) return;
    const change = changeOf(n);
    if (change === null) return;
    const done = await edit(s, failed, change, b);
    if (done) refocus(`#${name.id}`);
  });
}

/**
 * Rated things of one `kind` (free skills, skills, abilities) in a list, or "None yet.": a
 * ratingRow each (keys `${prefix}-${i}`), raised, rolled and taken back as the `kind` at its
 * index; `rowOf(x, i)` gives its name, facts, rating and the rest.
 */
function ratingList(s, { kind, prefix, emptyId, listId, label }, list, rowOf) {
  const row = (x, i) => ratingRow(s, { key: `${prefix}-${i}`, raise: { purchase: kind, index: i }, rollKey: `${kind}:${i}`, back: { kind, index: i }, ...rowOf(x, i) });
  return listOrNone(list, el("p", { class: "muted", id: emptyId }, "None yet."), () => el("ul", { class: "sc-sheet-ratings", id: listId, "aria-label": label }, ...list.map(row)));
}

/**
 * One rating on the sheet: its name and facts on the left, the rating, then "+1" and (in
 * creation) the take-back button. `key` makes the ids: `sc-sheet-${key}-rating`,
 * `-raise`, `-back`.
 */
function ratingRow(s, { key, name, facts, rating, raise, back, backRemoves, extra = null, data = {}, rollKey }) {
  const nameId = `sc-sheet-${key}-name`;
  const raiseButton = s.editing && keyButton("+1", (b) => edit(s, `${name} was not raised.`, { edit: "buy", purchase: raise }, b), {
    id: `sc-sheet-${key}-raise`,
    class: "sc-sheet-raise",
    "aria-label": `+1: raise ${name} (${pointCost(s)})`,
  });
  const backButton =
    s.editing &&
    s.creation &&
    back &&
    keyButton(
      backRemoves ? "Remove" : "−1",
      (b) => edit(s, `No point of ${name} was taken back.`, { edit: "take_back", rating: plainRating(back) }, b),
      {
        id: `sc-sheet-${key}-back`,
        class: backRemoves ? "sc-sheet-back danger" : "sc-sheet-back",
        "aria-label": backRemoves ? `Remove ${name} (its point back)` : `−1: take back a point of ${name}`,
        disabled: back.disabled ?? false,
      },
    );
  return el(
    "li",
    { class: "sc-sheet-rating-row", data },
    el(
      "div",
      { class: "sc-sheet-rating-what" },
      // Tapping the name (or the rating) starts a Made-It-By roll with it.
      el(
        "button",
        {
          type: "button",
          class: "sc-sheet-roll",
          id: `sc-sheet-${key}-roll`,
          "aria-label": `${name} · roll (rating ${rating})`,
          data: { focusKey: `sc-sheet-${key}-roll` },
          on: { click: () => rollWith(s, rollKey) },
        },
        el("strong", { class: "sc-sheet-rating-name", id: nameId }, name),
        el("span", { class: "sc-sheet-roll-hint", "aria-hidden": "true" }, " · roll"),
      ),
      facts && el("span", { class: "sc-sheet-facts muted" }, facts),
      extra,
    ),
    el("span", { class: "sc-sheet-rating", id: `sc-sheet-${key}-rating`, "aria-label": `${name}: rating ${rating}` }, String(rating)),
    el("div", { class: "sc-sheet-rating-buttons" }, raiseButton, backButton),
  );
}

// ---- the head: chooser, stage, points, pool --------------------------------------------------

function headCard(s) {
  const { view, ctx } = s;
  const chooser = select(
    ctx.table.characters.map((c) => [c.id, `${c.name} (${c.stage === "creation" ? "in creation" : "in play"})`]),
    { id: "sc-sheet-character", data: { focusKey: "sc-sheet-character" } },
  );
  chooser.value = s.id;
  chooser.addEventListener("change", () => ctx.switchTab("sheet", { sheet: chooser.value, focus: "#sc-sheet-character" }));
  const limit = s.sheet.creation_limit;
  const points = s.creation
    ? limit === null || limit === undefined
      ? `${plural(view.points_spent, "development point")} spent (no creation limit)`
      : `${view.points_spent} of ${plural(limit, "development point")} spent (the creation limit)`
    : `${plural(view.points_spent, "development point")} spent`;
  return el(
    "section",
    { id: "sc-sheet-head", class: "mz-card sc-sheet-head", "aria-labelledby": "sc-sheet-heading", data: { characterId: s.id } },
    el(
      "div",
      { class: "sc-sheet-head-row" },
      el("h3", { id: "sc-sheet-heading", tabindex: "-1" }, view.character.name),
      el(
        "span",
        { class: `mz-badge sc-sheet-stage ${s.sheet.stage}`, id: "sc-sheet-stage" },
        s.creation ? "Creation" : "Play",
      ),
      !ctx.ui.character && field("Sheet shown", chooser, null, "field sc-sheet-chooser"),
      modeToggle({ id: "sc-sheet-mode", characterId: s.id, editing: s.editing, onToggle: () => ctx.render("#sc-sheet-mode") }),
    ),
    el(
      "ul",
      { class: "sc-sheet-summary", id: "sc-sheet-summary" },
      el("li", { id: "sc-sheet-points" }, points),
      el(
        "li",
        { id: "sc-sheet-cost" },
        s.creation
          ? "Points are free during creation and may be taken back."
          : `Each development point costs ${experienceDice(view.dice_per_point)}.`,
      ),
      el(
        "li",
        { id: "sc-sheet-dice" },
        view.player
          ? `${experienceDice(view.player.dice)} in ${view.player.name}'s stock (${view.player.name} plays this character)`
          : `${experienceDice(s.sheet.experience_dice)} in the pool`,
      ),
      view.penalty !== 0 &&
        el(
          "li",
          { id: "sc-sheet-penalty", class: "sc-sheet-penalty" },
          `${signed(view.penalty)} to every roll: combat advantages held against ${view.character.name}`,
        ),
      view.reduced_penalty !== 0 &&
        el(
          "li",
          { id: "sc-sheet-reduced", class: "sc-sheet-penalty" },
          `${signed(view.reduced_penalty)} to every roll: reduced resources (the table's rule; in a fight, as it began until the lull)`,
        ),
    ),
  );
}

// ---- statistics ------------------------------------------------------------------------------

function statisticsCard(s) {
  return card(
    "sc-sheet-statistics",
    "Statistics",
    el(
      "p",
      { class: "mz-hint muted" },
      s.creation
        ? "Each starts at 10; a development point is +1."
        : `Each starts at 10; +1 costs ${pointCost(s)}.`,
    ),
    el(
      "ul",
      { class: "sc-sheet-ratings", "aria-label": "Statistics" },
      ...s.view.statistics.map((st) =>
        ratingRow(s, {
          key: st.statistic,
          name: st.name,
          facts: st.points === 0 ? "base" : `+${plural(st.points, "point")}`,
          rating: st.rating,
          raise: { purchase: "statistic", statistic: st.statistic },
          back: { kind: "statistic", statistic: st.statistic, ...(st.points === 0 ? { disabled: true } : {}) },
          data: { statistic: st.statistic },
          rollKey: `statistic:${st.statistic}`,
        }),
      ),
    ),
  );
}

/** The rating a take-back sends (without the UI's own `disabled`). */
function plainRating(rating) {
  const { disabled, ...rest } = rating;
  return rest;
}

// ---- resources, the pool --------------------------------------------------------------------

function resourcesCard(s) {
  const rows = s.view.resources.map((r) => {
    const word = resourceWord(r.resource);
    const share = r.maximum > 0 ? r.current / r.maximum : 0;
    return el(
      "div",
      { class: "sc-sheet-resource", data: { resource: r.resource } },
      el(
        "p",
        { class: "sc-sheet-resource-line" },
        el("strong", {}, word),
        el(
          "span",
          { class: "sc-sheet-resource-value", id: `sc-sheet-current-${r.resource}` },
          `${r.current} / ${r.maximum}`,
        ),
      ),
      meter(share, "sc-sheet-meter", r.current < 0 ? "below" : ""),
      stepper({
        label: `${word} now`,
        value: r.current,
        min: -100000,
        max: r.maximum,
        id: `sc-sheet-resource-${r.resource}`,
        onChange: (current, b) => edit(s, `${word} was not changed.`, { edit: "set_resource", resource: r.resource, current }, b),
      }),
    );
  });
  return card(
    "sc-sheet-resources",
    "Resources and experience dice",
    ...rows,
    // A player's stock is set on the Table tab (audit D-SC4); a character with no player holds its own.
    s.view.player
      ? el("p", { id: "sc-sheet-pool-stock" }, `Experience dice: ${s.view.player.name}'s stock, on the Table tab.`)
      : stepper({
          label: "Experience dice",
          value: s.sheet.experience_dice,
          min: 0,
          id: "sc-sheet-pool",
          onChange: (dice, b) => edit(s, "The experience dice were not changed.", { edit: "set_experience_dice", dice }, b),
        }),
    el("p", { class: "mz-hint muted hint" }, "The maximum is the statistic's rating. A roll's result comes off when the roll concludes."),
  );
}

// ---- the stage: creation limit, finishing ------------------------------------------------------

function stageCard(s) {
  if (!s.creation) {
    return card(
      "sc-sheet-stage-card",
      "Development",
      el(
        "p",
        { id: "sc-sheet-play-note" },
        `Creation is over: each development point costs ${experienceDice(s.view.dice_per_point)} from the pool, and points are no longer taken back.`,
      ),
    );
  }
  const limit = s.sheet.creation_limit;
  const hasLimit = limit !== null && limit !== undefined;
  if (!s.editing) {
    return card(
      "sc-sheet-stage-card",
      "Creation",
      el("p", { id: "sc-sheet-limit-text" }, hasLimit ? `Creation limit: ${plural(limit, "development point")}.` : "No creation limit."),
      el("p", { class: "mz-hint muted" }, "✎ Edit to buy, take back, set the limit or finish creation."),
    );
  }
  const box = numberBox("sc-sheet-limit", { min: s.view.points_spent, class: "sc-small" });
  if (hasLimit) box.value = String(limit);
  return card(
    "sc-sheet-stage-card",
    "Creation",
    inlineForm({
      label: "Creation limit (development points)",
      ariaLabel: "Set the creation limit",
      id: "sc-sheet-limit-form",
      control: box,
      button: "Set the limit",
      buttonAttrs: { id: "sc-sheet-limit-set" },
      hint: `At least the ${plural(s.view.points_spent, "point")} already spent.`,
      onSubmit: (b) => {
        const n = readCount(box, 0);
        if (n !== null) edit(s, "The creation limit was not set.", { edit: "set_creation_limit", limit: n }, b);
      },
    }),
    hasLimit &&
      keyButton("Lift the limit", (b) => edit(s, "The creation limit was not lifted.", { edit: "set_creation_limit", limit: null }, b), {
        id: "sc-sheet-limit-lift",
      }),
    el(
      "p",
      { class: "mz-hint muted" },
      `Finishing creation ends free points: each one after costs ${experienceDice(s.ctx.table.settings.experience_dice_per_point)}, and none is taken back.`,
    ),
    keyButton("Finish creation", (b) => edit(s, "Creation was not finished.", { edit: "finish_creation" }, b), {
      id: "sc-sheet-finish",
      class: "primary",
    }),
  );
}

// ---- free skills -------------------------------------------------------------------------------

function freeSkillsCard(s) {
  const list = s.sheet.free_skills;
  // The game's list (the table tab): a skill not on the sheet yet is picked from it, at the
  // level it gives; with no list written down, any free skill is named at a level typed in.
  const gameList = s.ctx.table.free_skill_list ?? [];
  const taken = new Set(list.map((f) => f.name.toLowerCase()));
  const offered = gameList.filter((f) => !taken.has(f.name.toLowerCase()));
  const name =
    gameList.length > 0
      ? select(offered.map((f) => [f.name, `${f.name} (starts at ${f.starting_level})`]), { id: "sc-sheet-free-name", data: { focusKey: "sc-sheet-free-name" } })
      : textBox("sc-sheet-free-name", { required: true });
  const level = numberBox("sc-sheet-free-level", { min: -99, max: 99, class: "sc-small", required: true });
  const levelOf = () => (gameList.length > 0 ? (gameList.find((f) => f.name === name.value)?.starting_level ?? null) : readCount(level, -99, 99));
  const next = s.view.next_free_skill_points;
  const left = (5 - (list.length % 5)) % 5;
  const nextWords =
    next > 0
      ? `The next one costs ${pointCost(s)} and opens a group of five.`
      : `The next one is free (${left} more free in this group of five).`;
  return card(
    "sc-sheet-free-skills",
    "Free skills",
    ratingList(s, { kind: "free_skill", prefix: "free", emptyId: "sc-sheet-free-empty", listId: "sc-sheet-free-list", label: "Free skills" }, list, (f, i) => ({
      name: f.name,
      facts: `starts at ${f.starting_level}${f.raised > 0 ? `, +${plural(f.raised, "point")}` : ""}`,
      rating: s.view.free_skill_ratings[i],
      backRemoves: f.raised === 0,
    })),
    s.editing &&
    namedForm(
      s,
      { id: "sc-sheet-free-form", "aria-label": "A new free skill" },
      [
        el("h4", {}, gameList.length > 0 ? "A free skill from the game's list" : "A free skill (the game has no list yet)"),
        gameList.length > 0
          ? offered.length > 0
            ? field("Free skill", name)
            : el("p", { class: "muted", id: "sc-sheet-free-none-left" }, "Every free skill on the game's list is on this sheet.")
          : el("div", { class: "sc-grid" }, field("Name", name), field("Starting level", level)),
        el("p", { class: "mz-hint muted", id: "sc-sheet-free-next" }, nextWords),
        el(
          "button",
          { type: "submit", id: "sc-sheet-free-add", disabled: gameList.length > 0 && offered.length === 0, data: { focusKey: "sc-sheet-free-add" } },
          next > 0 ? `Add it (${pointCost(s, next)})` : "Add it (free)",
        ),
      ],
      name,
      "The free skill was not added.",
      (n) => {
        const start = levelOf();
        return start === null ? null : { edit: "buy", purchase: { purchase: "new_free_skill", name: n, starting_level: start } };
      },
    ),
  );
}

// ---- skills ----------------------------------------------------------------------------------

const difficultyOptions = () => DIFFICULTIES.map(([value, word, base]) => [value, `${word} (${base})`]);

function skillsCard(s) {
  const list = s.sheet.skills;
  const name = textBox("sc-sheet-skill-name", { required: true });
  const difficulty = select(difficultyOptions(), { id: "sc-sheet-skill-difficulty", data: { focusKey: "sc-sheet-skill-difficulty" } });
  // A skill from the game's listings comes with its difficulty (audit D-SC5); a name typed
  // that is not listed is bought as typed.
  const bought = new Set(list.map((k) => k.name.trim().toLowerCase()));
  const listed = (s.ctx.table.skill_listings ?? []).filter((l) => !bought.has(l.name.toLowerCase()));
  const pick =
    listed.length > 0 &&
    select([["", "— a skill not on the list —"], ...listed.map((l) => [l.name, `${l.name} (${difficultyWord(l.difficulty)})`])], {
      id: "sc-sheet-skill-listing",
      data: { focusKey: "sc-sheet-skill-listing" },
    });
  if (pick) {
    pick.addEventListener("change", () => {
      const l = listed.find((x) => x.name === pick.value);
      if (!l) return;
      name.value = l.name;
      difficulty.value = l.difficulty;
    });
  }
  return card(
    "sc-sheet-skills",
    "Skills",
    ratingList(s, { kind: "skill", prefix: "skill", emptyId: "sc-sheet-skills-empty", listId: "sc-sheet-skill-list", label: "Skills" }, list, (k, i) => ({
      name: k.name,
      facts: `${difficultyWord(k.difficulty)}, ${plural(k.points, "point")}`,
      rating: s.view.skill_ratings[i],
      backRemoves: k.points === 1,
    })),
    s.editing &&
    namedForm(
      s,
      { id: "sc-sheet-skill-form", "aria-label": "A new skill" },
      [
        el("h4", {}, "A new skill"),
        pick && field("From the game's skill listings", pick),
        el("div", { class: "sc-grid" }, field("Name", name), field("Difficulty class (base rating)", difficulty)),
        el("p", { class: "mz-hint muted" }, "It enters at its base + 1 for its first point."),
        el("button", { type: "submit", id: "sc-sheet-skill-add", data: { focusKey: "sc-sheet-skill-add" } }, `Buy the skill (${pointCost(s)})`),
      ],
      name,
      "The skill was not bought.",
      (n) => ({ edit: "buy", purchase: { purchase: "new_skill", name: n, difficulty: difficulty.value } }),
    ),
  );
}

// ---- special abilities -------------------------------------------------------------------------

function abilitiesCard(s) {
  const list = s.sheet.special_abilities;
  const power = s.view.resources.find((r) => r.resource === "power");
  const name = textBox("sc-sheet-ability-name", { required: true });
  const kind = select(ABILITY_KINDS, { id: "sc-sheet-ability-kind", data: { focusKey: "sc-sheet-ability-kind" } });
  const difficulty = select(difficultyOptions(), { id: "sc-sheet-ability-difficulty", data: { focusKey: "sc-sheet-ability-difficulty" } });
  const notes = el("textarea", { id: "sc-sheet-ability-notes", rows: 2, maxlength: 2000 });
  const parts = [
    el(
      "p",
      { class: "mz-hint muted" },
      `What an ability may affect is set by Power (${power ? `${power.current} of ${power.maximum} left` : "—"}).`,
    ),
    ratingList(s, { kind: "special_ability", prefix: "ability", emptyId: "sc-sheet-abilities-empty", listId: "sc-sheet-ability-list", label: "Special abilities" }, list, (a, i) => ({
      name: a.name,
      facts: `${abilityKindWord(a.kind)}, ${difficultyWord(a.difficulty)}, ${plural(a.points, "point")}`,
      rating: s.view.ability_ratings[i],
      backRemoves: a.points === 1,
      extra: a.notes ? el("span", { class: "sc-sheet-notes" }, a.notes) : null,
    })),
  ];
  if (s.editing && list.length > 0) parts.push(expendForm(s, list, power));
  if (s.editing) parts.push(
    namedForm(
      s,
      { id: "sc-sheet-ability-form", "aria-label": "A new special ability" },
      [
        el("h4", {}, "A new special ability"),
        el(
          "div",
          { class: "sc-grid" },
          field("Name", name),
          field("Kind", kind),
          field("Difficulty class (base rating)", difficulty),
        ),
        field("Notes: its effects", notes),
        el(
          "button",
          { type: "submit", id: "sc-sheet-ability-add", data: { focusKey: "sc-sheet-ability-add" } },
          `Buy the ability (${pointCost(s)})`,
        ),
      ],
      name,
      "The special ability was not bought.",
      (n) => ({ edit: "buy", purchase: { purchase: "new_special_ability", name: n, kind: kind.value, difficulty: difficulty.value, notes: notes.value.trim() } }),
    ),
  );
  return card("sc-sheet-abilities", "Special abilities", ...parts);
}

/** Power expended on one of the abilities. */
function expendForm(s, list, power) {
  const which = select(
    list.map((a, i) => [String(i), a.name]),
    { id: "sc-sheet-expend-ability", data: { focusKey: "sc-sheet-expend-ability" } },
  );
  if (s.ctx.ui.expendOn !== undefined && s.ctx.ui.expendOn < list.length) which.value = String(s.ctx.ui.expendOn);
  which.addEventListener("change", () => {
    s.ctx.ui.expendOn = Number(which.value);
  });
  const left = power ? power.current : 0;
  const amount = numberBox("sc-sheet-expend-amount", { min: 1, max: Math.max(1, left), value: 1, class: "sc-small" });
  return form(
    { id: "sc-sheet-expend-form", "aria-label": "Expend Power" },
    [
      el("h4", {}, "Expend Power"),
      el("div", { class: "sc-grid" }, field("On", which), field(`How much (${left} left)`, amount)),
      el("button", { type: "submit", id: "sc-sheet-expend-submit", data: { focusKey: "sc-sheet-expend-submit" } }, "Expend Power"),
    ],
    (b) => {
      const n = readCount(amount, 1);
      if (n !== null) edit(s, "No Power was expended.", { edit: "expend_power", ability: Number(which.value), amount: n }, b);
    },
  );
}

// ---- advantages and disadvantages ----------------------------------------------------------------

function qualitiesCard(s) {
  const list = s.sheet.qualities;
  const advName = textBox("sc-sheet-adv-name", { required: true });
  const advSituation = textBox("sc-sheet-adv-situation", { maxlength: 2000, placeholder: "e.g. with the hands" });
  const advModifier = numberBox("sc-sheet-adv-modifier", { min: 0, max: 99, value: 1, class: "sc-small" });
  const advPoints = numberBox("sc-sheet-adv-points", { min: 1, max: 200, value: 1, class: "sc-small" });
  const disName = textBox("sc-sheet-dis-name", { required: true });
  const disSituation = textBox("sc-sheet-dis-situation", { maxlength: 2000, placeholder: "e.g. in the dark" });
  const disModifier = numberBox("sc-sheet-dis-modifier", { min: -99, max: 0, value: -1, class: "sc-small" });
  return card(
    "sc-sheet-qualities",
    "Advantages and disadvantages",
    el("p", { class: "mz-hint muted hint" }, "A residual modifier on the rolls whose situation it names."),
    listOrNone(list, el("p", { class: "muted", id: "sc-sheet-qualities-empty" }, "None yet."), () => el("ul", { class: "sc-sheet-qualities", id: "sc-sheet-quality-list" }, ...list.map((q, i) => qualityRow(s, q, i)))),
    s.editing &&
    moreForm(
      s,
      { key: "scAdv", part: "adv", open: list.length === 0, summary: "Buy an advantage", label: "A new advantage" },
      [
        el(
          "div",
          { class: "sc-grid" },
          field("Name", advName),
          field("Situation", advSituation),
          field("Modifier (0 or more)", advModifier),
          field("Development points", advPoints),
        ),
        el("button", { type: "submit", id: "sc-sheet-adv-add", data: { focusKey: "sc-sheet-adv-add" } }, "Buy the advantage"),
      ],
      advName,
      "The advantage was not bought.",
      (n) => {
        const modifier = readCount(advModifier, 0, 99);
        if (modifier === null) return null;
        const points = readCount(advPoints, 1, 200);
        if (points === null) return null;
        return { edit: "buy", purchase: { purchase: "new_advantage", name: n, situation: advSituation.value.trim(), modifier, points } };
      },
    ),
    s.editing &&
    moreForm(
      s,
      { key: "scDis", part: "dis", open: list.length === 0, summary: "Add a disadvantage", label: "A new disadvantage" },
      [
        el(
          "div",
          { class: "sc-grid" },
          field("Name", disName),
          field("Situation", disSituation),
          field("Modifier (0 or less)", disModifier),
        ),
        el("p", { class: "mz-hint muted hint" }, "A disadvantage costs and gives back no points; it may be added at any time."),
        el("button", { type: "submit", id: "sc-sheet-dis-add", data: { focusKey: "sc-sheet-dis-add" } }, "Add the disadvantage"),
      ],
      disName,
      "The disadvantage was not added.",
      (n) => {
        const modifier = readCount(disModifier, -99, 0);
        if (modifier === null) return null;
        return { edit: "add_disadvantage", name: n, situation: disSituation.value.trim(), modifier };
      },
    ),
  );
}

/** A <details> whose open state is kept in ctx.ui.open[key] across re-renders. */
function remembered(s, key, openByDefault, attrs, ...children) {
  const details = el("details", { ...attrs, open: s.ctx.ui.open[key] ?? openByDefault }, ...children);
  details.addEventListener("toggle", () => {
    if (details.isConnected) s.ctx.ui.open[key] = details.open;
  });
  return details;
}

/**
 * A "more" disclosure (its open state kept as `key`, `part` naming its ids: `sc-sheet-${part}-details`,
 * `-summary`, `-form`) holding a namedForm; it stays open once the form is sent.
 */
function moreForm(s, { key, part, open, summary, label }, parts, name, failed, changeOf) {
  const keepOpen = (n) => {
    const change = changeOf(n);
    if (change !== null) s.ctx.ui.open[key] = true;
    return change;
  };
  return remembered(
    s,
    key,
    open,
    { class: "sc-sheet-more", id: `sc-sheet-${part}-details` },
    el("summary", { id: `sc-sheet-${part}-summary` }, summary),
    namedForm(s, { id: `sc-sheet-${part}-form`, "aria-label": label }, parts, name, failed, keepOpen),
  );
}

function qualityRow(s, q, i) {
  const nameId = `sc-sheet-quality-${i}-name`;
  const advantage = q.kind === "advantage";
  // An advantage goes (its points back) only during creation; a disadvantage at any time.
  const removable = s.editing && (!advantage || s.creation);
  return el(
    "li",
    { class: `sc-sheet-quality ${q.kind}`, data: { kind: q.kind, index: String(i) } },
    el(
      "div",
      { class: "sc-sheet-rating-what" },
      el(
        "p",
        { class: "sc-sheet-quality-head" },
        el("strong", { id: nameId }, q.name),
        " ",
        el("span", { class: `mz-badge sc-sheet-kind ${q.kind}` }, advantage ? "Advantage" : "Disadvantage"),
      ),
      el(
        "span",
        { class: "sc-sheet-facts muted" },
        [q.situation && q.situation, advantage && plural(q.points, "point")].filter(Boolean).join(" · ") || "any situation",
      ),
    ),
    el("span", { class: "sc-sheet-rating", id: `sc-sheet-quality-${i}-modifier`, "aria-label": `modifier ${signed(q.modifier)}` }, signed(q.modifier)),
    el(
      "div",
      { class: "sc-sheet-rating-buttons" },
      removable &&
        keyButton("Remove", (b) => edit(s, `${q.name} was not removed.`, { edit: "remove_quality", index: i }, b), {
          id: `sc-sheet-quality-${i}-remove`,
          class: "danger",
          "aria-label": advantage ? `Remove ${q.name} (${plural(q.points, "point")} back)` : `Remove ${q.name}`,
        }),
    ),
  );
}

// ---- residual modifiers ----------------------------------------------------------------------

const LASTS = [
  ["session", "Until the end of the session"],
  ["mechanical_play", "Until mechanical play ends"],
  ["until_removed", "Until removed"],
];
const lastsWord = (value) => (LASTS.find(([v]) => v === value) ?? [value, value])[1].toLowerCase();

function modifiersCard(s) {
  const list = s.sheet.modifiers ?? [];
  const text = textBox("sc-sheet-mod-text", { required: true, placeholder: "e.g. Bonus: the vault door" });
  const value = numberBox("sc-sheet-mod-value", { min: -99, max: 99, value: 1, class: "sc-small" });
  const lasts = select(LASTS, { id: "sc-sheet-mod-lasts", data: { focusKey: "sc-sheet-mod-lasts" } });
  return card(
    "sc-sheet-modifiers",
    "Residual modifiers",
    el(
      "p",
      { class: "mz-hint muted hint" },
      "Temporary: a result's Bonus, a lasting consequence. Each is added to every roll of the character while it lasts.",
    ),
    el(
      "p",
      { id: "sc-sheet-mod-total" },
      list.length === 0 ? "None now." : `Together ${signed(s.view.temporary_modifier)} to every roll.`,
    ),
    list.length > 0 &&
      el(
        "ul",
        { class: "sc-sheet-qualities", id: "sc-sheet-mod-list" },
        ...list.map((m, i) =>
          el(
            "li",
            { class: "sc-sheet-quality", data: { index: String(i) } },
            el(
              "div",
              { class: "sc-sheet-rating-what" },
              el("p", { class: "sc-sheet-quality-head" }, el("strong", {}, m.text)),
              el("span", { class: "sc-sheet-facts muted" }, lastsWord(m.lasts)),
            ),
            el("span", { class: "sc-sheet-rating", "aria-label": `modifier ${signed(m.value)}` }, signed(m.value)),
            el(
              "div",
              { class: "sc-sheet-rating-buttons" },
              s.editing &&
              keyButton("Remove", (b) => edit(s, `${m.text} was not removed.`, { edit: "remove_modifier", index: i }, b), {
                id: `sc-sheet-mod-${i}-remove`,
                class: "danger",
                "aria-label": `Remove ${m.text}`,
              }),
            ),
          ),
        ),
      ),
    s.editing &&
    moreForm(
      s,
      { key: "scMod", part: "mod", open: false, summary: "Add a residual modifier", label: "A new residual modifier" },
      [
        el("div", { class: "sc-grid" }, field("What", text), field("Modifier", value), field("Lasts", lasts)),
        el("button", { type: "submit", id: "sc-sheet-mod-add", data: { focusKey: "sc-sheet-mod-add" } }, "Add it"),
      ],
      text,
      "The modifier was not added.",
      (n) => {
        const v = readCount(value, -99, 99);
        if (v === null) return null;
        return { edit: "add_modifier", text: n, value: v, lasts: lasts.value };
      },
    ),
  );
}

// ---- who the character is ---------------------------------------------------------------------

function whoCard(s) {
  if (!s.editing) {
    return card(
      "sc-sheet-who",
      "Who the character is",
      el("p", { id: "sc-sheet-npc-text" }, s.sheet.npc ? "A non-player character (the Gamemaster plays it)." : "A player's character."),
      labelledValue("Description", textBlock(s.sheet.description, { id: "sc-sheet-description-text" })),
    );
  }
  const description = el("textarea", {
    id: "sc-sheet-description",
    rows: 3,
    maxlength: 2000,
    data: { focusKey: "sc-sheet-description" },
  });
  description.value = s.sheet.description ?? "";
  const npc = el("input", { type: "checkbox", id: "sc-sheet-npc", data: { focusKey: "sc-sheet-npc" } });
  npc.checked = Boolean(s.sheet.npc);
  npc.addEventListener("change", () => edit(s, "The character did not change.", { edit: "set_npc", npc: npc.checked }));
  return card(
    "sc-sheet-who",
    "Who the character is",
    el("label", { class: "mz-check", for: "sc-sheet-npc" }, npc, el("span", {}, "A non-player character (the Gamemaster plays it)")),
    form(
      { id: "sc-sheet-description-form", "aria-label": "The character's description" },
      [
        field("Description", description, "The group's expectations of the character: rewards after a session may be withheld when it is played far outside them."),
        el("button", { type: "submit", id: "sc-sheet-description-save", data: { focusKey: "sc-sheet-description-save" } }, "Save the description"),
      ],
      (b) => edit(s, "The description was not saved.", { edit: "set_description", description: description.value }, b),
    ),
  );
}
