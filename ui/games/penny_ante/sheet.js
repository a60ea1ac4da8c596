// The Penny Ante sheet tab (RULES.md §2.1–2.2, §2.4): one character's page — their pile,
// their characteristics (the first one free, each further one bought between adventures),
// the debts and loans that involve them, the challenge they are in, the finished challenges
// they played (with their narration, campaign.js), and their notes. A
// character made from the home screen lands here first, on creation: the first
// characteristic and the starting pennies.
//
//   import { renderSheet } from "./sheet.js";
//   renderSheet(host, ctx);   // ctx from screen.js; ctx.ui.character is whose sheet

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { field, pennies, sameAccount, button, card, sentences, stepper, notesCard, select, repayButtons } from "./kit.js";
import { historyList } from "./campaign.js";
import { listOrNone } from "../../kit/forms.js";
import { sheetEditing, modeToggle } from "../../kit/sheet-mode.js";

/** Fills `host` with the sheet of ctx.ui.character (or a chooser when no one is picked). */
export function renderSheet(host, ctx) {
  const t = ctx.table;
  const players = t.players;
  if (players.length === 0) {
    host.append(card("penny-sheet-none", "Sheet", el("p", { class: "muted" }, "No characters at this table yet. Add one on the Table tab.")));
    return;
  }
  const p =
    players.find((x) => x.id === ctx.ui.sheetShown) ??
    players.find((x) => x.id === ctx.ui.character) ??
    players.find((x) => ctx.mine && ctx.mine.has(x.id)) ??
    players[0];
  const parts = [];
  if (!ctx.ui.forCharacter && players.length > 1) parts.push(chooser(players, p, ctx));
  // A character bought out of its last characteristic is not being made: it waits (§2.2).
  const creating = !p.received_starting_pennies || (p.characteristics.length === 0 && p.lost === 0);
  // Play or edit (kit/sheet-mode.js): in play the pile moves by the ledger's moves ("My
  // ledger"), debts are paid back at a tap and the characteristics and notes are text; buying one and the notes' box are
  // edit mode's. A character being made opens in edit mode.
  const editing = sheetEditing(p.id, creating);
  parts.push(head(p, t, ctx, editing));
  if (creating && editing) parts.push(creation(p, t, ctx));
  parts.push(
    el("div", { class: "penny-grid" }, characteristicsCard(p, t, ctx, creating, editing), moneyCard(p, t, ctx), challengeCard(p, t, ctx)),
  );
  const mine = t.history.filter((r) => r.characters.includes(p.id));
  if (mine.length > 0) parts.push(card("penny-sheet-history", "Challenges played", historyList(mine, ctx, "penny-sheet-history")));
  const notes = notesPart(p, ctx, editing);
  if (notes) parts.push(notes);
  host.append(...parts);
}

/** "Sheet shown" when the screen was opened for the game, not for one character. */
function chooser(players, p, ctx) {
  const pick = select(
    players.map((x) => [x.id, x.name]),
    { id: "penny-sheet-character", data: { focusKey: "penny-sheet-character" } },
  );
  pick.value = p.id;
  pick.addEventListener("change", () => {
    ctx.ui.sheetShown = pick.value;
    ctx.render("#penny-sheet-character");
  });
  return el("div", { class: "penny-sheet-chooser" }, field("Sheet shown", pick));
}

function head(p, t, ctx, editing) {
  const pileWords = ` ${p.pile === 1 ? "penny" : "pennies"}`;
  return el(
    "section",
    { id: "penny-sheet-head", class: "penny-card penny-sheet-head", "aria-labelledby": "penny-sheet-heading", data: { characterId: p.id } },
    el(
      "div",
      { class: "penny-sheet-head-row" },
      el("h3", { id: "penny-sheet-heading", tabindex: "-1" }, p.name),
      modeToggle({ id: "penny-sheet-mode", characterId: p.id, editing, onToggle: () => ctx.render("#penny-sheet-mode") }),
    ),
    el(
      "p",
      { class: "penny-sheet-pile" },
      el("span", {}, "Pile "),
      el("strong", { id: "penny-sheet-pile" }, String(p.pile)),
      el("span", { class: "muted" }, pileWords),
    ),
    el(
      "p",
      { class: "muted", id: "penny-sheet-adventure" },
      t.adventure.running
        ? `Adventure ${t.adventure.number} is running.`
        : t.adventure.number === 0
          ? "No adventure has started yet."
          : `Between adventures (adventure ${t.adventure.number} is over).`,
    ),
    button("My ledger", () => ctx.switchTab("ledger", { ledgerAccount: `character:${p.id}` }), {
      id: "penny-sheet-ledger",
      class: "penny-link",
    }),
  );
}

// ---- creation: the first characteristic, the starting pennies ---------------------------------

function creation(p, t, ctx) {
  const steps = [];
  if (p.characteristics.length === 0) {
    steps.push(firstCharacteristic(p, t, ctx));
  }
  if (!p.received_starting_pennies) {
    const amounts = (ctx.ui.amounts ??= {});
    const key = `start:${p.id}`;
    const amount = amounts[key] ?? t.starting_pennies;
    steps.push(
      el(
        "div",
        { class: "penny-form", id: "penny-sheet-starting" },
        stepper({
          label: "Starting pennies",
          value: amount,
          min: t.starting_pennies,
          max: 1000000,
          id: "penny-sheet-starting-amount",
          onChange: (n) => {
            amounts[key] = n;
            ctx.render();
          },
        }),
        el("p", { class: "penny-hint muted" }, `The table agreed on at least ${t.starting_pennies}.`),
        button(
          `Take ${pennies(amount)}`,
          (b) => ctx.move("The pennies were not given.", () => api.pennyStartingPennies(ctx.gameId, p.id, amount), b),
          { id: "penny-sheet-starting-give", class: "primary", data: { focusKey: "penny-sheet-starting-give" } },
        ),
      ),
    );
  }
  return card(
    "penny-sheet-creation",
    "Making the character",
    el("p", { class: "muted hint" }, "A character starts with one free characteristic and the pennies the table agreed on."),
    ...steps,
  );
}

function firstCharacteristic(p, t, ctx) {
  if (t.adventure.running) {
    return el(
      "p",
      { class: "penny-hint muted", id: "penny-sheet-first-closed" },
      "The first characteristic is taken between adventures; ask the House to end this one first.",
    );
  }
  return characteristicForm(p, ctx, "First characteristic (free)", "Take it (free)");
}

/** A characteristic's text and the button that takes or buys it. */
function characteristicForm(p, ctx, label, verb) {
  const text = el("input", { type: "text", id: "penny-sheet-characteristic", maxlength: 200, data: { focusKey: "penny-sheet-characteristic" } });
  // Kept across re-renders (a stepper tap redraws the sheet).
  text.value = ctx.ui.draftCharacteristic ?? "";
  text.addEventListener("input", () => {
    ctx.ui.draftCharacteristic = text.value;
  });
  const node = el(
    "form",
    { class: "penny-form penny-one", id: "penny-sheet-characteristic-form", autocomplete: "off", "aria-label": label },
    el("label", { for: text.id }, label),
    el("div", { class: "penny-one-row" }, text, el("button", { type: "submit", id: "penny-sheet-characteristic-take", class: "primary" }, verb)),
  );
  node.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = text.value.trim();
    if (value === "") return text.focus();
    ctx.ui.draftCharacteristic = "";
    ctx.move("The characteristic was not added.", () => api.pennyBuyCharacteristic(ctx.gameId, p.id, value), node.querySelector("button"));
  });
  return node;
}

// ---- characteristics ----------------------------------------------------------------------------

function characteristicsCard(p, t, ctx, creating, editing) {
  const buy = () => {
    if (!editing) return null;
    if (creating && p.characteristics.length === 0) return null;
    if (t.adventure.running && p.characteristic_waits) {
      return el("p", { class: "penny-hint muted", id: "penny-sheet-buy-closed" }, p.characteristic_waits);
    }
    const price = p.next_price === 0 ? "free" : pennies(p.next_price);
    return characteristicForm(p, ctx, `A new characteristic (${price})`, p.next_price === 0 ? "Take it (free)" : `Buy it (${price})`);
  };
  return card(
    "penny-sheet-characteristics",
    "Characteristics",
    listOrNone(p.characteristics, "None yet.", () =>
      el(
        "ul",
        { class: "penny-tags", id: "penny-sheet-characteristic-list", "aria-label": `Characteristics of ${p.name}` },
        ...p.characteristics.map((c) => el("li", { class: "penny-tag" }, c)),
      ),
    ),
    el("p", { class: "penny-hint muted hint" }, "Each one used in a challenge adds a die. One lost in a buyout is gone for good."),
    buy(),
  );
}

// ---- debts and loans ----------------------------------------------------------------------------

function moneyCard(p, t, ctx) {
  const me = { kind: "character", id: p.id };
  const debts = t.debts.filter((d) => sameAccount(d.debtor.account, me) || sameAccount(d.creditor.account, me));
  const loans = t.loans.filter((l) => sameAccount(l.borrower.account, me) || sameAccount(l.lender.account, me));
  const items = [
    ...debts.map((d) => {
      const owes = sameAccount(d.debtor.account, me);
      return el(
        "li",
        { class: "penny-debt" },
        el("p", {}, owes ? `Owes ${d.creditor.name} ${pennies(d.amount)} (a debt).` : `${d.debtor.name} owes ${p.name} ${pennies(d.amount)} (a debt).`),
        owes && repayButtons(`penny-sheet-debt-${debts.indexOf(d)}`, d.amount, p.pile, ctx, (n) => api.pennyRepayDebt(ctx.gameId, d.debtor.account, d.creditor.account, n), "The debt was not repaid."),
      );
    }),
    ...loans.map((l) => {
      const owes = sameAccount(l.borrower.account, me);
      const words =
        l.in_debt > 0
          ? owes
            ? `Borrowed ${pennies(l.amount)} from ${l.lender.name}; ${pennies(l.in_debt)} unpaid became a debt.`
            : `Lent ${l.borrower.name} ${pennies(l.amount)}; ${pennies(l.in_debt)} unpaid became a debt.`
          : l.outstanding === 0
          ? owes
            ? `Borrowed ${pennies(l.amount)} from ${l.lender.name}; paid back.`
            : `Lent ${l.borrower.name} ${pennies(l.amount)}; paid back.`
          : owes
            ? `Owes ${l.lender.name} ${pennies(l.outstanding)} of a loan of ${pennies(l.amount)}.`
            : `Lent ${l.borrower.name} ${pennies(l.amount)}; ${pennies(l.outstanding)} still owed.`;
      return el(
        "li",
        { class: `penny-loan${l.flagged && l.outstanding > 0 ? " flagged" : ""}` },
        el("p", {}, words, l.flagged && l.outstanding > 0 && el("strong", { class: "penny-flag" }, " Flagged: due before this adventure.")),
        owes && l.outstanding > 0 && repayButtons(`penny-sheet-loan-${l.id}`, l.outstanding, p.pile, ctx, (n) => api.pennyRepayLoan(ctx.gameId, l.id, n), "The loan was not repaid."),
      );
    }),
  ];
  return card(
    "penny-sheet-money",
    "Debts and loans",
    items.length === 0 ? el("p", { class: "muted", id: "penny-sheet-no-debts" }, "None.") : el("ul", { class: "penny-list", id: "penny-sheet-debts" }, ...items),
  );
}

// ---- the challenge ------------------------------------------------------------------------------

function challengeCard(p, t, ctx) {
  const c = t.challenge;
  const me = { kind: "character", id: p.id };
  const side = c && c.sides.find((s) => s.members.some((m) => sameAccount(m.account, me)));
  let body;
  if (!side) {
    body = el("p", { class: "muted", id: "penny-sheet-challenge" }, c && c.phase !== "over" ? `Not in “${c.stake}”, the challenge being played.` : "Not in a challenge.");
  } else if (c.phase === "over") {
    body = el("p", { id: "penny-sheet-challenge" }, `Last: “${c.stake}”. ${sentences(c.outcome ? c.outcome.summary : c.step)}`);
  } else {
    body = el(
      "div",
      {},
      el("p", { id: "penny-sheet-challenge" }, `In “${c.stake}” as ${side.side === "challenger" ? "the challenger" : "the opponent"}: ${sentences(c.step)}`),
      button("Go to the challenge", () => ctx.switchTab("challenge"), { id: "penny-sheet-go-challenge", class: "primary" }),
    );
  }
  return card("penny-sheet-challenge-card", "Challenge", body);
}

// ---- notes --------------------------------------------------------------------------------------

function notesPart(p, ctx, editing) {
  if (!api.setCharacterNotes) return null;
  const game = ctx.getGame(ctx.gameId);
  const known = ctx.ui.notes?.[p.id] ?? game?.characters?.find((x) => x.id === p.id)?.notes ?? "";
  return notesCard(
    "penny-sheet",
    p.id,
    known,
    {
      play: !editing,
      run: ctx.run,
      toast: ctx.toast,
      onSaved: (text) => {
        ctx.ui.notes = { ...(ctx.ui.notes ?? {}), [p.id]: text };
        ctx.refreshGames();
      },
    },
    api.setCharacterNotes,
  );
}
