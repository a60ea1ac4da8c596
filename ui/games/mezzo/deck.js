// The Mezzo seed deck tab (RULES.md §3.6): the deck built from card texts (at least 3 per
// player), sessions (the initial draw: cards bought for 1 influence each), every player's seat
// — active cards face up with their links, hand and depleted cards counted — and one player's
// own hand at a time ("pass the device"): play or deplete a card, link an active card to
// another player's (each card earns its owner 1 influence the first time), and the refresh
// that the end of a scene or a challenge opens (the Table tab's End the scene, a challenge's end). The inspiration card is drawn for all and played or
// discarded. The keyword die variant: a keyword per face of a chosen die, rolled in the app or
// typed in. Every change is one move with an Undo toast (ctx.move).
//
//   import { renderDeck } from "./deck.js";
//   renderDeck(host, ctx);   // ctx from screen.js; ctx.ui.deck is the DeckView,
//                            // ctx.ui.hand the open player's HandView

import * as api from "./api.js";
import { linkClaim } from "../../shell/api.js";
import { today } from "../../shell/journal.js";
import { el } from "../../kit/dom.js";
import { card, checkbox, field, form, numberInput, readCount, button, select, plural, listOrNone } from "./kit.js";

const KEYWORD_DICE = [4, 6, 8, 10, 12, 20];

function uiOf(ctx) {
  ctx.ui.deckUi = ctx.ui.deckUi ?? { open: null, keyword: null };
  const u = ctx.ui.deckUi;
  if (u.open && (!ctx.table.players.some((p) => p.id === u.open) || !mayOpen(ctx, u.open))) u.open = null;
  return u;
}

/** The card texts typed one per line, empty lines left out. */
const lines = (text) => text.split("\n").map((l) => l.trim()).filter((l) => l !== "");

const playerName = (ctx, id) => ctx.table.players.find((p) => p.id === id)?.name ?? "a player who left";

/** Fills `host` with the deck. */
export function renderDeck(host, ctx) {
  const deck = ctx.ui.deck;
  if (!deck) {
    host.append(el("p", { class: "muted" }, "Loading the seed deck…"));
    return;
  }
  if (ctx.table.players.length === 0) {
    host.append(card("mzd-empty", "Seed deck", el("p", { class: "muted" }, "Add players on the Table tab first: the deck deals every player in.")));
    return;
  }
  const u = uiOf(ctx);
  if (!deck.built) {
    host.append(el("div", { class: "mz-grid" }, buildCard(ctx), keywordCard(deck, ctx, u)));
    return;
  }
  const hand = u.open && ctx.ui.hand && ctx.ui.hand.player === u.open ? ctx.ui.hand : null;
  host.append(el("div", { class: "mz-grid" }, deckCard(deck, ctx), inspirationCard(deck, ctx)), seatsCard(deck, ctx, u));
  if (hand) host.append(handCard(deck, hand, ctx, u));
  host.append(keywordCard(deck, ctx, u));
}

// ---- the deck ---------------------------------------------------------------------------------

function buildCard(ctx) {
  const n = ctx.table.players.length;
  const text = el("textarea", { id: "mzd-cards", rows: 6, required: true });
  return card(
    "mzd-build",
    "Build the seed deck",
    form(
      { id: "mzd-build-form", "aria-label": "Build the seed deck" },
      [
        field("Cards, one idea per line", text, `At least 3 cards per player: ${3 * n} for ${plural(n, "player")}.`),
        el("button", { type: "submit", id: "mzd-build-submit", class: "primary" }, "Shuffle and build the deck"),
      ],
      (b) => {
        const cards = lines(text.value);
        if (cards.length === 0) return text.focus();
        ctx.move("The deck was not built.", () => api.mezzoBuildDeck(ctx.gameId, cards), b);
      },
    ),
  );
}

/** The session's button: the campaign journal's session, started today with every player. */
function sessionButton(deck, ctx) {
  if (deck.in_session) {
    return button(`End session ${deck.session}`, (b) => ctx.move("The session did not end.", () => api.mezzoEndSession(ctx.gameId), b), {
      id: "mzd-end-session",
    });
  }
  return button(
    `Start session ${deck.session + 1}`,
    (b) => ctx.move("The session did not start.", () => api.mezzoStartSession(ctx.gameId, today()), b),
    { id: "mzd-start-session", class: deck.session === 0 ? "primary" : "" },
  );
}

function deckCard(deck, ctx) {
  const more = el("textarea", { id: "mzd-add-cards", rows: 3 });
  const session = deck.session === 0 ? "No session yet" : deck.in_session ? `Session ${deck.session} being played` : `Session ${deck.session} ended`;
  return card(
    "mzd-deck",
    "Seed deck",
    el("p", { id: "mzd-status", class: "mz-status running" }, `${session} · ${plural(deck.draw_pile, "card")} to draw · ${deck.discard.length} discarded.`),
    deck.initial_draw && el("p", { id: "mzd-initial-draw" }, "The initial draw is open: each player may buy cards, 1 influence each, until play starts."),
    el("p", { class: "mz-hint muted hint", id: "mzd-session-hint" }, "Sessions are the campaign journal's: it keeps their date, who was there and notes."),
    el("div", { class: "actions" }, sessionButton(deck, ctx)),
    // The refresh opens when a scene or a challenge really ends (DEV-3): "End the scene" on
    // the Table tab, or the end of a challenge; never from here, in the middle of one.
    el(
      "p",
      { class: "mz-hint muted hint", id: "mzd-refresh-hint" },
      deck.seats.some((s) => s.may_refresh)
        ? "A scene or challenge has just ended: each player may discard one card and draw one (in their hand)."
        : "When a scene ends (End the scene, on the Table tab) or a challenge ends, each player may discard one card and draw one.",
    ),
    deck.discard.length > 0 &&
      el("p", { class: "muted", id: "mzd-discard-top" }, `Top of the discard pile: “${deck.discard[deck.discard.length - 1].text}”.`),
    form(
      { id: "mzd-add-form", "aria-label": "Add cards" },
      [field("Add cards, one per line (shuffled into the draw pile)", more), el("button", { type: "submit", id: "mzd-add" }, "Add the cards")],
      (b) => {
        const cards = lines(more.value);
        if (cards.length === 0) return more.focus();
        ctx.move("The cards were not added.", () => api.mezzoAddCards(ctx.gameId, cards), b);
      },
    ),
  );
}

function inspirationCard(deck, ctx) {
  const by = select(ctx.table.players.map((p) => [p.id, p.name]), { id: "mzd-inspiration-by" });
  return card(
    "mzd-inspiration",
    "Inspiration",
    deck.inspiration
      ? el("p", { id: "mzd-inspiration-card", class: "mzd-card-text" }, `“${deck.inspiration.text}”`)
      : el("p", { class: "muted", id: "mzd-inspiration-card" }, "No inspiration card in play."),
    deck.shown
      ? el(
          "div",
          { class: "mz-tie", id: "mzd-shown" },
          el("p", {}, "Shown to everyone: ", el("strong", { id: "mzd-shown-text" }, `“${deck.shown.text}”`)),
          el(
            "div",
            { class: "actions" },
            button("Its idea made it into the game", (b) => ctx.move("The card was not played.", () => api.mezzoSettleInspiration(ctx.gameId, true), b), {
              id: "mzd-inspiration-played",
              class: "primary",
            }),
            button("Discard it", (b) => ctx.move("The card was not discarded.", () => api.mezzoSettleInspiration(ctx.gameId, false), b), {
              id: "mzd-inspiration-discard",
            }),
          ),
        )
      : form(
          { id: "mzd-inspiration-form", "aria-label": "Draw inspiration" },
          [field("Drawn by", by), el("button", { type: "submit", id: "mzd-draw-inspiration" }, "Draw inspiration for all")],
          (b) => ctx.move("No inspiration was drawn.", () => api.mezzoDrawInspiration(ctx.gameId, by.value), b),
        ),
    el("p", { class: "mz-hint muted hint" }, "A played inspiration card replaces the previous one; a player may link their newly active card to it."),
  );
}

// ---- the seats ----------------------------------------------------------------------------------

/** Every active card in play with its owner, and the inspiration card. */
function cardsInPlay(deck) {
  const out = deck.seats.flatMap((s) => s.active.map((a) => ({ id: a.card.id, text: a.card.text, owner: s.player, name: s.name, linked: a.linked })));
  if (deck.inspiration) out.push({ id: deck.inspiration.id, text: deck.inspiration.text, owner: null, name: "Inspiration", linked: false });
  return out;
}

function seatsCard(deck, ctx, u) {
  const inPlay = cardsInPlay(deck);
  const text = (id) => inPlay.find((c) => c.id === id)?.text ?? "a card";
  return card(
    "mzd-seats",
    "Players' cards",
    el(
      "ul",
      { class: "mz-list mz-cards", id: "mzd-seat-list" },
      ...deck.seats.map((s) => {
        const p = ctx.table.players.find((x) => x.id === s.player);
        const count = numberInput({ id: `mzd-buy-count-${s.player}`, min: 1, value: 1 });
        const nameId = `mzd-seat-name-${s.player}`;
        return el(
          "li",
          { class: "mzd-seat", data: { playerId: s.player } },
          el(
            "div",
            { class: "mz-row" },
            el("strong", { class: "mz-name grow", id: nameId }, s.name),
            el("span", { class: "mz-stat" }, "Influence ", el("strong", { id: `mzd-influence-${s.player}` }, String(p ? p.influence : 0))),
          ),
          el(
            "p",
            { class: "muted" },
            el("span", { id: `mzd-hand-count-${s.player}` }, plural(s.hand, "card")),
            ` in hand · ${s.depleted} depleted${s.may_refresh ? " · may refresh" : ""}`,
          ),
          listOrNone(s.active, "No active card.", () =>
            el(
              "ul",
              { class: "mzd-active", "aria-label": `${s.name}'s active cards` },
              ...s.active.map((a) =>
                el(
                  "li",
                  { class: "mzd-card", data: { cardId: a.card.id } },
                  el("span", { class: "grow mzd-card-text" }, `“${a.card.text}”`),
                  a.linked && el("span", { class: "mz-badge mz-actor-badge", id: `mzd-linked-${a.card.id}` }, "Linked (+1 earned)"),
                ),
              ),
            ),
          ),
          deck.initial_draw &&
            form(
              { class: "mz-form mz-one", "aria-label": `${s.name} buys cards` },
              [
                el("label", { for: count.id }, "Buy cards (1 influence each)"),
                el(
                  "div",
                  { class: "mz-one-row" },
                  count,
                  el("button", { type: "submit", id: `mzd-buy-${s.player}`, class: "mzd-buy", "aria-describedby": nameId }, "Buy"),
                ),
              ],
              (b) => {
                const n = readCount(count);
                if (n !== null) ctx.move("No card was bought.", () => api.mezzoBuyCards(ctx.gameId, s.player, n), b);
              },
            ),
          // A player's own device: its person says which player they are, with or without a
          // claimed character; from then on it shows that player's hand (DEV-1).
          ctx.role === "player" && seatButton(s, ctx),
          // A player's device shows only its own players' hands (the core refuses the others).
          mayOpen(ctx, s.player) &&
            button(u.open === s.player ? `Hide ${s.name}'s hand` : `Show ${s.name}'s hand`, () => {
              u.open = u.open === s.player ? null : s.player;
              ctx.switchTab("deck", { focus: u.open ? "#mzd-hand-heading" : `#mzd-show-${s.player}` });
            }, { id: `mzd-show-${s.player}`, class: "mzd-show", "aria-describedby": nameId }),
        );
      }),
    ),
    deck.links.length > 0 &&
      el(
        "div",
        {},
        el("h4", {}, "Links"),
        el(
          "ul",
          { class: "mz-list", id: "mzd-links" },
          ...deck.links.map((l) => el("li", {}, `“${text(l.card)}” ↔ “${text(l.to)}” (by ${playerName(ctx, l.by)})`)),
        ),
      ),
  );
}

/**
 * "I am Bo" on a player's device (sits its person as that player), or "Bo is not me". At a
 * linked table the table seats the device: "I am Bo" asks it, as a character is claimed.
 */
function seatButton(s, ctx) {
  const sat = ctx.seats.includes(s.player);
  if (!sat && mayOpen(ctx, s.player)) return null; // already theirs through a claimed character
  if (ctx.seatsLinked) {
    if (sat) return null;
    return button(`I am ${s.name}`, async () => {
      const reply = await ctx.ask(`I am ${s.name}: the table was not asked.`, () => linkClaim(s.player));
      if (reply) ctx.toast(reply.claimed === "yours" ? `The table seats you as ${s.name}.` : `Asked the table: you are ${s.name} once the table's person approves.`);
    }, { id: `mzd-me-${s.player}`, class: "mzd-me" });
  }
  const label = sat ? `${s.name} is not me` : `I am ${s.name}`;
  return button(label, async () => {
    const seats = await ctx.ask(`${label}: not saved.`, () => api.mezzoSit(ctx.gameId, s.player, !sat));
    if (seats) await ctx.switchTab("deck", { focus: sat ? `#mzd-me-${s.player}` : `#mzd-show-${s.player}` });
  }, { id: `mzd-me-${s.player}`, class: "mzd-me" });
}

/** Whether this device may show `player`'s hand: any on a shared device, its own on a player's. */
const mayOpen = (ctx, player) => ctx.role !== "player" || ctx.devicePlayers.some((p) => p.id === player);

// ---- one player's hand --------------------------------------------------------------------------

function handCard(deck, hand, ctx, u) {
  const mine = hand.player;
  const others = cardsInPlay(deck).filter((c) => c.owner !== mine);
  const ownCards = [...hand.hand, ...hand.active.map((a) => a.card), ...hand.depleted];
  const refreshPick = select(ownCards.map((c) => [c.id, c.text]), { id: "mzd-refresh-card" });
  const draw = checkbox("Then draw a card", { id: "mzd-refresh-draw", checked: true });
  return card(
    "mzd-hand",
    ctx.role === "player" ? `${hand.name}'s cards` : `${hand.name}'s cards (for their eyes)`,
    el(
      "p",
      { class: "mz-hint muted" },
      ctx.role === "player" ? `${hand.name} holds ${hand.influence} influence.` : `Pass the device to ${hand.name}. ${hand.name} holds ${hand.influence} influence.`,
    ),
    el("h4", {}, "Hand"),
    listOrNone(hand.hand, el("p", { class: "muted", id: "mzd-hand-empty" }, "No card in hand."), () =>
      el(
        "ul",
        { class: "mz-list", id: "mzd-hand-list" },
        ...hand.hand.map((c) =>
          el(
            "li",
            { class: "mzd-card", data: { cardId: c.id } },
            el("span", { class: "grow mzd-card-text", id: `mzd-text-${c.id}` }, `“${c.text}”`),
            el(
              "div",
              { class: "actions" },
              button("Play", (b) => ctx.move("The card was not played.", () => api.mezzoPlayCard(ctx.gameId, mine, c.id), b), {
                id: `mzd-play-${c.id}`,
                class: "mzd-play",
                "aria-describedby": `mzd-text-${c.id}`,
              }),
              button("Deplete", (b) => ctx.move("The card was not depleted.", () => api.mezzoDepleteCard(ctx.gameId, mine, c.id), b), {
                id: `mzd-deplete-${c.id}`,
                class: "mzd-deplete",
                "aria-describedby": `mzd-text-${c.id}`,
              }),
            ),
          ),
        ),
      ),
    ),
    el("h4", {}, "Active"),
    listOrNone(hand.active, "No active card.", () =>
      el(
        "ul",
        { class: "mz-list", id: "mzd-active-list" },
        ...hand.active.map((a, k) => {
          const c = a.card;
          // Only a newly active card links (the seed; DEV-11): the one played last.
          const newly = k === hand.active.length - 1;
          const to = select(others.map((o) => [o.id, `${o.name}: ${o.text}`]), { id: `mzd-link-to-${c.id}` });
          return el(
            "li",
            { class: "mzd-card", data: { cardId: c.id } },
            el("span", { class: "grow mzd-card-text", id: `mzd-text-${c.id}` }, `“${c.text}”${a.linked ? " (linked, +1 earned)" : ""}`),
            !newly && el("p", { class: "mz-hint muted hint", id: `mzd-not-newly-${c.id}` }, "Not newly active: only the card played last links."),
            newly &&
              others.length > 0 &&
              form(
                { class: "mz-form mz-one", "aria-label": `Link “${c.text}”` },
                [
                  el("label", { for: to.id }, "Link to a card in play"),
                  el(
                    "div",
                    { class: "mz-one-row" },
                    to,
                    el("button", { type: "submit", id: `mzd-link-${c.id}`, class: "mzd-link" }, "Link"),
                  ),
                  el("p", { class: "mz-hint muted hint" }, "A newly active card links to another player's card or the inspiration card; each card earns its owner 1 influence the first time it is linked."),
                ],
                (b) => ctx.move("The cards were not linked.", () => api.mezzoLinkCards(ctx.gameId, mine, c.id, to.value), b),
              ),
            button("Deplete", (b) => ctx.move("The card was not depleted.", () => api.mezzoDepleteCard(ctx.gameId, mine, c.id), b), {
              id: `mzd-deplete-${c.id}`,
              class: "mzd-deplete",
              "aria-describedby": `mzd-text-${c.id}`,
            }),
          );
        }),
      ),
    ),
    hand.depleted.length > 0 && el("p", { class: "muted" }, `Depleted: ${hand.depleted.map((c) => `“${c.text}”`).join(", ")}.`),
    hand.may_refresh &&
      ownCards.length > 0 &&
      form(
        { id: "mzd-refresh-form", "aria-label": "Refresh" },
        [
          el("h4", {}, "Refresh (end of a scene or challenge)"),
          field("Discard", refreshPick),
          draw.node,
          el("button", { type: "submit", id: "mzd-refresh" }, "Discard and refresh"),
        ],
        (b) => ctx.move("The card was not refreshed.", () => api.mezzoRefresh(ctx.gameId, mine, refreshPick.value, draw.box.checked), b),
      ),
    button(`Done: hide ${hand.name}'s cards`, () => {
      u.open = null;
      ctx.switchTab("deck", { focus: `#mzd-show-${mine}` });
    }, { id: "mzd-hide-hand" }),
  );
}

// ---- the keyword die --------------------------------------------------------------------------

function keywordCard(deck, ctx, u) {
  const die = deck.keyword_die;
  const sides = select(KEYWORD_DICE.map((d) => [String(d), `d${d}`]), { id: "mzd-kw-sides" });
  sides.value = String(die ? die.sides : 6);
  const words = el("textarea", { id: "mzd-kw-words", rows: 4 });
  if (die) words.value = die.keywords.join("\n");
  const player = select(ctx.table.players.map((p) => [p.id, p.name]), { id: "mzd-kw-player" });
  const hand = checkbox("Rolled by hand", { id: "mzd-kw-hand" });
  const face = numberInput({ id: "mzd-kw-face", min: 1, max: die ? die.sides : 20 });
  const faceField = field("The face it shows", face);
  faceField.hidden = true;
  hand.box.addEventListener("change", () => {
    faceField.hidden = !hand.box.checked;
  });
  return card(
    "mzd-keyword",
    "Keyword die (dice variant)",
    form(
      { id: "mzd-kw-form", "aria-label": "The keyword die" },
      [
        el("div", { class: "mz-fields" }, field("Die", sides)),
        field("A keyword per face, one per line (face 1 first)", words),
        el("button", { type: "submit", id: "mzd-kw-set" }, die ? "Change the keyword die" : "Choose the keyword die"),
      ],
      (b) => ctx.move("The keyword die was not set.", () => api.mezzoSetKeywordDie(ctx.gameId, Number(sides.value), lines(words.value)), b),
    ),
    die &&
      form(
        { id: "mzd-kw-roll-form", "aria-label": "Roll the keyword die" },
        [
          el("div", { class: "mz-fields" }, field("Rolled for", player), faceField),
          hand.node,
          el("button", { type: "submit", id: "mzd-kw-roll", class: "primary" }, `Roll the d${die.sides}`),
        ],
        async (b) => {
          let dice = { kind: "rolled" };
          if (hand.box.checked) {
            const n = readCount(face, 1, die.sides);
            if (n === null) return;
            dice = { kind: "entered", values: [n] };
          }
          const out = await ctx.move("The keyword die was not rolled.", () => api.mezzoRollKeyword(ctx.gameId, player.value, dice), b);
          if (!out) return;
          u.keyword = out.draw;
          ctx.render("#mzd-kw-result");
        },
      ),
    u.keyword &&
      el(
        "p",
        { class: "mz-winner", id: "mzd-kw-result", tabindex: "-1" },
        `${playerName(ctx, u.keyword.player)} rolls ${u.keyword.face}: “${u.keyword.keyword}”.`,
      ),
  );
}
