// The linked table in the window: the game panel's "Linked table" section, home's "Join a
// table nearby" dialog, and the status pill in every game screen's bar.
//
//   import { initLink, renderLink } from "./link.js";
//   initLink({ run, toast, refresh, getGame, games, selectGame, openSheet, importPicked }); // once
//   renderLink(game);                                                   // from renderGame
//
// Hosting: "Host this table" → the devices' claims waiting for the table's person (each
// with "Approve" and "Decline"), the code in big letters (or, after too many wrong codes,
// "pairing is paused" and "Open pairing again"), the QR code (SVG rects made here from the
// core's modules), the addresses, the paired devices (online or not, each with "Remove")
// "Give to a device" (a character or the game, to a linked device) and "Stop hosting". The host's window shows its own database; it polls the host every
// ~1 s only to redraw when a device's change or move landed there (`changes`), a device came
// or went, a claim came in or pairing paused.
// Joined: the link's state, "Which character is yours?" (claim one — it waits for the table's
// approval unless the table already counts it as this device's —, or make a new one and
// claim it), "Send to the table" (a character from another game here), the changes the host refused with its reasons and "Dismiss", "Leave the
// table". While joined the page polls the link every ~500 ms; when the replica's revision
// grows, home is refreshed and the open screen reloads (the "sheetkeeper:undone" event the
// screens already reload on, for the game and each of its characters).

import * as api from "./api.js";
import { el, byId, SVG } from "../kit/dom.js";
import { openModal } from "../kit/modal.js";
import { pressing, afterPress } from "../kit/press.js";
import { giveBox, giftsBox, toastNewGifts } from "./link-gifts.js";

const POLL_MS = 500;
const HOST_POLL_MS = 1000;

/** Words for a joined link's state: the pill's and the panel's. */
const STATE_WORDS = {
  connecting: "Connecting…",
  linked: "Linked",
  away: "Away — working on your own",
  ended: "Link ended",
  wrong_code: "The code did not match",
};
const STATE_TONE = { connecting: "warn", linked: "good", away: "warn", ended: "bad", wrong_code: "bad" };

let app = null;
let hosting = null; // HostView while this app hosts, else null
let joined = null; // JoinStatus while this app is joined, else null
let devices = []; // paired devices of the shown game
let refused = []; // refused changes of the shown game
let shownGame = null; // the game the panel was last drawn for
let drawnKey = null; // what the panel shows, to redraw only when it changes
let lastRevision = null;
const claimed = new Set(); // characters the table confirmed yours after a claim from this window
let focusNext = null; // the focus key to move to after the next redraw (what was focused left)

/** Wires the home button and the dialog, and finds out whether a link already runs. */
/** Whether this app is joined to `gameId`'s table now (its game-level moves are the host's). */
export function joinedTo(gameId) {
  return Boolean(joined && joined.game === gameId);
}

/** Whether `gameId`'s table is linked here now: this app hosts it or is joined to it. */
export function linkedTo(gameId) {
  return Boolean((joined && joined.game === gameId) || (hosting && hosting.game === gameId));
}

export function initLink(hooks) {
  app = hooks;
  byId("link-join-open").addEventListener("click", () => openJoinDialog());
  buildJoinDialog();
  (async () => {
    try {
      hosting = await api.linkHostStatus();
      joined = await api.linkJoinStatus();
    } catch (_) {
      hosting = null;
      joined = null;
    }
    if (joined) startPolling();
    if (hosting) startHostPolling();
    redraw();
    updatePills();
    // A join link this app was opened with (the host's QR code): asked for once now, and
    // again each time the app says another link came (join_link.rs calls this by name).
    window.sheetkeeperJoinRequest = takeJoinRequest;
    dialogParts.scan.hidden = !(await api.call("link_can_scan").catch(() => false));
    await takeJoinRequest();
  })();
}

/** Opens the join dialog filled from the link that opened this app, if one waits. */
async function takeJoinRequest() {
  await useJoinRequest(() => api.call("link_join_request", { scanned: null }));
}

/** Fills the join dialog from what `ask` answers (a link's request), or says what is wrong. */
async function useJoinRequest(ask) {
  let request = null;
  try {
    request = await ask();
  } catch (e) {
    app.toast(e.message);
    return;
  }
  if (!request) return;
  if (request.problem) {
    app.toast(request.problem);
    return;
  }
  await openJoinDialog({ addr: request.addr, code: request.code });
}

/**
 * A phone reads the host's QR code with its camera (Tauri's barcode scanner, granted to the
 * window on phones only: capabilities/mobile.json); the core reads the link in it.
 */
async function scanJoinCode() {
  await useJoinRequest(async () => {
    const allowed = await api.call("plugin:barcode-scanner|request_permissions");
    if (allowed?.camera !== "granted") throw new Error("The camera is not allowed for Sheetkeeper: type the address and code instead.");
    const scanned = await api.call("plugin:barcode-scanner|scan", { windowed: false, formats: ["QR_CODE"] });
    return api.call("link_join_request", { scanned: scanned?.content ?? "" });
  });
}

/** Draws the "Linked table" section for `game` (the game selected on home). */
export function renderLink(game) {
  const section = byId("game-link");
  if (!section) return;
  if (!game) {
    shownGame = null;
    return;
  }
  if (shownGame !== game.id) {
    shownGame = game.id;
    devices = [];
    refused = [];
    drawnKey = null;
    loadLists(game.id);
  }
  draw(game);
}

/** Reads the link's status again and redraws (a file given here was imported or put away). */
async function statusAgain() {
  try {
    if (hosting) hosting = (await api.linkHostPoll()) ?? hosting;
    if (joined) joined = (await api.linkJoinStatus()) ?? joined;
  } catch (_) {
    // Drawn as it was; the next poll brings it.
  }
  redraw();
}

function redraw() {
  const game = shownGame ? app.getGame(shownGame) : null;
  drawnKey = null;
  if (game) draw(game);
}

async function loadLists(gameId) {
  try {
    const [d, r] = await Promise.all([api.linkDevices(gameId), api.linkRefused(gameId)]);
    if (shownGame !== gameId) return;
    devices = d;
    refused = r;
    redraw();
  } catch (_) {
    // The lists stay empty; the actions themselves report their errors.
  }
}

function draw(game) {
  const key = JSON.stringify([
    game.id,
    game.characters.map((c) => [c.id, c.name, c.mine]),
    hosting,
    joined && { ...joined, revision: 0 },
    devices,
    refused,
    [...claimed],
  ]);
  if (key === drawnKey) return;
  drawnKey = key;
  const section = byId("game-link");
  const held = section.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
  const focusKey = focusNext ?? held;
  focusNext = null;
  // A part left out (false or null) is skipped, as el() skips it.
  section.replaceChildren(el("h3", { id: "game-link-heading" }, "Linked table"), ...body(game).filter(Boolean));
  if (focusKey) section.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
}

function body(game) {
  if (hosting && hosting.game === game.id) return hostBody(game);
  if (joined && joined.game === game.id) return joinedBody(game);
  // Files given to this device wait here whichever game is shown.
  const parts = [giftsBox(app, (hosting ?? joined)?.gifts, statusAgain)];
  if (hosting) {
    const other = app.getGame(hosting.game);
    parts.push(
      el("p", { class: "muted" }, `This device is hosting ${other ? `“${other.name}”` : "another game"}. One table at a time: stop that one to host this game.`),
      el("button", { type: "button", id: "link-stop", data: { focusKey: "link-stop" }, on: { click: stop } }, "Stop hosting"),
    );
  } else if (joined) {
    parts.push(
      el("p", { class: "muted" }, "This device is joined to another table. Leave it to host this game."),
      el("button", { type: "button", id: "link-stop", data: { focusKey: "link-stop" }, on: { click: stop } }, "Leave the table"),
    );
  } else {
    parts.push(
      el(
        "p",
        { class: "muted hint" },
        "The players’ phones and laptops join this game over the local network (the same Wi-Fi or a phone’s hotspot, no internet). This device stays the table’s authority; each device sees only what it may.",
      ),
      el(
        "button",
        { type: "button", id: "link-host", class: "primary", data: { focusKey: "link-host" }, on: { click: () => host(game) } },
        "Host this table",
      ),
    );
  }
  const mine = devices.filter((d) => d.side === "host");
  if (mine.length > 0) parts.push(deviceList(mine, []));
  if (refused.length > 0) parts.push(refusedList());
  return parts;
}

// ---- hosting ------------------------------------------------------------------------------

function hostBody(game) {
  const online = new Set(hosting.online ?? []);
  const paired = devices.filter((d) => d.side === "host");
  const paused = hosting.pairing_paused === true;
  const linked = paired.filter((d) => online.has(d.device_id) && !d.removed_at).map((d) => ({ id: d.device_id, name: d.name }));
  return [
    claimsBox(),
    giftsBox(app, hosting.gifts, statusAgain),
    el(
      "div",
      { class: "link-host" },
      el(
        "div",
        { class: "link-code-box" },
        ...(paused ? pausedWords() : codeWords()),
        el("p", { class: "link-addr-label" }, hosting.addrs.length > 1 ? "Addresses" : "Address"),
        el("ul", { class: "link-addrs", id: "link-addrs" }, ...hosting.addrs.map((a) => el("li", {}, el("code", {}, a)))),
        !paused &&
          el(
            "p",
            { class: "muted link-announced" },
            hosting.announced
              ? "Players find this table under “Join a table nearby”, or type the address and the code."
              : "This network does not let devices find each other: players type the address and the code.",
          ),
      ),
      // A paused table takes no code, so none is offered to scan.
      !paused && qrFigure(hosting.qr, game.name),
    ),
    deviceList(paired, online),
    giveBox(app, { to: linked, game }),
    el(
      "div",
      { class: "actions" },
      el("button", { type: "button", id: "link-stop", class: "danger", data: { focusKey: "link-stop" }, on: { click: stop } }, "Stop hosting"),
    ),
  ];
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** The code to join, and the wrong codes tried against this opening when there were some. */
function codeWords() {
  const wrong = hosting.wrong_codes ?? 0;
  return [
    el("p", { class: "link-code-label", id: "link-code-label" }, "Code to join"),
    el("p", { class: "link-code", id: "link-code", tabindex: "-1", "aria-labelledby": "link-code-label", data: { focusKey: "link-code" } }, hosting.code),
    wrong > 0 &&
      el(
        "p",
        { class: "muted link-wrong-codes", id: "link-wrong-codes" },
        `${plural(wrong, "wrong code was", "wrong codes were")} tried since pairing opened. After too many, pairing pauses.`,
      ),
  ];
}

/** Pairing paused after too many wrong codes: said plainly, with the way to open it again. */
function pausedWords() {
  return [
    el(
      "div",
      { class: "link-paused", id: "link-paused", role: "group", "aria-labelledby": "link-paused-heading" },
      el("p", { class: "link-paused-heading", id: "link-paused-heading" }, "Pairing is paused"),
      el(
        "p",
        { class: "link-paused-words" },
        `Someone tried ${plural(hosting.wrong_codes ?? 0, "wrong code", "wrong codes")}, so no new device can join now. Devices paired before still come in.`,
      ),
      el(
        "button",
        { type: "button", id: "link-open-pairing", class: "primary", data: { focusKey: "link-open-pairing" }, on: { click: openPairing } },
        "Open pairing again",
      ),
    ),
  ];
}

/** The devices asking to play a character, each with Approve and Decline; nothing when none asks. */
function claimsBox() {
  const claims = hosting.claims ?? [];
  if (claims.length === 0) return null;
  return el(
    "div",
    { class: "link-claims-box", id: "link-claims" },
    el("h4", { id: "link-claims-heading" }, "Claims"),
    el("p", { class: "muted hint" }, "Each device here asks to play a character no device plays yet. Approve it when its player plays that character; declining tells the device."),
    el(
      "ul",
      { class: "link-claims", "aria-labelledby": "link-claims-heading" },
      ...claims.map((c) => {
        return el(
          "li",
          { class: "link-claim-request", data: { device: c.device, character: c.character } },
          el("span", { class: "link-claim-ask" }, el("strong", {}, c.device_name), " asks to play ", el("strong", {}, c.character_name)),
          el("span", { class: "link-claim-decide" }, decideButton(c, true), decideButton(c, false)),
        );
      }),
    ),
  );
}

/** Approve (`approve` true) or Decline for the claim `c`, its name saying whose claim it decides. */
function decideButton(c, approve) {
  const [word, action] = approve ? ["Approve", "approve"] : ["Decline", "decline"];
  return el(
    "button",
    {
      type: "button",
      class: approve ? "primary link-claim-approve" : "link-claim-decline",
      "aria-label": `${word}: ${c.device_name} asks to play ${c.character_name}`,
      data: { focusKey: `link-${action}:${c.device}:${c.character}` },
      on: { click: () => decide(c, approve) },
    },
    word,
  );
}

/** The QR code as an SVG: a light square with the dark modules as one path (never markup). */
function qrFigure(qr, gameName) {
  const quiet = 4;
  const size = qr.size + quiet * 2;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("class", "link-qr");
  svg.setAttribute("id", "link-qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `QR code: joins “${gameName}” with its address and code`);
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(SVG, "rect");
  back.setAttribute("width", String(size));
  back.setAttribute("height", String(size));
  back.setAttribute("class", "link-qr-light");
  svg.append(back);
  let d = "";
  for (let y = 0; y < qr.size; y += 1) {
    for (let x = 0; x < qr.size; x += 1) {
      if (qr.dark[y * qr.size + x]) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
    }
  }
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("class", "link-qr-dark");
  svg.append(path);
  return el("figure", { class: "link-qr-figure" }, svg, el("figcaption", { class: "muted" }, "Scan with the player’s device"));
}

function deviceList(list, online) {
  const onlineSet = online instanceof Set ? online : new Set(online);
  if (list.length === 0) {
    return el("p", { class: "muted link-devices-empty", id: "link-devices-empty" }, "No device has joined yet.");
  }
  return el(
    "div",
    { class: "link-devices-box" },
    el("h4", { id: "link-devices-heading", tabindex: "-1", data: { focusKey: "link-devices-heading" } }, "Devices"),
    el(
      "ul",
      { class: "link-devices", id: "link-devices", "aria-labelledby": "link-devices-heading" },
      ...list.map((d) => {
        const nameId = `link-device-${d.device_id}`;
        const removed = Boolean(d.removed_at);
        const state = removed ? "Removed" : onlineSet.has(d.device_id) ? "Online" : "Not connected";
        const tone = removed ? "bad" : onlineSet.has(d.device_id) ? "good" : null;
        const plays = (d.characters ?? []).map((id) => app.getGame(d.game_id)?.characters.find((c) => c.id === id)?.name).filter(Boolean);
        return el(
          "li",
          { class: "link-device", data: { deviceId: d.device_id, state: removed ? "removed" : onlineSet.has(d.device_id) ? "online" : "offline" } },
          el(
            "span",
            { class: "link-device-head" },
            el("span", { class: "link-device-name", id: nameId }, d.name),
            el("span", { class: tone ? `pill pill-${tone}` : "pill" }, state),
          ),
          plays.length > 0 && el("span", { class: "muted link-device-plays" }, `Plays ${plays.join(", ")}`),
          !removed &&
            el(
              "button",
              {
                type: "button",
                class: "link-unpair danger",
                "aria-describedby": nameId,
                data: { focusKey: `link-unpair:${d.device_id}` },
                on: { click: () => unpair(d) },
              },
              "Remove",
            ),
        );
      }),
    ),
  );
}

async function host(game) {
  await app.run("The table could not be hosted.", async () => {
    hosting = await api.linkHostStart(game.id);
    startHostPolling();
    redraw();
    updatePills();
    app.toast(`Hosting “${game.name}”. The code is ${hosting.code}.`);
    byId("link-code")?.scrollIntoView({ block: "nearest" });
  });
}

/** Approves or declines a device's claim. The request leaves the list: the focus goes to the
 * same button of the next request (or the one before), else to the devices, where the
 * approved device now "Plays" the character. */
async function decide(request, approve) {
  const claims = hosting?.claims ?? [];
  const i = claims.findIndex((c) => c.device === request.device && c.character === request.character);
  const neighbour = claims[i + 1] ?? claims[i - 1];
  const kind = approve ? "link-approve" : "link-decline";
  await app.run(approve ? "The claim was not approved." : "The claim was not declined.", async () => {
    try {
      if (approve) await api.linkHostApproveClaim(request.device, request.character);
      else await api.linkHostDeclineClaim(request.device, request.character);
    } finally {
      // Whatever the answer, the list shows the host's claims as they are now.
      hosting = await api.linkHostStatus();
      if (shownGame) devices = await api.linkDevices(shownGame);
      focusNext = neighbour ? `${kind}:${neighbour.device}:${neighbour.character}` : "link-devices-heading";
      redraw();
    }
    app.toast(
      approve
        ? `${request.device_name} plays “${request.character_name}” now.`
        : `Declined: ${request.device_name} does not play “${request.character_name}”. The device is told.`,
    );
  });
}

/** Pairing paused after wrong codes: opened again, with a new code, which gets the focus. */
async function openPairing() {
  await app.run("Pairing was not opened again.", async () => {
    await api.linkHostOpenPairing();
    hosting = await api.linkHostStatus();
    focusNext = "link-code";
    redraw();
    app.toast(`Pairing is open again. The new code is ${hosting.code}.`);
  });
}

async function unpair(device) {
  await app.run("The device was not removed.", async () => {
    const done = await api.linkUnpair(device.device_id);
    if (hosting) hosting = await api.linkHostStatus();
    if (shownGame) devices = await api.linkDevices(shownGame);
    redraw();
    app.toast(done.message);
  });
}

async function stop() {
  await app.run("The link was not stopped.", async () => {
    const done = await api.linkStop();
    hosting = null;
    joined = null;
    stopPolling();
    stopHostPolling();
    redraw();
    updatePills();
    app.toast(done.message);
  });
}

// ---- joined -------------------------------------------------------------------------------

function joinedBody(game) {
  const state = joined.state;
  const parts = [
    el(
      "p",
      { class: "link-state", id: "link-state" },
      el("span", { class: `pill pill-${STATE_TONE[state] ?? "warn"}` }, STATE_WORDS[state] ?? state),
      " ",
      joined.message ?? joinedWords(state),
    ),
  ];
  parts.push(giftsBox(app, joined.gifts, statusAgain));
  parts.push(claimBox(game));
  if (state === "linked") parts.push(giveBox(app, { to: null, game }));
  if (refused.length > 0) parts.push(refusedList());
  parts.push(
    el(
      "div",
      { class: "actions" },
      el("button", { type: "button", id: "link-stop", data: { focusKey: "link-stop" }, on: { click: stop } }, state === "ended" ? "Close the link" : "Leave the table"),
    ),
  );
  return parts;
}

function joinedWords(state) {
  switch (state) {
    case "linked":
      return "Changes to your characters go to the table at once, and the table’s come here.";
    case "away":
      return "The host is out of reach. Keep playing your characters: the changes go to the table when it is back.";
    case "ended":
      return "The host stopped the table. This device keeps everything it has.";
    case "wrong_code":
      return "Check the code on the host’s screen and join again.";
    default:
      return "Reaching the host…";
  }
}

function claimBox(game) {
  // The host's snapshot marks the characters this device plays as mine.
  const mine = (c) => claimed.has(c.id) || c.mine === true;
  // Claims the table's person has not approved (declined: null) or said no to.
  const asked = new Map((joined.claims ?? []).map((a) => [a.character, a]));
  const box = el(
    "div",
    { class: "link-claim", id: "link-claim" },
    el("h4", { id: "link-claim-heading", tabindex: "-1" }, "Which character is yours?"),
  );
  if (game.characters.length === 0) box.append(el("p", { class: "muted" }, "The table has no characters yet: make yours below."));
  box.append(
    el(
      "ul",
      { class: "link-claim-list", "aria-labelledby": "link-claim-heading" },
      ...game.characters.map((c) => {
        const nameId = `link-claim-name-${c.id}`;
        const state = mine(c) ? "yours" : asked.has(c.id) ? (asked.get(c.id).declined == null ? "waiting" : "declined") : "free";
        // The pill and the button share one focus key: a redraw that swaps one for the other
        // keeps the focus on this character's row.
        const focusKey = `link-claim:${c.id}`;
        const pill = (tone, words) =>
          el("span", { class: `pill pill-${tone}`, tabindex: "-1", "aria-describedby": nameId, data: { focusKey } }, words);
        return el(
          "li",
          { class: "link-claim-row", data: { characterId: c.id, claim: state } },
          el("span", { class: "link-claim-name", id: nameId }, c.name),
          state === "yours" && pill("good", "Yours"),
          state === "waiting" && pill("warn", "Waiting for the table"),
          state === "declined" && el("span", { class: "link-claim-declined" }, sentence(asked.get(c.id).declined)),
          (state === "free" || state === "declined") &&
            el(
              "button",
              {
                type: "button",
                class: "link-claim-button",
                "aria-describedby": nameId,
                data: { focusKey },
                on: { click: () => claim(c) },
              },
              "This one is mine",
            ),
        );
      }),
    ),
  );
  const input = el("input", { id: "link-new-name", type: "text", required: true, data: { focusKey: "link-new-name" } });
  box.append(
    el(
      "form",
      {
        class: "create-form link-new",
        autocomplete: "off",
        on: {
          submit: (e) => {
            e.preventDefault();
            makeAndClaim(game, input);
          },
        },
      },
      el("div", { class: "field" }, el("label", { for: "link-new-name" }, "Or make a new one"), input),
      el("button", { type: "submit", id: "link-new-submit", data: { focusKey: "link-new-submit" } }, "Make it mine"),
    ),
  );
  return box;
}

/** A reason from the table as a sentence: capital first, a full stop last. */
function sentence(text) {
  const t = String(text).trim();
  if (t === "") return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}

async function claim(character) {
  await app.run("The character was not claimed.", async () => {
    const done = await api.linkClaim(character.id);
    if (done.claimed === "yours") claimed.add(character.id);
    // The link's status now holds the claim as waiting (the row shows it at once).
    joined = (await api.linkJoinStatus()) ?? joined;
    await app.refresh();
    redraw();
    app.toast(done.message);
  });
}

async function makeAndClaim(game, input) {
  const name = input.value.trim();
  if (name === "") return;
  let created = null;
  await app.run("The character was not made.", async () => {
    created = await api.createCharacter(game.id, name);
    // Made here, so the table counts it as this device's: "yours" at once.
    const done = await api.linkClaim(created.id);
    if (done.claimed === "yours") claimed.add(created.id);
    joined = (await api.linkJoinStatus()) ?? joined;
    input.value = "";
    await app.refresh();
    redraw();
    app.toast(done.claimed === "yours" ? `“${name}” is yours at the table.` : done.message);
  });
  if (created?.id) await app.openSheet({ id: created.id, system: game.system, game_id: game.id });
}

function refusedList() {
  return el(
    "div",
    { class: "link-refused-box" },
    el("h4", { id: "link-refused-heading" }, "Changes the table refused"),
    el(
      "p",
      { class: "muted hint" },
      "Each is kept on this device as you made it; the sheet shows the table’s version. Talk it over, change it again if you agree, then dismiss the notice.",
    ),
    el(
      "ul",
      { class: "link-refused", id: "link-refused", "aria-labelledby": "link-refused-heading" },
      ...refused.map((r) => {
        const nameId = `link-refused-${r.id}`;
        return el(
          "li",
          { class: "link-refused-item", data: { refusedId: r.id } },
          el("strong", { id: nameId }, r.name),
          el("span", { class: "link-refused-reason" }, r.reason),
          el(
            "button",
            { type: "button", class: "link-dismiss", "aria-describedby": nameId, data: { focusKey: `link-dismiss:${r.id}` }, on: { click: () => dismiss(r) } },
            "Dismiss",
          ),
        );
      }),
    ),
  );
}

async function dismiss(item) {
  await app.run("The notice was not dismissed.", async () => {
    const done = await api.linkDismissRefused(item.id);
    if (shownGame) refused = await api.linkRefused(shownGame);
    redraw();
    app.toast(done.message);
  });
}

// ---- polling while joined ------------------------------------------------------------------

/** Whether the person is typing in a field or pressing a control: the screen is not redrawn
 * under their hands (what they type would be lost, a tap's control replaced between its down
 * and its up); the table's news waits until they leave the field or lift the finger. */
function busyHands() {
  return typing() || pressing();
}

function typing() {
  const el = document.activeElement;
  if (!el || el === document.body) return false;
  if (el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  return el.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "range"].includes(el.type);
}

/**
 * Asks `read` every `ms` once started, handing each answer to `handle`; a read that fails is
 * skipped (asked again next time). The next ask is set before an answer is handled, so
 * `handle` may stop the loop. The joined device's and the host's loops.
 */
function poller(ms, read, handle) {
  let timer = null;
  const tick = async () => {
    timer = setTimeout(tick, ms);
    let now;
    try {
      now = await read();
    } catch (_) {
      return;
    }
    await handle(now);
  };
  return {
    running: () => timer !== null,
    start(delay = ms) {
      timer = setTimeout(tick, delay);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

const joinPoll = poller(POLL_MS, () => api.linkJoinStatus(), async (now) => {
  const before = joined;
  joined = now;
  if (!now) {
    stopPolling();
  } else if (now.revision !== lastRevision && !busyHands()) {
    lastRevision = now.revision;
    await replicaChanged(now.game);
  }
  if (JSON.stringify(before) !== JSON.stringify(now)) {
    updatePills();
    afterPress(redraw);
    if (now) toastClaimNews(before, now);
    if (now) toastNewGifts(app, before, now);
  }
  if (now && (now.state === "ended" || now.state === "wrong_code")) stopPolling();
});

function startPolling() {
  if (joinPoll.running()) return;
  lastRevision = joined?.revision ?? null;
  joinPoll.start(0);
}

/** The table's person answered a claim of this device's: said once, wherever the person is. */
function toastClaimNews(before, now) {
  const waitingBefore = new Set((before?.claims ?? []).filter((c) => c.declined == null).map((c) => c.character));
  const game = app.getGame(now.game);
  const name = (id) => game?.characters.find((c) => c.id === id)?.name;
  for (const c of now.claims ?? []) {
    if (c.declined != null && waitingBefore.has(c.character)) app.toast(sentence(c.declined));
  }
  const still = new Set((now.claims ?? []).map((c) => c.character));
  for (const id of waitingBefore) {
    const mine = game?.characters.find((c) => c.id === id)?.mine === true;
    if (!still.has(id) && mine) app.toast(`The table approved: “${name(id)}” is yours.`);
  }
}

const hostPoll = poller(HOST_POLL_MS, () => api.linkHostPoll(), async (now) => {
  const before = hosting;
  hosting = now;
  if (!now) {
    stopHostPolling();
    redraw();
    updatePills();
    return;
  }
  const changed = before && before.changes !== now.changes;
  if (changed && busyHands()) {
    hosting = before; // looked at again next time, once the person's hands are free
    return;
  }
  if (changed) await replicaChanged(now.game);
  const online = (h) => JSON.stringify(h?.online ?? []);
  const asking = (h) => JSON.stringify([h?.claims ?? [], h?.gifts ?? [], h?.pairing_paused, h?.wrong_codes]);
  if (before) toastNewClaims(before, now);
  if (before) toastNewGifts(app, before, now);
  // A claim or a new device is a change too: the devices list is read again.
  if (!before || changed || online(before) !== online(now) || before.code !== now.code || asking(before) !== asking(now)) {
    if (shownGame === now.game) {
      try {
        devices = await api.linkDevices(now.game);
      } catch (_) {
        // Kept as it was.
      }
    }
    afterPress(redraw);
  }
});

function startHostPolling() {
  if (!hostPoll.running()) hostPoll.start();
}

/** A device asks for a character: said once, so the table's person hears it on any screen. */
function toastNewClaims(before, now) {
  const seen = new Set((before.claims ?? []).map((c) => `${c.device}:${c.character}`));
  const fresh = (now.claims ?? []).filter((c) => !seen.has(`${c.device}:${c.character}`));
  if (fresh.length === 1) {
    app.toast(`${fresh[0].device_name} asks to play “${fresh[0].character_name}”: approve or decline under Linked table.`);
  } else if (fresh.length > 1) {
    app.toast(`${fresh.length} devices ask to play characters: approve or decline under Linked table.`);
  }
  if (!before.pairing_paused && now.pairing_paused) {
    app.toast("Pairing is paused after too many wrong codes: open it again under Linked table.");
  }
}

function stopHostPolling() {
  hostPoll.stop();
}

function stopPolling() {
  joinPoll.stop();
}

/** A snapshot from the host is in (or, on the host, a device's change landed): home and the open screen show it. */
async function replicaChanged(gameId) {
  try {
    await app.refresh();
  } catch (_) {
    return;
  }
  if (gameId && shownGame === gameId) {
    try {
      refused = await api.linkRefused(gameId);
    } catch (_) {
      // Kept as it was.
    }
  }
  const game = gameId ? app.getGame(gameId) : null;
  if (!game) return;
  // The screens reload on this event (it was made for undo; a snapshot is a change made
  // elsewhere in the same way): the game's, and each character's.
  document.dispatchEvent(new CustomEvent("sheetkeeper:undone", { detail: { kind: "game", id: game.id, linked: true } }));
  for (const c of game.characters) {
    document.dispatchEvent(new CustomEvent("sheetkeeper:undone", { detail: { kind: "character", id: c.id, linked: true } }));
  }
}

/** The pill in each game screen's bar: the joined link's state for the joined game, "Hosting" for the hosted one. */
function updatePills() {
  for (const pill of document.querySelectorAll(".link-pill")) {
    const game = pill.closest(".frame-screen")?.dataset.gameId ?? null;
    let text = null;
    let tone = null;
    let state = null;
    if (joined && game && joined.game === game) {
      state = joined.state;
      text = STATE_WORDS[state] ?? state;
      tone = STATE_TONE[state] ?? "warn";
    } else if (hosting && game && hosting.game === game) {
      state = "hosting";
      text = "Hosting";
      tone = "good";
    }
    pill.hidden = text === null;
    pill.textContent = text ?? "";
    pill.className = tone ? `pill link-pill pill-${tone}` : "pill link-pill";
    if (state) pill.dataset.state = state;
    else delete pill.dataset.state;
  }
}

/** A game screen was opened (its frame knows the game): its pill shows this game's link. */
document.addEventListener("sheetkeeper:screen-shown", updatePills);

// ---- "Join a table nearby" ---------------------------------------------------------------------

let dialogParts = null;

function buildJoinDialog() {
  const nearby = el("ul", { class: "link-nearby", id: "link-nearby", "aria-labelledby": "link-nearby-heading" });
  const nearbyStatus = el("p", { class: "muted", id: "link-nearby-status", role: "status" });
  const addr = el("input", { id: "link-join-addr", type: "text", inputmode: "url", autocomplete: "off", spellcheck: "false", required: true });
  const code = el("input", { id: "link-join-code", type: "text", inputmode: "numeric", autocomplete: "off", spellcheck: "false", placeholder: "123-456" });
  const name = el("input", { id: "link-join-name", type: "text", autocomplete: "off" });
  const status = el("p", { class: "link-join-status", id: "link-join-status", role: "status", "aria-live": "polite", hidden: true });
  const submit = el("button", { type: "submit", id: "link-join-submit", class: "primary" }, "Join");
  const cancel = el("button", { type: "button", id: "link-join-cancel" }, "Cancel");
  // Shown on phones only (link_can_scan): a desktop has no camera plugin.
  const scan = el("button", { type: "button", id: "link-join-scan", hidden: true, on: { click: () => scanJoinCode() } }, "Scan the host’s QR code");
  const form = el(
    "form",
    { class: "dialog-form link-join-form", id: "link-join-form", autocomplete: "off" },
    el("h2", { id: "link-join-title" }, "Join a table nearby"),
    el(
      "div",
      { class: "link-nearby-head" },
      el("h3", { id: "link-nearby-heading" }, "Tables found"),
      el("button", { type: "button", id: "link-nearby-refresh", on: { click: () => lookAround() } }, "Look again"),
    ),
    nearbyStatus,
    nearby,
    scan,
    el("div", { class: "field" }, el("label", { for: "link-join-addr" }, "Address (from the host’s screen)"), addr),
    el("div", { class: "field" }, el("label", { for: "link-join-code" }, "Code"), code),
    el("div", { class: "field" }, el("label", { for: "link-join-name" }, "This device’s name for the host (optional)"), name),
    status,
    el("div", { class: "dialog-buttons" }, submit, cancel),
  );
  const dialog = el("dialog", { id: "link-join-dialog", class: "link-join-dialog", "aria-labelledby": "link-join-title" }, form);
  document.body.append(dialog);
  dialogParts = { dialog, form, nearby, nearbyStatus, addr, code, name, status, submit, scan };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    join();
  });
  cancel.addEventListener("click", cancelJoin);
  // What the status said (a wrong code) is about what was sent: it goes once the person corrects it.
  for (const field of [addr, code]) {
    field.addEventListener("input", () => {
      if (!submit.disabled) status.hidden = true;
    });
  }
  dialog.addEventListener("cancel", (e) => {
    e.preventDefault();
    cancelJoin();
  });
}

/**
 * Opens "Join a table nearby"; `filled` ({addr, code}, from a join link) fills the address and
 * code and leaves the person to press Join: a link never joins by itself.
 */
async function openJoinDialog(filled = null) {
  const p = dialogParts;
  if (joined && joined.state !== "ended" && joined.state !== "wrong_code") {
    app.toast("This device is already joined to a table: leave it first (in that game’s panel).");
    return;
  }
  if (filled) {
    p.addr.value = filled.addr;
    p.code.value = filled.code;
  }
  if (p.dialog.open) {
    if (filled) p.submit.focus();
    return;
  }
  p.status.hidden = true;
  p.submit.disabled = false;
  const closed = openModal(p.dialog, filled ? p.submit : p.addr);
  lookAround();
  await closed;
}

async function lookAround() {
  const p = dialogParts;
  p.nearbyStatus.textContent = "Looking for tables on this network…";
  p.nearby.replaceChildren();
  let found = [];
  try {
    found = await api.linkNearby();
  } catch (e) {
    p.nearbyStatus.textContent = e.message;
    return;
  }
  p.nearbyStatus.textContent = found.length === 0 ? "No table found nearby. Type the address the host’s screen shows." : "";
  p.nearbyStatus.hidden = found.length > 0;
  p.nearby.replaceChildren(
    ...found.map((n) =>
      el(
        "li",
        {},
        el(
          "button",
          {
            type: "button",
            class: "link-nearby-pick",
            data: { game: n.game },
            on: {
              click: () => {
                p.addr.value = n.addrs[0] ?? "";
                p.code.focus();
              },
            },
          },
          el("span", { class: "link-nearby-name" }, n.name),
          el("span", { class: "muted link-nearby-addr" }, n.addrs[0] ?? ""),
        ),
      ),
    ),
  );
}

function say(text, tone = null) {
  const p = dialogParts;
  p.status.hidden = false;
  p.status.textContent = text;
  p.status.dataset.tone = tone ?? "";
}

async function join() {
  const p = dialogParts;
  const addr = p.addr.value.trim();
  if (addr === "") return;
  p.submit.disabled = true;
  say("Reaching the host…");
  try {
    if (joined) {
      // An ended or refused link before: it is put away first.
      await api.linkStop();
      joined = null;
    }
    joined = await api.linkJoin(addr, p.code.value.trim() || null, p.name.value.trim() || null);
  } catch (e) {
    say(e.message, "bad");
    p.submit.disabled = false;
    return;
  }
  // Wait for the first snapshot (or a refusal) while the dialog says so.
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    if (!p.dialog.open) return;
    try {
      joined = await api.linkJoinStatus();
    } catch (e) {
      say(e.message, "bad");
      p.submit.disabled = false;
      return;
    }
    if (!joined) {
      p.submit.disabled = false;
      return;
    }
    if (joined.state === "wrong_code") {
      say("The code did not match. Check it on the host’s screen and try again.", "bad");
      await api.linkStop().catch(() => {});
      joined = null;
      p.submit.disabled = false;
      p.code.focus();
      p.code.select();
      return;
    }
    // Linked, and the host's first snapshot is in this database.
    if (joined.state === "linked" && joined.game && joined.revision > 0) break;
    say(joined.message ?? STATE_WORDS[joined.state] ?? "Reaching the host…", joined.state === "away" ? "warn" : null);
  }
  p.dialog.close("joined");
  p.submit.disabled = false;
  p.code.value = "";
  await app.refresh();
  app.selectGame(joined.game);
  const game = app.getGame(joined.game);
  lastRevision = joined.revision;
  startPolling();
  redraw();
  updatePills();
  app.toast(`Joined ${game ? `“${game.name}”` : "the table"}. Now pick your character.`);
  const heading = byId("link-claim-heading");
  if (heading) {
    heading.scrollIntoView({ block: "center" });
    heading.focus();
  }
}

async function cancelJoin() {
  const p = dialogParts;
  if (joined && joined.state !== "linked") {
    await api.linkStop().catch(() => {});
    joined = null;
  }
  p.dialog.close("");
}
