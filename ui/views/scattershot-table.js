// The Scattershot table tab (RULES.md §4.1–4.2): the game's characters at a glance (stage,
// development points spent, Hit Points and Power, experience dice, the penalty of combat
// advantages held against them) with a way to their sheets and to a roll, the Gamemaster's
// stock of experience dice, and the table settings (Epic Index, Critical Juncture, the
// experience die, dice per development point, the default Factor / Points / Bonus, the
// creation limit). Every change is one move with an Undo toast (ctx.move).
//
//   import { renderTable } from "./scattershot-table.js";
//   renderTable(host, ctx);   // ctx from scattershot-screen.js

import * as api from "../api.js";
import { el } from "./dom.js";
import { button, card, experienceDice, inlineForm, numberInput, readCount, resourceWord, signed } from "./scattershot-kit.js";
import { stepper } from "./kit.js";

/** Fills `host` with the table's cards. */
export function renderTable(host, ctx) {
  host.append(charactersCard(ctx), el("div", { class: "sc-grid sc-table-grid" }, stockCard(ctx), settingsCard(ctx)));
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

function characterRow(c, ctx) {
  const facts = [
    c.stage === "creation" ? "in creation" : "in play",
    `${c.points_spent} development ${c.points_spent === 1 ? "point" : "points"} spent`,
    experienceDice(c.experience_dice),
    c.penalty < 0 && `${signed(c.penalty)} to its rolls (combat advantages held against it)`,
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
