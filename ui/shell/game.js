// The selected game: its header (rename, export, delete), what this device is in it (player,
// table or both), the linked table (link.js), the new-character form, the characters with their own actions (sheet,
// mine or not, rename, export, delete, copy or move to a game of the same system) and the
// game's notes.
//
//   import { renderGame } from "./game.js";
//   renderGame(state, { renameCharacter: (id) => …, copyCharacter: (id, toGame) => …, … });
//
// The header buttons and the form are static in index.html; app.js wires them once.

import { el, byId } from "../kit/dom.js";
import { selectedGame, eligibleTargets } from "./state.js";
import { renderLink } from "./link.js";

/** Shows the selected game (or the "pick a game" hint when there are games but none is picked). */
export function renderGame(state, on) {
  const game = selectedGame(state);
  byId("game-none").hidden = game !== null || state.games.length === 0;
  byId("game-panel").hidden = state.loaded && state.games.length === 0;
  byId("game-detail").hidden = game === null;
  if (game === null) {
    byId("character-list").replaceChildren();
    renderLink(null);
    return;
  }
  byId("game-heading").textContent = game.name;
  byId("game-system-label").textContent = game.system_label;
  byId("game-detail").dataset.gameId = game.id;
  for (const id of ["game-world", "game-downtime", "game-roll-log"]) byId(id).hidden = game.system !== "nsu";
  for (const id of ["game-penny", "penny-character-hint"]) byId(id).hidden = game.system !== "penny_ante";
  for (const id of ["game-mezzo", "mezzo-character-hint"]) byId(id).hidden = game.system !== "mezzo";
  for (const id of ["game-scattershot", "scattershot-character-hint"]) byId(id).hidden = game.system !== "scattershot";
  const role = game.role ?? "both";
  for (const input of document.querySelectorAll("input[name='device-role']")) input.checked = input.value === role;
  byId("game-dice-by-hand").checked = Boolean(game.dice_by_hand);
  const notes = byId("game-notes");
  // A note being typed is not replaced by a re-render; another game's notes are.
  if (notes.dataset.gameId !== game.id || document.activeElement !== notes) {
    notes.value = game.notes ?? "";
    notes.dataset.gameId = game.id;
  }
  byId("characters-empty").hidden = game.characters.length > 0;
  const targets = eligibleTargets(state, game);
  byId("character-list").replaceChildren(
    ...game.characters.map((c) => characterRow(c, targets, on)),
  );
  renderLink(game);
}

function characterRow(character, targets, on) {
  const id = character.id;
  const button = (cls, label, handler, extra = {}) =>
    el(
      "button",
      { type: "button", class: cls, data: { focusKey: `${cls.split(" ")[0]}:${id}` }, on: { click: handler }, ...extra },
      label,
    );
  const nameId = `character-name-${id}`;
  const actions = el(
    "div",
    { class: "actions" },
    button("character-open primary", "Sheet", () => on.openSheet(character), { "aria-describedby": nameId }),
    character.system === "nsu" &&
      button("character-roll", "Roll", () => on.rollCharacter(character), { "aria-describedby": nameId }),
    button("character-rename", "Rename", () => on.renameCharacter(character), {
      "aria-describedby": nameId,
    }),
    button("character-export", "Export", (e) => on.exportCharacter(character, e.currentTarget), {
      "aria-describedby": nameId,
    }),
    button("character-delete danger", "Delete", () => on.deleteCharacter(character), {
      "aria-describedby": nameId,
    }),
  );
  const mineId = `character-mine-${id}`;
  const mine = el(
    "label",
    { class: "character-mine-label", for: mineId },
    el("input", {
      type: "checkbox",
      id: mineId,
      class: "character-mine",
      checked: character.mine !== false,
      data: { focusKey: `character-mine:${id}` },
      on: { change: (e) => on.setMine(character, e.currentTarget.checked) },
    }),
    " Mine",
  );
  const row = el(
    "li",
    { class: character.mine === false ? "character-row not-mine" : "character-row", data: { characterId: id } },
    el("span", { class: "character-head" }, el("span", { class: "character-name", id: nameId }, character.name), mine),
    actions,
  );
  if (targets.length > 0) row.append(transferForm(character, targets, on, nameId));
  return row;
}

/** "To game [select] Copy Move" for games of the same system. */
function transferForm(character, targets, on, nameId) {
  const selectId = `character-target-${character.id}`;
  const select = el(
    "select",
    { id: selectId, class: "character-target", data: { focusKey: `character-target:${character.id}` } },
    ...targets.map((g) => el("option", { value: g.id }, g.name)),
  );
  // "Copy" and "Move": the same button, each its own kind of transfer.
  const act = (kind, label) =>
    el(
      "button",
      {
        type: "button",
        class: `character-${kind}`,
        "aria-describedby": nameId,
        data: { focusKey: `character-${kind}:${character.id}` },
        on: { click: () => on.transferCharacter(character, select.value, kind) },
      },
      label,
    );
  return el("div", { class: "transfer" }, el("label", { for: selectId }, "To game"), select, act("copy", "Copy"), act("move", "Move"));
}
