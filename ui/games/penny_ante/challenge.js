// The Penny Ante challenge (RULES.md §2.3–2.4), on one device passed around (role "both")
// or on each side's own device (a player's phone, role "player"; the House's, "table"): there
// the side's own cup shows at once, with no pass screen, and another side's turn is only
// awaited — this device never asks for that side's view. The shared table
// shows what everyone may see: the stake, the pot, each side's wager, revealed dice and how
// many sit in its cup, the circumstances (and who is barred from one), the step in words, an
// open loan offer, the bids. A private decision — declaring characteristics, rolling and
// choosing the cup, betting, answering a loan, a new circumstance or doubling down, the
// reroll — first shows "Pass the device to …"; only after "I am … — show my cup" does that
// side's own view appear (its dice, the cup as toggle buttons, its exact odds, the legal
// actions); the reroll, which decides nothing, may instead be made from the pass screen with
// the dice rolled here, nobody's cup shown (one tap; issue 32). After the decision the screen
// goes back to the table and the next pass screen,
// so the other side never sees the cup. The cups are revealed together (RULES.md §2.3
// decision): a side's shown dice wait, hidden, until both sides have chosen, and either side
// may choose first. The House's secrets in an anonymous challenge (what it devoted, the
// purse) are not in the shared view: "? pennies" here, the numbers in the House's own view.
//
//   import { renderChallenge, forgetPrivate } from "./challenge.js";
//   renderChallenge(host, ctx);   // ctx from screen.js
//   forgetPrivate();              // hide any side's cup (leaving the tab, after an undo)

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import {
  field,
  numberInput,
  wholeNumber,
  checkbox,
  select,
  pennies,
  accountKey,
  accountOf,
  sameAccount,
  SIDE_WORDS,
  otherSide,
  oddsBlock,
  dieFace,
  hiddenDie,
  handDice,
  button,
  busy,
  sentences,
  stepper,
  pct,
} from "./kit.js";
import { listOrNone } from "../../kit/forms.js";

const INDEX = { challenger: 0, opponent: 1 };
const MAX_CHARACTERISTICS = 5;

/** What the device holder sees beyond the shared table; survives re-renders. */
const pv = {
  id: null, // the challenge these belong to
  revealed: null, // the side whose private view is shown
  priv: null, // its PrivateView
  cup: new Set(), // the dice it proposes for its cup (roll step)
  cupOdds: null,
  oddsSerial: 0,
  afterReroll: false, // show the side its rerolled dice before passing on
  loanFrom: null, // the lender whose offer form is open
  hand: false, // "Dice rolled by hand"
  first: null, // on a device passed around, the side that chose to go first in a step both take
  opening: null, // the side whose own view is being fetched (own device)
  failed: null, // the side whose own view could not be fetched (a retry button shows)
};

/** Starts the "Dice rolled by hand" switch as the game's "roll real dice" preference. */
export function startDiceByHand(byHand) {
  pv.hand = Boolean(byHand);
}

/** Hides any side's private view (the "Dice rolled by hand" switch stays as it is). */
export function forgetPrivate() {
  Object.assign(pv, {
    revealed: null,
    priv: null,
    cup: new Set(),
    cupOdds: null,
    afterReroll: false,
    loanFrom: null,
    first: null,
    opening: null,
    failed: null,
  });
  pv.oddsSerial += 1;
}

const sideOf = (c, side) => c.sides[INDEX[side]];
const paidBy = (s) => s.members.reduce((sum, m) => sum + m.paid, 0);
const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

/**
 * The private decision the challenge waits for now: {side, kind, others}, or null for a
 * public step. In a step both sides take at once (the roll and cup, new circumstances, the
 * reroll) either may go first: this device's own side, or the one chosen on the pass screen;
 * `others` lists the other side still waiting.
 */
function task(c, ctx) {
  if (c.phase === "over" || c.phase === "after_loss") return null;
  if (c.offer) return { side: c.offer.side, kind: "loan", others: [] };
  const firstWaiting = () => {
    const waiting = ["challenger", "opponent"].filter((s) => !sideOf(c, s).done);
    const own = ctx.role === "both" ? waiting.filter((s) => s === pv.first) : waiting.filter((s) => mayOpen(c, s, ctx));
    return [...own, ...waiting.filter((s) => !own.includes(s))];
  };
  const at = (side, kind) => (side ? { side, kind, others: [] } : null);
  const any = (kind) => {
    const [side, ...others] = firstWaiting();
    return side ? { side, kind, others } : null;
  };
  switch (c.phase) {
    case "characteristics":
      return at(c.turn, "characteristics");
    case "roll":
      return any("roll");
    case "betting1":
    case "betting2":
      return at(c.turn, "bet");
    case "new_circumstances":
      return any("new_circumstance");
    case "reroll":
      return any("reroll");
    default:
      return null;
  }
}

const TASK_WORDS = {
  characteristics: "declares the characteristics the side uses (each one adds a die)",
  roll: "rolls in private, then chooses the dice to put back in the cup",
  bet: "bets: stand, call, raise, fold or go all in",
  loan: "answers a loan offer",
  new_circumstance: "may name a new circumstance and double down, or pass",
  reroll: "rerolls the dice in the cup, still hidden",
};

/** Fills `host` with the challenge: header, the action area, the shared table. */
export function renderChallenge(host, ctx) {
  const c = ctx.table.challenge;
  if (pv.id !== c.id) {
    forgetPrivate();
    pv.id = c.id;
  }
  if (c.phase === "over" || c.phase === "after_loss") pv.afterReroll = false;
  const t = task(c, ctx);
  if (pv.revealed && !pv.afterReroll && (!t || t.side !== pv.revealed)) forgetPrivate();

  const hand = checkbox("Dice rolled by hand", { id: "penny-hand", checked: pv.hand });
  hand.box.addEventListener("change", () => {
    pv.hand = hand.box.checked;
    ctx.render("#penny-hand");
  });

  const ended = c.phase === "over" || c.phase === "after_loss";
  host.append(
    el(
      "div",
      { class: "penny-challenge-head" },
      el("h3", { id: "penny-challenge-heading", tabindex: "-1" }, `Challenge: “${c.stake}”`),
      !ended && el("p", { id: "penny-step", class: "penny-step", "aria-live": "polite" }, sentences(c.step)),
      !ended && el("div", { class: "penny-switch" }, hand.node),
    ),
    el(
      "div",
      { class: "penny-challenge-grid" },
      el("div", { id: "penny-action", class: "penny-action" }, actionArea(c, t, ctx)),
      sharedTable(c),
    ),
  );
}

function actionArea(c, t, ctx) {
  if (c.phase === "over") return result(c, ctx);
  if (c.phase === "after_loss") return afterLoss(c, ctx);
  if (pv.afterReroll && pv.revealed) return privateView(c, { side: pv.revealed, kind: "after_reroll" }, ctx);
  if (c.phase === "circumstances") return circumstances(c, ctx);
  if (!t) return el("p", { class: "muted" }, "Waiting…");
  if (pv.revealed === t.side && pv.priv) return privateView(c, t, ctx);
  if (ctx.role === "player" || ctx.role === "table") {
    return mayOpen(c, t.side, ctx) ? ownSide(c, t, ctx) : waiting(c, t, ctx);
  }
  return passScreen(c, t, ctx);
}

/**
 * Whether this device may open `side`'s own view: on a player's phone only a side with one
 * of its characters, on the House's device only a side without a player.
 */
function mayOpen(c, side, ctx) {
  const players = sideOf(c, side).members.filter((m) => m.account.kind === "character");
  if (ctx.role === "table") return players.length === 0;
  if (ctx.role === "player") return players.some((m) => ctx.mine && ctx.mine.has(m.account.id));
  return true;
}

/** On the side's own device: its view opens at once (no pass screen). */
function ownSide(c, t, ctx) {
  const s = sideOf(c, t.side);
  if (pv.failed !== t.side && pv.opening !== t.side) {
    pv.opening = t.side;
    ctx.ask("Your dice could not be shown.", () => api.pennyPrivate(ctx.gameId, t.side, null)).then((priv) => {
      if (pv.opening !== t.side) return;
      pv.opening = null;
      if (!priv) {
        pv.failed = t.side;
      } else {
        Object.assign(pv, { revealed: t.side, priv, cup: new Set(priv.cup), cupOdds: null, failed: null });
      }
      ctx.render();
    });
  }
  return el(
    "section",
    { id: "penny-own", class: "penny-card", "aria-labelledby": "penny-own-heading" },
    el("h3", { id: "penny-own-heading", tabindex: "-1" }, `${capital(s.name)}: your turn`),
    pv.failed === t.side
      ? button(
          "Show my dice again",
          () => {
            pv.failed = null;
            ctx.render();
          },
          { id: "penny-own-retry", class: "primary" },
        )
      : el("p", { class: "muted" }, "Opening your dice…"),
  );
}

/** A betting round with no loan offer pending: players outside may offer one. */
const loansOpen = (c) => (c.phase === "betting1" || c.phase === "betting2") && !c.offer;

/**
 * The card of a side's task `t` (id `penny-${key}`, its heading `penny-${key}-heading`) with the
 * loan offers below it while a betting round is open (`offers`: this device may make them).
 */
function taskCard(c, t, ctx, { key, cls = "", title, offers }, ...children) {
  return el(
    "div",
    { class: "penny-stack" },
    el(
      "section",
      { id: `penny-${key}`, class: `penny-card${cls}`, data: { side: t.side, task: t.kind }, "aria-labelledby": `penny-${key}-heading` },
      el("h3", { id: `penny-${key}-heading`, tabindex: "-1" }, title),
      ...children,
    ),
    offers && loansOpen(c) && c.lenders.length > 0 && loanOffers(c, ctx),
  );
}

/** On another side's device, its decision is only awaited here. */
function waiting(c, t, ctx) {
  const s = sideOf(c, t.side);
  const words = t.kind === "loan" ? "answers a loan offer" : TASK_WORDS[t.kind];
  return taskCard(
    c,
    t,
    ctx,
    { key: "waiting", title: `Waiting for ${s.name}`, offers: ctx.role === "player" },
    el("p", {}, `${capital(s.name)} ${words}, on their own device.`),
  );
}

/** Focuses the main thing the action area shows now. */
function focusAction() {
  for (const id of ["penny-private-heading", "penny-own-heading", "penny-pass-heading", "penny-waiting-heading", "penny-result-heading", "penny-loss-heading", "penny-circ-heading"]) {
    const node = document.getElementById(id);
    if (node) {
      node.focus();
      return;
    }
  }
}

/** Plays one move; `after` (before the screen redraws) adjusts what the device shows. */
async function play(ctx, title, mv, dice, btn, after = null) {
  const done = await ctx.move(
    title,
    () =>
      api.pennyChallengeMove(ctx.gameId, mv, dice).then(async (change) => {
        if (after) await after(change);
        return change;
      }),
    btn,
  );
  if (done) focusAction();
  return done;
}

/** The dice for a move: typed in (null when a box is wrong) or rolled by the app. */
const diceFrom = (boxes) => {
  if (!boxes) return { kind: "rolled" };
  const values = boxes.read();
  return values ? { kind: "entered", values } : null;
};

// ---- the shared table -------------------------------------------------------------------------

function sharedTable(c) {
  const anon = c.sides.some((s) => s.anonymous);
  const devoted = c.devoted === null || c.devoted === undefined ? "? pennies" : pennies(c.devoted);
  return el(
    "section",
    { id: "penny-shared", class: "penny-card penny-shared", "aria-labelledby": "penny-shared-heading" },
    el("h3", { id: "penny-shared-heading" }, "On the table"),
    el(
      "p",
      { class: "penny-pot-line" },
      el("span", {}, c.phase === "over" && c.outcome ? "Pot paid out " : "Pot "),
      el("strong", { id: "penny-pot" }, String(c.phase === "over" && c.outcome ? c.outcome.pot : c.pot)),
      el("span", { class: "muted" }, ` · ante ${c.ante}${anon ? ` · anonymous, ${devoted} devoted` : ""}`),
    ),
    el("div", { class: "penny-sides" }, ...c.sides.map((s) => sideBox(c, s))),
    circumstanceList(c),
    c.offer &&
      el(
        "p",
        { class: "penny-offer", id: "penny-offer" },
        `Loan on offer: ${c.offer.lender.name} offers ${c.offer.borrower.name} ${pennies(c.offer.amount)}.`,
      ),
    c.bids.length > 0 &&
      el(
        "div",
        { class: "penny-bids" },
        el("h4", {}, "Buyout bids"),
        el("ul", { class: "penny-list", id: "penny-bid-list" }, ...c.bids.map((b) => el("li", {}, `${capital(b.bidder.name)}: ${pennies(b.amount)}`))),
      ),
  );
}

function sideBox(c, s) {
  const dice = [];
  let diceWords;
  if (s.dice) {
    dice.push(...s.dice.map((v) => dieFace(v)));
    diceWords = "All dice, shown at the end";
  } else if (!s.rolled) {
    diceWords = `Rolls ${s.dice_count} ${s.dice_count === 1 ? "die" : "dice"}`;
  } else if (!s.cup_chosen) {
    for (let i = 0; i < s.dice_count; i++) dice.push(hiddenDie("a die rolled, not shown yet"));
    diceWords = "Rolled; choosing the cup";
  } else if (!c.sides.every((x) => x.cup_chosen)) {
    // The reveal is simultaneous: nothing shows until the other side has chosen too.
    for (let i = 0; i < s.dice_count; i++) dice.push(hiddenDie("a die, shown when both cups are chosen"));
    diceWords = "Cup chosen; shown when both sides have chosen";
  } else {
    dice.push(...s.revealed.map((v) => dieFace(v, `a ${v}, showing`)));
    for (let i = 0; i < s.in_cup; i++) dice.push(hiddenDie("a die in the cup"));
    diceWords = `${s.revealed.length} showing, ${s.in_cup} in the cup`;
  }
  return el(
    "section",
    { class: `penny-side ${s.side}`, data: { side: s.side }, "aria-label": `${SIDE_WORDS[s.side]}: ${s.name}` },
    el("h4", {}, el("span", { class: "penny-side-role" }, `${SIDE_WORDS[s.side]} `), el("span", { class: "penny-side-name" }, s.name)),
    el(
      "p",
      { class: "penny-wager-line" },
      el("span", {}, "Wager "),
      el("strong", { class: "penny-wager" }, String(s.wager)),
      s.doubled > 0 && el("span", { class: "penny-doubled" }, ` + ${s.doubled} doubled down`),
      s.all_in && el("span", { class: "penny-badge penny-allin-mark" }, "ALL IN"),
    ),
    el(
      "ul",
      { class: "penny-members" },
      ...s.members.map((m) =>
        el("li", {}, `${m.name}: put in ${m.paid}, holds ${m.pile === null || m.pile === undefined ? "? pennies" : m.pile}`),
      ),
    ),
    s.used.length > 0 &&
      el("ul", { class: "penny-tags", "aria-label": "Characteristics used" }, ...s.used.map((u) => el("li", { class: "penny-tag" }, u.text))),
    el("div", { class: "penny-dice", role: "group", "aria-label": diceWords }, ...dice),
    el("p", { class: "penny-dice-words muted" }, diceWords),
  );
}

function circumstanceList(c) {
  if (c.circumstances.length === 0) return el("p", { class: "muted", id: "penny-circumstances" }, "No circumstances yet.");
  return el(
    "div",
    { id: "penny-circumstances" },
    el("h4", {}, "Circumstances (dice in the middle)"),
    el(
      "ul",
      { class: "penny-circ-list" },
      ...c.circumstances.map((x) =>
        el(
          "li",
          { class: "penny-circ" },
          dieFace(x.die, `circumstance die: ${x.die}`),
          el(
            "span",
            { class: "grow" },
            el("strong", {}, x.name),
            ` — named by ${sideOf(c, x.by).name}`,
            x.barred && el("span", { class: "penny-barred" }, `; ${sideOf(c, x.barred).name} may not use it (doubled down)`),
          ),
        ),
      ),
    ),
  );
}

// ---- step 1: circumstances, in the open ------------------------------------------------------

function circumstances(c, ctx) {
  const forms = c.sides
    .filter((s) => !s.done)
    .map((s) => {
      if (s.ante_owed !== null && s.ante_owed !== undefined) return anteChoice(c, s, ctx);
      const prefix = `penny-circ-${s.side}`;
      const name = el("input", { type: "text", id: `${prefix}-name`, maxlength: 200 });
      const boxes = pv.hand ? handDice(1, `${prefix}-die`, "Its die") : null;
      const submit = button(
        "Name it and roll its die",
        (b) => {
          if (name.value.trim() === "") return name.focus();
          const dice = diceFrom(boxes);
          if (!dice) return;
          play(ctx, "The circumstance was not named.", { move: "circumstance", side: s.side, name: name.value.trim(), double_down: false }, dice, b);
        },
        { id: `${prefix}-submit`, class: "primary" },
      );
      return el(
        "fieldset",
        { class: "penny-circ-form", id: prefix },
        el("legend", {}, `${SIDE_WORDS[s.side]}: ${s.name}`),
        field("A circumstance (its die is usable by both sides)", name),
        boxes && boxes.node,
        el(
          "div",
          { class: "actions" },
          submit,
          button("Pass", (b) => play(ctx, "The side did not pass.", { move: "pass", side: s.side }, { kind: "rolled" }, b), {
            id: `${prefix}-pass`,
          }),
        ),
      );
    });
  return el(
    "section",
    { class: "penny-card", "aria-labelledby": "penny-circ-heading" },
    el("h3", { id: "penny-circ-heading", tabindex: "-1" }, "Circumstances"),
    el("p", { class: "muted hint" }, "Each side may name one circumstance, in the open. Nothing is secret yet."),
    ...forms,
  );
}

/**
 * A side that cannot pay its antes chooses, in the open: all in with what it holds, or a
 * fold now, while nothing is at stake (the challenger's ante goes back).
 */
function anteChoice(c, s, ctx) {
  const prefix = `penny-ante-${s.side}`;
  return el(
    "fieldset",
    { class: "penny-circ-form", id: prefix },
    el("legend", {}, `${SIDE_WORDS[s.side]}: ${s.name}`),
    el("p", { id: `${prefix}-words` }, `${capital(s.name)} cannot pay the ante of ${pennies(s.ante_owed)}: go all in with everything, or fold now while nothing is at stake.`),
    el(
      "div",
      { class: "actions" },
      button("All in", (b) => play(ctx, "The side did not go all in.", { move: "all_in", side: s.side }, { kind: "rolled" }, b), {
        id: `${prefix}-allin`,
        class: "primary",
      }),
      button("Fold (nothing lost)", (b) => play(ctx, "The side did not fold.", { move: "fold", side: s.side }, { kind: "rolled" }, b), {
        id: `${prefix}-fold`,
        class: "danger",
      }),
    ),
  );
}

// ---- pass the device --------------------------------------------------------------------------

/** A reroll with the dice rolled here: nobody needs to see the cup for it. */
const unseen = (t) => t.kind === "reroll" && !pv.hand;

function passScreen(c, t, ctx) {
  const s = sideOf(c, t.side);
  const words =
    t.kind === "loan" ? `answers ${c.offer.lender.name}'s offer of a loan of ${pennies(c.offer.amount)} to ${c.offer.borrower.name}` : TASK_WORDS[t.kind];
  const reveal = button(
    `I am ${s.name} — show my cup`,
    async (b) => {
      const priv = await busy(b, () => ctx.ask("The side's dice could not be shown.", () => api.pennyPrivate(ctx.gameId, t.side, null)));
      if (!priv) return;
      pv.revealed = t.side;
      pv.priv = priv;
      pv.cup = new Set(priv.cup);
      pv.cupOdds = null;
      ctx.render("#penny-private-heading");
    },
    { id: "penny-reveal", class: unseen(t) ? "penny-big" : "primary penny-big" },
  );
  // The reroll decides nothing (RULES.md §2.3 step 4: the cup is rerolled, still hidden): with
  // the dice rolled here it takes one tap, with nobody looking (issue 32); the side sees its
  // new dice at its next bet. Dice rolled by hand are typed in by the side, behind the pass.
  // Every cup still to reroll is offered here, so nobody has to go first.
  const unseenReroll = (side, id) => {
    const who = sideOf(c, side);
    return button(
      `Reroll ${who.name}'s cup unseen (${who.in_cup} ${who.in_cup === 1 ? "die" : "dice"})`,
      (b) => play(ctx, "The cup was not rerolled.", { move: "reroll", side }, { kind: "rolled" }, b),
      { id, class: "primary penny-big" },
    );
  };
  const reroll =
    unseen(t) &&
    el(
      "div",
      { class: "actions" },
      unseenReroll(t.side, "penny-reroll-unseen"),
      ...t.others.map((other) => unseenReroll(other, `penny-reroll-unseen-${other}`)),
    );
  return taskCard(
    c,
    t,
    ctx,
    { key: "pass", cls: " penny-pass", title: `Pass the device to ${s.name}`, offers: true },
    el("p", {}, `${capital(s.name)} ${words}.`),
    reroll,
    reroll
      ? el("p", { class: "muted" }, `Or, to see the new dice now: pass the device to ${s.name}; everyone else, look away.`)
      : el("p", { class: "muted" }, "Everyone else, look away until the screen says to pass it on."),
    reveal,
    // Both sides take this step: either may go first (nothing shows until both have).
    ...(reroll ? [] : t.others).map((other) =>
      button(
        `${capital(sideOf(c, other).name)} goes first instead`,
        () => {
          pv.first = other;
          ctx.render("#penny-pass-heading");
        },
        { id: "penny-other-first", class: "penny-link" },
      ),
    ),
  );
}

/** During a betting round, players outside the challenge may each offer one loan. */
function loanOffers(c, ctx) {
  const borrowers = c.sides.filter((s) => s.members[0].account.kind === "character");
  const items = c.lenders.map((l) => {
    const key = accountKey(l.account);
    const open = pv.loanFrom === key;
    const toggle = button(
      `${l.name}: offer a loan`,
      () => {
        pv.loanFrom = open ? null : key;
        ctx.render(open ? null : "#penny-loan-amount");
      },
      { class: "penny-offer-loan", "aria-expanded": String(open), data: { lender: key, focusKey: `penny-offer-${key}` } },
    );
    if (!open) return el("li", {}, toggle);
    const lender = ctx.table.players.find((p) => sameAccount({ kind: "character", id: p.id }, l.account));
    // The lender lends to one ally of a side (a player character on it), named with its
    // side when the side has allies.
    const allies = borrowers.flatMap((s) =>
      s.members.filter((m) => m.account.kind === "character").map((m) => ({ side: s, member: m, value: `${s.side}:${m.account.id}` })),
    );
    const choices = allies.map(({ side, member, value }) => [value, side.members.length > 1 ? `${member.name} (${side.name})` : member.name]);
    const to = select(choices, { id: "penny-loan-side" });
    const amount = numberInput({ id: "penny-loan-amount", min: 1, max: lender ? lender.pile : undefined });
    // A loan to one's own lender first pays back what one owes him (002:35).
    const owedBack = el("p", { class: "penny-hint muted", id: "penny-loan-repays", "aria-live": "polite" });
    const sayOwed = () => {
      const [, id] = to.value.split(":");
      const owed = ctx.table.loans
        .filter((x) => sameAccount(x.lender.account, { kind: "character", id }) && sameAccount(x.borrower.account, l.account))
        .reduce((sum, x) => sum + x.outstanding, 0);
      const name = allies.find((x) => x.value === to.value)?.member.name ?? "";
      owedBack.textContent = owed > 0 ? `${l.name} owes ${name} ${pennies(owed)}: this loan pays that back first.` : "";
      owedBack.hidden = owed === 0;
    };
    to.addEventListener("change", sayOwed);
    sayOwed();
    return el(
      "li",
      {},
      toggle,
      el(
        "div",
        { class: "penny-form penny-inline" },
        field("To", to),
        field("Amount", amount, lender ? `${lender.name} holds ${pennies(lender.pile)}. Due before the next adventure.` : null),
        owedBack,
        button(
          "Offer it",
          (b) => {
            const n = wholeNumber(amount);
            if (n === null || n < 1) return amount.focus();
            const [side, id] = to.value.split(":");
            const borrower = { kind: "character", id };
            const mv = { move: "offer_loan", id: crypto.randomUUID(), lender: l.account, side, amount: n, borrower };
            play(ctx, "The loan was not offered.", mv, { kind: "rolled" }, b, () => {
              pv.loanFrom = null;
            });
          },
          { id: "penny-loan-offer", class: "primary" },
        ),
      ),
    );
  });
  return el(
    "section",
    { class: "penny-card penny-lenders", id: "penny-lenders", "aria-labelledby": "penny-lenders-heading" },
    el("h3", { id: "penny-lenders-heading" }, "Loans from outside the challenge"),
    listOrNone(borrowers, "Loans go to a side led by a player; neither side is.", () => el("ul", { class: "penny-list" }, ...items)),
  );
}

// ---- a side's own view ------------------------------------------------------------------------

function privateView(c, t, ctx) {
  const s = sideOf(c, t.side);
  const priv = pv.priv;
  const body = {
    characteristics: () => declareCharacteristics(c, s, priv, ctx),
    roll: () => (priv.dice.length === 0 ? rollDice(c, s, ctx) : chooseCup(c, s, priv, ctx)),
    bet: () => betting(c, s, priv, ctx),
    loan: () => answerLoan(c, s, priv, ctx),
    new_circumstance: () => newCircumstance(c, s, priv, ctx),
    reroll: () => reroll(c, s, priv, ctx),
    after_reroll: () => afterReroll(s, priv, ctx),
  }[t.kind]();
  return el(
    "section",
    { id: "penny-private", class: "penny-card penny-private", data: { side: t.side, task: t.kind }, "aria-labelledby": "penny-private-heading" },
    el(
      "div",
      { class: "penny-row" },
      el("h3", { id: "penny-private-heading", class: "grow", tabindex: "-1" }, `${capital(s.name)} only`),
      t.kind !== "after_reroll" &&
        ctx.role === "both" &&
        button(
          "Hide my cup",
          () => {
            forgetPrivate();
            ctx.render("#penny-pass-heading");
          },
          { id: "penny-hide-cup" },
        ),
    ),
    body,
  );
}

/** The side's own dice, those in its cup marked. */
function myDice(priv, title = "Your dice") {
  if (priv.dice.length === 0) return null;
  const cup = new Set(priv.cup);
  return el(
    "div",
    { class: "penny-my-dice" },
    el("h4", {}, title),
    el(
      "div",
      { class: "penny-dice", id: "penny-my-dice", role: "group", "aria-label": title },
      ...priv.dice.map((v, i) =>
        el(
          "span",
          { class: `penny-die-slot${cup.has(i) ? " in-cup" : ""}` },
          dieFace(v, `${v}${cup.has(i) ? ", in your cup (hidden)" : ", showing"}`),
          el("span", { class: "penny-die-note" }, cup.has(i) ? "cup" : "shown"),
        ),
      ),
    ),
  );
}

function odds(priv, id = "penny-odds") {
  if (!priv.odds) return null;
  return el("div", { class: "penny-odds-box" }, el("h4", {}, "Your exact odds"), oddsBlock(priv.odds, id));
}

function declareCharacteristics(c, s, priv, ctx) {
  const owners = new Set(priv.characteristics.map((x) => accountKey(x.owner)));
  const boxes = priv.characteristics.map((u, i) => {
    const label = owners.size > 1 ? `${u.text} (${u.owner_name})` : u.text;
    return { u, ...checkbox(label, { id: `penny-char-${i}`, class: "penny-char" }) };
  });
  const extra = s.anonymous ? el("input", { type: "text", id: "penny-char-new", maxlength: 200 }) : null;
  const count = el("p", { id: "penny-char-count", class: "penny-count", "aria-live": "polite" });
  const submit = el("button", { type: "button", id: "penny-char-submit", class: "primary" });
  const chosen = () => boxes.filter((b) => b.box.checked).length + (extra && extra.value.trim() !== "" ? 1 : 0);
  // The odds for the dice ticked so far (the opponent's declared dice unknown), from the core.
  const oddsHost = el("div", { id: "penny-char-odds", "aria-live": "polite" });
  const showOdds = (o) => oddsHost.replaceChildren(...(o ? [el("div", { class: "penny-odds-box" }, el("h4", {}, "Your exact odds with these"), oddsBlock(o, "penny-odds"))] : []));
  let asked = -1;
  const refreshOdds = async (n) => {
    if (n === asked) return;
    asked = n;
    const serial = ++pv.oddsSerial;
    try {
      const fresh = await api.pennyPrivateDeclaring(ctx.gameId, s.side, n);
      if (serial === pv.oddsSerial) showOdds(fresh.odds);
    } catch {
      // The odds stay as they were; declaring reports any problem.
    }
  };
  const sync = () => {
    const n = chosen();
    refreshOdds(Math.min(n, MAX_CHARACTERISTICS));
    for (const b of boxes) b.box.disabled = !b.box.checked && n >= MAX_CHARACTERISTICS;
    count.textContent = `${n} of at most ${MAX_CHARACTERISTICS}: ${1 + n} ${n === 0 ? "die" : "dice"}.`;
    submit.textContent = `Declare (${1 + n} ${n === 0 ? "die" : "dice"})`;
  };
  showOdds(priv.odds);
  for (const b of boxes) b.box.addEventListener("change", sync);
  if (extra) extra.addEventListener("input", sync);
  submit.addEventListener("click", () => {
    const used = boxes.filter((b) => b.box.checked).map((b) => ({ owner: b.u.owner, text: b.u.text }));
    if (extra && extra.value.trim() !== "") used.push({ owner: s.members[0].account, text: extra.value.trim() });
    play(ctx, "The characteristics were not declared.", { move: "characteristics", side: s.side, used }, { kind: "rolled" }, submit, () => {
      forgetPrivate();
    });
  });
  sync();
  return el(
    "div",
    {},
    el("p", {}, "Choose the characteristics the side uses in this challenge. Each adds a die to the one every side rolls."),
    listOrNone(boxes, "No characteristics to use: the side rolls one die.", () => el("fieldset", { class: "penny-checks" }, el("legend", {}, "Characteristics"), ...boxes.map((b) => b.node))),
    extra &&
      field(
        "A characteristic the House names now (set in stone once used)",
        extra,
        "Anonymous challenge: the antagonist may use one not written down yet.",
      ),
    count,
    oddsHost,
    el("div", { class: "actions" }, submit),
  );
}

function rollDice(c, s, ctx) {
  const boxes = pv.hand ? handDice(s.dice_count, "penny-die") : null;
  return el(
    "div",
    {},
    el("p", {}, `Roll ${s.dice_count} ${s.dice_count === 1 ? "die" : "dice"} where only you can see them.`),
    boxes && boxes.node,
    el(
      "div",
      { class: "actions" },
      button(
        pv.hand ? "Use these dice" : `Roll ${s.dice_count} ${s.dice_count === 1 ? "die" : "dice"}`,
        (b) => {
          const dice = diceFrom(boxes);
          if (!dice) return;
          play(ctx, "The dice were not rolled.", { move: "roll", side: s.side }, dice, b, async () => {
            pv.priv = await api.pennyPrivate(ctx.gameId, s.side, null);
            pv.cup = new Set();
            pv.cupOdds = null;
          });
        },
        { id: "penny-roll", class: "primary penny-big" },
      ),
    ),
  );
}

function chooseCup(c, s, priv, ctx) {
  const oddsHost = el("div", { id: "penny-cup-odds", "aria-live": "polite" });
  const showOdds = (o) => oddsHost.replaceChildren(el("h4", {}, "Your exact odds with this cup"), oddsBlock(o, "penny-odds"));
  showOdds(pv.cupOdds ?? priv.odds);
  const submit = el("button", { type: "button", id: "penny-cup-submit", class: "primary penny-big" });
  const words = () => {
    const k = pv.cup.size;
    submit.textContent = k === 0 ? "Reveal all my dice (nothing to reroll)" : `Put ${k} in the cup, reveal the rest`;
  };
  const refresh = async () => {
    const serial = ++pv.oddsSerial;
    try {
      const fresh = await api.pennyPrivate(ctx.gameId, s.side, [...pv.cup].sort((a, b) => a - b));
      if (serial !== pv.oddsSerial || !fresh.odds) return;
      pv.cupOdds = fresh.odds;
      showOdds(fresh.odds);
    } catch {
      // The odds stay as they were; the move itself reports any problem.
    }
  };
  const labels = [];
  // Every cup's chance to win, from the core (behind the rules-hints switch): tapping one
  // puts those dice in the cup.
  const choices = cupChoices(ctx, s.side, (cup) => {
    pv.cup = new Set(cup);
    changed();
  });
  const changed = () => {
    labels.forEach((label) => label());
    words();
    refresh();
    choices.mark();
  };
  const toggles = priv.dice.map((v, i) => {
    const b = el(
      "button",
      { type: "button", id: `penny-cup-${i}`, class: "penny-cup-toggle", "aria-pressed": String(pv.cup.has(i)), data: { focusKey: `penny-cup-${i}` } },
      dieFace(v, ""),
      el("span", { class: "penny-cup-state" }),
    );
    const label = () => {
      const inCup = pv.cup.has(i);
      b.setAttribute("aria-pressed", String(inCup));
      b.setAttribute("aria-label", `Die ${i + 1}: ${v} — ${inCup ? "in the cup, to reroll" : "shown"}`);
      b.querySelector(".penny-cup-state").textContent = inCup ? "in the cup" : "shown";
    };
    label();
    labels.push(label);
    b.addEventListener("click", () => {
      if (pv.cup.has(i)) pv.cup.delete(i);
      else pv.cup.add(i);
      changed();
    });
    return b;
  });
  submit.addEventListener("click", () => {
    const cup = [...pv.cup].sort((a, b) => a - b);
    play(ctx, "The cup was not chosen.", { move: "cup", side: s.side, cup }, { kind: "rolled" }, submit, () => forgetPrivate());
  });
  words();
  return el(
    "div",
    {},
    el("p", {}, "Press the dice you want to reroll later: they go back in the cup, hidden. The others are shown to everyone once both sides have chosen."),
    el("div", { class: "penny-cup-toggles", role: "group", "aria-label": "Your dice: press to put one in the cup" }, ...toggles),
    oddsHost,
    choices.node,
    el("div", { class: "actions" }, submit),
  );
}

/** "Reroll the 3 and the 6", "Keep every die". */
function cupWords(faces) {
  if (faces.length === 0) return "Keep every die";
  const each = faces.map((f) => `the ${f}`);
  return `Reroll ${each.length === 1 ? each[0] : `${each.slice(0, -1).join(", ")} and ${each.at(-1)}`}`;
}

/**
 * The chance to win with each cup the side could choose, the best marked, as a list of
 * buttons that put those dice in the cup. `mark()` shows which one is the cup now.
 */
function cupChoices(ctx, side, choose) {
  const list = el("ul", { class: "penny-cup-choices-list" });
  const node = el(
    "section",
    { id: "penny-cup-choices", class: "hint penny-cup-choices", "aria-label": "Your chance to win with each cup" },
    el("h4", {}, "Your chance to win with each cup"),
    list,
  );
  let rows = [];
  const same = (cup) => cup.length === pv.cup.size && cup.every((i) => pv.cup.has(i));
  const mark = () => rows.forEach(({ b, cup }) => b.setAttribute("aria-pressed", String(same(cup))));
  api
    .pennyCupChoices(ctx.gameId, side)
    .then((all) => {
      rows = all.map((c, i) => {
        const text = `${cupWords(c.faces)}: ${pct(c.odds.win)} to win${c.best ? " — best" : ""}`;
        const b = el(
          "button",
          { type: "button", id: `penny-cup-choice-${i}`, class: c.best ? "penny-cup-choice best" : "penny-cup-choice", title: `Win ${c.odds.exact[0]} · tie ${c.odds.exact[1]} · lose ${c.odds.exact[2]}` },
          text,
        );
        b.addEventListener("click", () => choose(c.cup));
        return { b, cup: c.cup };
      });
      list.replaceChildren(...rows.map(({ b }) => el("li", {}, b)));
      mark();
    })
    .catch(() => node.remove()); // no choices to offer: the cup works as before
  return { node, mark };
}

function betting(c, s, priv, ctx) {
  const theirs = sideOf(c, otherSide(s.side));
  const owed = Math.max(theirs.wager - s.wager, 0);
  // The side's own view knows what it can put in, even where the shared view does not.
  const can = priv.available ?? s.available;
  const canStand = owed === 0 && !theirs.all_in;
  const canCall = theirs.all_in || (owed > 0 && can >= owed);
  const canRaise = !theirs.all_in && can >= owed + c.ante;
  const canAllIn = !s.anonymous && !theirs.all_in && owed > 0 && can < owed;
  const bet = (mv, b) => play(ctx, "The bet was not made.", { side: s.side, ...mv }, { kind: "rolled" }, b, () => forgetPrivate());
  // How much to raise by: tapped, from the ante up to what the side can still put in.
  const most = Math.max(can - owed, c.ante);
  const raiseBy = Math.min(Math.max(pv.raiseBy ?? c.ante, c.ante), most);
  const by = stepper({
    label: `Raise by (at least ${c.ante})`,
    value: raiseBy,
    min: c.ante,
    max: most,
    id: "penny-raise-by",
    onChange: (n) => {
      pv.raiseBy = n;
      ctx.render();
    },
  });
  const raise = button(
    `Raise ${raiseBy}`,
    (b) => {
      pv.raiseBy = null;
      bet({ move: "raise", by: raiseBy }, b);
    },
    { id: "penny-raise", class: "penny-bet" },
  );
  return el(
    "div",
    {},
    myDice(priv),
    el(
      "p",
      { class: "penny-bet-state", id: "penny-bet-state" },
      `Your wager ${s.wager}, theirs ${theirs.wager}${theirs.all_in ? " (all in)" : ""}. `,
      owed > 0 ? `To call: ${owed}. ` : "The wagers are equal. ",
      `You can still put in ${pennies(can)}.`,
    ),
    odds(priv),
    el(
      "div",
      { class: "penny-bets", role: "group", "aria-label": "Your bet", "aria-describedby": "penny-bet-state" },
      el(
        "div",
        { class: "actions" },
        canStand && button("Stand", (b) => bet({ move: "stand" }, b), { id: "penny-stand", class: "penny-bet" }),
        canCall &&
          button(theirs.all_in ? "Call (match the all-in)" : `Call ${owed}`, (b) => bet({ move: "call" }, b), {
            id: "penny-call",
            class: "penny-bet primary",
          }),
        canAllIn && button(`All in (${pennies(can)})`, (b) => bet({ move: "all_in" }, b), { id: "penny-allin", class: "penny-bet" }),
        button("Fold", (b) => bet({ move: "fold" }, b), { id: "penny-fold", class: "penny-bet danger" }),
      ),
      canRaise
        ? el(
            "div",
            { class: "penny-raise" },
            by,
            raiseBy < most &&
              button(
                `Up to all I can (${most})`,
                () => {
                  pv.raiseBy = most;
                  ctx.render("#penny-raise");
                },
                { id: "penny-raise-most", class: "penny-link" },
              ),
            raise,
          )
        : !theirs.all_in && el("p", { class: "muted" }, `Raising needs at least ${pennies(owed + c.ante)}.`),
    ),
    s.anonymous &&
      el(
        "p",
        { class: "muted", id: "penny-devoted-own" },
        `Anonymous challenge: the antagonist devoted ${priv.devoted === null || priv.devoted === undefined ? "? pennies" : pennies(priv.devoted)}; it cannot go all in and folds instead.`,
      ),
  );
}

function answerLoan(c, s, priv, ctx) {
  const answer = (accept, b) =>
    play(ctx, "The loan was not answered.", { move: "answer_loan", accept }, { kind: "rolled" }, b, () => forgetPrivate());
  return el(
    "div",
    {},
    el(
      "p",
      { id: "penny-loan-words" },
      s.members.length > 1
        ? `${c.offer.lender.name} offers ${c.offer.borrower.name} a loan of ${pennies(c.offer.amount)}, due before the next adventure.`
        : `${c.offer.lender.name} offers you a loan of ${pennies(c.offer.amount)}, due before the next adventure.`,
    ),
    myDice(priv),
    odds(priv),
    el(
      "div",
      { class: "actions" },
      button("Accept the loan", (b) => answer(true, b), { id: "penny-loan-accept", class: "primary" }),
      button("Decline", (b) => answer(false, b), { id: "penny-loan-decline" }),
    ),
  );
}

function newCircumstance(c, s, priv, ctx) {
  const name = el("input", { type: "text", id: "penny-nc-name", maxlength: 200 });
  const stake = paidBy(s);
  const available = priv.available ?? s.available;
  const canDouble = !s.all_in && available >= stake && stake > 0;
  const dd = checkbox(`Double down: put in ${pennies(stake)} more; the other side may not use this die`, {
    id: "penny-nc-double",
    disabled: !canDouble,
  });
  const boxes = pv.hand ? handDice(1, "penny-nc-die", "Its die") : null;
  return el(
    "div",
    {},
    myDice(priv),
    odds(priv),
    field("A new circumstance (its die goes in the middle)", name),
    dd.node,
    !canDouble && el("p", { class: "muted" }, s.all_in ? "All in: no doubling down." : `Doubling down needs ${pennies(stake)}; the side has ${pennies(available)}.`),
    boxes && boxes.node,
    el(
      "div",
      { class: "actions" },
      button(
        "Name it and roll its die",
        (b) => {
          if (name.value.trim() === "") return name.focus();
          const dice = diceFrom(boxes);
          if (!dice) return;
          const mv = { move: "circumstance", side: s.side, name: name.value.trim(), double_down: dd.box.checked };
          play(ctx, "The circumstance was not named.", mv, dice, b, () => forgetPrivate());
        },
        { id: "penny-nc-submit", class: "primary" },
      ),
      button("Pass", (b) => play(ctx, "The side did not pass.", { move: "pass", side: s.side }, { kind: "rolled" }, b, () => forgetPrivate()), {
        id: "penny-nc-pass",
      }),
    ),
  );
}

function reroll(c, s, priv, ctx) {
  const k = priv.cup.length;
  const boxes = pv.hand ? handDice(k, "penny-reroll-die") : null;
  return el(
    "div",
    {},
    myDice(priv),
    el("p", {}, `Reroll the ${k} ${k === 1 ? "die" : "dice"} in your cup; they stay hidden.`),
    boxes && boxes.node,
    el(
      "div",
      { class: "actions" },
      button(
        pv.hand ? "Use these dice" : `Reroll ${k} ${k === 1 ? "die" : "dice"}`,
        (b) => {
          const dice = diceFrom(boxes);
          if (!dice) return;
          play(ctx, "The cup was not rerolled.", { move: "reroll", side: s.side }, dice, b, async (change) => {
            const still = change.view.challenge;
            if (still && still.phase !== "over" && still.phase !== "after_loss") {
              pv.priv = await api.pennyPrivate(ctx.gameId, s.side, null);
              pv.afterReroll = true;
            } else {
              forgetPrivate();
            }
          });
        },
        { id: "penny-reroll", class: "primary penny-big" },
      ),
    ),
  );
}

function afterReroll(s, priv, ctx) {
  return el(
    "div",
    {},
    myDice(priv, "Your dice after the reroll"),
    odds(priv),
    button(
      "Hide my dice and pass on",
      () => {
        forgetPrivate();
        ctx.render();
        focusAction();
      },
      { id: "penny-hide", class: "primary penny-big" },
    ),
  );
}

// ---- the end ------------------------------------------------------------------------------------

function handBox(c, s, hand) {
  return el(
    "div",
    { class: `penny-hand ${s.side}`, role: "group", data: { side: s.side }, "aria-label": `${SIDE_WORDS[s.side]}: ${s.name}` },
    el("h4", {}, `${SIDE_WORDS[s.side]}: ${s.name}`),
    s.dice && el("p", { class: "penny-subhead" }, `${capital(s.name)}'s dice`),
    s.dice && el("div", { class: "penny-dice", role: "group", "aria-label": `${s.name}'s dice` }, ...s.dice.map((v) => dieFace(v))),
    hand &&
      el(
        "div",
        {},
        // Fewer than five when fewer were available (RULES.md §2.5): say how many.
        el("p", { class: "penny-subhead" }, hand.dice.length === 5
            ? "The five dice that score"
            : hand.dice.length === 1
              ? "The one die that scores (fewer than five available)"
              : `The ${hand.dice.length} dice that score (fewer than five available)`),
        el("div", { class: "penny-dice chosen", role: "group", "aria-label": "The dice that score" }, ...hand.dice.map((v) => dieFace(v))),
        el("p", { class: "penny-hand-words" }, hand.words),
      ),
  );
}

function result(c, ctx) {
  const o = c.outcome;
  return el(
    "section",
    { id: "penny-result", class: "penny-card penny-result", "aria-labelledby": "penny-result-heading" },
    el("h3", { id: "penny-result-heading", tabindex: "-1" }, o && o.folded ? "A fold" : o && o.winner === null ? "A tie" : "Showdown"),
    o && el("p", { id: "penny-summary", class: "penny-summary" }, sentences(o.summary)),
    o &&
      el(
        "div",
        { class: "penny-hands" },
        ...c.sides.map((s, i) => handBox(c, s, o.hands ? o.hands[i] : null)),
      ),
    el(
      "div",
      { class: "actions" },
      ctx.table.adventure.running &&
        button("Issue a new challenge", () => ctx.switchTab("challenge", { setup: true }), { id: "penny-new-challenge", class: "primary" }),
      button("Back to the table", () => ctx.switchTab("table"), { id: "penny-to-table" }),
    ),
  );
}

function afterLoss(c, ctx) {
  const o = c.outcome;
  const loser = sideOf(c, otherSide(o.winner));
  const best = c.bids.reduce((top, b) => (top === null || b.amount > top.amount ? b : top), null);
  const losses = loser.members
    .filter((m) => m.account.kind === "character")
    .map((m) => {
      const used = loser.used.filter((u) => sameAccount(u.owner, m.account)).map((u) => u.text);
      const player = ctx.table.players.find((p) => p.id === m.account.id);
      const options = used.length > 0 ? used : player ? player.characteristics : [];
      const pick = select(options.map((x) => [x, x]), { id: `penny-loss-${m.account.id}`, class: "penny-loss" });
      return { m, pick, node: field(`${m.name} gives up`, pick, used.length > 0 ? "One used in this challenge." : "None was used: any one.") };
    });
  const bidder = select(c.bidders.map((b) => [accountKey(b.account), b.name]), { id: "penny-bid-bidder" });
  const amount = numberInput({ id: "penny-bid-amount", min: 1 });
  return el(
    "section",
    { class: "penny-card penny-after-loss", id: "penny-after-loss", "aria-labelledby": "penny-loss-heading" },
    el("h3", { id: "penny-loss-heading", tabindex: "-1" }, `${capital(loser.name)} lost everything`),
    el("p", { id: "penny-summary", class: "penny-summary" }, sentences(o.summary)),
    el("p", {}, "Others may bid to buy the loser out. The loser takes the highest bid, giving up a characteristic, or goes into debt."),
    listOrNone(c.bids, "No bids yet.", () => el("ul", { class: "penny-list", id: "penny-bids-now" }, ...c.bids.map((b) => el("li", {}, `${capital(b.bidder.name)} bids ${pennies(b.amount)}`)))),
    c.bidders.length > 0 &&
      el(
        "div",
        { class: "penny-form penny-inline" },
        field("Bidder", bidder),
        field("Bid", amount),
        button(
          "Bid",
          (b) => {
            const n = wholeNumber(amount);
            if (n === null || n < 1) return amount.focus();
            play(ctx, "The bid was not made.", { move: "bid", bidder: accountOf(bidder.value), amount: n }, { kind: "rolled" }, b);
          },
          { id: "penny-bid-submit" },
        ),
      ),
    best &&
      el(
        "fieldset",
        { class: "penny-buyout" },
        el("legend", {}, `Take ${best.bidder.name}'s bid of ${pennies(best.amount)}`),
        ...losses.map((l) => l.node),
        button(
          "Accept the buyout",
          (b) => {
            const mv = { move: "accept_buyout", losses: losses.map((l) => ({ owner: l.m.account, text: l.pick.value })) };
            play(ctx, "The buyout was not accepted.", mv, { kind: "rolled" }, b);
          },
          { id: "penny-accept-buyout", class: "primary" },
        ),
      ),
    button("Go into debt instead", (b) => play(ctx, "The debt was not recorded.", { move: "debt" }, { kind: "rolled" }, b), {
      id: "penny-debt",
    }),
    el("p", { class: "muted hint" }, `Debt: the winner gives back what ${loser.name} lost here, owed until repaid; the winner narrates.`),
  );
}

