// The UI's entry point and state owner. It loads the games, keeps the one `state` object,
// changes it only through `reduce` (state.js) and re-renders every view from it. The views
// call back into the actions below; only api.js talks to the Rust side.
//
//   <script type="module" src="app.js"></script>   (nothing to call: it starts itself)

import * as api from "./shell/api.js";
import { initialState, reduce, selectedGame, suggestedFileName } from "./shell/state.js";
import { byId } from "./kit/dom.js";
import { inTurn } from "./kit/in-turn.js";
import { renderSystemOptions, renderGames, renderCards } from "./shell/home.js";
import { renderGame } from "./shell/game.js";
import { keepControlsClear, renderToast, toastInUse } from "./kit/toast.js";
import { renderError } from "./kit/error.js";
import { askName } from "./kit/rename.js";
import { confirmAction } from "./kit/confirm.js";
import { askImport } from "./shell/import.js";
import { working, keepBusy } from "./kit/progress.js";
import { wireXCard } from "./shell/xcard.js";
import {
  registerLoader as registerSystemLoader,
  loadSystem,
  openCharacter,
  openGameScreen,
  readSettings,
  saveSetting,
  parsePlace,
  applyTheme,
  applyHints,
  systemStylesheets,
} from "./shell/systems.js";
import { initLink, joinedTo } from "./shell/link.js";

/**
 * How long a toast stays before it fades (longer while the person is using it): a routine
 * edit's a few seconds, one with Undo a little more, a deletion or an import longer.
 */
const TOAST_MS = { plain: 4000, undo: 5000, long: 10000 };
const NARROW = window.matchMedia("(max-width: 719px)");

let state = initialState;

function dispatch(action) {
  const before = state;
  state = reduce(state, action);
  if (state !== before) render(before);
}

/** Re-renders every view, keeping the keyboard focus on the "same" control when it is redrawn. */
function render(before) {
  const focusKey = document.activeElement?.dataset?.focusKey;
  if (before.systems !== state.systems) renderSystemOptions(state.systems);
  renderCards(state, cardActions);
  renderGames(state, gameListActions);
  renderGame(state, gameActions);
  keepBusy();
  renderToast(state.toast, toastActions);
  renderError(state.error);
  if (focusKey && document.activeElement === document.body) {
    const again = document.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus();
  }
  if (before.toast !== state.toast && state.toast) {
    keepControlsClear();
    const t = state.toast;
    scheduleToastEnd(t.serial, t.long ? TOAST_MS.long : t.undo ? TOAST_MS.undo : TOAST_MS.plain);
  }
}

function scheduleToastEnd(serial, ms) {
  setTimeout(() => {
    if (!state.toast || state.toast.serial !== serial) return;
    if (toastInUse()) scheduleToastEnd(serial, 4000);
    else dispatch({ type: "clear-toast", serial });
  }, ms);
}

/**
 * Runs one user action; a failure is shown in the error area under `title`. A new action
 * clears the last refusal; a reload nobody asked for (`quiet`: a change that came from
 * another device) leaves it, so the person is still reading why their move was refused.
 */
async function run(title, action, { quiet = false, queue = null } = {}) {
  // Cleared when asked, even when the action waits its turn in `queue` (kit/in-turn.js): a
  // reload still waiting never clears a refusal shown since.
  if (state.error && !quiet) dispatch({ type: "clear-error" });
  try {
    await (queue ? queue(action) : action());
  } catch (e) {
    dispatch({ type: "error", title, message: messageOf(e) });
  }
}

function messageOf(e) {
  if (e && typeof e === "object" && typeof e.message === "string" && e.message !== "") {
    return e.message;
  }
  return String(e);
}

/** Home's lists read again; in turn, so an older read never draws over a newer one. */
const refreshing = inTurn();
function refresh() {
  return refreshing(async () => {
    const games = await api.listGames();
    dispatch({ type: "games-loaded", games });
    dispatch({ type: "cards-loaded", cards: await characterCards() });
  });
}

/** Every character as a home card (mine first, with a few key numbers). */
async function characterCards() {
  return api.characterCards();
}

/**
 * Shows `message` in the toast, with Undo when `undo` ({kind, id}) is given. Toasts that come
 * quickly one after another share one toast (the latest message, and how many changes).
 * `options.long` keeps it longer (deletions, imports).
 */
function toast(message, undo = null, options = {}) {
  // A joined game changes only at the table: its own moves are undone there, not here.
  if (undo && undo.kind === "game" && joinedTo(undo.id)) undo = null;
  dispatch({ type: "toast", message, undo, long: Boolean(options.long), at: Date.now() });
}

/** Text for a toast: the app's own words when it sent some, else ours. */
const said = (result, fallback) =>
  result && typeof result.message === "string" && result.message !== "" ? result.message : fallback;

const quoted = (name) => `“${name}”`;

function focusHeading(id) {
  const heading = byId(id);
  if (heading && !heading.closest("[hidden]")) heading.focus();
}

// ---- actions on games -------------------------------------------------------------------

const cardActions = {
  async openCard(card) {
    await openSheetOf({ id: card.id, system: card.system, game_id: card.game_id });
  },
};

/** Opens a character's sheet through its system's registered screen. */
async function openSheetOf(character, tab = undefined) {
  await run("The sheet could not be opened.", async () => {
    const opened = await openCharacter(character.system, character.id, character.game_id, tab);
    if (!opened) throw new Error("This system has no sheet screen here yet.");
  });
}

const gameListActions = {
  selectGame(id) {
    dispatch({ type: "select-game", id });
    if (NARROW.matches) {
      byId("game-panel").scrollIntoView({ block: "start" });
      focusHeading("game-heading");
    }
  },
};

async function createGame(event) {
  event.preventDefault();
  const input = byId("new-game-name");
  const name = input.value.trim();
  const system = byId("new-game-system").value;
  if (name === "") return;
  const submit = byId("new-game-submit");
  submit.disabled = true;
  submit.setAttribute("aria-busy", "true");
  await run("The game was not created.", async () => {
    const created = await api.createGame(name, system);
    input.value = "";
    await refresh();
    if (created && created.id) dispatch({ type: "select-game", id: created.id });
    toast(`Created the game ${quoted(name)}.`);
  });
  submit.disabled = false;
  submit.removeAttribute("aria-busy");
}

async function renameGame() {
  const game = selectedGame(state);
  if (!game) return;
  const name = await askName({ title: "Rename game", current: game.name });
  if (name === null) return;
  await run("The game was not renamed.", async () => {
    await api.renameGame(game.id, name);
    await refresh();
    toast(`Renamed ${quoted(game.name)} to ${quoted(name)}.`, { kind: "game", id: game.id });
  });
}

async function deleteGame() {
  const game = selectedGame(state);
  if (!game) return;
  const n = game.characters.length;
  const yes = await confirmAction({
    title: `Delete ${quoted(game.name)}?`,
    message:
      (n === 0
        ? "The game has no characters."
        : `Its ${n === 1 ? "character goes" : `${n} characters go`} with it.`) +
      " You can undo this right after.",
    yes: "Delete game",
  });
  if (!yes) return;
  await run("The game was not deleted.", async () => {
    const result = await api.deleteGame(game.id);
    await refresh();
    toast(said(result, `Deleted ${quoted(game.name)}.`), { kind: "game", id: game.id }, { long: true });
    focusHeading("games-heading");
  });
}

async function exportGame(event) {
  const game = selectedGame(state);
  if (!game) return;
  await exportTo(event.currentTarget, "The game was not exported.", quoted(game.name), (onStep) =>
    api.exportGame(game.id, suggestedFileName(game.name, "game"), onStep),
  );
}

/**
 * One export: the app asks where to save `what` and writes it there, with `button` waiting
 * and the status line saying which step it is at. A cancelled dialog says nothing.
 */
async function exportTo(button, failed, what, start) {
  await run(failed, () =>
    transfer(button, `Choose where to save ${what} in the file dialog…`, async (say) => {
      const result = await start((step) => {
        if (step === "writing") say(`Saving ${what}…`);
      });
      // The file's name, not its whole path: that is what the person just chose.
      if (result.outcome === "saved") toast(`Exported ${what} to ${quoted(result.file_name)}.`);
    }),
  );
}

/** One file dialog at a time: an import or export asked for while one runs is ignored. */
let transferring = false;

async function transfer(button, text, action) {
  if (transferring) return;
  transferring = true;
  try {
    await working(button, byId("work-status"), text, action);
  } finally {
    transferring = false;
  }
}

// ---- actions on characters --------------------------------------------------------------

async function createCharacter(event) {
  event.preventDefault();
  const game = selectedGame(state);
  const input = byId("new-character-name");
  const name = input.value.trim();
  if (!game || name === "") return;
  const submit = byId("new-character-submit");
  submit.disabled = true;
  submit.setAttribute("aria-busy", "true");
  let created = null;
  await run("The character was not created.", async () => {
    created = await api.createCharacter(game.id, name);
    input.value = "";
    await refresh();
    toast(`Created ${quoted(name)} in ${quoted(game.name)}.`);
  });
  submit.disabled = false;
  submit.removeAttribute("aria-busy");
  // Straight into the system's own creation flow: its sheet says what is still needed.
  if (created?.id) {
    await openSheetOf({ id: created.id, system: game.system, game_id: game.id });
    keepControlsClear(); // the "Created" toast must not sit over the new sheet's fields
  }
}

async function setRole(event) {
  const game = selectedGame(state);
  const role = event.currentTarget.value;
  if (!game || !event.currentTarget.checked) return;
  const words = { player: "a player device", table: "the table device", both: "one device for the whole table" };
  await run("The device's role was not changed.", async () => {
    const result = await api.setDeviceRole(game.id, role);
    await refresh();
    toast(said(result, `This device is ${words[role]} in ${quoted(game.name)}.`));
  });
  renderGame(state, gameActions);
}

/** The game's "roll real dice" preference: every roll screen starts with the faces typed in. */
async function setDiceByHand(event) {
  const game = selectedGame(state);
  const byHand = event.currentTarget.checked;
  if (!game) return;
  await run("The dice preference was not changed.", async () => {
    const result = await api.setDiceByHand(game.id, byHand);
    await refresh();
    toast(
      said(
        result,
        byHand
          ? `Rolls in ${quoted(game.name)} start with the faces of real dice typed in.`
          : `Rolls in ${quoted(game.name)} are rolled by the app.`,
      ),
    );
  });
  renderGame(state, gameActions);
}

async function saveGameNotes(event) {
  event.preventDefault();
  const game = selectedGame(state);
  if (!game) return;
  const notes = byId("game-notes");
  await run("The notes were not saved.", async () => {
    const result = await api.setGameNotes(game.id, notes.value);
    notes.blur();
    await refresh();
    toast(said(result, `Saved the notes of ${quoted(game.name)}.`), { kind: "game", id: game.id });
  });
}

const gameActions = {
  async openSheet(character) {
    await openSheetOf(character);
  },

  /** An NSU character's action roll: the roll wizard loads with the NSU screens. */
  async rollCharacter(character) {
    await run("The roll could not be opened.", async () => {
      await loadSystem("nsu");
      const { openRollWizard } = await import("./games/nsu/roll.js");
      await openRollWizard(character.id);
    });
  },

  async setMine(character, mine) {
    await run("That was not changed.", async () => {
      const result = await api.setMine(character.id, mine);
      await refresh();
      toast(said(result, mine ? `${quoted(character.name)} is yours.` : `${quoted(character.name)} is kept here for someone else.`));
    });
  },

  async renameCharacter(character) {
    const name = await askName({ title: "Rename character", current: character.name });
    if (name === null) return;
    await run("The character was not renamed.", async () => {
      await api.renameCharacter(character.id, name);
      await refresh();
      toast(`Renamed ${quoted(character.name)} to ${quoted(name)}.`, {
        kind: "character",
        id: character.id,
      });
    });
  },

  async deleteCharacter(character) {
    const yes = await confirmAction({
      title: `Delete ${quoted(character.name)}?`,
      message: "The character and its history are removed. You can undo this right after.",
      yes: "Delete character",
    });
    if (!yes) return;
    await run("The character was not deleted.", async () => {
      const result = await api.deleteCharacter(character.id);
      await refresh();
      toast(
        said(result, `Deleted ${quoted(character.name)}.`),
        { kind: "character", id: character.id },
        { long: true },
      );
      focusHeading("characters-heading");
    });
  },

  async exportCharacter(character, button) {
    await exportTo(button, "The character was not exported.", quoted(character.name), (onStep) =>
      api.exportCharacter(character.id, suggestedFileName(character.name, "character"), onStep),
    );
  },

  async transferCharacter(character, toGame, kind) {
    const target = state.games.find((g) => g.id === toGame);
    if (!target) return;
    const verb = kind === "move" ? "moved" : "copied";
    await run(`The character was not ${verb}.`, async () => {
      const result =
        kind === "move"
          ? await api.moveCharacter(character.id, toGame)
          : await api.copyCharacter(character.id, toGame);
      await refresh();
      toast(
        said(result, `${kind === "move" ? "Moved" : "Copied"} ${quoted(character.name)} to ${quoted(target.name)}.`),
      );
    });
  },
};

// ---- toast, import, export everything --------------------------------------------------

// A screen's toast is about that screen: leaving it (for home, then maybe another game) clears it.
document.addEventListener("sheetkeeper:screen-hidden", () => dispatch({ type: "clear-toast" }));

const toastActions = {
  async undo(undo) {
    dispatch({ type: "clear-toast" });
    await run("That could not be undone.", async () => {
      const result =
        undo.kind === "game" ? await api.undoGame(undo.id) : await api.undoCharacter(undo.id);
      await refresh();
      if (undo.kind === "game") dispatch({ type: "select-game", id: undo.id });
      document.dispatchEvent(new CustomEvent("sheetkeeper:undone", { detail: undo }));
      toast(said(result, "Undone."));
    });
  },
  dismiss() {
    dispatch({ type: "clear-toast" });
  },
};

async function importFile(event) {
  const button = event.currentTarget;
  await run("The file was not imported.", async () => {
    try {
      await importSteps(button);
    } catch (e) {
      throw new Error(importProblemWords(messageOf(e)));
    }
  });
}

async function importSteps(button) {
  await transfer(button, "Choose the file to import in the file dialog…", async (say) => {
    const picked = await api.importPick((step) => {
      if (step === "reading") say("Reading and checking the file…");
    });
    if (picked.outcome !== "picked") return;
    say(`Importing from ${quoted(picked.name)}…`);
    await importPicked(picked);
  });
}

/** The import preview of a picked (or given) file, then the import; null when cancelled. */
async function importPicked(picked) {
  const result = await askImport(picked, api);
  if (result === null) return null;
  await refresh();
  // Show what came in: the file's game when it kept its id, else the first game.
  const shown = picked.preview.games.find((g) => state.games.some((mine) => mine.id === g.id));
  const pick = shown ? shown.id : state.selectedGameId ?? state.games[0]?.id;
  if (pick) dispatch({ type: "select-game", id: pick });
  toast(importedWords(result), null, { long: true });
  return result;
}

/** "Imported 2 new characters or games and updated 1." from the import's counts. */
function importedWords(result) {
  const c = result?.counts;
  if (!c) return said(result, "Imported.");
  const parts = [];
  if (c.new > 0) parts.push(`${c.new} new`);
  if (c.update > 0) parts.push(`${c.update} updated`);
  if (c.conflict > 0) parts.push(`${c.conflict} replaced`);
  if (parts.length === 0) return "Nothing to import: everything in the file is already here.";
  const total = c.new + c.update + c.conflict;
  return `Imported ${total === 1 ? "1 game or character" : `${total} games and characters`}: ${parts.join(", ")}.`;
}

/**
 * A refused file's problems in a player's words: the file's name instead of its whole path,
 * no "$" JSON paths, and what a cut-off file means.
 */
function importProblemWords(message) {
  let text = String(message)
    // A path to the file → its name.
    .replace(/(?:[A-Za-z]:)?(?:[\\/][^\\/\n:]+)*[\\/]([^\\/\n:]*?\.json)\b/g, "“$1”")
    // "- $: problem" → "- problem"; "- $.data.games[0].name: problem" → "- at data.games[0].name: problem".
    .replace(/(^|\n)- \$: /g, "$1- ")
    .replace(/(^|\n)- \$\.([^:\n]+): /g, "$1- at $2: ");
  if (/ends too early/.test(text)) {
    text = `This file is incomplete (it may have been cut off while copying).\n${text}`;
  }
  return text;
}

async function exportAll(event) {
  const day = new Date().toISOString().slice(0, 10);
  await exportTo(event.currentTarget, "Nothing was exported.", "everything", (onStep) =>
    api.exportAll(suggestedFileName(`sheetkeeper-backup-${day}`), onStep),
  );
}

// ---- the header: menu, theme ------------------------------------------------------------

function wireHeader() {
  const menu = byId("menu-button");
  menu.addEventListener("click", () => {
    const open = menu.getAttribute("aria-expanded") !== "true";
    menu.setAttribute("aria-expanded", String(open));
    byId("app-header").classList.toggle("menu-open", open);
  });
  byId("theme-select").addEventListener("change", async (event) => {
    const theme = event.currentTarget.value;
    applyTheme(theme);
    await run("The theme was not saved.", () => saveSetting("theme", theme));
  });
  byId("hints-switch").addEventListener("change", async (event) => {
    const on = event.currentTarget.checked;
    applyHints(on);
    await run("The hints setting was not saved.", () => saveSetting("hints", on ? "on" : "off"));
  });
}

// ---- the systems' screens -----------------------------------------------------------------

/**
 * Each system's screens load the first time one is opened (a sheet, a game's screen, a button
 * on the game panel): the home screen needs none of them, so start-up does not read them.
 */
function registerLoaders() {
  const hooks = { run, toast, refresh, getGame: (id) => state.games.find((g) => g.id === id) ?? null };
  // A load that fails (a module missing from a broken install) says so in the error area.
  const registerLoader = (system, { buttons, load }) =>
    registerSystemLoader(system, { buttons, load: () => run("This game's screens could not be loaded.", load) });
  registerLoader("nsu", {
    buttons: ["game-world", "game-downtime", "game-roll-log"],
    load: async () => {
      const [screen, roll] = await Promise.all([import("./games/nsu/screen.js"), import("./games/nsu/roll.js")]);
      screen.initNsuScreen({ ...hooks, renameCharacter: (character) => gameActions.renameCharacter(character) });
      roll.initNsuRoll({ run, toast, refresh });
    },
  });
  registerLoader("penny_ante", {
    buttons: ["game-penny"],
    load: async () => (await import("./games/penny_ante/screen.js")).initPennyScreens(hooks),
  });
  registerLoader("mezzo", {
    buttons: ["game-mezzo"],
    load: async () => (await import("./games/mezzo/screen.js")).initMezzoScreens(hooks),
  });
  registerLoader("scattershot", {
    buttons: ["game-scattershot"],
    load: async () => (await import("./games/scattershot/screen.js")).initScattershotScreens(hooks),
  });
}

/** Reopens the place saved last (a sheet, a game's screen); home when it no longer exists. */
async function reopen(placeText) {
  const place = parsePlace(placeText);
  if (!place || place.screen === "home" || !place.game) return;
  const game = state.games.find((g) => g.id === place.game);
  if (!game) return;
  dispatch({ type: "select-game", id: game.id });
  try {
    if (place.character) {
      const character = game.characters.find((c) => c.id === place.character);
      if (character) await openCharacter(game.system, character.id, game.id, place.tab ?? undefined);
    } else {
      await openGameScreen(game.system, game.id, place.tab ?? undefined);
    }
  } catch (_) {
    // Silently home: the place is gone or cannot be shown any more.
  }
  if (state.error) dispatch({ type: "clear-error" });
}

/** The selected game's campaign journal (shell/journal.js, loaded when first asked for). */
async function openGameJournal(event) {
  const game = selectedGame(state);
  const opener = event.currentTarget;
  if (!game) return;
  await run("The journal could not be opened.", async () => {
    const { openJournal } = await import("./shell/journal.js");
    const moves = await openJournal({ gameId: game.id, opener, toast });
    if (moves > 0) await refresh();
  });
}

// ---- start ------------------------------------------------------------------------------

function wire() {
  registerLoaders();
  wireHeader();
  byId("new-game-form").addEventListener("submit", createGame);
  byId("new-character-form").addEventListener("submit", createCharacter);
  byId("game-rename").addEventListener("click", renameGame);
  byId("game-delete").addEventListener("click", deleteGame);
  byId("game-export").addEventListener("click", exportGame);
  byId("game-journal").addEventListener("click", openGameJournal);
  byId("game-notes-form").addEventListener("submit", saveGameNotes);
  for (const input of document.querySelectorAll("input[name='device-role']")) input.addEventListener("change", setRole);
  byId("game-dice-by-hand").addEventListener("change", setDiceByHand);
  byId("import-button").addEventListener("click", importFile);
  byId("export-all-button").addEventListener("click", exportAll);
  byId("error-dismiss").addEventListener("click", () => dispatch({ type: "clear-error" }));
  wireXCard();
  initLink({
    run,
    toast,
    refresh,
    getGame: (id) => state.games.find((g) => g.id === id) ?? null,
    games: () => state.games,
    selectGame: (id) => gameListActions.selectGame(id),
    openSheet: (character) => openSheetOf(character),
    importPicked,
  });
}

/** The start's steps for the start-up probe: when the page itself arrived, when start.js asked
 * for the data and when the other modules had arrived (api.js), then each step.
 * (WebKit lists no resource timings for the app's own scheme, so the files cannot be timed.) */
function startMarks(steps) {
  const nav = performance.getEntriesByType("navigation")[0];
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? 0;
  return [["html", nav?.responseEnd ?? 0], ["asked", at("asked")], ["modules", at("modules")], ...steps];
}

async function start() {
  const steps = [["run", performance.now()]];
  // First in the queue, before the link panel's calls (wire): start.js sent it long before.
  const asked = api.home();
  wire();
  // The defaults (the device's theme, home) stand if the settings cannot be read.
  let settings = readSettings(null);
  await run("Sheetkeeper could not load your games.", async () => {
    const home = await asked;
    steps.push(["data", performance.now()]);
    settings = readSettings(home.settings);
    applySettings(settings);
    dispatch({ type: "systems-loaded", systems: home.systems });
    dispatch({ type: "games-loaded", games: home.games });
    dispatch({ type: "cards-loaded", cards: home.cards });
    if (home.games.length > 0) dispatch({ type: "select-game", id: home.games[0].id });
  });
  await reopen(settings.place);
  document.body.dataset.ready = "true";
  steps.push(["shown", performance.now()]);
  // Once the first screen is painted, as the bare window of the start-up yardstick does; then
  // the systems' stylesheets, which the home screen does not use.
  requestAnimationFrame(() => {
    api.uiReady(startMarks(steps)).catch(() => {});
    systemStylesheets().catch(() => {});
  });
}

function applySettings(settings) {
  applyTheme(settings.theme);
  byId("theme-select").value = settings.theme;
  applyHints(settings.hints);
  byId("hints-switch").checked = settings.hints;
}

start();
