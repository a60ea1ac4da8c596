// The Mezzo screen of a game (RULES.md §3): it replaces the games layout while open and has
// nine tabs — the sheet (elements.js `renderSheetTab`: this device's character, opened from
// home through systems.js `openSheet`), a conflict (conflict.js: options, casts or the totals
// the table counted, live exact odds, resolution, ties), an action check (check.js), a
// challenge (challenge.js), the table (table.js: the arc and the players with their influence,
// Actor role and claims), the story elements (elements.js: every element and its sheet), the
// plot (plot.js), the seed deck (deck.js) and the log of moves with Undo (log.js). The first
// four make the phone's tab bar, the rest are under More (shell/game-screen.js). It opens from
// home (a character card or a game) or from the "Mezzo table" button of a Mezzo game.
//
//   import { initMezzoScreens } from "./screen.js";
//   initMezzoScreens({ run, toast, refresh, getGame });   // once, from app.js
//
// The device's role in the game (`role` in the games list: "player", "table" or "both") shapes
// what is asked: a player's device acts only for its own players (those who claimed one of
// its characters), enters the others' votes as totals and shows only its own players' hands.
//
// The life cycle (open, read, draw, `move` with a toast and Undo, undo the last move, close)
// is the shell's (shell/game-controller.js); this file gives what is Mezzo's: the view (which
// game and tab, the table as the app last sent it, the sheets shown, the characters active in
// the scene, the conflict being set up), what each tab reads and how a move's answer (a
// MezzoChange, or an outcome carrying one) changes it.

import * as api from "./api.js";
import { die } from "../../kit/dice-tray.js";
import { byId } from "../../kit/dom.js";
import { gameController } from "../../shell/game-controller.js";
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

/** The game as the games list has it (role, characters with `mine` and `notes`). */
const gameOf = () => (screen.view() ? screen.app().getGame(screen.view().gameId) : null);

/** This device's role in the game: "player", "table" or "both" (one device, passed around). */
const role = () => gameOf()?.role ?? "both";

/** The characters of this game that are this device's (all of them on a "both" device that marked none). */
function ownCharacters() {
  const chars = screen.view()?.table?.characters ?? [];
  const mine = chars.filter((c) => gameOf()?.characters?.find((g) => g.id === c.id)?.mine);
  return mine.length > 0 || role() === "player" ? mine : chars;
}

/**
 * The players a player device acts for: those its person sits as ("I am …", kept by the core,
 * with or without a claimed character) and those who claimed one of its characters. The core
 * refuses the others' hands whatever this offers.
 */
function ownPlayers() {
  const mine = new Set(ownCharacters().map((c) => c.id));
  const sat = new Set(screen.view()?.seats?.sat ?? []);
  return (screen.view()?.table?.players ?? []).filter((p) => sat.has(p.id) || p.claimed.some((id) => mine.has(id)));
}

/** The characters active in the scene, as the table stores them (they survive a reload). */
function syncActive(view, table) {
  const active = table.scene?.active ?? [];
  view.active = active.filter((id) => table.characters.some((c) => c.id === id));
}

/** What the shown tab reads besides the table: the log, the check waiting, the plot, the deck. */
async function loadTab(view) {
  const gameId = view.gameId;
  // The laws, themes, facts and vote sources a conflict and an action check draw on (the plot tab keeps the register).
  if (view.tab === "conflict" || view.tab === "check" || view.tab === "plot") view.sources = await api.mezzoConflictSources(gameId);
  // A conflict the table opened for votes on the players' own devices (DEV-1).
  if (view.tab === "conflict") view.openConflict = await api.mezzoOpenConflict(gameId);
  if (view.tab === "check") view.openCheck = await api.mezzoOpenCheck(gameId);
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

const screen = gameController({
  system: "mezzo",
  frame: { name: "mezzo", kit: "mz", screenClass: "mz-screen forms-screen", label: "Mezzo", tabs: TABS },
  opener: "game-mezzo",
  noun: "The Mezzo table",
  home: "sheet",
  // The game's own dice on the tray (any XdY±N can be typed too): the step dice Leave to
  // Chance gives votes, a d12 per tied option, the D6 variant's d6.
  dice: () => [
    die("d4", "1 vote"),
    die("d6", "2 votes · D6 variant"),
    die("d8", "3 votes"),
    die("d10", "4 votes"),
    die("d12", "5 votes · a tie"),
  ],
  start: (gameId, tab, character) => ({
    table: null,
    log: null,
    sheetId: character, // the Sheet tab's character
    elementId: null, // the sheet open on the Story elements tab
    active: [],
    conflict: newConflict(),
    openConflict: null, // the conflict open for votes on phones (DEV-1), read with the Conflict tab
    openCheck: null, // the action check open for votes on phones, read with the Action check tab
    check: newCheck(),
    open: {},
  }),
  async load(view) {
    const table = await api.mezzoTable(view.gameId);
    view.table = table;
    // The players this device's person sits as (a player is a viewer in their own right).
    view.seats = await api.mezzoSeats(view.gameId);
    syncActive(view, table);
    await loadTab(view);
  },
  loadTab,
  opened(view) {
    // The sheet tab opens on this device's own character when none was named.
    if (!view.sheetId) view.sheetId = ownCharacters()[0]?.id ?? null;
    // The game's "roll real dice" preference: the dice boxes open by themselves.
    view.conflict.hand = view.check.hand = Boolean(gameOf()?.dice_by_hand);
    // A table set to the D6 variant (Table tab) rolls its conflicts that way too.
    followTableDice(view.conflict, view.table?.variant);
  },
  // A move may answer with a MezzoChange or with what carries one in `change` (a conflict's outcome).
  apply(view, answer) {
    const change = answer && answer.view ? answer : answer.change;
    if (view.table?.variant !== change.view.variant) followTableDice(view.conflict, change.view.variant);
    view.table = change.view;
    syncActive(view, change.view);
    view.lastMoveTag = null;
    return change;
  },
  afterUndo: (view) => forgetResult(view),
  undone(view, detail) {
    const mine = detail.id === view.gameId || detail.kind === "character";
    if (mine) forgetResult(view);
    return mine;
  },
  beforeSwitch(view, tab, options) {
    if (options.element === undefined) return;
    if (tab === "sheet") view.sheetId = options.element;
    else view.elementId = options.element;
  },
  context: (view) => ({
    step,
    other,
    role: role(),
    /** The players this device acts for: its own on a player device, everyone otherwise. */
    devicePlayers: role() === "player" ? ownPlayers() : view.table.players,
    ownCharacters: ownCharacters(),
    /** The players this device's person sits as ("I am …"). */
    seats: view.seats?.sat ?? [],
    /** Joined to a linked table: the host seats this device ("I am …" asks it). */
    seatsLinked: Boolean(view.seats?.linked),
    diceByHand: Boolean(gameOf()?.dice_by_hand),
    character: (id) => gameOf()?.characters?.find((c) => c.id === id) ?? null,
  }),
  tabClass: (tab) => `mz-tab mz-tab-${tab}`,
  renders: {
    sheet: renderSheetTab,
    table: renderTable,
    elements: renderElements,
    conflict: renderConflict,
    check: renderCheck,
    plot: renderPlot,
    deck: renderDeck,
    challenge: renderChallenge,
    log: renderLog,
  },
  // The character whose sheet the Sheet tab shows.
  who: (view) => (view.tab === "sheet" && view.sheetId ? view.table?.characters.find((c) => c.id === view.sheetId)?.name : null),
  place(view) {
    const character = view.sheetId && view.table?.characters.some((c) => c.id === view.sheetId) ? view.sheetId : null;
    return character ? { screen: "sheet", game: view.gameId, character, tab: view.tab } : { screen: "game", game: view.gameId, tab: view.tab };
  },
});

/** Wires the game header's "Mezzo table" button and builds the (hidden) screen. */
export function initMezzoScreens(hooks) {
  screen.init(hooks);
  // The game's button opens on this device's character sheet, or on the table while the game has none.
  byId("game-mezzo").addEventListener("click", () => {
    const gameId = byId("game-detail").dataset.gameId;
    const characters = hooks.getGame(gameId)?.characters ?? [];
    screen.open(gameId, characters.length > 0 ? "sheet" : "table");
  });
  // The sheet's summary strip and the odds columns stick just under the frame's bar.
  const bar = byId("mezzo-screen").querySelector(".frame-bar");
  const keepBarHeight = () => document.documentElement.style.setProperty("--mz-bar-h", `${bar.offsetHeight}px`);
  if (bar && typeof ResizeObserver === "function") new ResizeObserver(keepBarHeight).observe(bar);
}

/**
 * An undoable game-level step that carries no table (an action check's roll): `call` runs with
 * `button` showing progress, the tab reloads, and the toast says `messageOf(result)` with Undo.
 */
const step = (title, call, messageOf, button = null) =>
  screen.act(title, call, {
    button,
    apply: async (answer, view) => {
      await screen.load(view);
      return [messageOf(answer), { kind: "game", id: view.gameId }];
    },
  });

/**
 * A change that is not a Mezzo move (a character made or renamed): `undoOf(result)` gives its
 * Undo ({kind: "character", id}) and `message` the toast's words.
 */
const other = (title, call, undoOf, message, button = null) =>
  screen.act(title, call, {
    button,
    refusal: false,
    apply: async (result, view) => {
      await screen.app().refresh();
      await screen.load(view);
      return [result && result.message ? result.message : message, undoOf(result)];
    },
  });
