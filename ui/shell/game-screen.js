// The frame every system's screen shares: a screen that replaces the home layout while open,
// in the page's one <main> (index.html), its heading the page's one visible <h1> (the app
// header's is hidden while a screen is open), with a sticky bar ("← Home", the heading, the
// system's badge, the tabs) and a body each
// screen fills with its shown tab. On a phone (≤ 719 px) the top bar is one row ("←", the
// title cut to one line over the badge, the die of "Dice") and the tabs sit in a bar at the
// bottom, each an icon over its name: four of them and "More" when there are more than five.
// Both bars together take under 15 % of a 360 × 800 phone. The X-card stays reachable
// (it floats over every screen, xcard.js). The screens keep their own state and moves; this
// is only the frame, built once. It remembers the shown game and tab (systems.js) so the app
// reopens there.
//
//   import { gameScreen, showRefusal, ask } from "./game-screen.js";
//   const frame = gameScreen({ name: "mezzo", kit: "mz", label: "Mezzo", system: "mezzo",
//                              tabs: TABS, onBack: close, onTab: switchTab });
//   frame.show(gameId);  frame.fill(`Mezzo — ${name}`, tab, host);  frame.hide("game-mezzo");
//
// With `print: {character, run, toast}` the Sheet tab has "Print / PDF" (shown while
// `character()` names the character whose sheet is on screen) and "Blank sheet": in the bar
// on a desktop, under the sheet on a phone (its bar stays short). print-sheet.js loads the
// first time one is pressed. With `dice(button)` the bar has "Dice", which opens the game's
// dice tray (the controller's, kit/dice-tray.js) and gets the focus back when it closes; with
// `journal(button)`, "Journal", the game's campaign journal (shell/journal.js).

import { el, byId } from "../kit/dom.js";
import { sameSelector } from "../kit/components.js";
import { icon } from "../kit/icons.js";
import { keepControlsClear } from "../kit/toast.js";
import { rememberPlace } from "./systems.js";
import { systemBadge } from "./home.js";

/** On a phone the bottom bar shows this many items; with more tabs the rest go under "More". */
const BOTTOM_ITEMS = 5;

/**
 * Builds the hidden screen after the home layout, in the page's <main>. `name` makes the ids (`${name}-screen`,
 * `${name}-back`, `${name}-screen-heading`, `${name}-body`) and the body's class while it is
 * open (`${name}-open`); the tab buttons are `${tabPrefix}-tab-${tab}` (`tabPrefix` is the
 * name unless said); `kit` is the CSS prefix of the bar, the tabs and the body ("penny" or
 * "mz"); `tabs` is [[tab, label]]; `system` (a system id, the controller's) picks the badge.
 */
export function gameScreen({
  name,
  tabPrefix = name,
  kit,
  label,
  tabs,
  system,
  screenClass = `${kit}-screen`,
  onBack,
  onTab,
  print = null,
  dice = null,
  journal = null,
}) {
  const heading = el("h1", { id: `${name}-screen-heading`, tabindex: "-1" });
  const more = tabs.length > BOTTOM_ITEMS;
  let moreButton = null;
  const closeMore = () => {
    if (!moreButton) return;
    nav.classList.remove("more-open");
    moreButton.setAttribute("aria-expanded", "false");
  };
  const tabButtons = tabs.map(([tab, text], i) =>
    el(
      "button",
      {
        type: "button",
        id: `${tabPrefix}-tab-${tab}`,
        class: more && i >= BOTTOM_ITEMS - 1 ? "frame-tab frame-tab-extra" : "frame-tab",
        data: { tab },
        on: {
          click: () => {
            closeMore();
            onTab(tab);
          },
        },
      },
      // The icon shows in the phone's bottom bar only (kit/screen.css); the words name the tab.
      icon(tab),
      el("span", { class: "frame-tab-label" }, text),
    ),
  );
  if (more) {
    moreButton = el(
      "button",
      {
        type: "button",
        id: `${tabPrefix}-tab-more`,
        class: "frame-tab frame-more",
        "aria-expanded": "false",
        on: {
          click: () => {
            const open = !nav.classList.contains("more-open");
            nav.classList.toggle("more-open", open);
            moreButton.setAttribute("aria-expanded", String(open));
          },
        },
      },
      icon("more"),
      el("span", { class: "frame-tab-label" }, "More"),
    );
  }
  const nav = el("nav", { class: `${kit}-tabs frame-tabs`, "aria-label": label, data: { layout: "bar" } }, ...tabButtons, moreButton);
  const body = el("div", { id: `${name}-body`, class: `${kit}-body frame-body` });
  // The tab's name as the level under the screen's h1, for those who read by headings (the
  // tab bar already shows it to the eye); a tab's own cards are headed h3.
  const tabHeading = el("h2", { id: `${name}-tab-heading`, class: "visually-hidden" });
  let gameId = null;
  // What had the focus on home when the screen opened (a character card, a game panel's
  // button), and its data-focus-key: "← Home" takes the focus back there.
  let cameFrom = null;
  const printSheet = (character) =>
    print.run("The sheet could not be printed.", async () => {
      const { openPrint } = await import("./print-sheet.js");
      await openPrint({ system, gameId, character, toast: print.toast });
    });
  /** The two print buttons in a box of class `place`, their ids ending in `suffix`. */
  const printActions = (place, suffix) =>
    el(
      "div",
      { class: `frame-print-actions ${place}`, hidden: true },
      el("button", { type: "button", id: `${name}-print${suffix}`, class: "frame-print", data: { print: "sheet" }, on: { click: () => printSheet(print.character()) } }, "Print / PDF"),
      el("button", { type: "button", id: `${name}-print-blank${suffix}`, class: "frame-print", on: { click: () => printSheet(null) } }, "Blank sheet"),
    );
  // In the bar beside the title on a desktop, under the tab's body on a phone (kit/screen.css).
  const printPlaces = print ? [printActions("frame-print-bar", ""), printActions("frame-print-foot", "-foot")] : [];
  /** The print actions on the Sheet tab; "Print / PDF" only while a character's sheet is shown. */
  const showPrint = () => {
    for (const actions of printPlaces) {
      actions.hidden = body.dataset.tab !== "sheet";
      actions.querySelector("[data-print='sheet']").hidden = !print.character();
    }
  };
  const back = () => {
    rememberPlace({ screen: "home" });
    onBack();
  };
  const screen = el(
    "section",
    { id: `${name}-screen`, class: `${screenClass} frame-screen`, hidden: true, "aria-labelledby": heading.id, data: { system: system ?? "" } },
    el(
      "div",
      { class: `${kit}-bar frame-bar`, data: { layout: "bar" } },
      // On a phone the word is read, not shown: the bar keeps to one row (kit/screen.css).
      el("button", { type: "button", id: `${name}-back`, class: "frame-back", on: { click: back } }, "←", el("span", { class: "phone-hidden" }, " Home")),
      el(
        "div",
        { class: "frame-title" },
        heading,
        system && systemBadge(system, label),
        // The linked table's state for this game (link.js fills it; hidden when not linked).
        el("span", { class: "pill link-pill", role: "status", hidden: true }),
        // The game's dice tray (the controller's `dice`: opens it, given this button); beside
        // the badge, so a phone's bar keeps its height.
        dice && dialogButton(name, "dice", "Dice", dice),
        // The game's campaign journal (shell/journal.js), the same in every system.
        journal && dialogButton(name, "journal", "Journal", journal),
      ),
      printPlaces[0],
      nav,
    ),
    tabHeading,
    body,
    printPlaces[1],
  );
  byId("home-layout").after(screen);
  // A sheet's sticky summary (`--strip-top`) sticks just under the bar, whatever its height.
  const bar = screen.querySelector(".frame-bar");
  if (typeof ResizeObserver === "function") {
    new ResizeObserver(() => screen.style.setProperty("--strip-top", `${bar.offsetHeight}px`)).observe(bar);
  }
  return {
    heading,
    body,
    /**
     * Shows the screen in place of the home layout, its heading focused. `game` (the game's
     * id; by default the game selected on home) is remembered with the tab for the next start.
     */
    show(game = null) {
      gameId = game ?? byId("game-detail")?.dataset.gameId ?? null;
      const active = document.activeElement;
      if (active instanceof HTMLElement && active !== document.body && !screen.contains(active)) {
        cameFrom = { element: active, key: active.dataset.focusKey ?? null };
      }
      document.body.classList.add(`${name}-open`, "frame-open");
      if (gameId) screen.dataset.gameId = gameId;
      else delete screen.dataset.gameId;
      screen.hidden = false;
      showPrint();
      document.dispatchEvent(new CustomEvent("sheetkeeper:screen-shown", { detail: { game: gameId } }));
      if (gameId) rememberPlace({ screen: "game", game: gameId, tab: body.dataset.tab ?? null });
      window.scrollTo(0, 0);
      heading.focus();
    },
    /**
     * Hides it and empties it. Focus goes back to what opened it (a character card, or the
     * same card drawn again), else to the button `openerId`, else to home's title: never left
     * on the page's body.
     */
    hide(openerId) {
      screen.hidden = true;
      closeMore();
      body.replaceChildren();
      delete body.dataset.tab;
      document.body.classList.remove(`${name}-open`, "frame-open");
      document.dispatchEvent(new CustomEvent("sheetkeeper:screen-hidden"));
      const from = cameFrom;
      cameFrom = null;
      const again = from?.key ? document.querySelector(`[data-focus-key="${CSS.escape(from.key)}"]`) : null;
      const target = [from?.element, again, byId(openerId), byId("home-title")].find(focusable);
      target?.focus();
    },
    /**
     * Shows `host` as the tab `current` under `title`. Focus goes to `focus` (a selector in
     * the body) when given, else back to the control with the same data-focus-key (or id) as before.
     */
    fill(title, current, host, focus = null) {
      // What has the focus keeps it when drawn again: by its focus key, else by its id.
      const active = document.activeElement;
      const same = active && active !== body ? sameSelector(active) : null;
      heading.textContent = title;
      for (const b of tabButtons) b.setAttribute("aria-current", b.dataset.tab === current ? "page" : "false");
      if (moreButton) {
        const extra = tabButtons.find((b) => b.dataset.tab === current)?.classList.contains("frame-tab-extra");
        moreButton.dataset.current = extra ? "true" : "false";
      }
      body.dataset.tab = current;
      tabHeading.textContent = tabs.find(([tab]) => tab === current)?.[1] ?? title;
      body.replaceChildren(host);
      showPrint();
      if (gameId && !screen.hidden) rememberPlace({ screen: "game", game: gameId, tab: current });
      const target = focus ? body.querySelector(focus) : null;
      const again = target ?? (same ? body.querySelector(same) : null);
      if (again && (target || focusable(again))) takeFocus(again);
      // A toast shown while the tab was drawn must not hide what it drew.
      keepControlsClear();
    },
  };
}

/**
 * A button of the frame's bar that opens a dialog: `#${name}-${what}`, its icon, and its `word`
 * (read on a phone, shown from 720 px); a tap calls `open` with the button, the dialog's opener.
 */
function dialogButton(name, what, word, open) {
  return el(
    "button",
    { type: "button", id: `${name}-${what}`, class: `frame-${what}`, "aria-haspopup": "dialog", on: { click: (e) => open(e.currentTarget) } },
    icon(what),
    el("span", { class: "phone-hidden" }, word),
  );
}

/**
 * After a move whose control went with it (Start the roll, once the roll is on the table),
 * the focus goes where the eye goes: the heading of the card the control was in, drawn
 * again, else the tab's first card heading, else the screen's heading — never the page's body.
 */
export function focusAfterMove(body, heading, cardId) {
  const again = cardId ? body.querySelector(`#${CSS.escape(cardId)} h3, #${CSS.escape(cardId)} h2`) : null;
  const target = [again, body.querySelector("h3, h2:not(.visually-hidden)"), heading].find(focusable);
  if (target) takeFocus(target);
}

/** Focuses `element`; a heading or other text is made focusable from script (tabindex −1). */
export function takeFocus(element) {
  if (element.tabIndex < 0 && !element.hasAttribute("tabindex")) element.tabIndex = -1;
  element.focus();
}

/** Whether `element` is on the page and shown, so it can take the focus. */
function focusable(element) {
  return Boolean(element?.isConnected && !element.closest("[hidden]") && element.getClientRects().length > 0);
}

/** After a change: the error area scrolled into sight when the app refused (`result` null). */
export function showRefusal(result) {
  const error = byId("error");
  if (result === null && error && !error.hidden) error.scrollIntoView({ block: "nearest" });
}

/** Runs a read-only call for a view with `run` (no toast); an error shows in the error area. */
export async function ask(run, title, call) {
  let answer = null;
  await run(title, async () => {
    answer = await call();
  });
  return answer;
}
