// The No Stone Unturned screen of a game, in the frame every system shares (shell/game-screen.js:
// "← Home", the heading, the NSU badge, the tabs — at the bottom on a phone), with the life
// cycle every game shares (shell/game-controller.js). Four tabs: a character's Sheet
// (sheet.js, with its creation wizard), the World (world.js: map, locations, worldbuilding),
// Downtime (downtime.js) and the roll Log (log.js). Each tab keeps its own state and moves;
// this file reads the shown one. Home opens a character's sheet in one tap and a game on its
// World tab; every tab change is remembered.
//
//   import { initNsuScreen } from "./screen.js";
//   initNsuScreen({ run, toast, refresh, getGame, renameCharacter });   // once, from app.js

import * as api from "./api.js";
import { die } from "../../kit/dice-tray.js";
import { el, byId } from "../../kit/dom.js";
import { gameController } from "../../shell/game-controller.js";
import { initNsuSheet, sheetRoot, loadSheet, forgetSheet, sheetCharacter } from "./sheet.js";
import { initNsuWorld, worldRoot, loadWorld, forgetWorld } from "./world.js";
import { renderRollLog } from "./log.js";

const TABS = [
  ["sheet", "Sheet"],
  ["world", "World"],
  ["downtime", "Downtime"],
  ["log", "Log"],
];

/** The game as the games list has it (its name, its characters with `mine`). */
const game = (view) => screen.app().getGame(view.gameId) ?? { id: view.gameId, name: "", characters: [] };

/** The heading: the character's name (the sheet shown, or the one opened for) and the game's. */
function heading(view) {
  const shown = view.tab === "sheet" ? sheetCharacter() : null;
  const who = shown?.name ?? game(view).characters.find((c) => c.id === view.character)?.name ?? null;
  const name = game(view).name;
  return who ? `${who} — ${name}` : name;
}

/** The character the Sheet tab shows when the screen was opened for none: mine first. */
function firstCharacter(view) {
  const characters = game(view).characters ?? [];
  return (characters.find((c) => c.mine) ?? characters[0])?.id ?? null;
}

/** Forgets what the tabs hold. */
function leave() {
  forgetSheet();
  forgetWorld();
}

// {gameId, tab, character: the character it was opened for (or null), sheetId: the sheet
//  shown on the Sheet tab, logAll: the Log tab shows every roll of the game, host: the tab read}
const screen = gameController({
  system: "nsu",
  frame: { name: "nsu", kit: "nsu", label: "No Stone Unturned", tabs: TABS },
  opener: "game-world",
  noun: "The No Stone Unturned game",
  home: "world",
  // The game's own dice on the tray (any XdY±N can be typed too).
  dice: () => [...["d4", "d6", "d8"].map((d) => die(d, "aspect or mood die")), die("2d4", "danger or reward level")],
  scrollOnSwitch: true,
  start: (gameId, tab, character) => ({ character, sheetId: character, logAll: character === null, host: null }),
  // Each tab reads its own part (the sheet, the world, the log) and draws it in its root; false
  // when it could not be read or another tab was chosen meanwhile.
  async load(view) {
    const tab = view.tab;
    if (tab !== "sheet") forgetSheet();
    if (tab !== "world" && tab !== "downtime") forgetWorld();
    let host;
    if (tab === "sheet") {
      if (!view.sheetId) view.sheetId = firstCharacter(view);
      if (!view.sheetId) {
        host = el("p", { id: "nsu-no-sheet", class: "muted" }, "No characters in this game yet. Name one on the home screen: its sheet opens here.");
      } else {
        if (!(await loadSheet(view.sheetId))) return false;
        host = el("div", { class: "nsu-tab nsu-tab-sheet" }, whoseSheet(view), sheetRoot());
      }
    } else if (tab === "world" || tab === "downtime") {
      if (!(await loadWorld(view.gameId, tab))) return false;
      host = el("div", { class: `nsu-tab nsu-tab-${tab}` }, worldRoot());
    } else {
      host = el("div", { class: "nsu-tab nsu-tab-log" }, logChooser(view));
      const list = el("div", { id: "nsu-log", "aria-live": "polite" });
      host.append(list);
      await renderRollLog(list, { gameId: view.gameId, characterId: view.logAll ? null : view.sheetId });
      // The game's dice tray rolls (the frame's "Dice"), under its action rolls.
      if (view.logAll) host.append(await trayLog(view.gameId));
    }
    if (view.tab !== tab) return false;
    view.host = host;
    return true;
  },
  leave,
  draw: (ctx, view) => view.host,
  heading,
  place: (view) => ({ screen: view.character ? "sheet" : "game", game: view.gameId, character: view.character, tab: view.tab }),
});

/** The game's dice tray rolls, newest first, or why they could not be read. */
async function trayLog(gameId) {
  const title = el("h2", { id: "nsu-tray-log-title" }, "Dice tray");
  const box = el("section", { id: "nsu-tray-log", class: "nsu-tray-log", "aria-labelledby": title.id }, title);
  try {
    const rolls = await api.diceTrayLog(gameId);
    box.append(
      rolls.length === 0
        ? el("p", { class: "muted" }, "No dice tray rolls yet.")
        : el("ol", { id: "nsu-tray-log-list", class: "roll-log-list" }, ...rolls.map((r) => el("li", {}, r.action))),
    );
  } catch (e) {
    box.append(el("p", { class: "roll-error", role: "alert" }, `The dice tray rolls could not be loaded. ${e && e.message ? e.message : String(e)}`));
  }
  return box;
}

/** Builds the (hidden) screen, wires the game panel's NSU buttons and registers with home. */
export function initNsuScreen(hooks) {
  initNsuSheet({
    run: hooks.run,
    toast: hooks.toast,
    renameCharacter: hooks.renameCharacter,
    setTitle: () => {
      const view = screen.view();
      if (view) screen.frame().heading.textContent = heading(view);
    },
    focusHeading: () => screen.frame().heading.focus(),
  });
  initNsuWorld({ run: hooks.run, toast: hooks.toast, getGame: hooks.getGame });
  screen.init(hooks);
  const fromPanel = (tab) => () => screen.open(byId("game-detail").dataset.gameId, tab);
  byId("game-world")?.addEventListener("click", fromPanel("world"));
  byId("game-downtime")?.addEventListener("click", fromPanel("downtime"));
  byId("game-roll-log")?.addEventListener("click", fromPanel("log"));
}

/** On a game opened for no one, which character's sheet the Sheet tab shows. */
function whoseSheet(view) {
  const characters = game(view).characters ?? [];
  if (view.character || characters.length < 2) return null;
  const select = el(
    "select",
    {
      id: "nsu-sheet-who",
      on: {
        change: async () => {
          view.sheetId = select.value;
          await screen.reload();
        },
      },
    },
    ...characters.map((c) => el("option", { value: c.id, selected: c.id === view.sheetId }, c.name)),
  );
  return el("div", { class: "nsu-who field" }, el("label", { for: "nsu-sheet-who" }, "Whose sheet"), select);
}

/** On the Log tab of a character: their rolls or every roll of the game. */
function logChooser(view) {
  const who = view.sheetId ? game(view).characters.find((c) => c.id === view.sheetId) : null;
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
            await screen.reload();
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
