// The app's commands for No Stone Unturned: loaded with its screens, not at start. Every
// other command is in api.js, which this file passes on, so a No Stone Unturned view imports
// only this file:  import * as api from "./api.js";

import { call } from "../../shell/api.js";

export * from "../../shell/api.js";

// ---- No Stone Unturned --------------------------------------------------------------------
//   NsuSheetView {character: CharacterView, sheet: NsuSheet, overcome, creation_missing: string[]}
//   NsuSheet {pronouns, look, rumours, aspects: {body, mind, heart} (each "d4"|"d6"|"d8") | null,
//             moods: (Mood|null)[6]  — lines 0-1 are d8, 2-3 d6, 4-5 d4,
//             skills: (Skill|null)[6], sentiments: (Sentiment|null)[3],
//             harm: string[] (≤ 4), scars: string[], recovery_points,
//             other_details: [{text, positive}],
//             private_rumours?, private_notes?}  — one a line, read only by the character's
//             player: left out (absent) of a view for anyone else, kept by the core on a save
//             that leaves them out (audit D10)
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
// The approach (issue 34): every aspect with every mood line, the rest of `setup` as it is
// (its aspect, mood and desired outcome are what vary: any may be sent) →
// [{aspect, mood_line, new_mood, plan, odds: {win, tie, lose, margin}, best, best_for_aspect,
//   unavailable: null | why that mood cannot be rolled now}], aspects in order, lines 0-5.
export const nsuRollApproaches = (id, setup, helperDie = null, helperEdge = null) =>
  call("nsu_roll_approaches", { id, setup, helperDie, helperEdge });
// The quick roll (issue 32): what was tapped on the sheet ({mood_line?, aspect?, skill_line?})
// → {setup: RollSetup (the tapped, then the last settled roll's, then defaults; desired_outcome
// ""), from_last_roll, preview: RollPreview|null, cannot: why not|null, outcome_to_be_written}.
export const nsuQuickRoll = (id, start) => call("nsu_quick_roll", { id, start });
// A settled roll's desired outcome written after it (the log entry) → {message}.
export const nsuRollWriteOutcome = (id, roll, text) => call("nsu_roll_write_outcome", { id, roll, text });
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
