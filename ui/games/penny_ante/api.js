// The app's commands for Penny Ante: loaded with its screens, not at start. Every
// other command is in api.js, which this file passes on, so a Penny Ante view imports
// only this file:  import * as api from "./api.js";

import { call } from "../../shell/api.js";

export * from "../../shell/api.js";

// ---- Penny Ante (RULES.md §2) ---------------------------------------------------------------
// Shapes: src/services/penny_ante.rs (views), src/rules/penny_ante/challenge.rs (Move) and
// src/rules/penny_ante/ledger.rs (Account). Every change resolves with PennyChange
// {view: PennyView, message} and is one undoable game-level step (undoGame).
//   Account  {kind: "character", id} | {kind: "house"} | {kind: "antagonist", id} | {kind: "bank"}
//            | {kind: "pot", id}
//   Named    {account: Account, name}
//   PennyView {game, starting_pennies, antagonist_cap: n|null, adventure: {number, running}, house,
//              default_house_funding, players: PlayerView[], antagonists: AntagonistView[],
//              loans: LoanView[], debts: DebtView[], challenge: ChallengeView|null}
//   PlayerView {id, name, pile, characteristics: string[], purchases, next_price, received_starting_pennies}
//   AntagonistView {id, name, purse, characteristics: [{text, hidden}]}
//   LoanView {id, lender: Named, borrower: Named, amount, repaid, outstanding, adventure, flagged}
//   DebtView {debtor: Named, creditor: Named, amount}
//   ChallengeView {id, stake, ante, devoted, phase: "circumstances"|"characteristics"|"roll"|"betting1"
//                  |"new_circumstances"|"reroll"|"betting2"|"after_loss"|"over", step, turn: side|null,
//                  pot, sides: [SideView, SideView], circumstances: [{name, by, die, barred: side|null}],
//                  offer: {lender: Named, side, amount}|null, bids: [{bidder: Named, amount}],
//                  lenders: Named[], bidders: Named[],
//                  outcome: {winner, folded, hands: [HandView, HandView]|null, narrator, pot, summary}|null}
//   SideView {side: "challenger"|"opponent", name, members: [{account, name, paid, pile}],
//             used: [{owner, owner_name, text}], dice_count, rolled, cup_chosen, revealed: n[], in_cup,
//             dice: n[]|null (once over), wager, doubled, all_in, done, available, anonymous}
//   HandView {score, category, dice: n[], words}
//   PrivateView {side, dice: n[], cup: index[], odds: {win, tie, lose, exact: [s, s, s]}|null,
//                characteristics: [{owner, owner_name, text}]}
//   LedgerView {account: Named|null, pile: n|null, entries: [{n, from: Named, to: Named, amount, reason,
//               reason_words, challenge, pile_after: n|null}]} (newest first)
//   PennyLogEntry {seq, at, action, challenge, undone}
//   ChallengeDraft {stake, ante, challenger: Account[], opponent: Account[], devoted: n|null}
//   Move {move: "circumstance", side, name, double_down} | {move: "pass", side}
//        | {move: "characteristics", side, used: [{owner, text}]} | {move: "roll", side}
//        | {move: "cup", side, cup: index[]} | {move: "stand"|"call"|"fold"|"all_in", side}
//        | {move: "raise", side, by} | {move: "offer_loan", id, lender, side, amount, borrower?}
//        | {move: "answer_loan", accept} | {move: "reroll", side} | {move: "bid", bidder, amount}
//        | {move: "accept_buyout", losses: [{owner, text}]} | {move: "debt"}
/** The table as this device shows it; `house` true: as the House sees it (after the hand-over). */
export const pennyTable = (game, house = false) => call("penny_table", { game, house });
/** What `side` sees behind the pass-the-device screen; with `cup`, its odds for that cup. */
export const pennyPrivate = (game, side, cup = null) => call("penny_private", { game, side, cup });
/** `side`'s own view while it declares, its odds for `declared` characteristics. */
/** While `side` chooses its cup: `[{cup: [die index…], faces, odds, best}]`, every cup with its odds. */
export const pennyCupChoices = (game, side) => call("penny_cup_choices", { game, side });
export const pennyPrivateDeclaring = (game, side, declared) => call("penny_private", { game, side, declared });
/** The whole game's ledger (`account` null) or one account's, newest first. */
export const pennyLedger = (game, account = null, house = false) => call("penny_ledger", { game, account, house });
export const pennyLog = (game, house = false) => call("penny_log", { game, house });
export const pennyCreateCharacter = (game, name, characteristic, pennies) =>
  call("penny_create_character", { game, name, characteristic, pennies });
export const pennyStartingPennies = (game, character, pennies) =>
  call("penny_starting_pennies", { game, character, pennies });
export const pennyBuyCharacteristic = (game, character, text) =>
  call("penny_buy_characteristic", { game, character, text });
/** `funding` null: the House gets the players' piles. */
export const pennyStartAdventure = (game, funding = null) => call("penny_start_adventure", { game, funding });
export const pennyEndAdventure = (game) => call("penny_end_adventure", { game });
export const pennyAddAntagonist = (game, name, characteristics) =>
  call("penny_add_antagonist", { game, name, characteristics });
export const pennyEditAntagonist = (game, antagonist, name, characteristics) =>
  call("penny_edit_antagonist", { game, antagonist, name, characteristics });
export const pennyFundAntagonist = (game, antagonist, amount) =>
  call("penny_fund_antagonist", { game, antagonist, amount });
export const pennyRecallPurse = (game, antagonist, amount) => call("penny_recall_purse", { game, antagonist, amount });
export const pennyRepayLoan = (game, loan, amount) => call("penny_repay_loan", { game, loan, amount });
export const pennyRepayDebt = (game, debtor, creditor, amount) =>
  call("penny_repay_debt", { game, debtor, creditor, amount });
/** Marks an antagonist recurring (its purse stays with it between adventures) or not. */
export const pennySetRecurring = (game, antagonist, recurring) =>
  call("penny_set_recurring", { game, antagonist, recurring });
/** Writes (or with "" clears) the narration of a finished challenge in the history. */
export const pennyNarrate = (game, challenge, text) => call("penny_narrate", { game, challenge, text });
export const pennyStartChallenge = (game, draft) => call("penny_start_challenge", { game, draft });
/** One challenge move; `dice` is {kind: "rolled"} or {kind: "entered", values}. */
export const pennyChallengeMove = (game, mv, dice = { kind: "rolled" }) =>
  call("penny_challenge_move", { game, mv, dice });
