// The table feed (issue 32): a card for each new roll or settled result at the table — who,
// what, the odds they had, the dice and the outcome — in a small stack at the bottom of the
// window (above the toast, in its bar), an aria-live polite region. A card goes by itself
// after a while; a tap on it opens the log at its entry. The cards come from the core
// (`game_feed`): on a joined device the table's, as this device's viewer may see them.
//
//   import { feedStack, feedCard, recentRolls } from "./feed.js";
//   const feed = feedStack({ onOpen: (card) => … });   // once; its element is put in the page
//   feed.show(cards);  feed.clear();
//   host.prepend(recentRolls(cards) ?? "");            // the same cards as a Log tab's rolls

import { el } from "./dom.js";

/** Cards shown at once: the newest. */
const SHOWN = 2;
/** How long a card stays unless the person is on it. */
const STAYS_MS = 10000;

/** "Ada — Dice tray 2d6+1": who and what, the card's first line (what alone for the table's). */
export function feedTitle(card) {
  return card.who ? `${card.who} — ${card.what}` : card.what;
}

/** One card as a button (`onOpen(card)` on a tap), or as a plain box without `onOpen`. */
export function feedCard(card, { onOpen = null } = {}) {
  const parts = [
    el("span", { class: "feed-title" }, feedTitle(card)),
    el("span", { class: "feed-outcome" }, card.undone ? `${card.outcome} (undone)` : card.outcome),
    card.odds && el("span", { class: "feed-odds muted" }, `Odds: ${card.odds}`),
    // Faces as spans (a button holds phrasing content only), named "Dice:" for the ear.
    card.dice.length > 0 &&
      el(
        "span",
        { class: "feed-dice" },
        el("span", { class: "visually-hidden" }, "Dice: "),
        ...card.dice.map((d) => el("span", { class: "die-face", title: `d${d.sides}` }, `${d.face} `)),
      ),
  ];
  if (!onOpen) return el("div", { class: "feed-card", data: { seq: String(card.seq) } }, ...parts);
  return el("button", { type: "button", class: "feed-card", data: { seq: String(card.seq) }, on: { click: () => onOpen(card) } }, ...parts);
}

/**
 * The game's recent rolls as the same cards, newest first, for its Log tab (`cards` as the
 * feed gives them, oldest first; those without dice are the log's own rows): a section headed
 * "Recent rolls", or null when there are none.
 */
export function recentRolls(cards) {
  const rolls = cards.filter((c) => c.dice.length > 0).reverse();
  if (rolls.length === 0) return null;
  return el(
    "section",
    { class: "card feed-log", "aria-labelledby": "feed-log-title" },
    el("h3", { id: "feed-log-title" }, "Recent rolls"),
    el("ol", { class: "feed-log-list", id: "feed-log-list" }, ...rolls.map((c) => el("li", {}, feedCard(c)))),
  );
}

/**
 * The stack: `element` (id "feed", a labelled polite live region; always in the page, so a
 * screen reader hears each card added, and of no size while empty);
 * `show(cards)` adds them (oldest first, the newest shown on top); `clear()` empties it.
 */
export function feedStack({ onOpen }) {
  const list = el("div", { class: "feed-cards" });
  const element = el("section", { id: "feed", class: "feed", "aria-label": "Table feed", "aria-live": "polite" }, list);
  const timers = new Map();
  const inUse = () => element.contains(document.activeElement) || element.matches(":hover");
  const remove = (node) => {
    clearTimeout(timers.get(node));
    timers.delete(node);
    node.remove();
  };
  const later = (node) => {
    timers.set(
      node,
      setTimeout(() => (inUse() ? later(node) : remove(node)), STAYS_MS),
    );
  };
  return {
    element,
    show(cards) {
      for (const card of cards) {
        const node = feedCard(card, {
          onOpen: (c) => {
            remove(node);
            onOpen(c);
          },
        });
        list.prepend(node);
        later(node);
      }
      while (list.childElementCount > SHOWN) remove(list.lastElementChild);
    },
    clear() {
      for (const node of [...list.children]) remove(node);
    },
  };
}
