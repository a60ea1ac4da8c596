// The one place the UI talks to the Rust side. Every function returns a Promise that
// resolves with plain JSON data or rejects with an `AppError` ({kind, message}). The four
// systems' commands are in games/nsu/api.js, games/penny_ante/api.js, games/mezzo/api.js and games/scattershot/api.js,
// which load with their screens (the start reads only this file); each passes this one on.
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

/** Runs `command` after the page's earlier calls (the systems' files, api-*.js, call it too). */
export const call = (command, args = {}) => queued(() => invoke(command, args));

/** Runs `send` (which makes one call) after the page's earlier calls, counted in `data-calls`. */
function queued(send) {
  underWay += 1;
  mark();
  const result = previous.then(send);
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

const invoke = (command, args) => answer(tauri.core.invoke(command, args));

/** The result of a call already sent, its failure as an `AppError`. */
async function answer(sent) {
  try {
    return await sent;
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
/** A roll on a game's dice tray (any XdY±N), logged with the game's moves; its recent rolls. */
export const diceTrayRoll = (game, expression, character = null) => call("dice_tray_roll", { game, character, expression });
export const diceTrayLog = (game) => call("dice_tray_log", { game });
export const gameFeed = (game, since) => call("game_feed", { game, since });
// The campaign journal of every game (shell/journal.js): JournalView {game, game_name, system,
// sessions: [{number, date, attendees, notes, open, happened: [{group, title, lines}]}],
// roster, may_edit}; a move answers JournalChange {view, message}.
export const journal = (game) => call("journal", { game });
export const journalStart = (game, date, attendees) => call("journal_start", { game, date, attendees });
export const journalEnd = (game) => call("journal_end", { game });
export const journalEdit = (game, number, edit) => call("journal_edit", { game, number, edit });

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
/** What the home screen shows first, in one call: {settings, systems, games, cards}. The start's
 * answer was asked for by start.js before this file had loaded. */
export const home = () => queued(() => answer(window.sheetkeeperHome ?? tauri.core.invoke("home")));
export const setSetting = (key, value) => call("set_device_setting", { key, value });
/** A game as this device may see it; `viewer` narrows it ("everyone" or a character id). */
export const gameView = (game, viewer = null) => call("game_view", { game, viewer });

/**
 * Tells the shell the first screen shows its data (the start-up probe measures up to here);
 * `marks` are [name, ms after the page's time origin]. Not queued behind the page's other
 * calls: the probe times the first screen, not the calls that screen starts.
 */
export const uiReady = (marks) => invoke("ui_ready", { origin: performance.timeOrigin, marks });

// Linked table
// One device hosts a game; the others join it over the local network (src-tauri/src/link_commands.rs).
//   HostView    {game, listen, code: "123-456", online: [device id], wrong_tries, wrong_codes, pairing_paused, code_number,
//                claims: ClaimRequest[], addrs: ["ADDR:PORT"], link, qr: {size, dark: [bool]}, announced}
//   ClaimRequest {device, device_name, character, character_name}   a device asks to play a character
//   JoinStatus  {state: "connecting"|"linked"|"away"|"ended"|"wrong_code", game: id | null, game_name, host_name,
//                revision, caught_up, message: string | null,
//                claims: [{character, declined: null (waiting for the table) | the table's reason}]}
//   Claimed     {claimed: "yours"|"asked", message}
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
/** "This character is mine": Claimed — yours at once, or asked (the table's person approves first). */
export const linkClaim = (character) => call("link_claim", { character });
/** On the host: lets `device` play `character` (its claim), or says no (the device is told). */
export const linkHostApproveClaim = (device, character) => call("link_host_approve_claim", { device, character });
export const linkHostDeclineClaim = (device, character) => call("link_host_decline_claim", { device, character });
/** On the host: opens pairing again after wrong codes paused it (a new code). */
export const linkHostOpenPairing = () => call("link_host_open_pairing");

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
/**
 * Gives a character (or, hosting, the game) to another device at the table: the host to the
 * linked `device`, a joined device to the table. Resolves with {message}.
 */
export const linkGive = (character, game, device) => call("link_give", { character, game, device });
/** A file given to this device (a gift in the link's status) as a picked file: {token, name, preview}. */
export const linkGiftOpen = (id) => call("link_gift_open", { id });
/** Takes a given file out of the list (imported, or put away). */
export const linkGiftPutAway = (id) => call("link_gift_put_away", { id });

// Print and PDF (src-tauri/src/print_commands.rs). The page shows the sheet to print first
// (print-sheet.js); the app asks where to save and prints the window to that file.
//   Printed {outcome: "saved", file_name, bytes} | {outcome: "cancelled"}
//           | {outcome: "failed", error: a name ("printer_not_found", "timeout", …), message}
//           | {outcome: "print_dialog"} (this platform prints through window.print())
/** Saves the sheet the page shows as a PDF; `paper` "a4" | "letter". */
export const saveSheetPdf = (fileName, paper) => callAfterEarlier("save_sheet_pdf", { fileName, paper });
