// The Scattershot's Mechanix screen of a game (RULES.md §4): it replaces the games layout
// while open and has six tabs — the table (scattershot-table.js: the characters with their
// resources and experience dice, the Gamemaster's stock, the table settings), a character's
// sheet (scattershot-sheet.js: statistics, free skills, skills, special abilities, advantages
// and disadvantages, resources, the experience dice pool, bought with development points), a
// Made-It-By roll (scattershot-roll.js: the sides, the exact odds, the dice, the bidding war
// of experience dice, complications and benefits, the result), mechanical play
// (scattershot-play.js: rounds, turns, actions, free actions, forfeits, engagements and
// combat advantages, the lull), rewards of experience dice (scattershot-rewards.js) and the
// log of moves with Undo (scattershot-log.js). It opens from the "Scattershot table" button.
//
//   import { initScattershotScreens } from "./screen.js";
//   initScattershotScreens({ run, toast, refresh, getGame });   // once, from app.js
//
// The screen's state lives here: which game and tab, the table as the app last sent it, the
// sheet shown and the roll being set up. Every game-level change goes through `move` (one api
// call whose ScattershotChange carries the new table; a toast with Undo, undoGame); a sheet
// edit goes through `edit` (its ScattershotSheetChange carries the sheet; Undo is the
// character's). app.js sends "sheetkeeper:undone" after an undo, and the screen reloads.

import * as api from "./api.js";
import { el, byId } from "../../kit/dom.js";
import { gameScreen, showRefusal, ask } from "../../shell/game-screen.js";
import { registerSystem, rememberPlace } from "../../shell/systems.js";
import { busy } from "./kit.js";
import { renderTable } from "./table.js";
import { renderSheet } from "./sheet.js";
import { renderRoll, newRollDraft } from "./roll.js";
import { renderPlay } from "./play.js";
import { renderRewards } from "./rewards.js";
import { renderLog } from "./log.js";

const TABS = [
  ["sheet", "Sheet"],
  ["roll", "Roll"],
  ["table", "Table"],
  ["play", "Play"],
  ["rewards", "Rewards"],
  ["log", "Log"],
];

let app = null; // {run, toast, refresh, getGame}
let view = null; // null while closed
let frame = null; // the screen's frame (game-screen.js)

/** Wires the game header's "Scattershot table" button and builds the (hidden) screen. */
export function initScattershotScreens(hooks) {
  app = hooks;
  byId("game-scattershot").addEventListener("click", () => open(byId("game-detail").dataset.gameId, "table"));
  registerSystem("scattershot", {
    /** A character's sheet, its landing page (no chooser of other sheets). */
    openSheet: (characterId, gameId, tab = "sheet") => open(gameId, tab, characterId),
    openGame: (gameId, tab = "table") => open(gameId, tab),
  });
  document.addEventListener("sheetkeeper:undone", (event) => {
    if (!view || !event.detail) return;
    if (event.detail.id === view.gameId || event.detail.kind === "character") reload();
  });
  frame = gameScreen({
    name: "scattershot",
    tabPrefix: "sc",
    kit: "mz",
    label: "Scattershot's Mechanix",
    tabs: TABS,
    screenClass: "mz-screen sc-screen",
    onBack: close,
    onTab: (tab) => switchTab(tab),
    print: { character: () => (view?.tab === "sheet" ? view.sheetId : null), run: app.run, toast: app.toast },
  });
}

/**
 * Opens the game's screen on `tab`. With `character` it is that character's: the sheet tab
 * shows only their sheet (no chooser), and a roll starts with them acting.
 */
async function open(gameId, tab, character = null) {
  if (!gameId) return;
  if (view) frame.hide("game-scattershot");
  const roll = newRollDraft();
  if (character) roll.actor.character = character;
  // The game's "roll real dice" preference: the roll starts with boxes for the faces.
  roll.byHand = Boolean(app.getGame(gameId)?.dice_by_hand);
  view = { gameId, tab, table: null, sheet: null, sheetId: character, character, sheets: {}, log: null, roll, open: {} };
  await app.run("The Scattershot table could not be opened.", async () => {
    await load();
    render();
    frame.show(view.gameId);
    rememberHere();
  });
}

/** Records this screen and tab as the place to reopen. */
function rememberHere() {
  if (!view) return;
  rememberPlace({ screen: view.character ? "sheet" : "game", game: view.gameId, character: view.character, tab: view.tab });
}

function close() {
  view = null;
  frame.hide("game-scattershot");
  app.refresh().catch(() => {});
}

/** Shows `tab`; `options.sheet` opens that character's sheet on the sheets tab. */
async function switchTab(tab, options = {}) {
  if (!view) return;
  view.tab = tab;
  if (options.sheet !== undefined) view.sheetId = options.sheet;
  await reload();
  if (!view) return;
  // A tab starts at its top, not under the sticky bar where the last one was scrolled.
  window.scrollTo(0, 0);
  const target = options.focus ? frame.body.querySelector(options.focus) : null;
  (target ?? frame.heading).focus();
}

async function load() {
  const gameId = view.gameId;
  const table = await api.scattershotTable(gameId);
  if (!view || view.gameId !== gameId) return;
  view.table = table;
  await loadTab();
}

/** What the shown tab reads besides the table: the sheet shown, the sheets a roll uses, the log. */
async function loadTab() {
  const gameId = view.gameId;
  const characters = view.table.characters;
  if (view.tab === "sheet") {
    if (!characters.some((c) => c.id === view.sheetId)) view.sheetId = characters[0]?.id ?? null;
    view.sheet = view.sheetId ? await api.scattershotSheet(view.sheetId) : null;
  } else if (view.tab === "roll") {
    // Each character's ratings and advantages, for choosing a side's rating.
    const sheets = await Promise.all(characters.map((c) => api.scattershotSheet(c.id)));
    view.sheets = Object.fromEntries(sheets.map((s) => [s.character.id, s]));
  } else if (view.tab === "log") {
    view.log = await api.scattershotLog(gameId);
  }
}

async function reload() {
  if (!view) return;
  await app.run("The Scattershot table could not be loaded.", async () => {
    await load();
    render();
  });
}

/**
 * One undoable game-level change: `call` (an api promise resolving with a ScattershotChange)
 * runs with `button` showing progress; the table it returns is shown and a toast says what
 * happened, with Undo. Resolves with the change, or null when the app refused (the error area
 * says why).
 */
async function move(title, call, button = null) {
  if (!view) return null;
  const gameId = view.gameId;
  let result = null;
  await busy(button, () =>
    app.run(title, async () => {
      const change = await call();
      result = change;
      if (!view || view.gameId !== gameId) return;
      view.table = change.view;
      await loadTab();
      render();
      app.toast(change.message, { kind: "game", id: gameId });
    }),
  );
  showRefusal(result);
  return result;
}

/**
 * One undoable sheet edit of `character`: `edit` is the service's tagged edit. The sheet it
 * returns is shown, the table read again (its resources and dice), and the toast's Undo is
 * the character's.
 */
async function edit(title, character, sheetEdit, button = null) {
  if (!view) return null;
  const gameId = view.gameId;
  let result = null;
  await busy(button, () =>
    app.run(title, async () => {
      const change = await api.scattershotSheetEdit(character, sheetEdit);
      result = change;
      if (!view || view.gameId !== gameId) return;
      view.table = await api.scattershotTable(gameId);
      if (view.sheetId === character) view.sheet = change.view;
      render();
      app.toast(change.message, { kind: "character", id: character });
    }),
  );
  showRefusal(result);
  return result;
}

/** Takes back the last move from the log's button (no toast Undo: there is no redo). */
async function undoLast(button) {
  if (!view) return;
  await busy(button, () =>
    app.run("That could not be undone.", async () => {
      const result = await api.undoGame(view.gameId);
      if (!view) return;
      await load();
      render();
      app.toast(result && result.message ? result.message : "Undone.");
    }),
  );
}

function gameName() {
  const g = app.getGame(view.gameId);
  return g ? g.name : view.table?.game?.name ?? "";
}

/** Re-renders the shown tab, keeping focus on the control with the same data-focus-key. */
function render(focus = null) {
  if (!view || !view.table) return;
  const ctx = {
    gameId: view.gameId,
    table: view.table,
    ui: view,
    move,
    edit,
    ask: (title, call) => ask(app.run, title, call),
    undoLast,
    render,
    switchTab,
    /** Runs a non-Scattershot change (notes) with the app's error area. */
    run: app.run,
    toast: app.toast,
    getGame: app.getGame,
    /** The name of a character of the game, or "the Gamemaster" for the game's own id. */
    nameOf: (id) =>
      id === view.gameId ? "the Gamemaster" : view.table.characters.find((c) => c.id === id)?.name ?? "someone",
  };
  const host = el("div", { class: `mz-tab sc-tab sc-tab-${view.tab}` });
  if (view.tab === "table") renderTable(host, ctx);
  else if (view.tab === "sheet") renderSheet(host, ctx);
  else if (view.tab === "roll") renderRoll(host, ctx);
  else if (view.tab === "play") renderPlay(host, ctx);
  else if (view.tab === "rewards") renderRewards(host, ctx);
  else renderLog(host, ctx);
  const who = view.character ? view.table.characters.find((c) => c.id === view.character)?.name : null;
  // The frame's badge names the system; the heading names the game (and the character).
  frame.fill(who ? `${who} — ${gameName()}` : gameName(), view.tab, host, focus);
  // After the frame's own note of the game: a sheet opened for a character is reopened as one.
  rememberHere();
}
