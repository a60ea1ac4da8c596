// The Penny Ante screen of a game (RULES.md §2): it replaces the games layout while open and
// has four tabs — the table (penny-table.js), the challenge (penny-setup.js to issue one,
// penny-challenge.js to play it on one device passed around), the ledger (penny-ledger.js)
// and the log of moves with Undo (penny-log.js). It opens from the "Penny Ante table" button
// of a Penny Ante game.
//
//   import { initPennyScreens } from "./screen.js";
//   initPennyScreens({ run, toast, refresh, getGame });   // once, from app.js
//
// The screen's state lives here (like the NSU world screen's): which game and tab, the table
// as the app last sent it, the ledger and log when shown. Every change goes through `move`:
// one api call whose PennyChange carries the new table, a re-render, and a toast with Undo
// (undoGame). app.js sends "sheetkeeper:undone" after an undo, and the screen reloads.

import * as api from "./api.js";
import { el, byId } from "../../kit/dom.js";
import { gameScreen, showRefusal, ask } from "../../shell/game-screen.js";
import { registerSystem, rememberPlace } from "../../shell/systems.js";
import { busy } from "./kit.js";
import { renderTable } from "./table.js";
import { renderSheet } from "./sheet.js";
import { renderSetup } from "./setup.js";
import { renderChallenge, forgetPrivate, startDiceByHand } from "./challenge.js";
import { renderLedger } from "./ledger.js";
import { renderLog } from "./log.js";

const TABS = [
  ["sheet", "Sheet"],
  ["table", "Table"],
  ["challenge", "Challenge"],
  ["ledger", "Ledger"],
  ["log", "Log"],
];

let app = null; // {run, toast, refresh, getGame}
let view = null; // null while closed
let frame = null; // the screen's frame (game-screen.js)

/** Wires the game header's "Penny Ante table" button and builds the (hidden) screen. */
export function initPennyScreens(hooks) {
  app = hooks;
  byId("game-penny").addEventListener("click", () => open(byId("game-detail").dataset.gameId, "table"));
  registerSystem("penny_ante", {
    /** A character's sheet (creation first for a new one). */
    openSheet: (characterId, gameId, tab = "sheet") => open(gameId, tab, characterId),
    openGame: (gameId, tab = "table") => open(gameId, tab),
  });
  document.addEventListener("sheetkeeper:undone", (event) => {
    if (view && event.detail && event.detail.kind === "character") {
      view.notes = undefined;
      reload();
      return;
    }
    if (view && event.detail && event.detail.id === view.gameId) {
      forgetPrivate();
      reload();
    }
  });
  frame = gameScreen({
    name: "penny",
    tabPrefix: "penny",
    kit: "penny",
    label: "Penny Ante",
    tabs: TABS,
    onBack: close,
    onTab: (tab) => switchTab(tab),
    print: {
      character: () => (view?.tab === "sheet" ? (view.sheetShown ?? view.character ?? view.table?.players?.[0]?.id ?? null) : null),
      run: app.run,
      toast: app.toast,
    },
  });
}

/**
 * Opens the game's screen on `tab`; with `character`, for that character (the sheet tab is
 * theirs, without a chooser). A challenge being played opens the challenge tab when the game
 * itself is opened on its table.
 */
async function open(gameId, tab, character = null) {
  if (!gameId) return;
  if (view) frame.hide("game-penny");
  forgetPrivate();
  startDiceByHand(app.getGame(gameId)?.dice_by_hand);
  view = {
    gameId,
    tab,
    character,
    forCharacter: character !== null,
    table: null,
    ledger: null,
    ledgerAccount: "",
    log: null,
    setupOpen: false,
    role: "both",
    // On a device passed around, the House's secrets show only after the hand-over
    // (penny-table.js); a tab switch hides them again.
    house: false,
  };
  await app.run("The Penny Ante table could not be opened.", async () => {
    await load();
    const c = view.table.challenge;
    if (!character && tab === "table" && c && c.phase !== "over") view.tab = "challenge";
    render();
    frame.show(view.gameId);
    rememberHere();
  });
}

/** Records this screen and tab as the place to reopen. */
function rememberHere() {
  if (!view) return;
  rememberPlace({ screen: view.forCharacter ? "sheet" : "game", game: view.gameId, character: view.character, tab: view.tab });
}

/**
 * This device's role in the game ("player" | "table" | "both") and its own characters (those
 * marked mine; when none is, every character here), from the app's games.
 */
async function loadRole() {
  const g = app.getGame(view.gameId);
  let role = g && g.role;
  if (!role && api.deviceRole) role = await api.deviceRole(view.gameId).catch(() => null);
  view.role = role === "player" || role === "table" ? role : "both";
  const characters = g && Array.isArray(g.characters) ? g.characters : [];
  const mine = characters.filter((c) => c.mine).map((c) => c.id);
  view.mine = new Set(mine.length > 0 ? mine : characters.map((c) => c.id));
  if (view.character) view.mine.add(view.character);
}

function close() {
  forgetPrivate();
  view = null;
  frame.hide("game-penny");
  app.refresh().catch(() => {});
}

/** Shows `tab`; `options.ledgerAccount` picks whose ledger, `options.setup` opens the challenge form. */
async function switchTab(tab, options = {}) {
  if (!view) return;
  if (tab !== "challenge") forgetPrivate();
  view.house = false;
  view.handOverHouse = false;
  view.tab = tab;
  if (options.ledgerAccount !== undefined) view.ledgerAccount = options.ledgerAccount;
  if (options.sheet !== undefined) view.sheetShown = options.sheet;
  if (options.setup !== undefined) view.setupOpen = options.setup;
  await reload();
  // A tab starts at its top, not under the sticky bar where the last one was scrolled.
  window.scrollTo(0, 0);
  if (view) frame.heading.focus();
}

async function load() {
  const gameId = view.gameId;
  const table = await api.pennyTable(gameId, view.house);
  if (!view || view.gameId !== gameId) return;
  view.table = table;
  await loadRole();
  await loadTab();
}

/** The ledger or the log, when their tab is shown. */
async function loadTab() {
  if (view.tab === "ledger") {
    const key = view.ledgerAccount;
    view.ledger = await api.pennyLedger(view.gameId, key === "" ? null : accountFromKey(key), view.house);
  } else if (view.tab === "log") {
    view.log = await api.pennyLog(view.gameId, view.house);
  }
}

const accountFromKey = (key) => {
  const [kind, id] = key.split(":");
  return id ? { kind, id } : { kind };
};

async function reload() {
  if (!view) return;
  await app.run("The Penny Ante table could not be loaded.", async () => {
    await load();
    render();
  });
}

/**
 * One undoable change: `call` (an api promise) runs with `button` showing progress; the
 * table it returns is shown and a toast says what happened, with Undo. Resolves with the
 * PennyChange, or null when the app refused (the error area says why).
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
      // The change's view is the shared one; the House, handed the device, sees its own.
      view.table = view.house ? await api.pennyTable(gameId, true) : change.view;
      await loadTab();
      render();
      app.toast(change.message, { kind: "game", id: gameId });
    }),
  );
  showRefusal(result);
  return result;
}

/** Takes back the last move from the log's button (no toast Undo: there is no redo). */
async function undoLast(button) {
  if (!view) return;
  const gameId = view.gameId;
  await busy(button, () =>
    app.run("That could not be undone.", async () => {
      const result = await api.undoGame(gameId);
      forgetPrivate();
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
    ask: (title, call) => ask(app.run, title, call),
    undoLast,
    render,
    switchTab,
    /** Loads the table again (after the hand-over to the House) and redraws it. */
    reloadTable: (button) => busy(button, reload),
    refreshGames: () => app.refresh().catch(() => {}),
    run: app.run,
    toast: app.toast,
    getGame: app.getGame,
    /** "player": this device is a player's phone; "table": the House's; "both": passed around. */
    role: view.role,
    mine: view.mine,
  };
  const host = el("div", { class: `penny-tab penny-tab-${view.tab}` });
  if (view.tab === "sheet") renderSheet(host, ctx);
  else if (view.tab === "table") renderTable(host, ctx);
  else if (view.tab === "ledger") renderLedger(host, ctx);
  else if (view.tab === "log") renderLog(host, ctx);
  else {
    const c = view.table.challenge;
    const running = c && c.phase !== "over";
    if (running || (c && !view.setupOpen)) renderChallenge(host, ctx);
    else renderSetup(host, ctx);
  }
  const who = view.forCharacter ? view.table.players.find((p) => p.id === view.character)?.name : null;
  frame.fill(who ? `${who} — ${gameName()}` : `Penny Ante — ${gameName()}`, view.tab, host, focus);
  // After the frame's own note of the game: a sheet opened for a character is reopened as one.
  rememberHere();
}
