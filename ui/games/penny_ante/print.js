// The printed Penny Ante sheet: the character's pile (with a row of penny boxes to tick off),
// characteristics (the first one free), the debts and loans that involve them, the challenges
// they played, notes. `load` reads the table as the Sheet tab does (pennyTable: this device's
// own view, never the House's secrets).
//
//   import * as penny from "./print.js";
//   const page = penny.layout(await penny.load(gameId, characterId));   // layout(null): blank

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { page, section, columns, lines, numberBox, track, table } from "../../shell/print-kit.js";

export const TITLE = "Penny Ante";

/** {player, table} for the character, from the table's shared view. */
export async function load(gameId, character) {
  const t = await api.pennyTable(gameId);
  const player = t.players.find((p) => p.id === character) ?? null;
  return player ? { player, table: t } : null;
}

const involves = (named, id) => named?.account?.kind === "character" && named.account.id === id;

/** The sheet as a page; `data` null: a blank sheet. */
export function layout(data) {
  const p = data?.player ?? null;
  const t = data?.table ?? null;
  const debts = (t?.debts ?? [])
    .filter((d) => p && (involves(d.debtor, p.id) || involves(d.creditor, p.id)))
    .map((d) => [d.debtor.name, d.creditor.name, String(d.amount)]);
  const loans = (t?.loans ?? [])
    .filter((l) => p && (involves(l.lender, p.id) || involves(l.borrower, p.id)))
    .map((l) => [l.lender.name, l.borrower.name, String(l.amount), String(l.outstanding)]);
  const played = (t?.history ?? []).filter((r) => p && r.characters?.includes(p.id)).map((r) => `“${r.stake}”: ${r.summary ?? ""}`);
  const pile = p ? p.pile : null;
  const money = section(
    "Pennies",
    el("div", { class: "ps-row ps-wrap" }, numberBox("Pile", pile ?? ""), numberBox("Next characteristic costs", p ? p.next_price : ""), numberBox("Characteristics bought", p ? p.purchases : "")),
    el("p", { class: "ps-sub" }, "Tick a box for each penny held"),
    track(40, Math.min(Math.max(pile ?? 0, 0), 40), "circle", "pennies"),
  );
  const characteristics = section(
    "Characteristics",
    el("p", { class: "ps-sub" }, "The first is free; each further one is bought between adventures"),
    lines(p?.characteristics ?? [], 8),
  );
  const owed = el(
    "div",
    {},
    section("Debts", table(["Owes", "To", "Pennies"], debts, 3)),
    section("Loans", table(["Lender", "Borrower", "Lent", "Still owed"], loans, 3)),
  );
  return page(
    TITLE,
    [["Name", p?.name ?? ""], ["Adventure", t ? String(t.adventure?.number ?? "") : ""]],
    columns(money, characteristics),
    columns(owed, section("Challenges played", lines(played, 6))),
    section("Notes", lines([], 6)),
  );
}
