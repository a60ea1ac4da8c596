// The Penny Ante ledger tab (RULES.md §2.1): every penny movement, newest first — for the
// whole game, or for one character, the House or an antagonist with the pile after each
// entry.
//
//   import { renderLedger } from "./ledger.js";
//   renderLedger(host, ctx);   // ctx from screen.js; ctx.ui.ledger holds the LedgerView

import { el } from "../../kit/dom.js";
import { field, select, pennies, accountKey, secretsCard } from "./kit.js";

/** Fills `host` with the account picker and the entries. */
export function renderLedger(host, ctx) {
  const t = ctx.table;
  const ledger = ctx.ui.ledger;
  const options = [
    ["", "The whole game"],
    ...t.players.map((p) => [accountKey({ kind: "character", id: p.id }), p.name]),
    ["house", "The House"],
    // An antagonist's purse is the House's secret: its ledger only where the purse shows.
    ...t.antagonists
      .filter((a) => a.purse !== null && a.purse !== undefined)
      .map((a) => [accountKey({ kind: "antagonist", id: a.id }), `${a.name} (antagonist)`]),
  ];
  const pick = select(options, { id: "penny-ledger-account", data: { focusKey: "penny-ledger-account" } });
  pick.value = ctx.ui.ledgerAccount;
  pick.addEventListener("change", () => ctx.switchTab("ledger", { ledgerAccount: pick.value }));
  const one = ledger && ledger.account;
  host.append(
    secretsCard(
      ctx,
      "penny-ledger",
      one ? `Ledger — ${ledger.account.name}` : "Ledger — the whole game",
      field("Whose ledger", pick),
      one && el("p", { class: "penny-pile" }, el("span", {}, "Pile now "), el("strong", { id: "penny-ledger-pile" }, String(ledger.pile))),
      !ledger || ledger.entries.length === 0
        ? el("p", { class: "muted", id: "penny-ledger-empty" }, "No pennies have moved yet.")
        : el(
            "ol",
            { class: "penny-ledger-list", id: "penny-ledger-list", "aria-label": "Entries, newest first" },
            ...ledger.entries.map((e, i) => entryItem(e, one, ledger.entries.length - i)),
          ),
    ),
  );
}

/** One entry; `number` counts this list's own entries (no gaps), oldest 1. */
function entryItem(e, one, number) {
  return el(
    "li",
    { class: "penny-entry", data: { n: String(e.n) } },
    el("span", { class: "penny-entry-n muted" }, `#${number}`),
    el("span", { class: "penny-entry-move" }, `${e.from.name} → ${e.to.name}`),
    el("strong", { class: "penny-entry-amount" }, pennies(e.amount)),
    el("span", { class: "penny-entry-reason muted" }, e.reason_words),
    one && e.pile_after !== null && el("span", { class: "penny-entry-after" }, `pile after: ${e.pile_after}`),
  );
}
