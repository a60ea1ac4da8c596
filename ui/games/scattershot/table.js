// The Scattershot table tab (RULES.md §4.1–4.2): the game's characters at a glance (stage,
// development points spent, Hit Points and Power, experience dice, the penalty of combat
// advantages held against them) with a way to their sheets and to a roll, who plays each
// (audit D-SC4: experience dice are the player's one stock, shared by their characters), the
// players with their stocks and a way to add, rename and remove one, the Gamemaster's
// stock of experience dice, and the table settings (Epic Index, Critical Juncture, the
// experience die, dice per development point, the default Factor / Points / Bonus, the
// creation limit), the UE chart the group fills in (index → Factor, Points, Bonus,
// Magnitude), the game's list of free skills (free-skills.js), its skill listings with their
// defaults (skill-listings.js) and the sessions (start, end: residual modifiers lasting until then end).
// Every change is one move with an Undo toast (ctx.move).
//
//   import { renderTable } from "./table.js";
//   renderTable(host, ctx);   // ctx from screen.js

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { button, card, experienceDice, field, form, inlineForm, numberInput, readCount, resourceWord, select, signed, listOrNone } from "./kit.js";
import { stepper } from "../../kit/components.js";
import { askName } from "../../kit/rename.js";
import { freeSkillsCard } from "./free-skills.js";
import { skillListingsCard } from "./skill-listings.js";
import { today } from "../../shell/journal.js";

/** Fills `host` with the table's cards. */
export function renderTable(host, ctx) {
  host.append(
    charactersCard(ctx),
    playersCard(ctx),
    el("div", { class: "sc-grid sc-table-grid" }, sessionCard(ctx), stockCard(ctx)),
    chartCard(ctx),
    freeSkillsCard(ctx),
    skillListingsCard(ctx),
    settingsCard(ctx),
  );
}

// ---- the characters ------------------------------------------------------------------------------

function charactersCard(ctx) {
  const t = ctx.table;
  return card(
    "sc-characters",
    "Characters",
    t.characters.length === 0
      ? el(
          "p",
          { class: "muted", id: "sc-characters-empty" },
          "No characters yet. Name one on home (← Home): its sheet opens at once, on the Sheet tab.",
        )
      : el("ul", { class: "sc-characters", "aria-label": "The game's characters" }, ...t.characters.map((c) => characterRow(c, ctx))),
  );
}

/** "3 experience dice in Jo's stock" for a character with a player, else its own dice. */
export function stockWords(c, table) {
  const player = table.players.find((p) => p.id === c.player);
  return player ? `${experienceDice(c.experience_dice)} in ${player.name}'s stock` : experienceDice(c.experience_dice);
}

function characterRow(c, ctx) {
  const facts = [
    c.stage === "creation" ? "in creation" : "in play",
    `${c.points_spent} development ${c.points_spent === 1 ? "point" : "points"} spent`,
    stockWords(c, ctx.table),
    c.npc && "non-player character",
    c.penalty < 0 && `${signed(c.penalty)} to its rolls (combat advantages held against it)`,
    c.reduced_penalty < 0 && `${signed(c.reduced_penalty)} to its rolls (reduced resources)`,
    c.temporary_modifier !== 0 && `${signed(c.temporary_modifier)} residual modifiers`,
  ].filter(Boolean);
  return el(
    "li",
    { class: "sc-character", data: { characterId: c.id } },
    el("p", { class: "sc-character-name" }, el("strong", {}, c.name)),
    el(
      "p",
      { class: "sc-resources" },
      ...c.resources.map((r) =>
        el(
          "span",
          { class: `sc-resource${r.current <= 0 ? " sc-spent" : ""}` },
          `${resourceWord(r.resource)} `,
          el("strong", {}, String(r.current)),
          ` / ${r.maximum}`,
        ),
      ),
    ),
    el("p", { class: "sc-character-facts muted" }, facts.join(" · ")),
    !c.npc && playedBy(c, ctx),
    el(
      "div",
      { class: "mz-row" },
      button("Sheet", () => ctx.switchTab("sheet", { sheet: c.id }), {
        class: "sc-open-sheet",
        "aria-label": `Open ${c.name}'s sheet`,
      }),
      button("Roll", () => {
        ctx.ui.roll.actor.character = c.id;
        ctx.switchTab("roll", { focus: "#sc-roll-actor" });
      }, { class: "sc-roll-for", "aria-label": `A roll for ${c.name}` }),
    ),
  );
}

// ---- players and their stocks ----------------------------------------------------------------

/** Who plays `c`: its own player, or one of the table's players (one move, with Undo). */
function playedBy(c, ctx) {
  const players = ctx.table.players;
  if (players.length === 0) return null;
  const choice = select([["", "Its own player"], ...players.map((p) => [p.id, p.name])], {
    id: `sc-player-of-${c.id}`,
    class: "sc-player-of",
  });
  choice.value = c.player ?? "";
  choice.addEventListener("change", () => {
    const player = choice.value || null;
    ctx.move(`Who plays ${c.name} did not change.`, () =>
      api.scattershotTableEdit(ctx.gameId, { edit: "set_player", character: c.id, player }),
    );
  });
  return field(`Played by (${c.name})`, choice, null, "field sc-played-by");
}

function playersCard(ctx) {
  const t = ctx.table;
  const nameOf = (id) => t.characters.find((c) => c.id === id)?.name ?? "";
  const box = el("input", { type: "text", maxlength: 200, id: "sc-player-name", autocomplete: "off" });
  return card(
    "sc-players",
    "Players and their stocks",
    el(
      "p",
      { class: "muted hint" },
      "Experience dice are the player's: one stock for every character they play, one equal share after a session. A character nobody is named for holds its own.",
    ),
    listOrNone(
      t.players.map((p) =>
        el(
          "li",
          { class: "sc-player", data: { playerId: p.id } },
          el("span", {}, el("strong", {}, p.name), p.characters.length ? ` plays ${p.characters.map(nameOf).join(", ")}` : " plays nobody yet"),
          el("strong", { class: "sc-player-dice" }, experienceDice(p.dice)),
          stepper({
            label: `${p.name}'s experience dice`,
            value: p.dice,
            min: 0,
            max: 1_000_000,
            id: `sc-player-dice-${p.id}`,
            onChange: (dice) =>
              ctx.move(`${p.name}'s stock did not change.`, () =>
                api.scattershotTableEdit(ctx.gameId, { edit: "player_dice", player: p.id, dice }),
              ),
          }),
          playerActions(ctx, p),
        ),
      ),
      el("p", { class: "muted", id: "sc-players-none" }, "No players named yet: each character stands as its own player."),
      (items) => el("ul", { class: "sc-players", id: "sc-players-list", "aria-label": "The players and their stocks" }, ...items),
    ),
    inlineForm({
      label: "A player's name",
      ariaLabel: "Add a player",
      id: "sc-player-form",
      control: box,
      button: "Add the player",
      buttonAttrs: { id: "sc-player-add" },
      onSubmit: (b) =>
        ctx.move("The player was not added.", () => api.scattershotTableEdit(ctx.gameId, { edit: "add_player", name: box.value }), b),
    }),
  );
}

/** Rename and Remove for player `p`: each one move with its Undo. A player who still plays a
 *  character is not removed (the core says whom they play); their stock goes to the Gamemaster's. */
function playerActions(ctx, p) {
  return el(
    "div",
    { class: "actions sc-player-actions" },
    button(
      "Rename",
      async () => {
        const name = await askName({ title: `Rename ${p.name}`, current: p.name });
        if (name === null) return;
        ctx.move("The player was not renamed.", () =>
          api.scattershotTableEdit(ctx.gameId, { edit: "rename_player", player: p.id, name }),
        );
      },
      { id: `sc-player-rename-${p.id}`, "aria-label": `Rename ${p.name}` },
    ),
    button(
      "Remove",
      (b) =>
        ctx.move("The player was not removed.", () => api.scattershotTableEdit(ctx.gameId, { edit: "remove_player", player: p.id }), b),
      { id: `sc-player-remove-${p.id}`, class: "danger", "aria-label": `Remove ${p.name} from the table` },
    ),
  );
}

// ---- the Gamemaster's stock ------------------------------------------------------------------

function stockCard(ctx) {
  return card(
    "sc-gm",
    "The Gamemaster's stock",
    el(
      "p",
      { id: "sc-gm-dice-now" },
      "The Gamemaster holds ",
      el("strong", {}, experienceDice(ctx.table.gm_dice)),
      ` (each a d${ctx.table.settings.experience_die}), to add to anyone's roll.`,
    ),
    // One tap a die, as on a sheet.
    stepper({
      label: "Experience dice in the stock",
      value: ctx.table.gm_dice,
      min: 0,
      max: 1_000_000,
      id: "sc-gm-dice",
      onChange: (dice) =>
        ctx.move("The stock did not change.", () => api.scattershotTableEdit(ctx.gameId, { edit: "gm_dice", dice })),
    }),
  );
}

// ---- sessions --------------------------------------------------------------------------------

function sessionCard(ctx) {
  const t = ctx.table;
  const now =
    t.sessions === 0
      ? "No session played yet."
      : t.in_session
        ? `Session ${t.sessions} is being played.`
        : `Session ${t.sessions} has ended; post-session rewards go to it.`;
  // The session is the campaign journal's: started today, with every player's character there.
  const move = t.in_session ? { edit: "end_session" } : { edit: "start_session", date: today() };
  return card(
    "sc-session",
    "Sessions",
    el("p", { id: "sc-session-now" }, now),
    el(
      "p",
      { class: "muted hint" },
      "Ending a session ends every residual modifier that lasts until then; the journal keeps its date, who was there and notes.",
    ),
    button(
      t.in_session ? `End session ${t.sessions}` : `Start session ${t.sessions + 1}`,
      (b) => ctx.move("The session did not change.", () => api.scattershotTableEdit(ctx.gameId, move), b),
      { id: t.in_session ? "sc-session-end" : "sc-session-start" },
    ),
  );
}

// ---- the UE chart ------------------------------------------------------------------------------

/** The rows being edited (kept while the screen is open; reset from the table after a save). */
function chartDraft(ctx) {
  const key = JSON.stringify(ctx.table.ue_chart);
  if (!ctx.ui.chart || ctx.ui.chart.from !== key) {
    ctx.ui.chart = {
      from: key,
      rows: ctx.table.ue_chart.map((r) => ({ ...r, magnitude: r.magnitude ?? "" })),
    };
  }
  return ctx.ui.chart;
}

function chartCard(ctx) {
  const draft = chartDraft(ctx);
  const f = ctx.table.facets;
  const cell = (row, i, name, attrs = {}) => {
    const input =
      name === "magnitude"
        ? el("input", { type: "text", maxlength: 200, id: `sc-chart-${i}-${name}`, class: "sc-chart-text" })
        : numberInput({ id: `sc-chart-${i}-${name}`, class: "sc-small", ...attrs });
    input.value = String(row[name] ?? "");
    const label = CHART_COLUMNS.find(([n]) => n === name)[1];
    input.setAttribute("aria-label", `Row ${i + 1}: ${label}`);
    input.addEventListener("input", () => {
      row[name] = input.value;
    });
    // data-label: a phone hides the column headings and shows each box's own above it.
    return el("td", { data: { label } }, input);
  };
  const rows = draft.rows.map((row, i) =>
    el(
      "tr",
      {},
      cell(row, i, "index", { min: -1000, max: 1000 }),
      cell(row, i, "factor", { min: 0, max: 100 }),
      cell(row, i, "points", { min: 0, max: 100 }),
      cell(row, i, "bonus", { min: 0, max: 100 }),
      cell(row, i, "magnitude"),
      el(
        "td",
        {},
        button("Remove", () => {
          draft.rows.splice(i, 1);
          ctx.render();
        }, { class: "sc-chart-remove", "aria-label": `Remove row ${i + 1}` }),
      ),
    ),
  );
  return card(
    "sc-chart",
    "UE chart",
    el(
      "p",
      { class: "muted hint" },
      `The group's own chart: a number reads the row with the greatest index at or below it. The Factor is read at an action's Magnitude, the Points and Bonus at a roll's final MIB. Below every row the defaults apply (Factor ${f.factor}, Points ${f.points}, Bonus ${f.bonus}).`,
    ),
    form(
      // novalidate: the app checks every box itself and says which row and column is wrong (the
      // browser would block the Save without a word).
      { id: "sc-chart-form", "aria-label": "The UE chart", novalidate: true },
      [
        listOrNone(draft.rows, el("p", { class: "muted", id: "sc-chart-empty" }, "No rows yet: every roll uses the defaults."), () =>
          el(
            "div",
            { class: "sc-chart-scroll" },
            el(
              "table",
              { class: "sc-chart-table", id: "sc-chart-table" },
              el("thead", {}, el("tr", {}, ...CHART_COLUMNS.map(([, label]) => el("th", { scope: "col" }, label)), el("th", {}, el("span", { class: "visually-hidden" }, "Remove")))),
              el("tbody", {}, ...rows),
            ),
          ),
        ),
        el(
          "div",
          { class: "mz-row" },
          button("Add a row", () => {
            const last = draft.rows[draft.rows.length - 1];
            draft.rows.push({ index: last ? Number(last.index) + 1 : 1, factor: f.factor, points: f.points, bonus: f.bonus, magnitude: "" });
            ctx.render();
          }, { id: "sc-chart-add" }),
          el("button", { type: "submit", id: "sc-chart-save", class: "primary" }, "Save the chart"),
        ),
      ],
      (b) => {
        const rows = [];
        let wrong = null; // the first box that is not a number in its range, said in words
        for (let i = 0; i < draft.rows.length && wrong === null; i++) {
          const r = draft.rows[i];
          const read = (name, min, max) => {
            if (wrong !== null) return null;
            const n = readCount(document.getElementById(`sc-chart-${i}-${name}`), min, max);
            const label = CHART_COLUMNS.find(([key]) => key === name)[1];
            if (n === null) wrong = `Row ${i + 1}, ${label}: type a whole number from ${min} to ${max}.`;
            return n;
          };
          const row = { index: read("index", -1000, 1000), factor: read("factor", 0, 100), points: read("points", 0, 100), bonus: read("bonus", 0, 100) };
          rows.push({ ...row, magnitude: String(r.magnitude ?? "").trim() });
        }
        ctx.move(
          "The UE chart did not change.",
          () => (wrong === null ? api.scattershotTableEdit(ctx.gameId, { edit: "ue_chart", rows }) : Promise.reject(new Error(wrong))),
          b,
        );
      },
    ),
  );
}

const CHART_COLUMNS = [
  ["index", "Index"],
  ["factor", "Factor"],
  ["points", "Points"],
  ["bonus", "Bonus"],
  ["magnitude", "Magnitude"],
];

// ---- the table settings ------------------------------------------------------------------------

function settingsCard(ctx) {
  const t = ctx.table;
  return card(
    "sc-settings",
    "Table settings",
    el("p", { class: "muted" }, "What the table agreed for this game. Each change is undoable."),
    ...t.setting_specs.map((spec) => {
      const now = t.game.table_settings[spec.name] ?? spec.default;
      const input = numberInput({
        id: `sc-setting-${spec.name}`,
        min: spec.min,
        max: spec.max,
        value: now,
        class: "sc-small",
        data: { focusKey: `sc-setting-${spec.name}` },
      });
      return inlineForm({
        label: spec.label,
        control: input,
        button: "Save",
        buttonAttrs: { id: `sc-setting-${spec.name}-save`, "aria-label": `Save ${spec.label}` },
        hint: `${spec.min} to ${spec.max}; the rules' default is ${spec.default}.`,
        ariaLabel: spec.label,
        onSubmit: (b) => {
          const value = readCount(input, spec.min, spec.max);
          if (value === null) return;
          ctx.move(
            `${spec.label} did not change.`,
            () => api.scattershotTableEdit(ctx.gameId, { edit: "setting", name: spec.name, value }),
            b,
          );
        },
      });
    }),
  );
}
