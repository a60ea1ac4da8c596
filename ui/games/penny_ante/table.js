// The Penny Ante table tab (RULES.md §2.1–2.2): the adventure (start with the House's
// funding, end), the House's pile, the players (pile, characteristics, buying one, debts and
// loans), a new character, the antagonists (purse, characteristics with hidden ones marked,
// create, edit, fund within the cap, take back, mark recurring), loans and debts with
// repayment, the way to the challenge, and the campaign (between adventures, the history of
// finished challenges: campaign.js).
//
//   import { renderTable } from "./table.js";
//   renderTable(host, ctx);   // ctx from screen.js: {gameId, table, move, switchTab, …}

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { form as kitForm, inlineForm as kitInlineForm, listOrNone } from "../../kit/forms.js";
import {
  field,
  numberInput,
  wholeNumber,
  checkbox,
  pennies,
  accountKey,
  sameAccount,
  button,
  card,
  uid,
  sentences,
  stepper,
  houseSecretsControl,
  houseHandOver,
  repayButtons,
} from "./kit.js";
import { betweenAdventuresCard, historyCard } from "./campaign.js";

/** Fills `host` with the table's cards. */
export function renderTable(host, ctx) {
  const t = ctx.table;
  host.append(
    el(
      "div",
      { class: "penny-grid" },
      adventureCard(t, ctx),
      challengeCard(t, ctx),
      houseCard(t, ctx),
    ),
    // Between adventures only (append writes a `false` as text, so no `&&` here).
    ...(t.adventure.running ? [] : [betweenAdventuresCard(t, ctx)]),
    playersCard(t, ctx),
    antagonistsCard(t, ctx),
    loansCard(t, ctx),
    historyCard(t, ctx),
  );
}

/** Whether this device manages the House's side (not a player's own phone). */
const housePanels = (ctx) => ctx.role !== "player";

/** The kit's form (Enter works in its boxes), in Penny's look (`penny-form`). */
const form = (attrs, children, onSubmit) => kitForm(attrs, children, onSubmit, "penny");

/** The kit's one-box form in Penny's look (`penny-one`). */
const inlineForm = (parts) => kitInlineForm({ ...parts, prefix: "penny" });

// ---- adventure, House, challenge ----------------------------------------------------------------

function adventureCard(t, ctx) {
  const a = t.adventure;
  if (a.running) {
    return card(
      "penny-adventure",
      `Adventure ${a.number}`,
      el("p", { id: "penny-adventure-status", class: "penny-status running" }, `Adventure ${a.number} is running.`),
      el(
        "p",
        { class: "muted" },
        "Ending it records the players' piles (the next House's funding), sends every purse but a recurring antagonist's back to the House, and the House's pennies back to the Bank.",
      ),
      housePanels(ctx) &&
        button(
          "End the adventure",
          (b) => ctx.move("The adventure did not end.", () => api.pennyEndAdventure(ctx.gameId), b),
          { id: "penny-end-adventure", data: { focusKey: "penny-end-adventure" } },
        ),
    );
  }
  const status = el(
    "p",
    { id: "penny-adventure-status", class: "penny-status" },
    a.number === 0 ? "No adventure has started yet." : `Adventure ${a.number} is over; no adventure is running.`,
  );
  if (!housePanels(ctx)) {
    return card("penny-adventure", "Adventure", status, el("p", { class: "muted" }, "The House starts the next one."));
  }
  const funding = numberInput({ id: "penny-funding", min: 0, placeholder: String(t.default_house_funding) });
  const unpaid = t.loans.filter((l) => l.outstanding > 0);
  return card(
    "penny-adventure",
    "Adventure",
    status,
    form(
      { id: "penny-start-form" },
      [
        field(
          "The House's pennies (leave empty for the default)",
          funding,
          `Default: ${pennies(t.default_house_funding)}, ${t.house_budget.words.charAt(0).toLowerCase()}${t.house_budget.words.slice(1)}. Type another amount if the table agreed on one.`,
        ),
        unpaid.length > 0 &&
          el(
            "p",
            { class: "penny-warning" },
            `${unpaid.length === 1 ? "One loan is" : `${unpaid.length} loans are`} still unpaid: starting turns ${
              unpaid.length === 1 ? "it into a debt to its lender" : "them into debts to their lenders"
            }, who narrate${unpaid.length === 1 ? "s" : ""} the setback.`,
          ),
        el(
          "button",
          { type: "submit", id: "penny-start-adventure", class: "primary", data: { focusKey: "penny-start-adventure" } },
          `Start adventure ${a.number + 1}`,
        ),
      ],
      (b) => {
        const typed = funding.value.trim() === "" ? null : wholeNumber(funding);
        if (funding.value.trim() !== "" && (typed === null || typed < 0)) {
          funding.setAttribute("aria-invalid", "true");
          funding.focus();
          return;
        }
        ctx.move("The adventure did not start.", () => api.pennyStartAdventure(ctx.gameId, typed), b);
      },
    ),
  );
}

function houseCard(t, ctx) {
  return card(
    "penny-house",
    "The House",
    el("p", { class: "penny-pile" }, el("span", {}, "Pile "), el("strong", { id: "penny-house-pile" }, String(t.house))),
    t.recurring_purses !== null &&
      t.recurring_purses > 0 &&
      el("p", { class: "penny-hint muted", id: "penny-house-recurring" }, `Recurring antagonists hold ${pennies(t.recurring_purses)} more.`),
    el(
      "p",
      { class: "muted" },
      t.antagonist_cap === null
        ? "No cap on an antagonist's purse."
        : `An antagonist's purse may hold at most ${pennies(t.antagonist_cap)} (table setting).`,
    ),
    button("The House's ledger", () => ctx.switchTab("ledger", { ledgerAccount: "house" }), {
      class: "penny-link",
      id: "penny-house-ledger",
    }),
  );
}

function challengeCard(t, ctx) {
  const c = t.challenge;
  const running = c && c.phase !== "over";
  let reason = null;
  if (!t.adventure.running) reason = "Start an adventure to issue a challenge.";
  else if (t.players.length === 0) reason = "Add a character first.";
  return card(
    "penny-challenge-card",
    "Challenge",
    running
      ? el("p", { id: "penny-challenge-status" }, `“${c.stake}” is being played: ${c.step}.`)
      : c
        ? el("p", { id: "penny-challenge-status", class: "muted" }, `Last: ${sentences(c.outcome ? c.outcome.summary : c.step)}`)
        : el("p", { id: "penny-challenge-status", class: "muted" }, "No challenge yet."),
    running
      ? button("Go to the challenge", () => ctx.switchTab("challenge", { focus: "#penny-challenge-heading" }), { id: "penny-go-challenge", class: "primary" })
      : el(
          "div",
          { class: "actions" },
          button("Issue a challenge", () => ctx.switchTab("challenge", { setup: true, focus: "#penny-stake" }), {
            id: "penny-issue",
            class: "primary",
            disabled: reason !== null,
            "aria-describedby": reason ? "penny-issue-why" : null,
          }),
          reason && el("p", { id: "penny-issue-why", class: "muted" }, reason),
        ),
  );
}

// ---- players ---------------------------------------------------------------------------------------

function playersCard(t, ctx) {
  return card(
    "penny-players",
    "Players",
    listOrNone(t.players, "No characters at this table yet. Add the first one below.", () => el("ul", { class: "penny-list penny-cards penny-player-list" }, ...t.players.map((p) => playerItem(p, t, ctx)))),
    newCharacterForm(t, ctx),
  );
}

/** A player's or an antagonist's first row: its name (`nameId` names its controls) and what it holds, `word` then `amount`. */
function nameRow(nameId, name, word, amount) {
  return el(
    "div",
    { class: "penny-row" },
    el("strong", { class: "penny-name grow", id: nameId }, name),
    el("span", { class: "penny-pile" }, el("span", {}, word), amount),
  );
}

function playerItem(p, t, ctx) {
  const me = { kind: "character", id: p.id };
  const nameId = `penny-player-name-${p.id}`;
  const debts = t.debts.filter((d) => sameAccount(d.debtor.account, me) || sameAccount(d.creditor.account, me));
  const loans = t.loans.filter(
    (l) => l.outstanding > 0 && (sameAccount(l.borrower.account, me) || sameAccount(l.lender.account, me)),
  );
  return el(
    "li",
    { class: "penny-player", data: { characterId: p.id } },
    nameRow(nameId, p.name, "Pile ", el("strong", { class: "penny-player-pile", id: `penny-pile-${p.id}` }, String(p.pile))),
    listOrNone(p.characteristics, "No characteristics yet.", () =>
      el(
        "ul",
        { class: "penny-tags", "aria-label": `Characteristics of ${p.name}` },
        ...p.characteristics.map((c) => el("li", { class: "penny-tag" }, c)),
      ),
    ),
    debts.length > 0 &&
      el(
        "ul",
        { class: "penny-notes" },
        ...debts.map((d) =>
          el(
            "li",
            { class: "penny-debt" },
            sameAccount(d.debtor.account, me)
              ? `Owes ${d.creditor.name} ${pennies(d.amount)} (debt)`
              : `${d.debtor.name} owes ${p.name} ${pennies(d.amount)} (debt)`,
          ),
        ),
      ),
    loans.length > 0 &&
      el(
        "ul",
        { class: "penny-notes" },
        ...loans.map((l) =>
          el(
            "li",
            { class: `penny-loan-note${l.flagged ? " flagged" : ""}` },
            sameAccount(l.borrower.account, me)
              ? `Owes ${l.lender.name} ${pennies(l.outstanding)} (loan)`
              : `Lent ${l.borrower.name} ${pennies(l.outstanding)} still owed`,
            l.flagged && el("span", { class: "penny-flag" }, " — flagged: unpaid since an earlier adventure"),
          ),
        ),
      ),
    !p.received_starting_pennies &&
      el("p", { class: "penny-hint muted" }, `${p.name} has no starting pennies yet: they are taken on the sheet.`),
    buyForm(p, t, ctx, nameId),
    el(
      "div",
      { class: "actions" },
      button("Sheet", () => ctx.switchTab("sheet", { sheet: p.id }), {
        class: "penny-player-sheet",
        "aria-describedby": nameId,
        data: { focusKey: `penny-player-sheet-${p.id}` },
      }),
      button("Ledger", () => ctx.switchTab("ledger", { ledgerAccount: accountKey(me) }), {
        class: "penny-player-ledger",
        "aria-describedby": nameId,
      }),
    ),
  );
}

function buyForm(p, t, ctx, nameId) {
  const price = p.next_price === 0 ? "free" : pennies(p.next_price);
  const label = p.next_price === 0 ? "Take a characteristic (free)" : `Buy a characteristic (${pennies(p.next_price)})`;
  if (t.adventure.running && p.characteristic_waits) {
    const why = `penny-buy-why-${p.id}`;
    return el(
      "div",
      { class: "penny-buy-closed" },
      el(
        "button",
        { type: "button", class: "penny-buy", disabled: true, "aria-describedby": `${nameId} ${why}` },
        label,
      ),
      el("p", { class: "penny-hint muted", id: why }, p.characteristic_waits),
    );
  }
  const text = el("input", {
    type: "text",
    class: "penny-buy-text",
    id: `penny-buy-${p.id}`,
    maxlength: 200,
    data: { focusKey: `penny-buy-${p.id}` },
  });
  return inlineForm({
    label: `New characteristic (${price})`,
    ariaLabel: `New characteristic for ${p.name}`,
    control: text,
    button: p.next_price === 0 ? "Take it (free)" : `Buy it (${pennies(p.next_price)})`,
    buttonAttrs: { class: "penny-buy", "aria-describedby": nameId, data: { focusKey: `penny-buy-submit-${p.id}` } },
    onSubmit: (b) => {
      const value = text.value.trim();
      if (value === "") return text.focus();
      ctx.move("The characteristic was not added.", () => api.pennyBuyCharacteristic(ctx.gameId, p.id, value), b);
    },
  });
}

function newCharacterForm(t, ctx) {
  const name = el("input", { type: "text", id: "penny-new-name", required: true, maxlength: 200 });
  const first = el("input", { type: "text", id: "penny-new-characteristic", required: true, maxlength: 200 });
  // What is typed survives a redraw (a tap on the starting pennies redraws the tab).
  name.value = ctx.ui.newName ?? "";
  first.value = ctx.ui.newFirst ?? "";
  name.addEventListener("input", () => {
    ctx.ui.newName = name.value;
  });
  first.addEventListener("input", () => {
    ctx.ui.newFirst = first.value;
  });
  const startAmount = Math.max(ctx.ui.newPennies ?? t.starting_pennies, t.starting_pennies);
  const start = stepper({
    label: "Starting pennies",
    value: startAmount,
    min: t.starting_pennies,
    max: 1000000,
    id: "penny-new-pennies",
    onChange: (n) => {
      ctx.ui.newPennies = n;
      ctx.render();
    },
  });
  const details = el(
    "details",
    { class: "penny-new-character", open: ctx.ui.newCharacterOpen ?? t.players.length === 0, id: "penny-new-character" },
    el("summary", {}, "New character"),
    form(
      { id: "penny-new-character-form" },
      [
        el(
          "div",
          { class: "penny-fields" },
          field("Name", name),
          field("First characteristic (free)", first),
          el("div", { class: "field" }, start, el("p", { class: "penny-hint muted" }, `The table agreed on at least ${t.starting_pennies}.`)),
        ),
        el("button", { type: "submit", id: "penny-new-submit", class: "primary" }, "Add the character"),
      ],
      async (b) => {
        const n = startAmount;
        if (name.value.trim() === "") return name.focus();
        if (first.value.trim() === "") return first.focus();
        const done = await ctx.move(
          "The character was not added.",
          () => api.pennyCreateCharacter(ctx.gameId, name.value.trim(), first.value.trim(), n),
          b,
        );
        if (done) {
          ctx.ui.newCharacterOpen = true;
          ctx.ui.newPennies = undefined;
          ctx.ui.newName = "";
          ctx.ui.newFirst = "";
          ctx.render();
          ctx.refreshGames();
          const again = document.getElementById("penny-new-name");
          if (again) again.focus();
        }
      },
    ),
  );
  details.addEventListener("toggle", () => {
    ctx.ui.newCharacterOpen = details.open;
  });
  return details;
}

// ---- antagonists ---------------------------------------------------------------------------------

function antagonistsCard(t, ctx) {
  if (ctx.ui.handOverHouse) return card("penny-antagonists", "Antagonists", houseHandOver(ctx));
  return card(
    "penny-antagonists",
    "Antagonists",
    el("p", { class: "muted hint" }, "The House plays them from purses she funds. Hidden characteristics are the House's secret until used."),
    t.antagonists.length > 0 && houseSecretsControl(ctx),
    listOrNone(t.antagonists, "No antagonists yet.", () => el("ul", { class: "penny-list penny-cards" }, ...t.antagonists.map((a) => antagonistItem(a, t, ctx)))),
    housePanels(ctx) &&
      el(
        "details",
        { class: "penny-new-antagonist", id: "penny-new-antagonist" },
        el("summary", {}, "New antagonist"),
        antagonistForm(null, ctx),
      ),
  );
}

function antagonistItem(a, t, ctx) {
  const nameId = `penny-antagonist-name-${a.id}`;
  const known = a.purse !== null && a.purse !== undefined;
  const capLeft = t.antagonist_cap === null || !known ? null : Math.max(t.antagonist_cap - a.purse, 0);
  const running = t.challenge && t.challenge.phase !== "over";
  // Without the secrets (a device passed around, not handed to the House) the purse and the
  // hidden characteristics are not here: no purse controls, no edit that would drop them.
  const manage = housePanels(ctx) && known;
  return el(
    "li",
    { class: "penny-antagonist", data: { antagonistId: a.id } },
    nameRow(nameId, a.name, "Purse ", el("strong", { class: "penny-purse" }, known ? String(a.purse) : "? pennies")),
    a.recurring && !housePanels(ctx) && el("p", { class: "penny-recurring-mark muted" }, "Recurring: comes back in later adventures."),
    housePanels(ctx) && recurringSwitch(a, ctx, nameId),
    listOrNone(a.characteristics, "No characteristics.", () =>
      el(
        "ul",
        { class: "penny-tags", "aria-label": `Characteristics of ${a.name}` },
        ...a.characteristics.map((c) =>
          el(
            "li",
            { class: `penny-tag${c.hidden ? " hidden-trait" : ""}` },
            c.text,
            c.hidden && el("span", { class: "penny-hidden-mark" }, " (hidden)"),
          ),
        ),
      ),
    ),
    manage && purseButtons(a, t, ctx, nameId, capLeft, running),
    manage &&
      el(
        "details",
        { class: "penny-edit-antagonist" },
        el("summary", { "aria-describedby": nameId }, "Edit"),
        antagonistForm(a, ctx),
      ),
    el(
      "div",
      { class: "actions" },
      button("Ledger", () => ctx.switchTab("ledger", { ledgerAccount: accountKey({ kind: "antagonist", id: a.id }) }), {
        "aria-describedby": nameId,
      }),
    ),
  );
}

/** The House marks an antagonist as recurring (its purse stays with it) or not. */
function recurringSwitch(a, ctx, nameId) {
  const { box, node } = checkbox("Recurring (keeps its purse between adventures)", {
    class: "penny-recurring",
    checked: a.recurring,
    "aria-describedby": nameId,
    data: { focusKey: `penny-recurring-${a.id}` },
  });
  box.addEventListener("change", () => {
    ctx.move("The antagonist was not changed.", () => api.pennySetRecurring(ctx.gameId, a.id, box.checked), box);
  });
  return node;
}

/**
 * Quick amounts for an antagonist's purse: fund +1, +5, +10 from the House (within the cap
 * and the House's pile), take −1, −5 or all back (not while a challenge is played).
 */
function purseButtons(a, t, ctx, nameId, capLeft, running) {
  // Not while it plays in the running challenge (RULES §2.2: the House adds to a purse only
  // when its antagonist is in none).
  const inIt = (m) => m.account.kind === "antagonist" && m.account.id === a.id;
  const playing = running && t.challenge.sides.some((s) => s.members.some(inIt));
  const most = playing ? 0 : Math.min(t.house, capLeft ?? Infinity);
  // While it plays, each button is described by why it cannot fund.
  const whyNot = `penny-no-funding-${a.id}`;
  const fund = [1, 5, 10].map((n) =>
    button(`+${n}`, (b) => ctx.move("The purse was not funded.", () => api.pennyFundAntagonist(ctx.gameId, a.id, n), b), {
      class: "penny-fund",
      "aria-label": `+${n}: fund ${a.name} with ${pennies(n)} from the House`,
      "aria-describedby": playing ? `${nameId} ${whyNot}` : nameId,
      disabled: n > most,
      data: { amount: String(n), focusKey: `penny-fund-${a.id}-${n}` },
    }),
  );
  const backs = [...new Set([1, 5, a.purse])].filter((n) => n >= 1 && n <= a.purse).sort((x, y) => x - y);
  const back = backs.map((n) => {
    const text = n === a.purse ? `All ${n} back` : `−${n}`;
    return button(text, (b) => ctx.move("The pennies were not taken back.", () => api.pennyRecallPurse(ctx.gameId, a.id, n), b), {
      class: "penny-recall",
      "aria-label": `${text}: take ${pennies(n)} back from ${a.name} to the House`,
      "aria-describedby": nameId,
      disabled: running,
      data: { amount: String(n), focusKey: `penny-recall-${a.id}-${n}` },
    });
  });
  return el(
    "div",
    { class: "penny-purse-controls" },
    el("p", { class: "penny-quick-label" }, "Fund from the House"),
    el("div", { class: "penny-quick", role: "group", "aria-label": `Fund ${a.name}` }, ...fund),
    el(
      "p",
      { class: "penny-hint muted" },
      capLeft === null
        ? `The House holds ${pennies(t.house)}.`
        : `Up to ${pennies(capLeft)} more (cap ${t.antagonist_cap}); the House holds ${pennies(t.house)}.`,
    ),
    backs.length > 0 && el("p", { class: "penny-quick-label" }, "Take back to the House"),
    backs.length > 0 && el("div", { class: "penny-quick", role: "group", "aria-label": `Take pennies back from ${a.name}` }, ...back),
    running && el("p", { class: "penny-hint muted" }, "Not taken back while a challenge is played."),
    playing && el("p", { class: "penny-hint muted penny-no-funding", id: whyNot }, `Not funded while ${a.name} plays in the challenge.`),
  );
}

/** The create (a null) or edit form: a name and characteristic rows, each maybe hidden. */
function antagonistForm(a, ctx) {
  const prefix = a ? `penny-edit-${a.id}` : "penny-antagonist-new";
  const name = el("input", { type: "text", id: `${prefix}-name`, required: true, maxlength: 200 });
  name.value = a ? a.name : "";
  const rows = el("ol", { class: "penny-trait-rows" });
  const addRow = (text = "", hidden = false) => {
    const n = rows.children.length + 1;
    const input = el("input", { type: "text", class: "penny-trait-text", id: uid(`${prefix}-trait`), maxlength: 200 });
    input.value = text;
    const hide = checkbox("hidden from the players", { class: "penny-trait-hidden", checked: hidden });
    const row = el(
      "li",
      { class: "penny-trait-row" },
      field(`Characteristic ${n}`, input),
      hide.node,
      button("Remove", () => row.remove(), { class: "penny-trait-remove", "aria-label": `Remove characteristic ${n}` }),
    );
    rows.append(row);
    return input;
  };
  for (const c of a ? a.characteristics : []) addRow(c.text, c.hidden);
  if (!a) addRow();
  return form(
    { id: `${prefix}-form` },
    [
      field("Name", name),
      rows,
      button("Add a characteristic", () => addRow().focus(), { class: "penny-trait-add" }),
      el("button", { type: "submit", class: "primary", id: `${prefix}-submit` }, a ? "Save the antagonist" : "Create the antagonist"),
    ],
    async (b) => {
      if (name.value.trim() === "") return name.focus();
      const characteristics = [...rows.querySelectorAll(".penny-trait-row")]
        .map((row) => ({
          text: row.querySelector(".penny-trait-text").value.trim(),
          hidden: row.querySelector(".penny-trait-hidden").checked,
        }))
        .filter((c) => c.text !== "");
      await ctx.move(
        a ? "The antagonist was not changed." : "The antagonist was not created.",
        () =>
          a
            ? api.pennyEditAntagonist(ctx.gameId, a.id, name.value.trim(), characteristics)
            : api.pennyAddAntagonist(ctx.gameId, name.value.trim(), characteristics),
        b,
      );
    },
  );
}

// ---- loans and debts --------------------------------------------------------------------------------

function loansCard(t, ctx) {
  return card(
    "penny-loans",
    "Loans and debts",
    el("h4", {}, "Loans"),
    listOrNone(t.loans, "No loans.", () => el("ul", { class: "penny-list" }, ...t.loans.map((l) => loanItem(l, ctx)))),
    el("h4", {}, "Debts"),
    listOrNone(t.debts, "No debts.", () => el("ul", { class: "penny-list" }, ...t.debts.map((d) => debtItem(d, ctx)))),
  );
}

function loanItem(l, ctx) {
  const id = `penny-loan-${l.id}`;
  const borrower = ctx.table.players.find((p) => sameAccount({ kind: "character", id: p.id }, l.borrower.account));
  return el(
    "li",
    { class: `penny-loan${l.flagged ? " flagged" : ""}`, data: { loanId: l.id } },
    el(
      "p",
      { id },
      `${l.borrower.name} borrowed ${pennies(l.amount)} from ${l.lender.name} in adventure ${l.adventure}; `,
      l.in_debt > 0
        ? `${pennies(l.in_debt)} unpaid at the next adventure's start became a debt to ${l.lender.name}.`
        : l.outstanding === 0
          ? "paid back."
          : `${pennies(l.outstanding)} still owed.`,
      l.flagged && l.outstanding > 0 && el("strong", { class: "penny-flag" }, " Flagged: due before this adventure."),
    ),
    l.outstanding > 0 &&
      repayButtons(id, l.outstanding, borrower ? borrower.pile : null, ctx, (n) => api.pennyRepayLoan(ctx.gameId, l.id, n), "The loan was not repaid."),
  );
}

function debtItem(d, ctx) {
  const id = uid("penny-debt");
  const debtor = ctx.table.players.find((p) => sameAccount({ kind: "character", id: p.id }, d.debtor.account));
  return el(
    "li",
    { class: "penny-debt" },
    el("p", { id }, `${d.debtor.name} owes ${d.creditor.name} ${pennies(d.amount)}.`),
    repayButtons(
      id,
      d.amount,
      debtor ? debtor.pile : null,
      ctx,
      (n) => api.pennyRepayDebt(ctx.gameId, d.debtor.account, d.creditor.account, n),
      "The debt was not repaid.",
    ),
  );
}
