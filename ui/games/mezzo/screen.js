// The Mezzo screen of a game (RULES.md §3): it replaces the games layout while open and has
// nine tabs — the sheet (mezzo-elements.js `renderSheetTab`: this device's character, opened
// from home through systems.js `openSheet`), a conflict (mezzo-conflict.js: options, casts or
// the totals the table counted, live exact odds, resolution, ties), an action check
// (mezzo-check.js), a challenge (mezzo-challenge.js), the table (mezzo-table.js: the arc and
// the players with their influence, Actor role and claims), the story elements
// (mezzo-elements.js: every element and its sheet), the plot (mezzo-plot.js), the seed deck
// (mezzo-deck.js) and the log of moves with Undo (mezzo-log.js). The first four make the
// phone's tab bar, the rest are under More (game-screen.js). It opens from home (a character card or a game) or from the "Mezzo table"
// button of a Mezzo game, and tells the shell where it is (`rememberPlace`).
//
//   import { initMezzoScreens } from "./screen.js";
//   initMezzoScreens({ run, toast, refresh, getGame });   // once, from app.js
//
// The device's role in the game (`role` in the games list: "player", "table" or "both") shapes
// what is asked: a player's device acts only for its own players (those who claimed one of
// its characters), enters the others' votes as totals and shows only its own players' hands.
//
// The screen's state lives here, as the Penny Ante screen's does: which game and tab, the
// table as the app last sent it, the sheets shown, the characters active in the scene and the
// conflict being set up. Every change goes through `move`: one api call whose MezzoChange
// carries the new table, a re-render, and a toast with Undo (undoGame). app.js sends
// "sheetkeeper:undone" after an undo, and the screen reloads.

import * as api from "./api.js";
import { el, byId } from "../../kit/dom.js";
import { gameScreen, showRefusal } from "../../shell/game-screen.js";
import { registerSystem, rememberPlace } from "../../shell/systems.js";
import { busy } from "./kit.js";
import { renderTable } from "./table.js";
import { renderElements, renderSheetTab } from "./elements.js";
import { renderConflict, newConflict, forgetResult, followTableDice } from "./conflict.js";
import { renderLog } from "./log.js";
import { renderCheck, newCheck } from "./check.js";
import { renderPlot } from "./plot.js";
import { renderDeck } from "./deck.js";
import { renderChallenge } from "./challenge.js";

// The first four are the phone's tab bar (the frame puts the rest under More): the sheet a
// player lives on and the three ways the table decides.
const TABS = [
  ["sheet", "Sheet"],
  ["conflict", "Conflict"],
  ["check", "Action check"],
  ["challenge", "Challenge"],
  ["table", "Table"],
  ["elements", "Story elements"],
  ["plot", "Plot"],
  ["deck", "Seed deck"],
  ["log", "Log"],
];

let app = null; // {run, toast, refresh, getGame}
let view = null; // null while closed
let frame = null; // the screen's frame (game-screen.js)

/** Opens `characterId`'s sheet in game `gameId` (home's character card), on `tab` if given. */
export function openSheet(characterId, gameId, tab = "sheet") {
  return open(gameId, tab || "sheet", characterId);
}

/** Opens game `gameId`'s Mezzo screen on `tab` (the sheet of this device's character first). */
export function openGame(gameId, tab) {
  return open(gameId, tab || "sheet");
}

/** Tells the shell where the screen is, so the app reopens here. */
function remember() {
  if (!view) return;
  const character = view.sheetId && view.table?.characters.some((c) => c.id === view.sheetId) ? view.sheetId : null;
  rememberPlace(character ? { screen: "sheet", game: view.gameId, character, tab: view.tab } : { screen: "game", game: view.gameId, tab: view.tab });
}

/** Wires the game header's "Mezzo table" button and builds the (hidden) screen. */
export function initMezzoScreens(hooks) {
  app = hooks;
  // The game's button opens on this device's character sheet, or on the table while the game has none.
  byId("game-mezzo").addEventListener("click", () => {
    const gameId = byId("game-detail").dataset.gameId;
    const characters = app.getGame(gameId)?.characters ?? [];
    open(gameId, characters.length > 0 ? "sheet" : "table");
  });
  // Home opens a character's sheet or a game through systems.js.
  registerSystem("mezzo", { openSheet, openGame });
  document.addEventListener("sheetkeeper:undone", (event) => {
    if (!view || !event.detail) return;
    const mine = event.detail.id === view.gameId || event.detail.kind === "character";
    if (mine) {
      forgetResult(view);
      reload();
    }
  });
  // The sheet's summary strip and the odds columns stick just under the frame's bar.
  const keepBarHeight = () => {
    const bar = byId("mezzo-screen")?.querySelector(".frame-bar");
    if (bar) document.documentElement.style.setProperty("--mz-bar-h", `${bar.offsetHeight}px`);
  };
  frame = gameScreen({
    name: "mezzo",
    tabPrefix: "mezzo",
    kit: "mz",
    label: "Mezzo",
    tabs: TABS,
    onBack: close,
    onTab: (tab) => switchTab(tab),
    print: { character: () => (view?.tab === "sheet" ? view.sheetId : null), run: app.run, toast: app.toast },
  });
  const bar = byId("mezzo-screen").querySelector(".frame-bar");
  if (bar && typeof ResizeObserver === "function") new ResizeObserver(keepBarHeight).observe(bar);
}

async function open(gameId, tab, elementId = null) {
  if (!gameId) return;
  if (!TABS.some(([t]) => t === tab)) tab = "sheet";
  view = {
    gameId,
    tab,
    table: null,
    log: null,
    sheetId: elementId, // the Sheet tab's character
    elementId: null, // the sheet open on the Story elements tab
    active: [],
    conflict: newConflict(),
    check: newCheck(),
    open: {},
  };
  await app.run("The Mezzo table could not be opened.", async () => {
    await load();
    if (!view) return;
    // The sheet tab opens on this device's own character when none was named.
    if (!view.sheetId) view.sheetId = ownCharacters()[0]?.id ?? null;
    // The game's "roll real dice" preference: the dice boxes open by themselves.
    view.conflict.hand = view.check.hand = Boolean(gameOf()?.dice_by_hand);
    // A table set to the D6 variant (Table tab) rolls its conflicts that way too.
    followTableDice(view.conflict, view.table?.variant);
    render();
    frame.show(gameId);
    remember();
  });
}

/** The game as the games list has it (role, characters with `mine` and `notes`). */
const gameOf = () => (view ? app.getGame(view.gameId) : null);

/** This device's role in the game: "player", "table" or "both" (one device, passed around). */
const role = () => gameOf()?.role ?? "both";

/** The characters of this game that are this device's (all of them on a "both" device that marked none). */
function ownCharacters() {
  const chars = view?.table?.characters ?? [];
  const mine = chars.filter((c) => gameOf()?.characters?.find((g) => g.id === c.id)?.mine);
  return mine.length > 0 || role() === "player" ? mine : chars;
}

/** The players who claimed one of this device's characters: the only ones a player device acts for. */
function ownPlayers() {
  const mine = new Set(ownCharacters().map((c) => c.id));
  return (view?.table?.players ?? []).filter((p) => p.claimed.some((id) => mine.has(id)));
}

function close() {
  view = null;
  frame.hide("game-mezzo");
  app.refresh().catch(() => {});
}

/** Shows `tab`; `options.element` opens that element's sheet on the sheet or elements tab. */
async function switchTab(tab, options = {}) {
  if (!view) return;
  view.tab = tab;
  if (options.element !== undefined) {
    if (tab === "sheet") view.sheetId = options.element;
    else view.elementId = options.element;
  }
  await reload();
  if (!view) return;
  const target = options.focus ? frame.body.querySelector(options.focus) : null;
  (target ?? frame.heading).focus();
}

async function load() {
  const gameId = view.gameId;
  const table = await api.mezzoTable(gameId);
  if (!view || view.gameId !== gameId) return;
  view.table = table;
  syncActive(table);
  await loadTab();
}

/** The characters active in the scene, as the table stores them (they survive a reload). */
function syncActive(table) {
  const active = table.scene?.active ?? [];
  view.active = active.filter((id) => table.characters.some((c) => c.id === id));
}

/** What the shown tab reads besides the table: the log, the check waiting, the plot, the deck. */
async function loadTab() {
  const gameId = view.gameId;
  // The laws, themes, facts and vote sources a conflict draws on (the plot tab keeps the register).
  if (view.tab === "conflict" || view.tab === "plot") view.sources = await api.mezzoConflictSources(gameId);
  if (view.tab === "log") view.log = await api.mezzoLog(gameId);
  else if (view.tab === "check") view.pending = await api.mezzoCheckPending(gameId);
  else if (view.tab === "plot") view.plot = await api.mezzoPlot(gameId);
  else if (view.tab === "deck") {
    view.deck = await api.mezzoDeck(gameId);
    let open = view.deckUi?.open;
    // A player device asks only for its own players' hands (the core refuses the others).
    if (open && role() === "player" && !ownPlayers().some((p) => p.id === open)) open = null;
    // The open hand is read again after every move (a player no longer dealt in shows none).
    view.hand = open && view.deck.built ? await api.mezzoHand(gameId, open).catch(() => null) : null;
  }
}

async function reload() {
  if (!view) return;
  await app.run("The Mezzo table could not be loaded.", async () => {
    await load();
    render();
  });
}

/**
 * One undoable change: `call` (an api promise) runs with `button` showing progress; the table
 * it returns is shown and a toast says what happened, with Undo. `call` may resolve with a
 * MezzoChange or with something that carries one in `change` (a conflict's outcome).
 * Resolves with what `call` returned, or null when the app refused (the error area says why).
 */
async function move(title, call, button = null) {
  if (!view) return null;
  const gameId = view.gameId;
  let result = null;
  await busy(button, () =>
    app.run(title, async () => {
      const answer = await call();
      result = answer;
      const change = answer && answer.view ? answer : answer.change;
      if (!view || view.gameId !== gameId) return;
      if (view.table?.variant !== change.view.variant) followTableDice(view.conflict, change.view.variant);
      view.table = change.view;
      syncActive(change.view);
      view.lastMoveTag = null;
      await loadTab();
      render();
      app.toast(change.message, { kind: "game", id: gameId });
    }),
  );
  showRefusal(result);
  return result;
}

/**
 * An undoable game-level step that carries no table (an action check's roll): `call` runs with
 * `button` showing progress, the tab reloads, and the toast says `messageOf(result)` with Undo.
 */
async function step(title, call, messageOf, button = null) {
  if (!view) return null;
  const gameId = view.gameId;
  let result = null;
  await busy(button, () =>
    app.run(title, async () => {
      const answer = await call();
      result = answer;
      if (!view || view.gameId !== gameId) return;
      await load();
      render();
      app.toast(messageOf(answer), { kind: "game", id: gameId });
    }),
  );
  showRefusal(result);
  return result;
}

/**
 * A change that is not a Mezzo move (a character made or renamed): `undoOf(result)` gives its
 * Undo ({kind: "character", id}) and `message` the toast's words.
 */
async function other(title, call, undoOf, message, button = null) {
  if (!view) return null;
  let result = null;
  await busy(button, () =>
    app.run(title, async () => {
      result = await call();
      await app.refresh();
      if (!view) return;
      await load();
      render();
      app.toast(result && result.message ? result.message : message, undoOf(result));
    }),
  );
  return result;
}

/** Takes back the last move from the log's button (no toast Undo: there is no redo). */
async function undoLast(button) {
  if (!view) return;
  const gameId = view.gameId;
  await busy(button, () =>
    app.run("That could not be undone.", async () => {
      const result = await api.undoGame(gameId);
      if (!view) return;
      forgetResult(view);
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
    step,
    other,
    undoLast,
    render,
    switchTab,
    run: app.run,
    role: role(),
    /** The players this device acts for: its own on a player device, everyone otherwise. */
    devicePlayers: role() === "player" ? ownPlayers() : view.table.players,
    ownCharacters: ownCharacters(),
    diceByHand: Boolean(gameOf()?.dice_by_hand),
    character: (id) => gameOf()?.characters?.find((c) => c.id === id) ?? null,
  };
  const host = el("div", { class: `mz-tab mz-tab-${view.tab}` });
  if (view.tab === "sheet") renderSheetTab(host, ctx);
  else if (view.tab === "table") renderTable(host, ctx);
  else if (view.tab === "elements") renderElements(host, ctx);
  else if (view.tab === "conflict") renderConflict(host, ctx);
  else if (view.tab === "check") renderCheck(host, ctx);
  else if (view.tab === "plot") renderPlot(host, ctx);
  else if (view.tab === "deck") renderDeck(host, ctx);
  else if (view.tab === "challenge") renderChallenge(host, ctx);
  else renderLog(host, ctx);
  frame.fill(`Mezzo — ${gameName()}`, view.tab, host, focus);
  remember(); // after the frame's own note of the game: the character shown too

}
