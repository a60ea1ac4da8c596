// The Penny Ante screen of a game (RULES.md §2): it replaces the games layout while open and
// has five tabs — a character's sheet (sheet.js), the table (table.js), the challenge
// (setup.js to issue one, challenge.js to play it on one device passed around), the ledger
// (ledger.js) and the log of moves with Undo (log.js). It opens from home or from the "Penny
// Ante table" button of a Penny Ante game.
//
//   import { initPennyScreens } from "./screen.js";
//   initPennyScreens({ run, toast, refresh, getGame });   // once, from app.js
//
// The life cycle (open, read, draw, `move` with a toast and Undo, undo the last move, close)
// is the shell's (shell/game-controller.js); this file gives what is Penny Ante's: the view
// (which game and tab, the table as the app last sent it, the ledger and log when shown, the
// House's secrets after a hand-over) and what each tab reads.

import * as api from "./api.js";
import { die } from "../../kit/dice-tray.js";
import { byId } from "../../kit/dom.js";
import { gameController } from "../../shell/game-controller.js";
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

/**
 * This device's role in the game ("player" | "table" | "both") and its own characters (those
 * marked mine; when none is, every character here), from the app's games.
 */
async function loadRole(view, app) {
  const g = app.getGame(view.gameId);
  let role = g && g.role;
  if (!role && api.deviceRole) role = await api.deviceRole(view.gameId).catch(() => null);
  view.role = role === "player" || role === "table" ? role : "both";
  const characters = g && Array.isArray(g.characters) ? g.characters : [];
  const mine = characters.filter((c) => c.mine).map((c) => c.id);
  view.mine = new Set(mine.length > 0 ? mine : characters.map((c) => c.id));
  if (view.character) view.mine.add(view.character);
}

/** The ledger or the log, when their tab is shown. */
async function loadTab(view) {
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

const screen = gameController({
  system: "penny_ante",
  frame: { name: "penny", kit: "penny", screenClass: "penny-screen forms-screen", label: "Penny Ante", tabs: TABS },
  opener: "game-penny",
  noun: "The Penny Ante table",
  home: "table",
  // The game's own dice on the tray (any XdY±N can be typed too): a cup of d6s, one die and
  // one more per characteristic used, up to six.
  dice: () => [die("d6", "a circumstance die"), ...[2, 3, 4, 5, 6].map((n) => die(`${n}d6`, `a cup of ${n}`))],
  scrollOnSwitch: true,
  printCharacter: (view) => (view.tab === "sheet" ? (view.sheetShown ?? view.character ?? view.table?.players?.[0]?.id ?? null) : null),
  // With `character` the screen is that character's: the sheet tab is theirs, without a chooser.
  start(gameId, tab, character, app) {
    forgetPrivate();
    startDiceByHand(app.getGame(gameId)?.dice_by_hand);
    return {
      character,
      forCharacter: character !== null,
      table: null,
      ledger: null,
      ledgerAccount: "",
      log: null,
      setupOpen: false,
      role: "both",
      // On a device passed around, the House's secrets show only after the hand-over
      // (table.js); a tab switch hides them again.
      house: false,
    };
  },
  async load(view, app) {
    view.table = await api.pennyTable(view.gameId, view.house);
    await loadRole(view, app);
    await loadTab(view);
  },
  loadTab,
  // A challenge being played opens the challenge tab when the game itself is opened on its table.
  opened(view) {
    const c = view.table.challenge;
    if (!view.forCharacter && view.tab === "table" && c && c.phase !== "over") view.tab = "challenge";
  },
  // The change's view is the shared one; the House, handed the device, sees its own.
  async apply(view, change) {
    view.table = view.house ? await api.pennyTable(view.gameId, true) : change.view;
    return change;
  },
  leave: () => forgetPrivate(),
  afterUndo: () => forgetPrivate(),
  undone(view, detail) {
    if (detail.kind === "character") view.notes = undefined;
    else if (detail.id === view.gameId) forgetPrivate();
    return detail.kind === "character" || detail.id === view.gameId;
  },
  // `options.ledgerAccount` picks whose ledger, `options.sheet` whose sheet, `options.setup` opens the challenge form.
  beforeSwitch(view, tab, options) {
    if (tab !== "challenge") forgetPrivate();
    view.house = false;
    view.handOverHouse = false;
    if (options.ledgerAccount !== undefined) view.ledgerAccount = options.ledgerAccount;
    if (options.sheet !== undefined) view.sheetShown = options.sheet;
    if (options.setup !== undefined) view.setupOpen = options.setup;
  },
  context: (view, app) => ({
    /** Loads the table again (after the hand-over to the House) and redraws it. */
    reloadTable: (button) => busy(button, screen.reload),
    refreshGames: () => app.refresh().catch(() => {}),
    /** "player": this device is a player's phone; "table": the House's; "both": passed around. */
    role: view.role,
    mine: view.mine,
  }),
  tabClass: (tab) => `penny-tab penny-tab-${tab}`,
  renders: {
    sheet: renderSheet,
    table: renderTable,
    ledger: renderLedger,
    log: renderLog,
    // The challenge being played, or the last one until a new one is set up; else the set-up.
    challenge(host, ctx) {
      const c = ctx.ui.table.challenge;
      const running = c && c.phase !== "over";
      if (running || (c && !ctx.ui.setupOpen)) renderChallenge(host, ctx);
      else renderSetup(host, ctx);
    },
  },
  // The player the screen was opened for.
  who: (view) => (view.forCharacter ? view.table.players.find((p) => p.id === view.character)?.name : null),
  place: (view) => ({ screen: view.forCharacter ? "sheet" : "game", game: view.gameId, character: view.character, tab: view.tab }),
});

/** Wires the game header's "Penny Ante table" button and builds the (hidden) screen. */
export function initPennyScreens(hooks) {
  screen.init(hooks);
  byId("game-penny").addEventListener("click", () => screen.open(byId("game-detail").dataset.gameId, "table"));
}
