// The Scattershot's Mechanix screen of a game (RULES.md §4): it replaces the games layout
// while open and has six tabs — the table (table.js: the characters with their
// resources and experience dice, the Gamemaster's stock, the table settings), a character's
// sheet (sheet.js: statistics, free skills, skills, special abilities, advantages
// and disadvantages, resources, the experience dice pool, bought with development points), a
// Made-It-By roll (roll.js: the sides, the exact odds, the dice, the bidding war
// of experience dice, complications and benefits, the result), mechanical play
// (play.js: rounds, turns, actions, free actions, forfeits, engagements and
// combat advantages, the lull), rewards of experience dice (rewards.js) and the
// log of moves with Undo (log.js). It opens from the "Scattershot table" button.
//
//   import { initScattershotScreens } from "./screen.js";
//   initScattershotScreens({ run, toast, refresh, getGame });   // once, from app.js
//
// The life cycle (open, read, draw, `move` with a toast and Undo, undo the last move, close)
// is the shell's (shell/game-controller.js); this file gives what is Scattershot's: the view
// (which game and tab, the table, the sheet shown, the roll being set up), what each tab reads,
// and `edit`, a sheet edit whose Undo is the character's.

import * as api from "./api.js";
import { die } from "../../kit/dice-tray.js";
import { byId } from "../../kit/dom.js";
import { gameController } from "../../shell/game-controller.js";
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

/** What the shown tab reads besides the table: the sheet shown, the sheets a roll uses, the log. */
async function loadTab(view) {
  const characters = view.table.characters;
  if (view.tab === "sheet") {
    if (!characters.some((c) => c.id === view.sheetId)) view.sheetId = characters[0]?.id ?? null;
    view.sheet = view.sheetId ? await api.scattershotSheet(view.sheetId) : null;
  } else if (view.tab === "roll") {
    // Each character's ratings and advantages, for choosing a side's rating.
    const sheets = await Promise.all(characters.map((c) => api.scattershotSheet(c.id)));
    view.sheets = Object.fromEntries(sheets.map((s) => [s.character.id, s]));
  } else if (view.tab === "log") {
    view.log = await api.scattershotLog(view.gameId);
  }
}

const screen = gameController({
  system: "scattershot",
  frame: {
    name: "scattershot",
    tabPrefix: "sc",
    kit: "mz",
    label: "Scattershot's Mechanix",
    tabs: TABS,
    screenClass: "mz-screen sc-screen forms-screen",
  },
  opener: "game-scattershot",
  noun: "The Scattershot table",
  home: "table",
  // The game's own dice on the tray (any XdY±N can be typed too): the Made-It-By roll's 2d10
  // and the table's experience die.
  dice: (view) => {
    const sides = view.table?.settings?.experience_die ?? 6;
    return [die("2d10", "Made-It-By"), die(`d${sides}`, "experience die")];
  },
  scrollOnSwitch: true,
  // With `character` the screen is that character's: the sheet tab shows only their sheet (no
  // chooser), and a roll starts with them acting.
  start(gameId, tab, character, app) {
    const roll = newRollDraft();
    if (character) roll.actor.character = character;
    // The game's "roll real dice" preference: the roll starts with boxes for the faces.
    roll.byHand = Boolean(app.getGame(gameId)?.dice_by_hand);
    return { table: null, sheet: null, sheetId: character, character, sheets: {}, log: null, roll, open: {} };
  },
  async load(view) {
    view.table = await api.scattershotTable(view.gameId);
    await loadTab(view);
  },
  loadTab,
  undone: (view, detail) => detail.id === view.gameId || detail.kind === "character",
  // `options.sheet` opens that character's sheet on the sheet tab.
  beforeSwitch(view, tab, options) {
    if (options.sheet !== undefined) view.sheetId = options.sheet;
  },
  context: (view) => ({
    edit,
    /** The name of a character or a player of the game, or "the Gamemaster" for the game's own id. */
    nameOf: (id) =>
      id === view.gameId
        ? "the Gamemaster"
        : (view.table.characters.find((c) => c.id === id) ?? view.table.players.find((p) => p.id === id))?.name ?? "someone",
  }),
  tabClass: (tab) => `mz-tab sc-tab sc-tab-${tab}`,
  renders: { table: renderTable, sheet: renderSheet, roll: renderRoll, play: renderPlay, rewards: renderRewards, log: renderLog },
  // The character the screen was opened for.
  who: (view) => (view.character ? view.table.characters.find((c) => c.id === view.character)?.name : null),
  place: (view) => ({ screen: view.character ? "sheet" : "game", game: view.gameId, character: view.character, tab: view.tab }),
});

/** Wires the game header's "Scattershot table" button and builds the (hidden) screen. */
export function initScattershotScreens(hooks) {
  screen.init(hooks);
  byId("game-scattershot").addEventListener("click", () => screen.open(byId("game-detail").dataset.gameId, "table"));
}

/**
 * One undoable sheet edit of `character`: `edit` is the service's tagged edit. The sheet it
 * returns is shown, the table read again (its resources and dice), and the toast's Undo is
 * the character's.
 */
const edit = (title, character, sheetEdit, button = null) =>
  screen.act(title, () => api.scattershotSheetEdit(character, sheetEdit), {
    button,
    apply: async (change, view) => {
      view.table = await api.scattershotTable(view.gameId);
      if (view.sheetId === character) view.sheet = change.view;
      return [change.message, { kind: "character", id: character }];
    },
  });
