// The home screen's games list and the "New game" system choices.
//
//   import { renderSystemOptions, renderGames } from "./views/home.js";
//   renderSystemOptions(state.systems);
//   renderGames(state, { selectGame: (id) => … });

import { el, byId } from "./dom.js";

/** Fills the "System" select of the new-game form (values are system ids). */
export function renderSystemOptions(systems) {
  const select = byId("new-game-system");
  const previous = select.value;
  select.replaceChildren(...systems.map((s) => el("option", { value: s.id }, s.label)));
  if (systems.some((s) => s.id === previous)) select.value = previous;
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
        ),
      ),
    );
  });
  byId("game-list").replaceChildren(...rows);
}
