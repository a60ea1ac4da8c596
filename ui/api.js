// The one place the UI talks to the Rust side. Every function returns a Promise that
// resolves with plain JSON data or rejects with an `AppError` ({kind, message}).
//
//   import * as api from "./api.js";
//   const games = await api.listGames();
//
// Shapes (see src/services/views.rs, the source of truth):
//   SystemInfo    {id: "nsu"|"penny_ante"|"mezzo"|"scattershot", label}
//   GameView      {id, name, system, system_label, created_at, updated_at,
//                  table_settings: {name: integer}, characters: CharacterView[]}
//   CharacterView {id, game_id, system, name, created_at, updated_at, revision}
//   Done          {message}                      plain words for a toast
//   Preview       {kind, system, games: Item[], characters: Item[],
//                  counts: {new, update, conflict, unchanged}}
//   Item          {id, name, status: "new"|"update"|"conflict"|"unchanged",
//                  differences: [{field, mine, theirs}]}
//   Exported      {outcome: "saved", file_name} | {outcome: "cancelled"}
//   Picked        {outcome: "picked", token, name, preview: Preview} | {outcome: "cancelled"}
//   ImportReport  {message, counts}
// (src-tauri/src/transfer_commands.rs for the last three)

const tauri = window.__TAURI__;

// The first module the start runs (app.js imports it first): every module of the start has
// arrived and been parsed by now. The start-up probe reports it (app.js, startMarks).
performance.mark("modules");

/** An error from the app: `kind` is a stable word, `message` is for people. */
export class AppError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

// The app runs its commands off the window's main thread, several at once. So that two quick
// clicks cannot overtake each other, the page's calls run one after another, in the order
// it made them: each starts once the one before has settled.
let previous = Promise.resolve();

// How many of the page's calls are under way, kept on the root element as `data-calls`: the
// window tests wait for "0" before they act, as a person waits for the screen to settle.
let underWay = 0;
const mark = () => document.documentElement.setAttribute("data-calls", String(underWay));
mark();

function call(command, args = {}) {
  underWay += 1;
  mark();
  const result = previous.then(() => invoke(command, args));
  previous = result.catch(() => {});
  previous.then(() => {
    underWay -= 1;
    mark();
  });
  return result;
}

/**
 * For a call that first waits for the person in a file dialog: it starts after the calls
 * made before it, but the calls made after it do not wait for the dialog.
 */
function callAfterEarlier(command, args) {
  return previous.then(() => invoke(command, args));
}

async function invoke(command, args) {
  try {
    return await tauri.core.invoke(command, args);
  } catch (e) {
    if (e && typeof e === "object" && "kind" in e) throw new AppError(e.kind, e.message);
    throw new AppError("internal", String(e));
  }
}

export const listGames = () => call("list_games");

export const createGame = (name, system) => call("create_game", { name, system });
export const renameGame = (id, name) => call("rename_game", { id, name });
export const deleteGame = (id) => call("delete_game", { id });
export const undoGame = (id) => call("undo_game", { id });

export const createCharacter = (gameId, name) => call("create_character", { gameId, name });
export const renameCharacter = (id, name) => call("rename_character", { id, name });
export const deleteCharacter = (id) => call("delete_character", { id });
export const undoCharacter = (id) => call("undo_character", { id });
export const copyCharacter = (id, toGame) => call("copy_character", { id, toGame });
export const moveCharacter = (id, toGame) => call("move_character", { id, toGame });

// Files: the app opens the native save and open dialogs itself; the page never names a path.
// `onStep(step)` hears "writing" / "reading" once the dialog has closed and the slow part starts.
/** Asks where to save (suggesting `fileName`) and writes there; resolves with Exported. */
export const exportCharacter = (id, fileName, onStep) =>
  callAfterEarlier("export_character", { id, fileName, onProgress: progress(onStep) });
export const exportGame = (id, fileName, onStep) =>
  callAfterEarlier("export_game", { id, fileName, onProgress: progress(onStep) });
export const exportAll = (fileName, onStep) =>
  callAfterEarlier("export_all", { fileName, onProgress: progress(onStep) });
/** Asks which file to import and previews it (not as copies); resolves with Picked. */
export const importPick = (onStep) => callAfterEarlier("import_pick", { onProgress: progress(onStep) });
/** Previews the picked file again; what `importApply` with the same `asCopy` then checks. */
export const importPreview = (token, asCopy) => call("import_preview", { token, asCopy });
/** Imports the picked file; the token then ends. */
export const importApply = (token, asCopy, replaceConflicts) =>
  call("import_apply", { token, asCopy, replaceConflicts });
/** Ends the token without importing. */
export const importCancel = (token) => call("import_cancel", { token });

/** A channel the app sends progress steps on. */
function progress(onStep) {
  const channel = new tauri.core.Channel();
  channel.onmessage = (step) => onStep?.(step);
  return channel;
}

// ---- this device ---------------------------------------------------------------------------
//   role: "player" (a player's own device) | "table" (the Gamemaster / House / Arbiters) |
//         "both" (one device passed around; the default). The core leaves out of every view
//         what the role may not see; ask only for what the role may see.
//   listGames() games carry `role`, `dice_by_hand` and `notes`; their characters carry `notes`
//   and `mine`.
//   CharacterCard {id, name, notes, mine, game_id, game_name, system, system_label, role,
//                  stats: [{label, value}]}   — mine first
//   settings: {theme: "system"|"light"|"dark", place: string|null, hints: bool}
//             (setSetting("hints", "on"|"off"))

export const deviceRole = (game) => call("device_role", { game });
export const setDeviceRole = (game, role) => call("set_device_role", { game, role });
export const setMine = (character, mine) => call("set_mine", { character, mine });
/** One preference per game: the people at this device roll real dice and type them in. */
export const setDiceByHand = (game, byHand) => call("set_dice_by_hand", { game, byHand });
export const setCharacterNotes = (id, notes) => call("set_character_notes", { id, notes });
export const setGameNotes = (id, notes) => call("set_game_notes", { id, notes });
export const characterCards = () => call("character_cards");
/** What the home screen shows first, in one call: {settings, systems, games, cards}. */
export const home = () => call("home");
export const setSetting = (key, value) => call("set_device_setting", { key, value });
/** A game as this device may see it; `viewer` narrows it ("everyone" or a character id). */
export const gameView = (game, viewer = null) => call("game_view", { game, viewer });

// ---- No Stone Unturned --------------------------------------------------------------------
//   NsuSheetView {character: CharacterView, sheet: NsuSheet, overcome, creation_missing: string[]}
//   NsuSheet {pronouns, look, rumours, aspects: {body, mind, heart} (each "d4"|"d6"|"d8") | null,
//             moods: (Mood|null)[6]  — lines 0-1 are d8, 2-3 d6, 4-5 d4,
//             skills: (Skill|null)[6], sentiments: (Sentiment|null)[3],
//             harm: string[] (≤ 4), scars: string[], recovery_points,
//             other_details: [{text, positive}]}
//   Mood {name, level (0..=die+1), overloaded}   Skill {name, modifier ≥ 0, boxes: {body, mind, heart}}
//   Sentiment {name, state: "connected"|"at_risk"|"lost"}
export const nsuSheet = (id) => call("nsu_sheet", { id });
/** Saves the whole sheet as one undoable change (undo with undoCharacter). */
export const saveNsuSheet = (id, sheet) => call("save_nsu_sheet", { id, sheet });

// Action rolls (RULES.md §1.3). Shapes: src/rules/nsu/roll.rs and src/services/nsu_roll.rs.
//   RollSetup {desired_outcome, aspect: "body"|"mind"|"heart", at_risk: "character"|"world",
//              mood: {kind: "existing", line} | {kind: "new", line, name},
//              aspect_advantages, aspect_disadvantages,
//              skill: null | {kind: "existing", line} | {kind: "new", line, name},
//              risked_sentiment: null | line,
//              scout?: location id (a downtime Scout: the face-down card; refused outside downtime)}
//   DiceInput {kind: "rolled"} | {kind: "entered", values: [aspect dice…, mood dice…]}
//   RollPreview {plan: {aspect_die, mood_die, skill_modifier, aspect_edge, mood_edge,
//                mood_edge_reasons}, odds: {win, tie, lose, margin: [[m, p]…]}}
//   PendingRoll {roll: {setup, plan, aspect_rolls, mood_rolls, help}, helper, choices, needs}
//   Choices {aspect_kept, mood_kept, skill_sign: "plus"|"minus", use_helper_die,
//            final_box: null | {sentiment_line, new_name}, helper_final_box, overload_end_sentiment,
//            helper_kept: null|0|1, helper_overload_end_sentiment,
//            scout_accepts_details: null|true|false (a scouting roll not won: look, or turn back)}
//   Need {kind: "final_box"|"overload_end_sentiment"|"scout", …} ("scout": {location})
//   help {mood: MoodChoice|null (null: a helper on another device), name?, die, edge, value, second?}
//   RollResult {record: {winner, margin, difference, grants, events, …}, sheet: NsuSheetView,
//               scouted: null | {location, outcome: ScoutOutcome, face: Location|null}}
//               (face: only when this device's viewer may look at what that character scouted)
export const nsuRollPreview = (id, setup, helperDie = null, helperEdge = null) =>
  call("nsu_roll_preview", { id, setup, helperDie, helperEdge });
export const nsuRollDice = (id, setup, dice) => call("nsu_roll_dice", { id, setup, dice });
export const nsuRollHelp = (id, helper, mood, dice) => call("nsu_roll_help", { id, helper, mood, dice });
// A helper on another device, typed in: RemoteHelper {name, die: "d4"|"d6"|"d8",
// edge: "none"|"advantage"|"disadvantage"}; dice: their face(s) (two with an edge).
export const nsuRollHelpElsewhere = (id, helper, dice) => call("nsu_roll_help_elsewhere", { id, helper, dice });
// "I helped with…" on the helper's own device: HelpedWith {roll: text, mood: MoodChoice,
// rolls: [face] | [face, face] (two while one of their moods is overloaded), kept: null|0|1,
// winner: "player"|"arbiters"|"tie", final_box, overload_end_sentiment}. Needs first, then the
// change (one undoable event: undoCharacter) → {message, events, sheet: NsuSheetView}.
export const nsuHelpedWithNeeds = (id, input) => call("nsu_helped_with_needs", { id, input });
export const nsuHelpedWith = (id, input) => call("nsu_helped_with", { id, input });
export const nsuPendingRoll = (id) => call("nsu_pending_roll", { id });
export const nsuRollNeeds = (id, choices) => call("nsu_roll_needs", { id, choices });
export const nsuRollResolve = (id, choices) => call("nsu_roll_resolve", { id, choices });
export const nsuRollLog = (game, character = null) => call("nsu_roll_log", { game, character });

// ---- World and downtime (No Stone Unturned, RULES.md §1.4–1.5) -----------------------------
// Shapes: src/rules/nsu/world.rs, src/rules/nsu/downtime.rs, src/services/nsu_world.rs and
// src/services/nsu_downtime.rs. Every change is one undoable game-level step (undoGame).
//   World {safety: {lines: string[], veils: string[]}, bans: [{player, ban: string|null}],
//          settlement: [{author, text}], scope: [{question, answer}],
//          resources: null | [{name, state: "scarcity"|"neutral"|"abundance"}] (5),
//          locations: Location[], projects: [{id, name, owner, size: 4|6|8, filled}],
//          npcs: Npc[] (the key is absent while there are none)}
//   Npc {id, name, details: [{text, positive}]}
//   Location {id, name, author, description, collateral_harms, danger, treasure,
//             danger_level: 1..4|null, reward_level: 1..4|null, collateral: 0..8, revealed,
//             position: {x, y}|null, scene_details: [{text, world_at_risk}], scouted_by: id[]}
//   WorldChange {world: World, events: WorldEvent[]}   WorldEvent {event: "scene_detail_added"|…, …}
//   MapCard {id, position: {x, y}|null, revealed, scouted, face: Location|null}
//            (face is null for a face-down card the viewer has not scouted)
//   LocationDraft {name, author, description, collateral_harms, danger, treasure}
//   DowntimeView {phase: DowntimePhase|null (null once ended), world: World,
//                 characters: NsuSheetView[], events: DowntimeEvent[]}
//   DowntimePhase {at_home, time_units, just_left: id|null, just_left_rolled, extra_complications_left,
//                  characters: {id: {actions_left, recovered_harm, upgraded_skills,
//                               awaiting: null | {action: "introspection", roll}
//                                              | {action: "train_skills", aspect, roll},
//                               final_boxes: [{line, mood}]}},
//                  collateral_attempts: [{location, started_by, votes_for, votes_against,
//                                         dice: [{character, aspect, die, roll}]}]}
//   PhaseSetup {at_home, time_units, just_left: id|null}
//   MoodPick {line: n} | {new: {line, name}}
//   ProjectAction {project: {kind: "existing", project: id} | {kind: "new", name, size},
//                  aspect: "body"|"mind"|"heart", mood: MoodPick, skill: line|null}
//   Reconnection {sentiment: line, mood: MoodPick, forge: string|null}
//   Introspection {reductions: [{line, ticks}], swap: [line, line]|null, replace: [line, name]|null}
//   Votes {sound, unsound}   SeekRecovery {healer, skill: line|null, helper: {character, skill}|null}
//   HarmRecovery {harm: index, scar}   FinalBoxChoice {new_name, sentiment: line|null}
//   ScoutOutcome "won"|"accepted_details"|"turned_back"
// Dice (DiceInput, as for action rolls) are asked for in this order: levels: danger, reward;
// project: aspect, mood; seek recovery: body (twice with a healer), helper heart.
export const nsuWorld = (game) => call("nsu_world", { game });
export const nsuMap = (game, viewer = null) => call("nsu_map", { game, viewer });
export const nsuWorldAddSafety = (game, list, text) => call("nsu_world_add_safety", { game, list, text });
export const nsuWorldRemoveSafety = (game, list, index) => call("nsu_world_remove_safety", { game, list, index });
/** `ban` null: the player passes. */
export const nsuWorldBan = (game, player, ban) => call("nsu_world_ban", { game, player, ban });
export const nsuWorldAddStatement = (game, author, text) => call("nsu_world_add_statement", { game, author, text });
export const nsuWorldAddScopeQuestion = (game, question) => call("nsu_world_add_scope_question", { game, question });
export const nsuWorldAddGuidingQuestions = (game) => call("nsu_world_add_guiding_questions", { game });
export const nsuWorldGuidingMissing = (game) => call("nsu_world_guiding_missing", { game });
export const nsuWorldAnswerScope = (game, index, answer) => call("nsu_world_answer_scope", { game, index, answer });
/** Five names; `abundance` is the index of the one in abundance. */
export const nsuWorldCreateResources = (game, names, abundance) =>
  call("nsu_world_create_resources", { game, names, abundance });
export const nsuWorldSetResource = (game, index, resourceState) =>
  call("nsu_world_set_resource", { game, index, resourceState });
export const nsuWorldAuthorLocation = (game, draft) => call("nsu_world_author_location", { game, draft });
export const nsuWorldRollLevels = (game, location, dice) => call("nsu_world_roll_levels", { game, location, dice });
export const nsuWorldPlace = (game, location, at) => call("nsu_world_place", { game, location, at });
/**
 * Writes one detail granted by settled roll `roll` (its event id) of character `id`.
 * `target`: {kind: "harm"} | {kind: "other", positive} | {kind: "scene", location} |
 * {kind: "npc", npc, positive} | {kind: "npc_harm", npc}. A World-at-risk roll ticks the
 * party's location; the answer's `message` says so, and undoGame takes both back.
 */
export const nsuRollWriteDetail = (id, roll, target, text) =>
  call("nsu_roll_write_detail", { id, roll, target, text });
/** Moves the party to a revealed card (its id), or home (null). */
export const nsuWorldSetPartyLocation = (game, location) =>
  call("nsu_world_set_party_location", { game, location });
/** Shuffles the cards not on the map and deals them face down onto `cells` ([{x, y}]). */
export const nsuWorldDeal = (game, cells, dice) => call("nsu_world_deal", { game, cells, dice });
export const nsuWorldAddPath = (game, a, b) => call("nsu_world_add_path", { game, a, b });
export const nsuWorldRemovePath = (game, a, b) => call("nsu_world_remove_path", { game, a, b });
/** Links a card to the character whose player wrote it (null unlinks). */
export const nsuWorldLinkAuthor = (game, location, character) =>
  call("nsu_world_link_author", { game, location, character });
/** An NPC's Overcome threshold, 2 to 4, or null for an ordinary NPC. */
export const nsuWorldSetNpcThreshold = (game, npc, threshold) =>
  call("nsu_world_set_npc_threshold", { game, npc, threshold });
export const nsuWorldAddNpcHarm = (game, npc, text) => call("nsu_world_add_npc_harm", { game, npc, text });
export const nsuWorldRemoveNpcHarm = (game, npc, index) => call("nsu_world_remove_npc_harm", { game, npc, index });
export const nsuWorldReveal = (game, location) => call("nsu_world_reveal", { game, location });
/** Ticks typed by a person: -8..8, the clock must stay within 0..8. */
export const nsuWorldTickCollateral = (game, location, delta) =>
  call("nsu_world_tick_collateral", { game, location, delta });
export const nsuWorldAddSceneDetail = (game, location, text, worldAtRisk) =>
  call("nsu_world_add_scene_detail", { game, location, text, worldAtRisk });
export const nsuWorldStartProject = (game, owner, name, size) =>
  call("nsu_world_start_project", { game, owner, name, size });
export const nsuWorldMarkProject = (game, project, segments) =>
  call("nsu_world_mark_project", { game, project, segments });
/** A new NPC with no details; the app gives it its id. */
export const nsuWorldAddNpc = (game, name) => call("nsu_world_add_npc", { game, name });
/** A detail written onto NPC `npc` (e.g. granted by a roll); `positive` true or false. */
export const nsuWorldAddNpcDetail = (game, npc, text, positive) =>
  call("nsu_world_add_npc_detail", { game, npc, text, positive });
/** Crosses detail `index` off NPC `npc`. */
export const nsuWorldRemoveNpcDetail = (game, npc, index) =>
  call("nsu_world_remove_npc_detail", { game, npc, index });

/** The downtime phase in progress (DowntimeView) or null. */
export const nsuDowntime = (game) => call("nsu_downtime", { game });
export const nsuDowntimeStart = (game, characters, setup) => call("nsu_downtime_start", { game, characters, setup });
export const nsuComplicationTables = () => call("nsu_complication_tables");
export const nsuDowntimeComplication = (game, location, dice) =>
  call("nsu_downtime_complication", { game, location, dice });
export const nsuDowntimeRecoverHarm = (game, character, recoveries) =>
  call("nsu_downtime_recover_harm", { game, character, recoveries });
export const nsuDowntimeUpgradeSkills = (game, character) => call("nsu_downtime_upgrade_skills", { game, character });
export const nsuDowntimeProject = (game, character, action, dice) =>
  call("nsu_downtime_project", { game, character, action, dice });
export const nsuDowntimeReconnect = (game, character, choice) =>
  call("nsu_downtime_reconnect", { game, character, choice });
export const nsuDowntimeIntrospectionRoll = (game, character, dice) =>
  call("nsu_downtime_introspection_roll", { game, character, dice });
export const nsuDowntimeIntrospectionFinish = (game, character, choice) =>
  call("nsu_downtime_introspection_finish", { game, character, choice });
export const nsuDowntimeAddressCollateral = (game, character, location, votes, dice) =>
  call("nsu_downtime_address_collateral", { game, character, location, votes, dice });
export const nsuDowntimeAddCollateralDie = (game, character, location, aspect, dice) =>
  call("nsu_downtime_add_collateral_die", { game, character, location, aspect, dice });
export const nsuDowntimeSettleCollateral = (game, location) =>
  call("nsu_downtime_settle_collateral", { game, location });
export const nsuDowntimeTrainRoll = (game, character, aspect, dice) =>
  call("nsu_downtime_train_roll", { game, character, aspect, dice });
export const nsuDowntimeTrainMark = (game, character, skills) =>
  call("nsu_downtime_train_mark", { game, character, skills });
export const nsuDowntimeSeekRecovery = (game, character, choice, dice) =>
  call("nsu_downtime_seek_recovery", { game, character, choice, dice });
export const nsuDowntimeFinalBox = (game, character, line, choice) =>
  call("nsu_downtime_final_box", { game, character, line, choice });
export const nsuDowntimeEnd = (game) => call("nsu_downtime_end", { game });

/** Tells the shell the first screen shows its data (the startup probe measures up to here). */
/** `marks`: [name, ms after the page's time origin] for the start-up probe. */
// Not queued behind the page's other calls: the start-up probe times the first screen, not
// the calls that screen starts.
export const uiReady = (marks) => invoke("ui_ready", { origin: performance.timeOrigin, marks });

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
//        | {move: "raise", side, by} | {move: "offer_loan", id, lender, side, amount}
//        | {move: "answer_loan", accept} | {move: "reroll", side} | {move: "bid", bidder, amount}
//        | {move: "accept_buyout", losses: [{owner, text}]} | {move: "debt"}
/** The table as this device shows it; `house` true: as the House sees it (after the hand-over). */
export const pennyTable = (game, house = false) => call("penny_table", { game, house });
/** What `side` sees behind the pass-the-device screen; with `cup`, its odds for that cup. */
export const pennyPrivate = (game, side, cup = null) => call("penny_private", { game, side, cup });
/** `side`'s own view while it declares, its odds for `declared` characteristics. */
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
//   ConflictDraft {question, options: string[], about: id|null, active_in_scene: id[],
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
//   DeckView {built, session, initial_draw, draw_pile, discard: Card[], seats: [{player, name, hand,
//             active: [{card: Card, linked}], depleted, may_refresh}], links: [{by, card, to}],
//             inspiration: Card|null, shown: Card|null, keyword_die: {sides, keywords}|null}
//   Card {id, text}
//   HandView {player, name, hand: Card[], active, depleted: Card[], may_refresh, influence}
export const mezzoDeck = (game) => call("mezzo_deck", { game });
/** One player's own cards (for their eyes). */
export const mezzoHand = (game, player) => call("mezzo_hand", { game, player });
export const mezzoBuildDeck = (game, cards) => call("mezzo_build_deck", { game, cards });
export const mezzoAddCards = (game, cards) => call("mezzo_add_cards", { game, cards });
export const mezzoStartSession = (game) => call("mezzo_start_session", { game });
export const mezzoBuyCards = (game, player, count) => call("mezzo_buy_cards", { game, player, count });
export const mezzoPlayCard = (game, player, card) => call("mezzo_play_card", { game, player, card });
export const mezzoDepleteCard = (game, player, card) => call("mezzo_deplete_card", { game, player, card });
export const mezzoLinkCards = (game, by, card, to) => call("mezzo_link_cards", { game, by, card, to });
/** `ending`: "scene" | "challenge": every player may refresh once. */
export const mezzoDeckEndOf = (game, ending) => call("mezzo_deck_end_of", { game, ending });
export const mezzoRefresh = (game, player, card, draw) => call("mezzo_refresh", { game, player, card, draw });
export const mezzoDrawInspiration = (game, by) => call("mezzo_draw_inspiration", { game, by });
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

// Scattershot
// Ids are strings; moves and edits are the services' tagged JSON. Every change returns
// {view, message}: view is the whole table (characters, Gamemaster's stock, mechanical play,
// the roll on the table) or, for sheet edits, the sheet; undo with undoGame / undoCharacter.

/** Read-only: the table (settings, default facets, characters, play, roll on the table). */
export const scattershotTable = (game) => call("scattershot_table", { game });
/** Read-only: the game's Scattershot moves, newest first: [{seq, at, action, undone}]. */
export const scattershotLog = (game) => call("scattershot_log", { game });
/** Read-only: a character's sheet with statistics, ratings, points spent and resources. */
export const scattershotSheet = (character) => call("scattershot_sheet", { character });
/** `edit`: {edit: "buy", purchase: {purchase: "statistic", statistic} | {purchase: "new_free_skill", name,
 *  starting_level} | {purchase: "free_skill", index} | {purchase: "new_skill", name, difficulty} |
 *  {purchase: "skill", index} | {purchase: "new_special_ability", name, kind, difficulty, notes} |
 *  {purchase: "special_ability", index} | {purchase: "new_advantage", name, situation, modifier, points}}
 *  | {edit: "take_back", rating: {kind: "statistic", statistic} | {kind: "skill", index} | …}
 *  | {edit: "set_creation_limit", limit} | {edit: "finish_creation"}
 *  | {edit: "add_disadvantage", name, situation, modifier} | {edit: "remove_quality", index}
 *  | {edit: "set_resource", resource: "hit_points" | "power", current}
 *  | {edit: "expend_power", ability, amount} | {edit: "set_experience_dice", dice}. */
export const scattershotSheetEdit = (character, edit) => call("scattershot_sheet_edit", { character, edit });
/** `edit`: {edit: "gm_dice", dice} | {edit: "setting", name, value}. */
export const scattershotTableEdit = (game, edit) => call("scattershot_table_edit", { game, edit });
/** `request`: {actor: side, resistor?: side, facets?: {factor, points, bonus}, target?: {character,
 *  resource}}, a side being {character?, rating?: {kind, …} | value?: n, qualities: [i], modifier,
 *  description}. Returns each side's breakdown (advantages held against it included) and exact odds. */
export const scattershotRollPreview = (game, request) => call("scattershot_roll_preview", { game, request });
/** `step`: {move: "start", request} | {move: "dice", party: "actor" | "resistor"} |
 *  {move: "experience", party, contributor} (a character id, or the game id for the Gamemaster) |
 *  {move: "sign", sign: "add" | "subtract"} | {move: "decide"} | {move: "complications", party, count} |
 *  {move: "benefits", party, count} | {move: "conclude"} | {move: "abandon"}.
 *  `dice`: {kind: "rolled"} | {kind: "entered", values: [faces]}. */
export const scattershotRoll = (game, step, dice = { kind: "rolled" }) =>
  call("scattershot_roll", { game, step, dice });
/** `step`: {move: "start", caller, seating: [{character, player?}], cinematic} |
 *  {move: "action", character, action: {kind: "immediate"} | {kind: "flurry", length} |
 *  {kind: "restore_free_actions"}} | {move: "free_action", character, kind} | {move: "forfeit", character} |
 *  {move: "end_turn"} | {move: "engage", character, foe} | {move: "advantage", holder, foe, gain: "seize" |
 *  "hold"} | {move: "check", by, holder, check: "check" | "upset"} | {move: "end"} (the lull). */
export const scattershotPlay = (game, step) => call("scattershot_play", { game, step });
/** `reward`: {reward: "after_session", rewards: {equal, bonuses: [{character, dice, reason}], withheld: [id]},
 *  characters?} | {reward: "on_the_spot", giver: {kind: "gamemaster"} | {kind: "player", from, replaced},
 *  to, dice, note} | {reward: "by_vote", votes: [{voter, character}], dice, characters?}. */
export const scattershotReward = (game, reward) => call("scattershot_reward", { game, reward });

// Linked table
// One device hosts a game; the others join it over the local network (src-tauri/src/link_commands.rs).
//   HostView    {game, listen, code: "123-456", online: [device id], wrong_tries, code_number, addrs: ["ADDR:PORT"], link, qr: {size, dark: [bool]}, announced}
//   JoinStatus  {state: "connecting"|"linked"|"away"|"ended"|"wrong_code", game: id | null, game_name, host_name,
//                revision, caught_up, message: string | null}
//   Nearby      {name, game, addrs: ["ADDR:PORT"]}
//   Device      {device_id, game_id, side: "host"|"joined", name, address, paired_at, removed_at, game_name, characters: [id]}
//   Refused     {id, game_id, character_id, name, reason, record, at}
export const linkHostStart = (game) => call("link_host_start", { game });
/** The host's panel, or null when this app hosts nothing. */
export const linkHostStatus = () => call("link_host_status");
export const linkStop = () => call("link_stop");
/** `addr` is ADDR:PORT or a whole sheetkeeper://join link; `code` is needed the first time only. */
export const linkJoin = (addr, code, name = null) => call("link_join", { addr, code, name });
/**
 * The joined link's state, or null when not joined. Polled while joined, so it runs outside
 * the page's queue and is not counted in `data-calls` (a read that changes nothing cannot
 * overtake anything that matters, and a screen waiting on it is not "busy").
 */
export const linkJoinStatus = () => invoke("link_join_status", {});
/** The host's panel for the slow poll while hosting (outside the queue, like linkJoinStatus). */
export const linkHostPoll = () => invoke("link_host_status", {});
/** Hosts heard on the network for a moment (about 1.5 s); [] when none. */
export const linkNearby = () => call("link_nearby");
export const linkDevices = (game = null) => call("link_devices", { game });
export const linkUnpair = (device) => call("link_unpair", { device });
export const linkRefused = (game) => call("link_refused", { game });
export const linkDismissRefused = (id) => call("link_dismiss_refused", { id });
export const linkClaim = (character) => call("link_claim", { character });

// Notes between linked devices (src-tauri/src/link_note_commands.rs): handed from one device
// to another through the host, changing neither database; the person receiving one uses it.
//   Note     {kind: "nsu_help", roller: character id, helper: {name, die: "d4"|"d6"|"d8",
//             edge: "none"|"advantage"|"disadvantage"}, faces: [int]}   (two faces with an edge)
//   Inbound  {id, from: the sending device's name, note: Note}
/**
 * Sends `note` to the device that plays its character; resolves with the note as sent.
 * `dice`: {kind: "rolled"} rolls the helper's die here, {kind: "entered", values} takes the
 * faces typed in, null keeps the note's own. Rejects with the host's reason when refused.
 */
export const linkSendNote = (note, dice = null) => call("link_send_note", { note, dice });
/**
 * The notes waiting on this device (Inbound[], oldest first), or null when it runs no link.
 * Polled while the roll wizard waits for a helper, so it runs outside the page's queue (like
 * linkJoinStatus).
 */
export const linkInbox = () => invoke("link_inbox", {});
/** Takes a note out of the inbox once used (or put away). */
export const linkTakeNote = (id) => call("link_take_note", { id });

// Print and PDF (src-tauri/src/print_commands.rs). The page shows the sheet to print first
// (print-sheet.js); the app asks where to save and prints the window to that file.
//   Printed {outcome: "saved", file_name, bytes} | {outcome: "cancelled"}
//           | {outcome: "failed", error: a name ("printer_not_found", "timeout", …), message}
//           | {outcome: "print_dialog"} (this platform prints through window.print())
/** Saves the sheet the page shows as a PDF; `paper` "a4" | "letter". */
export const saveSheetPdf = (fileName, paper) => callAfterEarlier("save_sheet_pdf", { fileName, paper });
