// The app's commands for Scattershot's Mechanix: loaded with its screens, not at start. Every
// other command is in api.js, which this file passes on, so a Scattershot's Mechanix view imports
// only this file:  import * as api from "./api.js";

import { call } from "../../shell/api.js";

export * from "../../shell/api.js";

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
/** `edit`: {edit: "gm_dice", dice} | {edit: "setting", name, value} | {edit: "add_player", name} |
 *  {edit: "player_dice", player, dice} | {edit: "rename_player", player, name} | {edit: "remove_player", player}
 *  | {edit: "set_player", character, player: id | null}. */
export const scattershotTableEdit = (game, edit) => call("scattershot_table_edit", { game, edit });
/** `request`: {actor: side, resistors?: [side, …] (up to 5), facets?: {factor, points, bonus}, target?: {character,
 *  resource}}, a side being {character?, rating?: {kind, …} | value?: n, qualities: [i], modifier,
 *  description}. Returns each side's breakdown (advantages held against it included) and exact odds. */
export const scattershotRollPreview = (game, request) => call("scattershot_roll_preview", { game, request });
/** Read-only, during the roll's Decision Phase: {sides, contest, now: chances | null, bids: [{party, sign,
 *  face: n | null, chances, best_for_actor, best_for_resistor}]}, chances being {success, telling_blow,
 *  catastrophic}, each {p, ways, outcomes}: each new experience die as + and as − into each MIB, or the
 *  waiting die's two signs (issue 34). An error once the Decision Phase is over. */
export const scattershotBidding = (game) => call("scattershot_bidding", { game });
/** `step`: {move: "start", request} | {move: "dice", party: "actor" | "resistor" | "resistor_2"…} |
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
