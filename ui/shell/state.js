// The UI's state and the pure reducer that changes it. No DOM, no API calls here, so it
// can be reasoned about (and checked with plain `node`) on its own.
//
//   import { initialState, reduce } from "./state.js";
//   let state = reduce(initialState, { type: "games-loaded", games });

/** Toasts closer together than this (ms, from `action.at`) are one series. */
export const TOAST_SERIES_MS = 4000;

/** Nothing loaded yet, nothing selected, nothing to say. */
export const initialState = Object.freeze({
  loaded: false,
  systems: [],
  games: [],
  cards: [], // every character as a home card (api.characterCards), mine first
  selectedGameId: null,
  error: null, // {title, message} or null
  // {serial, message, undo: {kind: "game"|"character", id} | null, count, long, at} or null
  toast: null,
  toastSerial: 0, // the last toast's serial: it only grows, so an old timer never hides a new toast
});

/** Returns the next state for `action`; never changes `state` itself. */
export function reduce(state, action) {
  switch (action.type) {
    case "systems-loaded":
      return { ...state, systems: action.systems };
    case "games-loaded": {
      const games = action.games;
      const keep = games.some((g) => g.id === state.selectedGameId);
      return { ...state, loaded: true, games, selectedGameId: keep ? state.selectedGameId : null };
    }
    case "cards-loaded":
      return { ...state, cards: action.cards ?? [] };
    case "select-game":
      return {
        ...state,
        selectedGameId: state.games.some((g) => g.id === action.id) ? action.id : null,
      };
    case "error":
      return { ...state, error: { title: action.title, message: action.message } };
    case "clear-error":
      return { ...state, error: null };
    case "toast": {
      const serial = (state.toastSerial ?? 0) + 1;
      const at = action.at ?? 0;
      const long = Boolean(action.long);
      // A quick series of routine changes to the same thing (one sheet, one game) shares
      // one toast: the latest message, counted.
      const previous = state.toast;
      const undo = action.undo ?? null;
      const sameTarget =
        previous && previous.undo !== null && undo !== null && previous.undo.kind === undo.kind && previous.undo.id === undo.id;
      const series = sameTarget && !previous.long && !long && at - (previous.at ?? 0) < TOAST_SERIES_MS;
      const count = series ? (previous.count ?? 1) + 1 : 1;
      return {
        ...state,
        toastSerial: serial,
        toast: { serial, message: action.message, undo, count, long, at },
      };
    }
    case "clear-toast":
      // A late timer for an older toast must not hide a newer one.
      if (!state.toast || (action.serial !== undefined && action.serial !== state.toast.serial)) {
        return state;
      }
      return { ...state, toast: null };
    default:
      throw new Error(`unknown action ${action.type}`);
  }
}

/** The selected game's view, or null. */
export function selectedGame(state) {
  return state.games.find((g) => g.id === state.selectedGameId) ?? null;
}

/** Games a character of `game` can be copied or moved to: same system, not `game` itself. */
export function eligibleTargets(state, game) {
  return state.games.filter((g) => g.system === game.system && g.id !== game.id);
}

/**
 * A file name for an export of `name`: "Ada" → "Ada.sheetkeeper.json". Characters that file
 * systems reject (and control characters) become "_", so any name gives a usable file name.
 */
export function suggestedFileName(name, fallback = "sheetkeeper") {
  let base = String(name ?? "")
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+|\.+$/g, "");
  if (base.length > 80) base = base.slice(0, 80).trim();
  if (base === "" || /^_+$/.test(base)) base = fallback;
  return `${base}.sheetkeeper.json`;
}
