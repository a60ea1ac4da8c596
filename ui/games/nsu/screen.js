// The No Stone Unturned screen of a game, in the frame every system shares (game-screen.js:
// "← Home", the heading, the NSU badge, the tabs — at the bottom on a phone). Four tabs: a
// character's Sheet (nsu-sheet.js, with its creation wizard), the World (nsu-world.js: map,
// locations, worldbuilding), Downtime (nsu-downtime.js) and the roll Log (nsu-log.js).
// Home opens a character's sheet in one tap (`openSheet`) and a game on its World tab
// (`openGame`), both registered with systems.js; every tab change is remembered.
//
//   import { initNsuScreen } from "./screen.js";
//   initNsuScreen({ run, toast, refresh, getGame, renameCharacter });   // once, from app.js

import { el, byId } from "../../kit/dom.js";
import { gameScreen } from "../../shell/game-screen.js";
import { registerSystem, rememberPlace } from "../../shell/systems.js";
import { initNsuSheet, sheetRoot, loadSheet, forgetSheet, sheetCharacter } from "./sheet.js";
import { initNsuWorld, worldRoot, loadWorld, forgetWorld } from "./world.js";
import { renderRollLog } from "./log.js";

const TABS = [
  ["sheet", "Sheet"],
  ["world", "World"],
  ["downtime", "Downtime"],
  ["log", "Log"],
];
const TAB_IDS = new Set(TABS.map(([tab]) => tab));

let app = null; // {run, toast, refresh, getGame, renameCharacter}
let frame = null;
// {gameId, tab, character: the character it was opened for (or null), sheetId: the sheet
//  shown on the Sheet tab, logAll: the Log tab shows every roll of the game}
let view = null;

/** Builds the (hidden) screen, wires the game panel's NSU buttons and registers with home. */
export function initNsuScreen(hooks) {
  app = hooks;
  initNsuSheet({
    run: app.run,
    toast: app.toast,
    renameCharacter: app.renameCharacter,
    setTitle: () => title(),
    focusHeading: () => frame.heading.focus(),
  });
  initNsuWorld({ run: app.run, toast: app.toast, getGame: app.getGame });
  frame = gameScreen({
    name: "nsu",
    tabPrefix: "nsu",
    kit: "nsu",
    label: "No Stone Unturned",
    system: "nsu",
    tabs: TABS,
    onBack: close,
    onTab: (tab) => switchTab(tab),
    print: { character: () => (view?.tab === "sheet" ? view.sheetId : null), run: app.run, toast: app.toast },
  });
  // The sheet's summary strip sticks just under the frame's sticky bar, whatever its height.
  const bar = frame.heading.closest(".frame-bar");
  if (bar && typeof ResizeObserver === "function") {
    new ResizeObserver(() => frame.body.style.setProperty("--strip-top", `${bar.offsetHeight}px`)).observe(bar);
  }
  const fromPanel = (tab) => () => open(byId("game-detail").dataset.gameId, tab);
  byId("game-world")?.addEventListener("click", fromPanel("world"));
  byId("game-downtime")?.addEventListener("click", fromPanel("downtime"));
  byId("game-roll-log")?.addEventListener("click", fromPanel("log"));
  registerSystem("nsu", {
    /** A character's sheet, the player's landing page (or another tab of it). */
    openSheet: (characterId, gameId, tab = "sheet") => open(gameId, tab, characterId),
    openGame: (gameId, tab = "world") => open(gameId, tab),
  });
}

/** Opens the game's screen on `tab`; with `character`, for that character (its sheet on Sheet). */
async function open(gameId, tab, character = null) {
  if (!gameId) return;
  if (view) leave();
  view = { gameId, tab: TAB_IDS.has(tab) ? tab : "world", character, sheetId: character, logAll: character === null };
  const shown = await showTab();
  if (!shown || !view) return;
  frame.show(gameId);
  rememberHere();
}

/** Records this screen and tab as the place to reopen. */
function rememberHere() {
  if (!view) return;
  rememberPlace({ screen: view.character ? "sheet" : "game", game: view.gameId, character: view.character, tab: view.tab });
}

/** Forgets what the tabs hold. */
function leave() {
  forgetSheet();
  forgetWorld();
}

function close() {
  leave();
  view = null;
  frame.hide("game-world");
  app.refresh?.().catch(() => {});
}

async function switchTab(tab) {
  if (!view || !TAB_IDS.has(tab)) return;
  view.tab = tab;
  await showTab();
  if (!view) return;
  rememberHere();
  // A tab starts at its top, not under the sticky bar where the last one was scrolled.
  window.scrollTo(0, 0);
  frame.heading.focus();
}

function game() {
  return app.getGame(view.gameId) ?? { id: view.gameId, name: "", characters: [] };
}

/** The heading: the character's name (the sheet shown, or the one opened for) and the game's. */
function title() {
  if (!view) return;
  const shown = view.tab === "sheet" ? sheetCharacter() : null;
  const who = shown?.name ?? game().characters.find((c) => c.id === view.character)?.name ?? null;
  const name = game().name;
  frame.heading.textContent = who ? `${who} — ${name}` : name;
}

/** The character the Sheet tab shows when the screen was opened for none: mine first. */
function firstCharacter() {
  const characters = game().characters ?? [];
  return (characters.find((c) => c.mine) ?? characters[0])?.id ?? null;
}

/** Loads and shows the current tab in the frame; resolves false when it could not be read. */
async function showTab() {
  const tab = view.tab;
  if (tab !== "sheet") forgetSheet();
  if (tab !== "world" && tab !== "downtime") forgetWorld();
  let host;
  if (tab === "sheet") {
    if (!view.sheetId) view.sheetId = firstCharacter();
    if (!view.sheetId) {
      host = el("p", { id: "nsu-no-sheet", class: "muted" }, "No characters in this game yet. Name one on the home screen: its sheet opens here.");
    } else {
      if (!(await loadSheet(view.sheetId))) return false;
      host = el("div", { class: "nsu-tab nsu-tab-sheet" }, whoseSheet(), sheetRoot());
    }
  } else if (tab === "world" || tab === "downtime") {
    if (!(await loadWorld(view.gameId, tab))) return false;
    host = el("div", { class: `nsu-tab nsu-tab-${tab}` }, worldRoot());
  } else {
    host = el("div", { class: "nsu-tab nsu-tab-log" }, logChooser());
    const list = el("div", { id: "nsu-log", "aria-live": "polite" });
    host.append(list);
    await renderRollLog(list, { gameId: view.gameId, characterId: view.logAll ? null : view.sheetId });
  }
  if (!view || view.tab !== tab) return false;
  frame.fill("", tab, host);
  title();
  return true;
}

/** On a game opened for no one, which character's sheet the Sheet tab shows. */
function whoseSheet() {
  const characters = game().characters ?? [];
  if (view.character || characters.length < 2) return null;
  const select = el(
    "select",
    {
      id: "nsu-sheet-who",
      on: {
        change: async () => {
          view.sheetId = select.value;
          await showTab();
        },
      },
    },
    ...characters.map((c) => el("option", { value: c.id, selected: c.id === view.sheetId }, c.name)),
  );
  return el("div", { class: "nsu-who field" }, el("label", { for: "nsu-sheet-who" }, "Whose sheet"), select);
}

/** On the Log tab of a character: their rolls or every roll of the game. */
function logChooser() {
  const who = view.sheetId ? game().characters.find((c) => c.id === view.sheetId) : null;
  if (!who) return null;
  const pick = (all, id, text) =>
    el(
      "button",
      {
        type: "button",
        id,
        "aria-pressed": String(view.logAll === all),
        on: {
          click: async () => {
            view.logAll = all;
            await showTab();
          },
        },
      },
      text,
    );
  return el(
    "div",
    { class: "nsu-log-scope", role: "group", "aria-label": "Whose rolls" },
    pick(false, "nsu-log-mine", `${who.name}’s rolls`),
    pick(true, "nsu-log-all", "Every roll"),
  );
}
