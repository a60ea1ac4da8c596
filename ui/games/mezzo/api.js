// The app's commands for Mezzo: loaded with its screens, not at start. Every
// other command is in api.js, which this file passes on, so a Mezzo view imports
// only this file:  import * as api from "./api.js";

import { call } from "../../shell/api.js";

export * from "../../shell/api.js";

// ---- Mezzo (RULES.md §3.1–3.2) ---------------------------------------------------------------
// Shapes: src/services/mezzo.rs (views), src/rules/mezzo/element.rs (players, elements, traits),
// src/services/mezzo_conflict.rs and src/rules/mezzo/vote.rs (conflicts). Every change resolves
// with MezzoChange {view: MezzoView, message} and is one undoable game-level step (undoGame).
//   MezzoView {game, arc, players: PlayerView[], characters: ElementView[], elements: ElementView[]}
//   PlayerView {id, name, influence, roles: ["actor"], claimed: id[], free_award_arc, actor,
//               claimed_names: string[]}
//   ElementView {id, kind: "character"|"object"|"location"|"faction"|"goal", name, traits: Trait[],
//                adversity, adversity_debt, momentum, momentum_awards, in_challenge,
//                plot_protection: {lent_by, sacrificed}, claimed_by, awards: {first_action_check,
//                first_challenge, first_claim, memorable_arcs}, edge_slots, filled_slots, free_slots,
//                has_plot_protection, protection_sources: ("edge"|"claim"|"challenge"|"lent")[],
//                claimed_by_name}
//   Trait {id, kind: "edge"|"flaw"|"modifier"|"extra", template, name, properties, target_trait,
//          granted_by, via: "edge_slot"|"free_extra"|"unexpected_edge"|"boon"|"granted", lasts, uses_left}
//   Properties {requirements, restrictions, owner, target, set_up, effects, details}
//   TraitDraft {kind?, template?, name, properties?, target_trait?, granted_by?, via, lasts?, uses_left?}
//   MezzoLogEntry {seq, at, action, undone}
//   ConflictDraft {question, options: string[], about: id[], active_in_scene: id[],
//                  casts: ({kind: "free", player, option, votes}
//                         | {kind: "law", player, option, law: {law: "consistency", fact, direction}
//                            | {law: "inertia", fact} | {law: "potential", direction}
//                            | {law: "custom", id, direction} | {law: "theme", by, direction}}
//                         | {kind: "influence", player, option, points}
//                         | {kind: "fortunes_favor", element, by, option, allow_debt}
//                         | {kind: "narration", element, by, option, votes}
//                         | {kind: "trait", element, trait_id, option}
//                         | {kind: "discover", detail, option}
//                         | {kind: "ill_fated", element, by, option, points}
//                         | {kind: "counted", option, votes})[]}   (counted: the total the table
//                           counted for an option, cast on other devices; nothing paid here)
//   ConflictPreview {votes: [{free, laws, influence, fortunes_favor, counted, narration, traits, discover,
//                    ill_fated, total}], counts, dice: [[sides…]],
//                    steps_odds: [{probability, exact}], d6_odds, median: MedianStep[],
//                    median_outcome: Outcome|null}
//   MedianStep {selected: index[], subtracted, dropped: index[]}   Outcome {winner: i} | {tie: [i…]}
//   Approach {kind: "leave_to_chance"} | {kind: "take_median", selections: [[i, j]…]}
//            | {kind: "d6", first?: [faces shown], bursts?: [options whose owner bursts], no_bursts?}
//   ConflictOutcome {change: MezzoChange, result: {counts, rolls: {options: [{dice, faces, score}],
//                    outcome}|null, d6_scores: n[]|null, median: MedianStep[], outcome, summary}}
//   TieOutcome {change: MezzoChange, rounds: [{options, die, faces, outcome}], winner}
// Dice are {kind: "rolled"} or {kind: "entered", values}: Leave to Chance asks option by option,
// each option's dice in order; the D6 variant one d6 per option with votes, then the bursts'
// rerolls in option order; a tiebreak one die per tied option, round after round.
export const mezzoTable = (game) => call("mezzo_table", { game });
export const mezzoLog = (game) => call("mezzo_log", { game });
export const mezzoCheckWriteAttempt = (game, entry, text) => call("mezzo_check_write_attempt", { game, entry, text });
export const mezzoAddPlayer = (game, name) => call("mezzo_add_player", { game, name });
export const mezzoRenamePlayer = (game, player, name) => call("mezzo_rename_player", { game, player, name });
export const mezzoRemovePlayer = (game, player) => call("mezzo_remove_player", { game, player });
export const mezzoTakeRole = (game, player, role = "actor") => call("mezzo_take_role", { game, player, role });
/** `active`: the characters active in the scene (the Actor role stays while one claimed is). */
export const mezzoLeaveRole = (game, player, active, role = "actor") =>
  call("mezzo_leave_role", { game, player, role, active });
export const mezzoClaim = (game, player, character) => call("mezzo_claim", { game, player, character });
export const mezzoUnclaim = (game, player, character) => call("mezzo_unclaim", { game, player, character });
export const mezzoSpendInfluence = (game, player, points) => call("mezzo_spend_influence", { game, player, points });
export const mezzoGainInfluence = (game, player, points) => call("mezzo_gain_influence", { game, player, points });
export const mezzoStartArc = (game) => call("mezzo_start_arc", { game });
/** `kind`: "object" | "location" | "faction" | "goal" (characters are the game's characters). */
export const mezzoAddElement = (game, kind, name) => call("mezzo_add_element", { game, kind, name });
export const mezzoRenameElement = (game, element, name) => call("mezzo_rename_element", { game, element, name });
export const mezzoRemoveElement = (game, element) => call("mezzo_remove_element", { game, element });
/** `by`: the acting player (a claimed element's slots are its claimer's), or null for the table. */
export const mezzoAddTrait = (game, element, by, draft) => call("mezzo_add_trait", { game, element, by, draft });
export const mezzoEditTrait = (game, element, traitId, by, name, properties) =>
  call("mezzo_edit_trait", { game, element, traitId, by, name, properties });
export const mezzoRemoveTrait = (game, element, traitId) => call("mezzo_remove_trait", { game, element, traitId });
/** `award`: {kind: "first_action_check"|"first_challenge"|"first_claim"}. */
export const mezzoAwardEdgeSlots = (game, element, award) => call("mezzo_award_edge_slots", { game, element, award });
export const mezzoAwardMemorable = (game, element, player, undisputable) =>
  call("mezzo_award_memorable", { game, element, player, undisputable });
export const mezzoGainAdversity = (game, element, points) => call("mezzo_gain_adversity", { game, element, points });
/** `spend`: {kind: "overcome_flaws", flaw} | {kind: "fortunes_favor"} | {kind: "sudden_surge"} | …. */
export const mezzoSpendAdversity = (game, element, by, spend, allowDebt) =>
  call("mezzo_spend_adversity", { game, element, by, spend, allowDebt });
/** `source`: "plot_hook" | "boost" | "ruin". */
export const mezzoGainMomentum = (game, element, points, source) =>
  call("mezzo_gain_momentum", { game, element, points, source });
/** `spend`: {kind: "victory_narration", votes} | {kind: "claiming_stakes", perks} (in a challenge, with `uses`: each perk) | {kind: "lasting_effect"}
 *  | {kind: "defeat_conversion", adversity} | {kind: "plot_hook", points} | …. */
export const mezzoSpendMomentum = (game, element, by, spend) => call("mezzo_spend_momentum", { game, element, by, spend });
/** `how`: "final_counter" | "heroic_sacrifice" (with `receiver`). */
export const mezzoPlotProtection = (game, element, how, receiver = null) =>
  call("mezzo_plot_protection", { game, element, how, receiver });
/** Read-only: the votes, step dice, exact odds and Take Median steps of the draft as cast so far. */
/** `selections`: Take Median, the options the table marked at each step ([] : the pre-selection). */
export const mezzoConflictPreview = (game, draft, selections = []) =>
  call("mezzo_conflict_preview", { game, draft, selections });
export const mezzoResolveConflict = (game, draft, approach, dice = { kind: "rolled" }) =>
  call("mezzo_resolve_conflict", { game, draft, approach, dice });
// A conflict open for votes on the players' own devices (DEV-1). OpenConflictView {question,
// options, about, active_in_scene, ballots: [{player, name, casts}]} | null.
export const mezzoOpenConflict = (game) => call("mezzo_open_conflict", { game });
/** Opens `draft` (no casts) for votes; a MezzoChange. */
export const mezzoOpenConflictForVotes = (game, draft) => call("mezzo_open_conflict_for_votes", { game, draft });
export const mezzoWithdrawOpenConflict = (game) => call("mezzo_withdraw_open_conflict", { game });
/** A player's own ballot (none takes it back); on a joined device the table's device takes it. */
export const mezzoCastBallot = (game, player, casts) => call("mezzo_cast_ballot", { game, player, casts });
/** Resolves the open conflict with the table's own `casts` and every ballot; as mezzoResolveConflict. */
export const mezzoResolveOpenConflict = (game, casts, approach, dice = { kind: "rolled" }) =>
  call("mezzo_resolve_open_conflict", { game, casts, approach, dice });
/** `variant`: "steps" (d12s) or "d6". */
export const mezzoBreakTie = (game, draft, tied, variant, dice = { kind: "rolled" }) =>
  call("mezzo_break_tie", { game, draft, tied, variant, dice });
export const mezzoCompromise = (game, question, compromise) => call("mezzo_compromise", { game, question, compromise });

// Action checks (RULES.md §3.3). Shapes: src/services/mezzo_check.rs, src/rules/mezzo/action_check.rs.
//   CheckRequest {setup: {description, sides: SideSetup[], involved: id[]}, casts: Cast[],
//                 perks: [{side, perk}]}
//   SideSetup {kind: {kind: "action", element} | {kind: "failure"}, description,
//              chance: "negligible"|"occasional"|"common", aptitude}
//   Cast {kind: "law", player, side, law: {law: "consistency"|"inertia", fact} | {law: "potential"},
//         direction: "for"|"against"} | {kind: "influence", player, side, points}
//        | {kind: "fortunes_favor", element, by, allow_debt} | {kind: "overcome_flaw", element, flaw, by, allow_debt}
//        | {kind: "trait", side, element, trait_id, votes}
//        | {kind: "unexpected_edge", element, edge: Trait, no_fitting_trait, by, allow_debt}
//        | {kind: "counted", side, votes}   (the votes the table counted beyond the base chance)
//   perk: "extended_coverage"|"local_coverage"|"regional_coverage"|"lingering_consequences"
//         |"contagious_consequences"|"inescapable_consequences"
//   CheckPreview {check: ActionCheck, tallies: Tally[], dice: ({dice: [sides…], bonus, restraints,
//                 locked_out}|null)[], odds: [{probability, exact}], success, no_check_needed: side|null,
//                 first_check_awards: id[], summary}
//   Tally {base, laws_cast, laws, influence, fortunes_favor, traits, total, perks, dice_votes}
//   PendingCheck {check: ActionCheck, tallies, rolled: (n|null)[], tied: side[], summary}
//   ActionCheck {id, description, phase: "votes"|"perks"|"rolled"|"tied"|"done", sides: [{kind,
//                description, chance, aptitude, dropped, perks, roll: {dice: [{sides, face}], restraints,
//                locked_out, highest}|null, score}], involved, casts, surges, tied, tiebreaks,
//                outcome: {kind: "won", winner, tiebreak} | {kind: "compromise", sides, text} | …}
//   CheckOutcome {change: MezzoChange, result: {check, winner: side|null, tied: side[], summary}}
// Dice typed in: every live side's dice in side order; a tiebreak a d12 per tied side, round after round.
export const mezzoCheckPreview = (game, request) => call("mezzo_check_preview", { game, request });
/** Rolls (or takes the typed dice) and puts the check on the table; undo with undoGame. */
export const mezzoCheckRoll = (game, request, dice = { kind: "rolled" }) => call("mezzo_check_roll", { game, request, dice });
/** The rolled (or tied) check waiting on the table, or null. */
export const mezzoCheckPending = (game) => call("mezzo_check_pending", { game });
// An action check open for votes on the players' own devices (DEV-1/DEV-2). OpenCheckView
// {setup, sides: [words], ballots: [{player, name, casts}], rolled} | null.
export const mezzoOpenCheck = (game) => call("mezzo_open_check", { game });
/** Opens the check `draft` ({description, sides, involved}) sets up for votes; a MezzoChange. */
export const mezzoOpenCheckForVotes = (game, draft) => call("mezzo_open_check_for_votes", { game, draft });
export const mezzoWithdrawOpenCheck = (game) => call("mezzo_withdraw_open_check", { game });
/** A player's own ballot in the open check (none takes it back); on a joined device the table's device takes it. */
export const mezzoCastCheckBallot = (game, player, casts) => call("mezzo_cast_check_ballot", { game, player, casts });
/** Rolls the open check with the table's own `casts` and `perks`, then every ballot; a PendingCheck. */
export const mezzoRollOpenCheck = (game, casts, perks, dice = { kind: "rolled" }) => call("mezzo_roll_open_check", { game, casts, perks, dice });
/** `surges`: [{element, by, allow_debt}] — each +1 to the element's own result for 3 adversity. */
export const mezzoCheckResolve = (game, surges) => call("mezzo_check_resolve", { game, surges });
export const mezzoCheckBreakTie = (game, dice = { kind: "rolled" }) => call("mezzo_check_break_tie", { game, dice });
export const mezzoCheckCompromise = (game, text) => call("mezzo_check_compromise", { game, text });
/** D6 variant: the owners' choices after the first roll — `bursts` lists the sides that burst
 * (they reroll); every other side that may burst keeps its roll. */
export const mezzoCheckBurst = (game, bursts, dice = { kind: "rolled" }) => call("mezzo_check_burst", { game, bursts, dice });
/** The elements active in the scene (ids, in order): stored with the table. */
export const mezzoSetActive = (game, active) => call("mezzo_set_active", { game, active });
export const mezzoStartScene = (game) => call("mezzo_start_scene", { game });
/** Ends the scene: what lasts until the end of the scene ends on every element. */
export const mezzoEndScene = (game) => call("mezzo_end_scene", { game });
export const mezzoFavoredFlawUsed = (game, element, traitId) => call("mezzo_favored_flaw_used", { game, element, traitId });
export const mezzoAssetAccess = (game, element, traitId, lost) => call("mezzo_asset_access", { game, element, traitId, lost });
export const mezzoLendGift = (game, owner, gift, target, lend) => call("mezzo_lend_gift", { game, owner, gift, target, lend });
export const mezzoInvestAsset = (game, owner, investment, target, invest) => call("mezzo_invest_asset", { game, owner, investment, target, invest });
export const mezzoPutConsequence = (game, id, text, contagious) => call("mezzo_put_consequence", { game, id, text, contagious });
export const mezzoRemoveConsequence = (game, id) => call("mezzo_remove_consequence", { game, id });
/** `variant`: "steps" or "d6" — how Leave to Chance rolls at the table. */
export const mezzoSetDiceVariant = (game, variant) => call("mezzo_set_dice_variant", { game, variant });

// Plot hooks and arcs (RULES.md §3.5). Shapes: src/services/mezzo_plot.rs, src/rules/mezzo/plot.rs.
// Every move resolves with PlotChange {change: MezzoChange, plot: PlotView}.
//   PlotView {arc, turning_point: {challenge, challengers, hooks, themes: [{by, text}]}|null,
//             hook_cost: Points, resolve_reward: Points, can_end, hooks: HookView[],
//             no_escape: [{challenge, by, target, used}], names: {id: name}}
//   Points {influence, adversity, momentum}
//   HookView {id, text, creator, elements: id[], stored: [{by, resource, points}], points: Points, total}
//   User {player, element: id|null}   Resource "influence"|"adversity"|"momentum"
//   Award {to, resource, points}   InChallenge {id, challengers: id[]}
//   MemorableAward {by, element, undisputable}
export const mezzoPlot = (game) => call("mezzo_plot", { game });
/** Read-only: the share-out resolving `hook` would make (round robin over the other players and elements). */
export const mezzoEvenShare = (game, hook, user) => call("mezzo_even_share", { game, hook, user });
/** `draft`: {text, elements: id[], pay_with: Resource}. */
export const mezzoCreateHook = (game, user, draft) => call("mezzo_create_hook", { game, user, draft });
export const mezzoInvest = (game, hook, user, resource, points) =>
  call("mezzo_invest", { game, hook, user, resource, points });
export const mezzoTap = (game, hook, user, resource) => call("mezzo_tap", { game, hook, user, resource });
/** `share` null: the even share-out. */
export const mezzoResolveHook = (game, hook, user, reward, share = null) =>
  call("mezzo_resolve_hook", { game, hook, user, reward, share });
/** `take`: [{hook, resource, points}]. */
export const mezzoRaiseStakes = (game, hooks, challenge, challenger, take) =>
  call("mezzo_raise_stakes", { game, hooks, challenge, challenger, take });
export const mezzoNoEscape = (game, hooks, challenge, user, target) =>
  call("mezzo_no_escape", { game, hooks, challenge, user, target });
/** No Escape's pay-off: 2 momentum of `user.element`, which left `challenge` in victory (the core checks). */
export const mezzoIgnoreProtection = (game, challenge, user, target) =>
  call("mezzo_ignore_protection", { game, challenge, user, target });
/** `sacrifices`: [{hook, resource}]; `draws`: [{challenger, hook}]. */
export const mezzoTurningPoint = (game, hooks, challenge, sacrifices, draws) =>
  call("mezzo_turning_point", { game, hooks, challenge, sacrifices, draws });
export const mezzoSetTheme = (game, by, text) => call("mezzo_set_theme", { game, by, text });
/** The laws, themes, facts, open hooks, narration votes and discovered details a conflict may use. */
export const mezzoConflictSources = (game) => call("mezzo_conflict_sources", { game });
/** Adds a Setting Law of the game (`id` null) or rewrites law `id`. */
export const mezzoPutLaw = (game, id, name, effect) => call("mezzo_put_law", { game, id, name, effect });
export const mezzoRemoveLaw = (game, id) => call("mezzo_remove_law", { game, id });
/** Adds a fact to the arc's register (`id` null) or rewrites fact `id`. */
export const mezzoPutFact = (game, id, text) => call("mezzo_put_fact", { game, id, text });
export const mezzoRemoveFact = (game, id) => call("mezzo_remove_fact", { game, id });
/** The D6 variant's first rolls (nothing saved), for each owner to decide on a burst. */
export const mezzoConflictD6First = (game, draft, dice) => call("mezzo_conflict_d6_first", { game, draft, dice });
/** Ends the arc (after its Turning Point) with `memorable` awards and starts the next. */
export const mezzoEndArc = (game, memorable) => call("mezzo_end_arc", { game, memorable });

// The seed deck and the keyword die (RULES.md §3.6). Every move resolves with DeckChange
// {change: MezzoChange, deck: DeckView}; the keyword roll with {change, draw: {player, face, keyword}}.
//   DeckView {built, session, in_session, initial_draw, draw_pile, discard: Card[], seats: [{player, name, hand,
//             active: [{card: Card, linked}], depleted, may_refresh}], links: [{by, card, to}],
//             inspiration: Card|null, shown: Card|null, keyword_die: {sides, keywords}|null}
//   Card {id, text}
//   HandView {player, name, hand: Card[], active, depleted: Card[], may_refresh, influence}
export const mezzoDeck = (game) => call("mezzo_deck", { game });
/** One player's own cards (for their eyes). */
export const mezzoHand = (game, player) => call("mezzo_hand", { game, player });
export const mezzoSeats = (game) => call("mezzo_seats", { game });
export const mezzoSit = (game, player, mine) => call("mezzo_sit", { game, player, mine });
export const mezzoBuildDeck = (game, cards) => call("mezzo_build_deck", { game, cards });
export const mezzoAddCards = (game, cards) => call("mezzo_add_cards", { game, cards });
export const mezzoStartSession = (game, date) => call("mezzo_start_session", { game, date });
export const mezzoEndSession = (game) => call("mezzo_end_session", { game });
/** A player's own card move; on a device joined to the table the table's device makes it. */
const cardMove = (game, mv) => call("mezzo_card_move", { game, mv });
export const mezzoBuyCards = (game, player, count) => cardMove(game, { kind: "buy", player, count });
export const mezzoPlayCard = (game, player, card) => cardMove(game, { kind: "play", player, card });
export const mezzoDepleteCard = (game, player, card) => cardMove(game, { kind: "deplete", player, card });
export const mezzoLinkCards = (game, by, card, to) => cardMove(game, { kind: "link", by, card, to });
/** `ending`: "scene" | "challenge": every player may refresh once. */
export const mezzoRefresh = (game, player, card, draw) => cardMove(game, { kind: "refresh", player, card, draw });
export const mezzoDrawInspiration = (game, by) => cardMove(game, { kind: "draw_inspiration", by });
export const mezzoSettleInspiration = (game, played) => call("mezzo_settle_inspiration", { game, played });
export const mezzoSetKeywordDie = (game, sides, keywords) => call("mezzo_set_keyword_die", { game, sides, keywords });
export const mezzoRollKeyword = (game, player, dice = { kind: "rolled" }) =>
  call("mezzo_roll_keyword", { game, player, dice });

// Mezzo challenges
// Each move returns {change: {view, message}, challenge: view | null}; the challenge view is
// {id, description, phase: "rounds"|"perks"|"departure"|"over", round, over, sides: [{side, name,
// still_in}], challengers: [{element, name, kind, side, side_name, stake, status: "in"|"leaving"|"left",
// how?, why?, momentum, adversity, adversity_debt, momentum_awards, boosts_held, boosts_triggered,
// acted, may_surrender, claimed_by}], goals: [{element, name, side, supporters, trumps, momentum,
// triggered}], actions: [{index, round, challenger, name, score, opposing, result, major_perks,
// minor_perks, traded, declared, closed, majors_left, minors_left, open}], open_action, counterable,
// departure: {leavers, boosts, award_choices, trump_draw: {goal, trump, most} | null, may_spend} | null,
// names: {id: name}}.
/** Read-only: the challenge being played, or the last one (over), or null. */
export const mezzoChallenge = (game) => call("mezzo_challenge", { game });
/** `draft`: {description, sides: [{name}], challengers: [{element, side, stake?}],
 *  goals: [{element, supporters: [id]}]}. */
export const mezzoChallengeStart = (game, draft) => call("mezzo_challenge_start", { game, draft });
/** `draft`: a move, {move: "major_actions", rolls: [{kind: {kind: "action", element} | {kind: "failure"},
 *  score}], majors: [id]} | {move: "trade", action} | {move: "declare", action, perk: {kind: "hinder",
 *  target, flaw: {template, name}} | …} | {move: "settle", action} | {move: "final_counter", action,
 *  element} | {move: "complicate", goal, text} | {move: "surrender", challenger} | {move: "end_round",
 *  trumps} | {move: "draw_trump", points} | {move: "award_boost", to} | {move: "spend", challenger, by,
 *  spend} | {move: "depart"} | {move: "add_challenger", element, joining, stake} | {move: "add_goal",
 *  element, supporters} | {move: "change_stakes", challenger, stake, joining}. New traits may leave out
 *  id, kind and via. */
export const mezzoChallengePlay = (game, draft) => call("mezzo_challenge_play", { game, draft });
/** `request`: as for mezzoCheckRoll ({setup, casts, perks}); `majors`: the challengers whose major
 *  action it is. */
export const mezzoChallengeRollMajors = (game, request, majors, dice = { kind: "rolled" }) =>
  call("mezzo_challenge_roll_majors", { game, request, majors, dice });
/** Resolves the action check on the table (rolled with mezzoCheckRoll) as the major actions of
 *  `majors`, with the Sudden Surges bought after seeing the dice (as for mezzoCheckResolve). */
export const mezzoChallengeResolveMajors = (game, surges, majors) =>
  call("mezzo_challenge_resolve_majors", { game, surges, majors });
/** Starts a challenge from resolved action check `check` that one side lost (its result as
 *  mezzoCheckResolve returned it): `draft` as for mezzoChallengeStart, with every element that
 *  acted in the check a challenger; the check's scores are the first round's major actions. */
export const mezzoChallengeFromCheck = (game, check, draft) => call("mezzo_challenge_from_check", { game, check, draft });
/** Tempting Target: a harmful perk of challenge action `action` targets debtor `target`; its
 *  setter takes 1 adversity and the target pays off 1 adversity debt (once per harmful perk). */
export const mezzoTemptingTarget = (game, action, target) => call("mezzo_tempting_target", { game, action, target });
/** Rest & Recuperation, refused during a challenge. */
export const mezzoTakeBreather = (game, element, flaw) => call("mezzo_take_breather", { game, element, flaw });
export const mezzoEscapeRestraints = (game, element, restraint) =>
  call("mezzo_escape_restraints", { game, element, restraint });
/** `effect`: {kind: "remove_extras", extras: [id]} | {kind: "one_shot"};
 *  `recovery`: "not_made" | "passed" | "ample_time". */
export const mezzoTreatWounds = (game, element, wound, effect, recovery = "not_made") =>
  call("mezzo_treat_wounds", { game, element, wound, effect, recovery });
