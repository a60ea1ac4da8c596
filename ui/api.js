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

const tauri = window.__TAURI__;

/** An error from the app: `kind` is a stable word, `message` is for people. */
export class AppError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

async function call(command, args = {}) {
  try {
    return await tauri.core.invoke(command, args);
  } catch (e) {
    if (e && typeof e === "object" && "kind" in e) throw new AppError(e.kind, e.message);
    throw new AppError("internal", String(e));
  }
}

export const listSystems = () => call("list_systems");
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

export const exportCharacter = (id, path) => call("export_character", { id, path });
export const exportGame = (id, path) => call("export_game", { id, path });
export const exportAll = (path) => call("export_all", { path });
export const importPreview = (path, asCopy) => call("import_preview", { path, asCopy });
export const importApply = (path, asCopy, replaceConflicts) =>
  call("import_apply", { path, asCopy, replaceConflicts });

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
//              risked_sentiment: null | line}
//   DiceInput {kind: "rolled"} | {kind: "entered", values: [aspect dice…, mood dice…]}
//   RollPreview {plan: {aspect_die, mood_die, skill_modifier, aspect_edge, mood_edge,
//                mood_edge_reasons}, odds: {win, tie, lose, margin: [[m, p]…]}}
//   PendingRoll {roll: {setup, plan, aspect_rolls, mood_rolls, help}, helper, choices, needs}
//   Choices {aspect_kept, mood_kept, skill_sign: "plus"|"minus", use_helper_die,
//            final_box: null | {sentiment_line, new_name}, helper_final_box, overload_end_sentiment}
//   RollResult {record: {winner, margin, difference, grants, events, …}, sheet: NsuSheetView}
export const nsuRollPreview = (id, setup, helperDie = null) => call("nsu_roll_preview", { id, setup, helperDie });
export const nsuRollDice = (id, setup, dice) => call("nsu_roll_dice", { id, setup, dice });
export const nsuRollHelp = (id, helper, mood, dice) => call("nsu_roll_help", { id, helper, mood, dice });
export const nsuPendingRoll = (id) => call("nsu_pending_roll", { id });
export const nsuRollNeeds = (id, choices) => call("nsu_roll_needs", { id, choices });
export const nsuRollResolve = (id, choices) => call("nsu_roll_resolve", { id, choices });
export const nsuRollLog = (game, character = null) => call("nsu_roll_log", { game, character });

/** Tells the shell the first screen shows its data (the startup probe measures up to here). */
export const uiReady = () => call("ui_ready");

const FILE_FILTER = [{ name: "Sheetkeeper file", extensions: ["json"] }];

/** Asks where to save; resolves with a path or null when the person cancels. */
export const pickSavePath = (suggestedName) =>
  tauri.dialog.save({ defaultPath: suggestedName, filters: FILE_FILTER });

/** Asks which file to open; resolves with a path or null when the person cancels. */
export const pickOpenPath = () =>
  tauri.dialog.open({ multiple: false, directory: false, filters: FILE_FILTER });
