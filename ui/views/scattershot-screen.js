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
//   import { initScattershotScreens } from "./views/scattershot-screen.js";
//   initScattershotScreens({ run, toast, refresh, getGame });   // once, from app.js
//
// The screen's state lives here: which game and tab, the table as the app last sent it, the
// sheet shown and the roll being set up. Every game-level change goes through `move` (one api
// call whose ScattershotChange carries the new table; a toast with Undo, undoGame); a sheet
// edit goes through `edit` (its ScattershotSheetChange carries the sheet; Undo is the
// character's). app.js sends "sheetkeeper:undone" after an undo, and the screen reloads.

import * as api from "../api.js";
import { el, byId } from "./dom.js";
import { busy } from "./scattershot-kit.js";
import { renderTable } from "./scattershot-table.js";
import { renderSheet } from "./scattershot-sheet.js";
import { renderRoll, newRollDraft } from "./scattershot-roll.js";
import { renderPlay } from "./scattershot-play.js";
import { renderRewards } from "./scattershot-rewards.js";
import { renderLog } from "./scattershot-log.js";

const TABS = [
  ["table", "Table"],
  ["sheet", "Sheets"],
  ["roll", "Roll"],
  ["play", "Mechanical play"],
  ["rewards", "Rewards"],
  ["log", "Log"],
];

let app = null; // {run, toast, refresh, getGame}
let view = null; // null while closed

/** Wires the game header's "Scattershot table" button and builds the (hidden) screen. */
export function initScattershotScreens(hooks) {
  app = hooks;
  byId("game-scattershot").addEventListener("click", () => open("table"));
  document.addEventListener("sheetkeeper:undone", (event) => {
    if (!view || !event.detail) return;
    if (event.detail.id === view.gameId || event.detail.kind === "character") reload();
  });
  const screen = el(
    "section",
    { id: "scattershot-screen", class: "mz-screen sc-screen", hidden: true, "aria-labelledby": "scattershot-screen-heading" },
    el(
      "div",
      { class: "mz-bar" },
      el("button", { type: "button", id: "scattershot-back", on: { click: close } }, "← Games"),
      el("h2", { id: "scattershot-screen-heading", tabindex: "-1" }),
      el(
        "nav",
        { class: "mz-tabs", "aria-label": "Scattershot's Mechanix" },
        ...TABS.map(([tab, label]) =>
          el("button", { type: "button", id: `sc-tab-${tab}`, on: { click: () => switchTab(tab) } }, label),
        ),
      ),
    ),
    el("div", { id: "scattershot-body", class: "mz-body" }),
  );
  document.querySelector("main.layout").after(screen);
}

async function open(tab) {
  const gameId = byId("game-detail").dataset.gameId;
  if (!gameId) return;
  view = { gameId, tab, table: null, sheet: null, sheetId: null, sheets: {}, log: null, roll: newRollDraft(), open: {} };
  await app.run("The Scattershot table could not be opened.", async () => {
    await load();
    document.body.classList.add("scattershot-open");
    byId("scattershot-screen").hidden = false;
    render();
    byId("scattershot-screen-heading").focus();
  });
}

function close() {
  view = null;
  byId("scattershot-screen").hidden = true;
  byId("scattershot-body").replaceChildren();
  document.body.classList.remove("scattershot-open");
  app.refresh().catch(() => {});
  const button = byId("game-scattershot");
  if (button && !button.closest("[hidden]")) button.focus();
}

/** Shows `tab`; `options.sheet` opens that character's sheet on the sheets tab. */
async function switchTab(tab, options = {}) {
  if (!view) return;
  view.tab = tab;
  if (options.sheet !== undefined) view.sheetId = options.sheet;
  await reload();
  if (!view) return;
  const target = options.focus ? byId("scattershot-body").querySelector(options.focus) : null;
  (target ?? byId("scattershot-screen-heading")).focus();
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

/** After a change: the error area scrolled into sight when the app refused. */
function showRefusal(result) {
  const error = byId("error");
  if (result === null && error && !error.hidden) error.scrollIntoView({ block: "nearest" });
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

/** Runs a read-only call for a view (no toast); an error shows in the error area. */
async function ask(title, call) {
  let answer = null;
  await app.run(title, async () => {
    answer = await call();
  });
  return answer;
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
  const focusKey = document.activeElement?.dataset?.focusKey;
  byId("scattershot-screen-heading").textContent = `Scattershot's Mechanix — ${gameName()}`;
  for (const [tab] of TABS) {
    byId(`sc-tab-${tab}`).setAttribute("aria-current", view.tab === tab ? "page" : "false");
  }
  const body = byId("scattershot-body");
  body.dataset.tab = view.tab;
  const ctx = {
    gameId: view.gameId,
    table: view.table,
    ui: view,
    move,
    edit,
    ask,
    undoLast,
    render,
    switchTab,
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
  body.replaceChildren(host);
  const target = focus ? body.querySelector(focus) : null;
  if (target) {
    target.focus();
    return;
  }
  if (focusKey) {
    const again = body.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus();
  }
}
