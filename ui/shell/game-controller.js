// The life cycle every game's screen shares, written once: open a game on a tab (read it, draw
// it in the frame, remember the place), switch tabs, read it again, make a move with its button
// busy (the answer changes the view, the tab is drawn again, a toast says what happened, with
// Undo), undo the last move from the log, close. A game gives only what is its own:
//
//   const screen = gameController({
//     system: "mezzo", frame: { name: "mezzo", kit: "mz", label: "Mezzo", tabs: TABS },
//     opener: "game-mezzo",            // the game panel's button: focus returns to it on close
//     noun: "The Mezzo table",         // "… could not be opened." / "… could not be loaded."
//     home: "sheet",                   // the tab for a game opened on no (or an unknown) tab
//     start: (gameId, tab, character) => ({ sheetId: character, … }),   // the view's own fields
//     load: async (view) => { view.table = await api.mezzoTable(view.gameId); },  // false: not shown
//     loadTab: async (view) => {},     // what the shown tab reads again after a move
//     apply: async (view, answer) => change,   // a move's answer into the view; says `message`
//     context: (view) => ({ … }),      // what the tabs get beyond the shared ctx
//     draw: (ctx, view) => host,       // the shown tab; or `renders` and `tabClass`:
//     renders: { sheet: renderSheet, … },  tabClass: (tab) => `mz-tab mz-tab-${tab}`,
//                                      // each tab's `render(host, ctx)` into a <div> of that class
//     who: (view) => "Mira",           // the character shown, named before the game in the heading
//     place: (view) => ({ screen: "game", … }),
//   });
//   screen.init(hooks);   // once: builds the frame and registers with home (systems.js)
//
// Optional: `heading(view, gameName)` in place of `who` (the frame's heading, whole),
// `printCharacter(view)` (whom the Sheet tab's print button prints; by default the
// character that tab shows, `view.sheetId`), `opened(view)` after the first read,
// `leave(view)` when the screen closes or opens anew, `undone(view, detail)` (an Undo
// elsewhere: true reads the game again), `beforeSwitch(view, tab, options)`, `afterUndo`,
// `scrollOnSwitch` (a new tab starts at its top), `dice: (view) => [{label, expression, note}]`
// (the game's own dice, presets of the frame's dice tray; any XdY±N can be typed too; the
// rolls go to the game's log, and the shown tab is read again after the tray closes). Every
// game's bar has "Journal", the campaign journal (shell/journal.js), written once here.

import * as api from "./api.js";
import { busy, focusLost } from "../kit/components.js";
import { openDiceTray } from "../kit/dice-tray.js";
import { feedStack, recentRolls } from "../kit/feed.js";
import { el, byId } from "../kit/dom.js";
import { inTurn } from "../kit/in-turn.js";
import { afterPress } from "../kit/press.js";
import { gameScreen, showRefusal, ask, focusAfterMove, takeFocus } from "./game-screen.js";
import { openJournal } from "./journal.js";
import { linkedTo } from "./link.js";
import { registerSystem, rememberPlace } from "./systems.js";

/** How often an open game's screen asks for the table feed's new cards. */
const FEED_EVERY_MS = 1000;

// The table feed's stack, one for the page (in the bottom bar, above the toast), and what a
// tap on a card does: the open game's controller sets it.
let feed = null;
let openCard = () => {};
function tableFeed() {
  if (!feed) {
    feed = feedStack({ onOpen: (card) => openCard(card) });
    byId("bottom-stack").prepend(feed.element);
  }
  return feed;
}

export function gameController(game) {
  const tabIds = new Set(game.frame.tabs.map(([tab]) => tab));
  let app = null; // {run, toast, refresh, getGame, …} from app.js
  let view = null; // the open game's view; null while closed
  const reading = inTurn(); // reloads, one after another (kit/in-turn.js)
  let frame = null;

  const gameName = () => {
    const g = app.getGame(view.gameId);
    return g ? g.name : view.table?.game?.name ?? "";
  };

  // As every game's: the frame's badge names the system, the heading the game, after the
  // character whose sheet is shown (or whom the screen was opened for) when there is one.
  const heading =
    game.heading ??
    ((v, name) => {
      const who = game.who?.(v);
      return who ? `${who} — ${name}` : name;
    });

  // The shown tab: the game's own `draw`, or its tab's render function in a host of its own.
  const draw =
    game.draw ??
    ((ctx, v) => {
      const host = el("div", { class: game.tabClass(v.tab) });
      game.renders[v.tab](host, ctx);
      return host;
    });

  // Every game prints from its Sheet tab, by default the character shown there.
  const printCharacter = game.printCharacter ?? ((v) => (v.tab === "sheet" ? v.sheetId : null));

  const remember = () => {
    if (view) rememberPlace(game.place(view));
  };

  async function open(gameId, tab, character = null) {
    if (!gameId) return;
    if (view) {
      game.leave?.(view);
      frame.hide(game.opener);
    }
    stopFeed();
    tab = tabIds.has(tab) ? tab : game.home;
    const v = { gameId, tab, loaded: false, ...game.start(gameId, tab, character, app) };
    view = v;
    await app.run(`${game.noun} could not be opened.`, async () => {
      if (!(await read(v)) || view !== v) return;
      game.opened?.(v);
      render();
      frame.show(gameId);
      remember();
      followFeed(v);
    });
  }

  /**
   * While `v` is open, asks each second for the table feed's new cards and shows them while
   * the game is linked here (hosted or joined): another device's roll reaches this screen,
   * whichever tab is shown. What was in the log when the screen opened is not shown again.
   */
  function followFeed(v) {
    let since = null;
    const stack = tableFeed();
    stack.clear();
    openCard = openLogAt;
    const look = async () => {
      if (view !== v) return;
      try {
        const cards = await api.gameFeed(v.gameId, since ?? 0);
        if (view !== v) return;
        if (since !== null && cards.length > 0 && linkedTo(v.gameId)) {
          stack.show(cards);
          // The Log tab's recent rolls take the new ones in too.
          if (v.tab === "log") reload({ quiet: true });
        }
        since = cards.length > 0 ? cards[cards.length - 1].seq : (since ?? 0);
        // Where the feed reads from (the window tests wait for it before a roll elsewhere).
        stack.element.dataset.since = String(since);
      } catch {
        // A feed that cannot be read now is asked again at the next look.
      }
      if (view === v) v.feedTimer = setTimeout(look, FEED_EVERY_MS);
    };
    look();
  }

  /** A tapped feed card: the Log tab, its entry brought into sight and focused. */
  async function openLogAt(card) {
    if (!view || !tabIds.has("log")) return;
    await switchTab("log");
    // The log's own row of it, else its card among the recent rolls.
    const seq = CSS.escape(String(card.seq));
    const entry = frame.body.querySelector(`[data-seq="${seq}"]:not(.feed-card)`) ?? frame.body.querySelector(`.feed-card[data-seq="${seq}"]`);
    if (!entry) return;
    entry.classList.add("feed-found");
    entry.scrollIntoView({ block: "center" });
    takeFocus(entry);
  }

  function stopFeed() {
    if (view) clearTimeout(view.feedTimer);
    feed?.clear();
    if (feed) delete feed.element.dataset.since;
  }

  /** Reads the game into `v`; false when the game said it is not to be shown. */
  async function read(v) {
    const shown = (await game.load(v, app)) !== false;
    if (shown) v.loaded = true;
    // The Log tab lists the recent rolls as the feed's cards, on every device.
    v.feedCards = shown && v.tab === "log" ? await api.gameFeed(v.gameId, 0) : [];
    return shown;
  }

  function close() {
    stopFeed();
    if (view) game.leave?.(view);
    view = null;
    frame.hide(game.opener);
    app.refresh?.().catch(() => {});
  }

  /** Shows `tab`; `options.focus` (a selector) takes the focus, else the heading. */
  async function switchTab(tab, options = {}) {
    if (!view || !tabIds.has(tab)) return;
    game.beforeSwitch?.(view, tab, options);
    view.tab = tab;
    await reload();
    if (!view) return;
    if (game.scrollOnSwitch) window.scrollTo(0, 0);
    const target = options.focus ? frame.body.querySelector(options.focus) : null;
    takeFocus(target ?? frame.heading);
  }

  /** Reads and draws the open tab again; `quiet` when nobody here asked (see `app.run`). */
  async function reload({ quiet = false } = {}) {
    if (!view) return;
    const v = view;
    const again = async () => {
      if (!(await read(v)) || view !== v) return;
      // News nobody here asked for is drawn once a press under way ends (kit/press.js), so
      // the control under a finger is not replaced between its down and its up.
      if (quiet) afterPress(render);
      else render();
    };
    await app.run(`${game.noun} could not be loaded.`, again, { quiet, queue: reading });
  }

  /**
   * One change: `call` (an api promise) runs with `button` showing progress; `apply(answer, v)`
   * brings its answer into the view and returns the toast's [message, undo] (or null); then the
   * tab is drawn again. Resolves with the answer, or null when the app refused (the error area,
   * brought into sight, says why).
   */
  async function act(title, call, { button = null, apply, refusal = true }) {
    if (!view) return null;
    const v = view;
    let answer = null;
    const cardId = button?.closest("section[id]")?.id ?? null;
    await busy(button, () =>
      app.run(title, async () => {
        answer = await call();
        if (view !== v) return;
        const toast = await apply(answer, v);
        render();
        if (toast) app.toast(...toast);
      }),
    );
    if (button && view === v && focusLost()) focusAfterMove(frame.body, frame.heading, cardId);
    if (refusal) showRefusal(answer);
    return answer;
  }

  /** One undoable move of the game: the view it returns is shown; the toast's Undo is the game's. */
  const move = (title, call, button = null) =>
    act(title, call, {
      button,
      apply: async (answer, v) => {
        const change = game.apply ? await game.apply(v, answer) : ((v.table = answer.view), answer);
        await game.loadTab?.(v);
        return [change.message, { kind: "game", id: v.gameId }];
      },
    });

  /** Takes back the last move from the log's button (no toast Undo: there is no redo). */
  async function undoLast(button) {
    if (!view) return;
    const v = view;
    await busy(button, () =>
      app.run("That could not be undone.", async () => {
        const result = await api.undoGame(v.gameId);
        game.afterUndo?.(v);
        if (view !== v || !(await read(v)) || view !== v) return;
        render();
        app.toast(result && result.message ? result.message : "Undone.");
      }),
    );
  }

  /** The dice tray from the frame's "Dice": the game's presets, rolls logged with its moves. */
  async function openDice(button) {
    if (!view) return;
    const v = view;
    const rolls = await openDiceTray({
      title: "Dice tray",
      presets: game.dice(v),
      roll: (expression) => api.diceTrayRoll(v.gameId, expression),
      recent: () => api.diceTrayLog(v.gameId),
      opener: button,
    });
    // The rolls are in the game's log now: the shown tab is drawn again, the focus on "Dice".
    if (rolls > 0 && view === v) {
      await reload();
      button.focus();
    }
  }

  /** The campaign journal from the frame's "Journal": after a move there, the tab is read again. */
  async function openJournalHere(button) {
    if (!view) return;
    const v = view;
    const moves = await openJournal({ gameId: v.gameId, opener: button, toast: app.toast });
    if (moves > 0 && view === v) {
      await reload();
      if (button.isConnected) button.focus();
    }
  }

  /** Draws the shown tab, keeping focus on the control with the same data-focus-key. */
  function render(focus = null) {
    if (!view || !view.loaded) return;
    const ctx = {
      gameId: view.gameId,
      table: view.table,
      ui: view,
      move,
      undoLast,
      render,
      switchTab,
      ask: (title, call) => ask(app.run, title, call),
      run: app.run,
      toast: app.toast,
      getGame: app.getGame,
      ...game.context?.(view, app),
    };
    const host = draw(ctx, view);
    const rolls = view.tab === "log" ? recentRolls(view.feedCards ?? []) : null;
    if (rolls) host.prepend(rolls);
    frame.fill(heading(view, gameName()), view.tab, host, focus);
    remember(); // after the frame's own note of the game: the character shown too
  }

  return {
    /** Builds the (hidden) screen and registers the game's ways in with home. */
    init(hooks) {
      app = hooks;
      frame = gameScreen({
        ...game.frame,
        system: game.system,
        onBack: close,
        onTab: (tab) => switchTab(tab),
        print: { character: () => (view ? printCharacter(view) : null), run: app.run, toast: app.toast },
        dice: game.dice ? openDice : null,
        journal: openJournalHere,
      });
      registerSystem(game.system, {
        openSheet: (characterId, gameId, tab) => open(gameId, tab || game.sheetTab || "sheet", characterId),
        openGame: (gameId, tab) => open(gameId, tab || game.home),
      });
      document.addEventListener("sheetkeeper:undone", (event) => {
        // A linked table's newer copy (`linked`) reloads quietly: no one here asked.
        if (view && event.detail && game.undone?.(view, event.detail)) reload({ quiet: event.detail.linked === true });
      });
    },
    open,
    reload,
    act,
    /** Reads the game into the view `v` again (not drawn). */
    load: (v) => read(v),
    /** The open game's view (null while closed), the app's hooks, the frame. */
    view: () => view,
    app: () => app,
    frame: () => frame,
  };
}
