// A Penny Ante campaign on the table tab (RULES.md §2.2–2.4): "Between adventures", shown
// while no adventure runs (loans due and what an unpaid one becomes, standing debts, who may
// take or buy a characteristic, the figure the next House gets and why), and the history of
// finished challenges per adventure with each one's narration, written afterwards by its
// narrator (or the table). The sheet shows a character's own challenges with the same list.
//
//   import { betweenAdventuresCard, historyCard, historyList } from "./campaign.js";
//   betweenAdventuresCard(table, ctx);  historyCard(table, ctx);
//   historyList(records, ctx, prefix);   // one character's, on the sheet

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { pennies, sameAccount, card, diceRow, uid, repayButtons } from "./kit.js";
import { listOrNone } from "../../kit/forms.js";

/** Whether this device manages the House's side (not a player's own phone). */
const housePanels = (ctx) => ctx.role !== "player";

/** The card of what happens between two adventures (only while none runs). */
export function betweenAdventuresCard(t, ctx) {
  const due = t.loans.filter((l) => l.outstanding > 0);
  const waiting = t.players.filter((p) => p.characteristics.length === 0 && p.lost > 0);
  const next = t.adventure.number + 1;
  return card(
    "penny-between",
    t.adventure.number === 0 ? "Before the first adventure" : `Between adventures ${t.adventure.number} and ${next}`,
    el(
      "p",
      { class: "penny-budget" },
      el("span", {}, `The House starts adventure ${next} with `),
      el("strong", { id: "penny-next-house" }, pennies(t.house_budget.amount)),
    ),
    el("p", { class: "penny-hint muted", id: "penny-next-house-why" }, `${t.house_budget.words}.`),
    housePanels(ctx) &&
      t.recurring_purses !== null &&
      t.recurring_purses > 0 &&
      el("p", { class: "penny-hint muted", id: "penny-recurring-kept" }, `Recurring antagonists keep ${pennies(t.recurring_purses)} in their purses on top.`),
    el("h4", {}, "Loans due"),
    listOrNone(due, el("p", { class: "muted", id: "penny-loans-due-none" }, "No loan is due."), () => el("ul", { class: "penny-list", id: "penny-loans-due" }, ...due.map((l) => dueItem(l, t, ctx)))),
    due.length > 0 &&
      el(
        "p",
        { class: "penny-hint muted hint" },
        "A loan still unpaid when the next adventure starts becomes a debt to its lender, who narrates the setback it brings.",
      ),
    el("h4", {}, "Standing debts"),
    listOrNone(t.debts, "No debts.", () =>
      el(
        "ul",
        { class: "penny-list", id: "penny-standing-debts" },
        ...t.debts.map((d) => el("li", { class: "penny-debt" }, `${d.debtor.name} owes ${d.creditor.name} ${pennies(d.amount)}.`)),
      ),
    ),
    el("h4", {}, "Characteristics"),
    el(
      "p",
      { class: "muted" },
      "Now is the time to buy them: 5 pennies each, under each player below. A character with none takes one free.",
    ),
    waiting.length > 0 &&
      el(
        "ul",
        { class: "penny-notes", id: "penny-free-again" },
        ...waiting.map((p) => el("li", {}, `${p.name} lost everything in a buyout and may take a new free characteristic now.`)),
      ),
  );
}

function dueItem(l, t, ctx) {
  const id = `penny-due-${l.id}`;
  const borrower = t.players.find((p) => sameAccount({ kind: "character", id: p.id }, l.borrower.account));
  return el(
    "li",
    { class: `penny-loan${l.flagged ? " flagged" : ""}`, data: { loanId: l.id } },
    el("p", { id }, `${l.borrower.name} owes ${l.lender.name} ${pennies(l.outstanding)} (a loan from adventure ${l.adventure}).`),
    repayButtons(id, l.outstanding, borrower ? borrower.pile : null, ctx, (n) => api.pennyRepayLoan(ctx.gameId, l.id, n), "The loan was not repaid."),
  );
}

/** The history card of the table tab: finished challenges, newest first, per adventure. */
export function historyCard(t, ctx) {
  const byAdventure = new Map();
  for (const r of t.history) {
    if (!byAdventure.has(r.adventure)) byAdventure.set(r.adventure, []);
    byAdventure.get(r.adventure).push(r);
  }
  return card(
    "penny-history",
    "History",
    listOrNone(t.history, "No challenge has finished yet.", () =>
      el(
        "div",
        { class: "penny-stack" },
        // Groups, not landmarks: the running adventure's card is a region of the same name.
        ...[...byAdventure].map(([n, records]) =>
          el("div", { class: "penny-history-adventure", role: "group", "aria-label": `Adventure ${n}` }, el("h4", {}, `Adventure ${n}`), historyList(records, ctx, "penny-history")),
        ),
      ),
    ),
  );
}

/** A list of finished challenges (newest first) with their narration. */
export function historyList(records, ctx, prefix) {
  return el("ul", { class: "penny-list penny-history-list" }, ...records.map((r) => historyItem(r, ctx, prefix)));
}

function historyItem(r, ctx, prefix) {
  const headingId = `${prefix}-${r.challenge}`;
  const hands = r.sides.filter((s) => s.hand);
  return el(
    "li",
    { class: "penny-history-item", data: { challengeId: r.challenge } },
    el("p", { class: "penny-history-stake", id: headingId }, el("strong", {}, `“${r.stake}”`), ` (ante ${r.ante})`),
    el("p", { class: "penny-history-summary" }, r.summary),
    ...hands.map((s) =>
      el(
        "div",
        { class: "penny-history-hand" },
        el("span", { class: "muted" }, `${s.name}: ${s.hand.words}`),
        diceRow(s.hand.dice, { label: `${s.name}'s hand` }),
      ),
    ),
    ...r.sides
      .filter((s) => s.used.length > 0)
      .map((s) => el("p", { class: "muted" }, `${s.name} used ${s.used.map((u) => `“${u.text}”`).join(", ")}.`)),
    ...r.sides
      .flatMap((s) => s.given_up)
      .map((u) => el("p", { class: "penny-warning" }, `${u.owner_name} gave up “${u.text}” for good.`)),
    r.narration
      ? el("blockquote", { class: "penny-narration" }, r.narration)
      : el("p", { class: "muted penny-narration-none" }, r.narrator_name ? `${r.narrator_name} has not told it yet.` : "Not told yet."),
    r.can_narrate && narrationForm(r, ctx, headingId),
  );
}

/** "Write the narration": a text area in a disclosure, saved as one undoable move. */
function narrationForm(r, ctx, headingId) {
  const box = el("textarea", { id: uid("penny-narration-text"), class: "penny-narration-text", rows: 4, maxlength: 2000 });
  box.value = r.narration;
  const save = el("button", { type: "submit", class: "primary penny-narration-save" }, "Save the narration");
  const form = el(
    "form",
    { class: "penny-form", autocomplete: "off" },
    el("label", { for: box.id }, r.narrator_name ? `What ${r.narrator_name} tells of the outcome` : "What happened"),
    box,
    save,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ctx.move("The narration was not saved.", () => api.pennyNarrate(ctx.gameId, r.challenge, box.value), save);
  });
  return el(
    "details",
    { class: "penny-narrate" },
    el("summary", { "aria-describedby": headingId }, r.narration ? "Rewrite the narration" : "Write the narration"),
    form,
  );
}
