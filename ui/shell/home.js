// The home screen: "My characters" first (one card per character, one tap to its sheet),
// then the games list and the "New game" system choices with one line about each system.
//
//   import { renderSystemOptions, renderGames, renderCards } from "./home.js";
//   renderSystemOptions(state.systems);
//   renderCards(state, { openCard: (card) => … });
//   renderGames(state, { selectGame: (id) => … });

import { el, byId } from "../kit/dom.js";
import { SYSTEM_INFO } from "./systems.js";

/** Fills the "System" select of the new-game form (values are system ids). */
export function renderSystemOptions(systems) {
  const select = byId("new-game-system");
  const previous = select.value;
  select.replaceChildren(...systems.map((s) => el("option", { value: s.id }, s.label)));
  if (systems.some((s) => s.id === previous)) select.value = previous;
  if (!select.dataset.wired) {
    select.dataset.wired = "true";
    select.addEventListener("change", () => showBlurb(select.value));
  }
  showBlurb(select.value);
}

function showBlurb(system) {
  byId("system-blurb").textContent = SYSTEM_INFO[system]?.blurb ?? "";
}

/** A system's short badge: its name in a small coloured tag. */
export function systemBadge(system, label = null) {
  const info = SYSTEM_INFO[system];
  return el("span", { class: `system-badge system-${system}`, title: label }, info ? info.badge : label ?? system);
}

/**
 * Re-renders the character cards: the ones marked mine (or every character when none is),
 * each a button that opens its sheet.
 */
export function renderCards(state, on) {
  const cards = state.cards ?? [];
  const mine = cards.filter((c) => c.mine);
  const shown = mine.length > 0 ? mine : cards;
  byId("mine-heading").textContent = mine.length > 0 || cards.length === 0 ? "My characters" : "Characters";
  const empty = byId("mine-empty");
  empty.hidden = !state.loaded || shown.length > 0;
  empty.textContent =
    state.games.length === 0
      ? "Your characters will be here, one tap from their sheets. Start with a game below."
      : "No characters yet. Open a game below and name your character: its sheet opens at once.";
  byId("mine-list").replaceChildren(...shown.map((card) => characterCard(card, on)));
}

function characterCard(card, on) {
  const stats = (card.stats ?? []).slice(0, 3);
  return el(
    "li",
    { class: "character-card-item", data: { characterId: card.id } },
    el(
      "button",
      {
        type: "button",
        // Named by all it shows (name, system, game, stats), so a voice user can say any of it.
        class: "character-card",
        data: { focusKey: `card:${card.id}` },
        on: { click: () => on.openCard(card) },
      },
      el(
        "span",
        { class: "card-top" },
        el("span", { class: "card-name" }, card.name),
        systemBadge(card.system, card.system_label),
      ),
      el("span", { class: "card-game" }, card.game_name),
      stats.length > 0 &&
        el(
          "span",
          { class: "card-stats" },
          ...stats.map((s) => el("span", { class: "card-stat" }, el("span", { class: "card-stat-label" }, s.label), " ", el("strong", {}, String(s.value)))),
        ),
    ),
  );
}

/** Re-renders the list of games; the selected one is marked with `aria-current`. */
export function renderGames(state, on) {
  byId("games-loading").hidden = state.loaded;
  byId("games-empty").hidden = !state.loaded || state.games.length > 0;
  const rows = state.games.map((game) => {
    const selected = game.id === state.selectedGameId;
    const count = game.characters.length;
    return el(
      "li",
      { class: selected ? "game-row selected" : "game-row", data: { gameId: game.id } },
      el(
        "button",
        {
          type: "button",
          class: "game-open",
          "aria-current": selected ? "true" : null,
          data: { focusKey: `game-open:${game.id}` },
          on: { click: () => on.selectGame(game.id) },
        },
        el("span", { class: "game-name" }, game.name),
        el(
          "span",
          { class: "game-meta" },
          el("span", { class: "game-system" }, game.system_label),
          el("span", { class: "game-count" }, count === 1 ? "1 character" : `${count} characters`),
          game.role && game.role !== "both" && el("span", { class: "game-role" }, game.role === "player" ? "Player device" : "Table device"),
        ),
      ),
    );
  });
  byId("game-list").replaceChildren(...rows);
}
