// The systems' screens as the home screen sees them: each system's screen module registers
// how to open a character's sheet and a game's screen, and says where the person is so the
// app reopens there. Also the device settings (theme, last place) the shell keeps.
//
//   import { registerSystem, rememberPlace } from "./systems.js";
//   registerSystem("mezzo", { openSheet: (characterId, gameId, tab) => …, openGame: (gameId, tab) => … });
//   rememberPlace({ screen: "game", game: gameId, tab: "plot" });      // on every screen or tab change
//   rememberPlace({ screen: "sheet", game: gameId, character: id, tab: "sheet" });
//
// The home screen calls `openSheet` when a character card is tapped and `openGame` when a
// game's screen is opened; at start-up it restores the last place through the same functions.
//
// A system's screens load the first time one of them is needed (the home screen loads none:
// start-up reads only what home shows). `registerLoader` says how to load them:
//   registerLoader("mezzo", { load: () => import("../games/mezzo/screen.js").then((m) => m.initMezzoScreens(hooks)),
//                             buttons: ["game-mezzo"] });
// A tap on one of `buttons` before the screens are loaded loads them, then taps again.

import * as api from "./api.js";
import { addStylesheet } from "../kit/stylesheets.js";

/** What the home screen says about each system: its short badge and one line for newcomers. */
export const SYSTEM_INFO = {
  nsu: {
    badge: "NSU",
    blurb: "No Stone Unturned: investigators with moods, skills and harm; rolls of d8, d6 and d4.",
  },
  penny_ante: {
    badge: "Penny",
    blurb: "Penny Ante: adventurers bet real pennies; challenges are won with poker-dice hands.",
  },
  mezzo: {
    badge: "Mezzo",
    blurb: "Mezzo: story elements with traits; conflicts and checks decided by votes and step dice.",
  },
  scattershot: {
    badge: "Scattershot",
    blurb: "Scattershot's Mechanix: statistics, skills and resources; Made-It-By rolls with experience dice.",
  },
};

/**
 * The games' stylesheets, after the kit's look of a game screen (kit/screen.css), in the
 * cascade's order (before shell/link.css, which comes last).
 * They load together: the Scattershot screens still use rules of the Mezzo sheet.
 */
const STYLESHEETS = [
  "kit/screen.css",
  "games/nsu/world.css",
  "games/nsu/sheet.css",
  "games/nsu/roll.css",
  "games/nsu/reference.css",
  "games/penny_ante/penny.css",
  "games/mezzo/mezzo.css",
  "games/mezzo/challenge.css",
  "games/scattershot/scattershot.css",
  "games/scattershot/sheet.css",
];

/** Every game's stylesheets, once, before a game's screen is drawn. */
export function systemStylesheets() {
  const before = document.querySelector('link[href="shell/link.css"]');
  return Promise.all(STYLESHEETS.map((href) => addStylesheet(href, before)));
}

const registered = new Map();
const loaders = new Map();

/**
 * Registers a system's screens: `openSheet(characterId, gameId, tab?)` opens a character's
 * sheet, `openGame(gameId, tab?)` the game's screen. Each system's module calls it once at init.
 */
export function registerSystem(systemId, { openSheet, openGame }) {
  registered.set(systemId, { openSheet, openGame });
}

/**
 * Says how to load a system's screens: `load()` imports its modules and runs their init (which
 * calls `registerSystem`); `buttons` are the game panel's buttons those modules wire.
 */
export function registerLoader(systemId, { load, buttons = [] }) {
  const loader = { load, loading: null };
  loaders.set(systemId, loader);
  for (const id of buttons) {
    const button = document.getElementById(id);
    // Added before the module's own listener, so it runs first and stands aside once loaded.
    button?.addEventListener("click", async (event) => {
      if (registered.has(systemId)) return;
      event.stopImmediatePropagation();
      await loadSystem(systemId);
      if (registered.has(systemId)) button.click();
    });
  }
}

/** Loads a system's screens once (later calls wait for the same load). */
export function loadSystem(systemId) {
  const loader = loaders.get(systemId);
  if (!loader) return Promise.resolve();
  loader.loading ??= Promise.all([systemStylesheets(), loader.load()])
    .catch((e) => {
      loader.loading = null; // a failed load (rare: a module missing) may be tried again
      throw e;
    });
  return loader.loading;
}

async function openers(systemId) {
  if (!registered.has(systemId)) await loadSystem(systemId);
  return registered.get(systemId) ?? null;
}

/** Opens the sheet of `characterId` (in `gameId`, a `system` game) on `tab`; false when it cannot. */
export async function openCharacter(system, characterId, gameId, tab = undefined) {
  const o = await openers(system);
  if (!o || typeof o.openSheet !== "function") return false;
  await o.openSheet(characterId, gameId, tab);
  return true;
}

/** Opens the screen of `gameId` (a `system` game) on `tab`; false when it cannot. */
export async function openGameScreen(system, gameId, tab = undefined) {
  const o = await openers(system);
  if (!o || typeof o.openGame !== "function") return false;
  await o.openGame(gameId, tab);
  return true;
}

// ---- device settings -------------------------------------------------------------------

const PLACE_LIMIT = 2000;
let lastPlace = null;

/** The device's settings: `{ theme: "system"|"light"|"dark", place: string|null, hints: bool }`. */
export function readSettings(s) {
  return { theme: s?.theme ?? "system", place: s?.place ?? null, hints: s?.hints !== false };
}

/** Saves one device setting (`"theme"`, `"hints"` ("on" or "off") or `"place"`). */
export async function saveSetting(key, value) {
  await api.setSetting(key, value);
}

/**
 * Remembers where the person is (`{screen, game, character, tab}`; `{screen: "home"}` for
 * home), so the app reopens there. Saved at once (the app may be closed any moment).
 */
export function rememberPlace(place) {
  const text = JSON.stringify(place ?? { screen: "home" });
  if (text.length > PLACE_LIMIT || text === lastPlace) return;
  lastPlace = text;
  saveSetting("place", text).catch(() => {});
}

/** The place saved last (parsed), or null. */
export function parsePlace(text) {
  if (typeof text !== "string" || text === "") return null;
  try {
    const place = JSON.parse(text);
    return place && typeof place === "object" ? place : null;
  } catch (_) {
    return null;
  }
}

/**
 * Shows or hides the rules' hints: `data-hints="off"` on <html> hides every `.hint` (the long
 * rules explanations; styles.css). Hints are no secret: this is only less to read.
 */
export function applyHints(on) {
  const root = document.documentElement;
  if (on) delete root.dataset.hints;
  else root.dataset.hints = "off";
}

/** Applies a theme ("system", "light" or "dark") to the page: `data-theme` on <html>. */
export function applyTheme(theme) {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
}
