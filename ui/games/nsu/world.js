// The World and Downtime tabs of a No Stone Unturned game (RULES.md §1.5), shown in the NSU
// screen's frame (screen.js): worldbuilding (safety lists, bans, settlement, scope,
// resources, project clocks), the map of location cards, and one location with its
// collateral clock (with its own "← Map" back inside the World tab); the Downtime tab is
// downtime.js in the same host.
//
//   import { initNsuWorld, worldRoot, loadWorld, forgetWorld } from "./world.js";
//   initNsuWorld({ run, toast, getGame: (id) => game });  // once, from screen.js
//   await loadWorld(gameId, "world");                      // renders into worldRoot()
//
// Every change goes through `move`: one api call, then the world, the map and the downtime
// phase are loaded again and a toast offers Undo (undoGame). app.js sends
// "sheetkeeper:undone" after an undo, and the tab reloads.

import * as api from "./api.js";
import { el, byId, SVG } from "../../kit/dom.js";
import { inTurn } from "../../kit/in-turn.js";
import { listOrNone } from "../../kit/forms.js";
import { renderDowntime, diceControl, field, checkbox, select, uid, projectSizeSelect } from "./downtime.js";
import { whereWords } from "./words.js";
import { guidingQuestionsButton } from "./scope.js";

const RESOURCE_WORDS = { scarcity: "Scarcity", neutral: "Neutral", abundance: "Abundance" };

let app = null; // {run, toast, getGame}
let view = null; // what the tab shows; null while another tab shows or the screen is closed
const reading = inTurn(); // reloads, one after another (kit/in-turn.js)
let root = null; // the World / Downtime tab's content, built once

/** Builds the (detached) tab host and listens for undo. */
export function initNsuWorld(hooks) {
  app = hooks;
  document.addEventListener("sheetkeeper:undone", (event) => {
    if (view && event.detail && event.detail.id === view.gameId) reload({ quiet: event.detail.linked === true });
  });
  root = el(
    "div",
    { id: "nsu-world", class: "nsu-world" },
    el("div", { id: "world-view", class: "world-view" }),
    el("section", { id: "world-map", class: "world-map card", "aria-labelledby": "map-heading" }),
    el("section", { id: "location-view", class: "location-view card", hidden: true, "aria-labelledby": "location-heading" }),
    el("div", { id: "downtime-view", class: "downtime-view", hidden: true }),
  );
}

/** The World / Downtime tab's element (the screen puts it in its body). */
export const worldRoot = () => root;

/** One part of the tab by id, in the page or not. */
const part = (id) => root.querySelector(`#${id}`);

/**
 * Loads the world of `gameId` and renders the `tab` ("world" or "downtime"); resolves true
 * once it is rendered.
 */
export async function loadWorld(gameId, tab) {
  const same = view && view.gameId === gameId && view.tab === tab;
  if (!same) view = { gameId, tab, location: null, viewer: "", handOver: null, placing: null, dealing: null, world: null, map: [], downtime: null, lastEvents: [] };
  let ok = false;
  await app.run("The world could not be opened.", async () => {
    await load();
    render();
    ok = true;
  });
  return ok;
}

/** Forgets the world (another tab shows, or the screen closed). */
export function forgetWorld() {
  view = null;
}

async function load() {
  const [world, map, downtime] = await Promise.all([
    api.nsuWorld(view.gameId),
    api.nsuMap(view.gameId, view.viewer || null),
    api.nsuDowntime(view.gameId),
  ]);
  Object.assign(view, { world, map, downtime });
  if (view.location && !world.locations.some((l) => l.id === view.location)) view.location = null;
}

/** Reads and draws the world again; `quiet` when nobody here asked (see `app.run`). */
async function reload({ quiet = false } = {}) {
  if (!view) return;
  const again = async () => {
    await load();
    render();
  };
  await app.run("The world could not be loaded.", again, { quiet, queue: reading });
}

/** One undoable change: call, reload, toast with Undo. */
async function move(title, call, message) {
  if (!view) return;
  const gameId = view.gameId;
  await app.run(title, async () => {
    const result = await call();
    if (!view) return;
    view.lastEvents = view.tab === "downtime" && result && Array.isArray(result.events) ? result.events : [];
    await load();
    render();
    app.toast(message, { kind: "game", id: gameId });
  });
}

function game() {
  return app.getGame(view.gameId) ?? { id: view.gameId, name: "", characters: [] };
}

/** Re-renders the tab, keeping focus on the control with the same data-focus-key. */
function render() {
  if (!view) return;
  const focusKey = document.activeElement?.dataset?.focusKey;
  const g = game();
  const tab = view.tab;
  const showLocation = tab === "world" && view.location !== null;
  part("world-view").hidden = tab !== "world" || showLocation;
  part("world-map").hidden = tab !== "world" || showLocation;
  part("location-view").hidden = !showLocation;
  part("downtime-view").hidden = tab !== "downtime";
  if (tab === "downtime") {
    renderDowntime(part("downtime-view"), {
      game: g,
      world: view.world,
      downtime: view.downtime,
      lastEvents: view.lastEvents,
      move,
      reload: () => loadWorld(g.id, "downtime"),
    });
  } else if (showLocation) {
    renderLocation();
  } else {
    renderSetup();
    renderMap();
  }
  if (focusKey) {
    const again = root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus();
  }
}

// ---- clocks ------------------------------------------------------------------------------------

/**
 * A clock of `size` wedges with `filled` of them shaded, as an SVG image whose label reads
 * `${label} ${filled} of ${size}`.
 */
export function clockSvg(filled, size, label, id = null) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${label} ${filled} of ${size}`);
  svg.setAttribute("class", "clock");
  if (id) svg.setAttribute("id", id);
  const r = 46;
  const point = (i) => {
    const a = (i / size) * 2 * Math.PI - Math.PI / 2;
    return `${(50 + r * Math.cos(a)).toFixed(3)} ${(50 + r * Math.sin(a)).toFixed(3)}`;
  };
  for (let i = 0; i < size; i++) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", `M50 50 L${point(i)} A${r} ${r} 0 0 1 ${point(i + 1)} Z`);
    path.setAttribute("class", i < filled ? "clock-wedge filled" : "clock-wedge");
    svg.append(path);
  }
  return svg;
}

// ---- setup -------------------------------------------------------------------------------------

function renderSetup() {
  const w = view.world;
  const g = game();
  // Worldbuilding folds away once cards exist, so the map comes first on a phone.
  if (view.setupOpen === undefined) view.setupOpen = w.locations.length === 0;
  const setup = el(
    "details",
    { id: "world-setup", class: "world-setup", open: view.setupOpen },
    el("summary", {}, "Worldbuilding: safety, bans, settlement, scope, resources, projects"),
    el("p", { class: "muted xcard-hint" }, "The X-card (top of the screen) is always there: press it to skip or change anything, no questions asked."),
    el("div", { class: "setup-grid" }, safetyCard(w), bansCard(w), settlementCard(w), scopeCard(w), resourcesCard(w), projectsCard(w, g)),
  );
  setup.addEventListener("toggle", () => {
    if (view) view.setupOpen = setup.open;
  });
  part("world-view").replaceChildren(setup, npcsCard(w));
}

/** NPCs and the details the table wrote onto them (RULES.md §1.3), each positive (+) or negative (−). */
function npcsCard(w) {
  const npcs = w.npcs ?? [];
  const addNpc = textForm("npc", "NPC name", "Add NPC", (text) => move("The NPC was not added.", () => api.nsuWorldAddNpc(view.gameId, text), `Added ${text}.`), [], {
    input: "npc-name",
    button: "npc-add",
  });
  const npcItem = (n) => {
    const sign = select([["negative", "−  negative"], ["positive", "+  positive"]], { "aria-label": `Sign of the detail on ${n.name}` });
    // Ruling: an NPC without a threshold is an ordinary person, Overcome by one harm detail;
    // a stronger one has a threshold of 2 to 4 (Part 2).
    const harm = n.harm ?? [];
    const needed = n.threshold ?? 1;
    const overcome = harm.length >= needed;
    const threshold = select([["", "Ordinary (1 harm)"], ["2", "2 harm"], ["3", "3 harm"], ["4", "4 harm"]], {
      class: "npc-threshold",
      "aria-label": `Harm that Overcomes ${n.name}`,
      data: { focusKey: `npc-threshold-${n.id}` },
    });
    threshold.value = n.threshold ? String(n.threshold) : "";
    threshold.addEventListener("change", () => {
      const next = threshold.value ? Number(threshold.value) : null;
      const after = harm.length >= (next ?? 1);
      move("The threshold was not set.", () => api.nsuWorldSetNpcThreshold(view.gameId, n.id, next), `${n.name}: Overcome at ${next ?? 1} harm${after ? "; Overcome now" : ""}.`);
    });
    return el(
      "li",
      { class: `npc${overcome ? " overcome" : ""}`, data: { npcId: n.id } },
      el(
        "div",
        { class: "row" },
        el("strong", { class: "grow" }, n.name),
        el("span", { class: `npc-state${overcome ? " is-overcome" : ""}` }, overcome ? "Overcome" : `${harm.length} of ${needed} harm`),
      ),
      field("Overcome by", threshold),
      listOrNone(harm, null, () =>
        el(
          "ul",
          { class: "plain-list npc-harm" },
          ...harm.map((h, i) =>
            removableRow(`Harm: ${h}`, `Cross the harm “${h}” off ${n.name}`, "The harm was not crossed off.", () => api.nsuWorldRemoveNpcHarm(view.gameId, n.id, i), `Crossed harm off ${n.name}.`),
          ),
        ),
      ),
      overcome
        ? null
        : textForm(`npc-harm-${n.id}`, `Harm on ${n.name}`, "Add harm", (text) =>
            move("The harm was not written.", () => api.nsuWorldAddNpcHarm(view.gameId, n.id, text), `Wrote harm on ${n.name}.`),
          ),
      listOrNone(n.details, "No details yet.", (details) =>
        el(
          "ul",
          { class: "plain-list" },
          ...details.map((d, i) =>
            removableRow(`${d.positive ? "+" : "−"} ${d.text}`, `Cross “${d.text}” off ${n.name}`, "The detail was not crossed off.", () => api.nsuWorldRemoveNpcDetail(view.gameId, n.id, i), `Crossed a detail off ${n.name}.`),
          ),
        ),
      ),
      textForm(`npc-detail-${n.id}`, `Detail on ${n.name}`, "Add detail", (text) =>
        move("The detail was not written.", () => api.nsuWorldAddNpcDetail(view.gameId, n.id, text, sign.value === "positive"), `Wrote a detail on ${n.name}.`),
      [field("Sign", sign)]),
    );
  };
  return worldCard(
    "npcs",
    "NPCs",
    { id: "world-npcs" },
    listOrNone(npcs, "No NPCs yet.", () => el("ul", { class: "plain-list npc-list" }, ...npcs.map(npcItem))),
    addNpc,
  );
}

/** A small one-line form: label, input, button (`ids` of the two, if asked); `onText(text)` runs the move. */
function textForm(key, label, button, onText, extra = [], ids = {}) {
  const input = el("input", { type: "text", id: ids.input ?? uid(key), required: true, data: { focusKey: `${key}-input` } });
  return el(
    "form",
    {
      class: "inline-form",
      autocomplete: "off",
      on: {
        submit: (event) => {
          event.preventDefault();
          if (input.value.trim() === "") return input.focus();
          onText(input.value.trim(), event);
        },
      },
    },
    ...extra,
    field(label, input),
    el("button", { type: "submit", id: ids.button, data: { focusKey: `${key}-submit` } }, button),
  );
}

/** A card of the World tab: a section headed `title` (an `h3`, or `level`), its heading `${key}-heading`. */
function worldCard(key, title, attrs, ...children) {
  const { level = "h3", ...rest } = attrs;
  return el("section", { class: "card", ...rest, "aria-labelledby": `${key}-heading` }, el(level, { id: `${key}-heading` }, title), ...children);
}

/** A row of a list with its Remove button; `label` names what it removes, the move says the rest. */
function removableRow(text, label, title, call, done, cls = "row") {
  return el(
    "li",
    { class: cls },
    el("span", { class: "grow" }, text),
    el("button", { type: "button", class: "remove", "aria-label": `Remove: ${label}`, on: { click: () => move(title, call, done) } }, "Remove"),
  );
}

function safetyCard(w) {
  const list = (which, entries, title) =>
    el(
      "div",
      { class: "safety-list", id: `safety-${which}` },
      el("h4", {}, title),
      listOrNone(entries, "None yet.", () =>
        el(
          "ul",
          { class: "plain-list" },
          ...entries.map((text, i) =>
            removableRow(text, `Remove “${text}” from ${title.toLowerCase()}`, "The entry was not removed.", () => api.nsuWorldRemoveSafety(view.gameId, which, i), `Removed from ${title.toLowerCase()}.`),
          ),
        ),
      ),
      textForm(`safety-${which}`, `Add to ${title.toLowerCase()}`, "Add", (text) =>
        move("The entry was not added.", () => api.nsuWorldAddSafety(view.gameId, which, text), `Added to ${title.toLowerCase()}.`),
      ),
    );
  return worldCard(
    "safety",
    "Safety",
    {},
    el("p", { class: "muted" }, "Lines are never brought up; veils happen off-screen. Anyone may knock or use the X-card at any time."),
    list("lines", w.safety.lines, "Lines"),
    list("veils", w.safety.veils, "Veils"),
  );
}

function bansCard(w) {
  const player = el("input", { type: "text", required: true, data: { focusKey: "ban-player" } });
  const ban = el("input", { type: "text", data: { focusKey: "ban-text" } });
  const send = (passing) => {
    if (player.value.trim() === "") return player.focus();
    const text = passing ? null : ban.value.trim();
    if (!passing && text === "") return ban.focus();
    move("The ban was not recorded.", () => api.nsuWorldBan(view.gameId, player.value.trim(), text), passing ? "Recorded a pass." : "Recorded a ban.");
  };
  return worldCard(
    "bans",
    "Bans",
    {},
    el("p", { class: "muted" }, "One per player; a player may pass."),
    listOrNone(w.bans, "No bans yet.", (bans) => el("ul", { class: "plain-list" }, ...bans.map((b) => el("li", {}, el("strong", {}, b.player), b.ban === null ? " passed" : `: ${b.ban}`)))),
    el(
      "form",
      { class: "stack", autocomplete: "off", on: { submit: (e) => { e.preventDefault(); send(false); } } },
      el("div", { class: "pair" }, field("Player", player), field("Ban", ban)),
      el("div", { class: "actions" }, el("button", { type: "submit" }, "Ban"), el("button", { type: "button", on: { click: () => send(true) } }, "Pass")),
    ),
  );
}

function settlementCard(w) {
  const author = el("input", { type: "text", required: true, data: { focusKey: "statement-author" } });
  return worldCard(
    "settlement",
    "The settlement",
    {},
    listOrNone(w.settlement, "No statements yet.", (statements) =>
      el("ol", { class: "statement-list" }, ...statements.map((s) => el("li", {}, s.text, el("span", { class: "muted" }, ` — ${s.author}`)))),
    ),
    textForm("statement", "Statement", "Add statement", (text) => {
      if (author.value.trim() === "") return author.focus();
      move("The statement was not added.", () => api.nsuWorldAddStatement(view.gameId, author.value.trim(), text), "Added a statement.");
    }, [field("Author", author)]),
  );
}

function scopeCard(w) {
  return worldCard(
    "scope",
    "Scope",
    {},
    listOrNone(w.scope, "No questions yet.", (questions) =>
      el(
        "ol",
        { class: "scope-list" },
        ...questions.map((q, i) => {
          const answer = el("input", { type: "text", value: q.answer, data: { focusKey: `scope-answer-${i}` } });
          return el(
            "li",
            {},
            el("p", { class: "question" }, q.question),
            el(
              "form",
              {
                class: "inline-form",
                autocomplete: "off",
                on: { submit: (e) => { e.preventDefault(); move("The answer was not saved.", () => api.nsuWorldAnswerScope(view.gameId, i, answer.value), "Answer saved."); } },
              },
              field("Answer", answer),
              el("button", { type: "submit" }, "Save answer"),
            ),
          );
        }),
      ),
    ),
    guidingQuestionsButton(view.gameId, move),
    textForm("scope-question", "New question", "Add question", (text) =>
      move("The question was not added.", () => api.nsuWorldAddScopeQuestion(view.gameId, text), "Added a question."),
    ),
  );
}

function resourcesCard(w) {
  const card = worldCard("resources", "Resources", {});
  if (w.resources === null) {
    const group = uid("abundance");
    const rows = [0, 1, 2, 3, 4].map((i) => {
      const name = el("input", { type: "text", required: true, "aria-label": `Resource ${i + 1}`, class: "resource-name" });
      const radio = el("input", { type: "radio", name: group, value: String(i), checked: i === 0, id: uid("abundant") });
      return { name, radio, node: el("div", { class: "row" }, name, el("label", { class: "check", for: radio.id }, radio, " abundant")) };
    });
    card.append(
      el(
        "form",
        {
          class: "stack",
          id: "resources-form",
          autocomplete: "off",
          on: {
            submit: (e) => {
              e.preventDefault();
              const names = rows.map((r) => r.name.value.trim());
              const abundance = rows.findIndex((r) => r.radio.checked);
              move("The resources were not named.", () => api.nsuWorldCreateResources(view.gameId, names, abundance), "Named the resources.");
            },
          },
        },
        el("p", { class: "muted" }, "Name five; exactly one is in abundance, the rest are scarce."),
        ...rows.map((r) => r.node),
        el("button", { type: "submit" }, "Name the resources"),
      ),
    );
    return card;
  }
  card.append(
    el(
      "ul",
      { class: "plain-list" },
      ...w.resources.map((r, i) => {
        const choice = select(Object.entries(RESOURCE_WORDS), { data: { focusKey: `resource-${i}` }, class: `resource-state state-${r.state}` });
        choice.value = r.state;
        choice.addEventListener("change", () =>
          move("The resource was not changed.", () => api.nsuWorldSetResource(view.gameId, i, choice.value), `${r.name}: ${RESOURCE_WORDS[choice.value]}.`),
        );
        return el("li", { class: "row" }, field(r.name, choice, "field grow"));
      }),
    ),
  );
  return card;
}

function projectsCard(w, g) {
  const owner = (id) => g.characters.find((c) => c.id === id)?.name ?? "someone no longer here";
  const card = worldCard(
    "projects",
    "Long-term projects",
    {},
    listOrNone(w.projects, "No project clocks yet.", (projects) =>
      el(
        "ul",
        { class: "plain-list project-list" },
        ...projects.map((p) => {
          const n = el("input", { type: "number", min: 1, max: p.size, value: 1, "aria-label": `Segments to mark on ${p.name}`, class: "mark-count" });
          return el(
            "li",
            { class: "project row", data: { projectId: p.id } },
            clockSvg(p.filled, p.size, `${p.name}:`),
            el("span", { class: "grow" }, el("strong", {}, p.name), ` (${owner(p.owner)}) — ${p.filled} of ${p.size}${p.filled === p.size ? ", complete" : ""}`),
            p.filled < p.size ? n : null,
            p.filled < p.size
              ? el("button", { type: "button", on: { click: () => move("The clock was not marked.", () => api.nsuWorldMarkProject(view.gameId, p.id, Number(n.value || 0)), `Marked ${p.name}.`) } }, "Mark")
              : null,
          );
        }),
      ),
    ),
  );
  if (g.characters.length === 0) {
    card.append(el("p", { class: "muted" }, "Add a character to start a project."));
    return card;
  }
  const who = select(g.characters.map((c) => [c.id, c.name]));
  const size = projectSizeSelect({ id: "project-size" });
  card.append(
    textForm("project", "Project", "Start project", (name) =>
      move("The project was not started.", () => api.nsuWorldStartProject(view.gameId, who.value, name, Number(size.value)), `Started ${name}.`),
    [el("div", { class: "pair" }, field("Owner", who), field("Segments", size))], { input: "project-name", button: "project-start" }),
  );
  return card;
}

// ---- map ---------------------------------------------------------------------------------------

function renderMap() {
  const g = game();
  const cards = view.map;
  const placed = cards.filter((c) => c.position);
  const xs = placed.map((c) => c.position.x);
  const ys = placed.map((c) => c.position.y);
  const minX = Math.max(-64, Math.min(-2, ...xs.map((x) => x - 1)));
  const maxX = Math.min(64, Math.max(2, ...xs.map((x) => x + 1)));
  const minY = Math.max(-64, Math.min(-2, ...ys.map((y) => y - 1)));
  const maxY = Math.min(64, Math.max(2, ...ys.map((y) => y + 1)));
  const at = new Map(placed.map((c) => [`${c.position.x},${c.position.y}`, c]));
  const placing = view.placing ? view.world.locations.find((l) => l.id === view.placing) : null;
  const columns = maxX - minX + 1;
  const rows = maxY - minY + 1;

  // Cells in reading order (row by row); each says where it is.
  const grid = el("div", { class: "map-grid", role: "group", "aria-label": "Map of location cards", id: "map-grid" });
  // The grid scales to the card: equal columns that may shrink (no sideways scroll on a phone).
  grid.style.gridTemplateColumns = `repeat(${columns}, minmax(0, 1fr))`;
  grid.style.setProperty("--columns", String(columns));
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) grid.append(cell(x, y, at.get(`${x},${y}`), placing));
  }
  const paths = view.world.paths ?? [];
  const layered = el("div", { class: "map-layers" }, grid, pathLines(paths, minX, minY, columns, rows));
  layered.style.setProperty("--columns", String(columns));

  if (view.handOver) {
    part("world-map").replaceChildren(handOverScreen());
    return;
  }
  part("world-map").replaceChildren(
    el("h3", { id: "map-heading", tabindex: "-1" }, "Map"),
    partyBar(),
    el("div", { class: "map-toolbar" }, viewerControl(g), mapStatus(placing)),
    // On a phone the map scrolls sideways in this box: a keyboard reaches it (its arrows scroll).
    el("div", { class: "map-scroll", role: "region", "aria-label": "The map, scrolling sideways", tabindex: "0" }, layered),
    pathsCard(paths),
    locationList(),
    authorForm(),
  );
}

/** Where the party is, in words, and the control that moves it (home, or a revealed card). */
function partyBar() {
  const w = view.world;
  const here = w.party_at ? w.locations.find((l) => l.id === w.party_at) : null;
  const open = w.locations.filter((l) => l.revealed && l.position);
  const choice = select([["", "Home"], ...open.map((l) => [l.id, optionText(l.name)])], { id: "party-location", data: { focusKey: "party-location" } });
  choice.value = w.party_at ?? "";
  choice.addEventListener("change", () => setParty(choice.value || null));
  return el(
    "div",
    { class: "party-bar", id: "party-bar" },
    el("p", { class: "party-where", id: "party-where", role: "status" }, here ? `The party is at ${here.name}.` : "The party is at home."),
    open.length === 0 ? el("p", { class: "muted" }, "Reveal a card on the map to send the party there.") : field("Move the party to", choice, "field party-field"),
  );
}

/** Moves the party (a revealed card's id, or null for home): one undoable game step. */
function setParty(id) {
  const l = id ? view.world.locations.find((x) => x.id === id) : null;
  move("The party did not move.", () => api.nsuWorldSetPartyLocation(view.gameId, id), l ? `The party is at ${l.name}.` : "The party went home.");
}

/**
 * Who the map is shown to. On a device passed around, the cards stay closed until one
 * character asks to see what they wrote or scouted, after the device was handed to them.
 */
function viewerControl(g) {
  if ((g.role ?? "both") !== "both" || g.characters.length === 0) return null;
  if (view.viewer) {
    const who = g.characters.find((c) => c.id === view.viewer)?.name ?? "someone";
    return el(
      "p",
      { class: "notice viewing", role: "status" },
      `Showing the cards ${who} wrote or scouted. `,
      el("button", { type: "button", id: "map-close-cards", data: { focusKey: "map-close-cards" }, on: { click: () => { view.viewer = ""; reload(); } } }, "Close the cards"),
    );
  }
  const who = select([["", "Choose…"], ...g.characters.map((c) => [c.id, c.name])], { id: "map-viewer", data: { focusKey: "map-viewer" } });
  who.addEventListener("change", () => {
    if (!who.value) return;
    view.handOver = who.value;
    render();
    byId("hand-over-heading")?.focus();
  });
  return field("Show one player's own cards", who, "field viewer");
}

/** "Hand the device to …": nothing secret shows until that person says they hold it. */
function handOverScreen() {
  const who = game().characters.find((c) => c.id === view.handOver)?.name ?? "that player";
  const back = () => { view.handOver = null; render(); };
  return el(
    "div",
    { class: "hand-over", id: "hand-over" },
    el("h3", { id: "hand-over-heading", tabindex: "-1" }, `Hand the device to ${who}`),
    el("p", {}, `Only ${who} should look: the cards ${who} wrote or scouted open on the map.`),
    el(
      "div",
      { class: "actions" },
      el("button", { type: "button", class: "primary", id: "hand-over-ready", on: { click: () => { view.viewer = view.handOver; view.handOver = null; reload(); } } }, `I am ${who}: show my cards`),
      el("button", { type: "button", id: "hand-over-cancel", on: { click: back } }, "Cancel"),
    ),
  );
}

/** What a tap on an empty cell does now: move a card, pick cells for the deal, or nothing. */
function mapStatus(placing) {
  const hand = view.world.locations.filter((l) => !l.position);
  if (placing) {
    return el(
      "p",
      { class: "notice placing", role: "status" },
      `Tap an empty cell to move ${nameOf(placing)}. `,
      el("button", { type: "button", id: "place-cancel", on: { click: () => { view.placing = null; render(); } } }, "Cancel"),
    );
  }
  if (view.dealing) {
    const picked = view.dealing.length;
    const ready = picked === hand.length;
    return el(
      "div",
      { class: "notice dealing", role: "status" },
      el("p", { id: "deal-count" }, `Tap ${hand.length === 1 ? "one empty cell" : `${hand.length} empty cells`} for the cards: ${picked} of ${hand.length} picked.`),
      el(
        "div",
        { class: "actions" },
        el("button", { type: "button", class: "primary", id: "deal-go", disabled: !ready, on: { click: deal } }, "Shuffle and deal face down"),
        el("button", { type: "button", id: "deal-cancel", on: { click: () => { view.dealing = null; render(); } } }, "Cancel"),
      ),
    );
  }
  if (hand.length > 0) {
    return el(
      "div",
      { class: "deal-start" },
      el("p", { class: "muted" }, `${hand.length === 1 ? "One card waits" : `${hand.length} cards wait`} to be dealt: they are shuffled, so nobody knows whose card lands where.`),
      el("button", { type: "button", id: "deal-start", data: { focusKey: "deal-start" }, on: { click: () => { view.dealing = []; render(); } } }, `Deal ${hand.length === 1 ? "the card" : `the ${hand.length} cards`}`),
    );
  }
  return el("p", { class: "muted" }, "Face-down cards show their backs: their danger and reward levels.");
}

function deal() {
  const cells = view.dealing;
  view.dealing = null;
  move("The cards were not dealt.", () => api.nsuWorldDeal(view.gameId, cells, { kind: "rolled" }), `Shuffled and dealt ${cells.length === 1 ? "the card" : `${cells.length} cards`} face down.`);
}

/** The paths as lines from cell centre to cell centre, under the cells' own labels. */
function pathLines(paths, minX, minY, columns, rows) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "map-paths");
  svg.setAttribute("viewBox", `0 0 ${columns} ${rows}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  const pos = new Map(view.world.locations.filter((l) => l.position).map((l) => [l.id, l.position]));
  for (const p of paths) {
    const [a, b] = [pos.get(p.a), pos.get(p.b)];
    if (!a || !b) continue;
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("x1", String(a.x - minX + 0.5));
    line.setAttribute("y1", String(a.y - minY + 0.5));
    line.setAttribute("x2", String(b.x - minX + 0.5));
    line.setAttribute("y2", String(b.y - minY + 0.5));
    line.setAttribute("class", "map-path");
    svg.append(line);
  }
  return svg;
}

/**
 * A select's option text, cut to fit a phone: WebKit lets a select's text widen the page, so
 * a long card name is shortened (the whole name is elsewhere on the screen).
 */
const optionText = (text) => (text.length > 26 ? `${text.slice(0, 25)}…` : text);

/** A card's place in short words for a select ("5 S, 2 W"; "settlement"). */
const shortWhere = (p) => {
  if (!p) return "not on the map";
  if (p.x === 0 && p.y === 0) return "settlement";
  const parts = [];
  if (p.y !== 0) parts.push(`${Math.abs(p.y)} ${p.y < 0 ? "N" : "S"}`);
  if (p.x !== 0) parts.push(`${Math.abs(p.x)} ${p.x < 0 ? "W" : "E"}`);
  return parts.join(", ");
};

/** A card in words by its place alone (never its name: the list of paths is everyone's). */
const cardWhere = (id) => {
  const l = view.world.locations.find((x) => x.id === id);
  if (!l) return "a card no longer here";
  return l.revealed ? `${l.name} (${whereWords(l.position)})` : `the card ${whereWords(l.position)}`;
};

/** The paths in words (the drawing is for the eyes only), each with Remove, and a form to draw one. */
function pathsCard(paths) {
  const placed = view.world.locations.filter((l) => l.position);
  const options = placed.map((l) => [l.id, l.revealed ? `${optionText(l.name)} (${shortWhere(l.position)})` : `Card at ${shortWhere(l.position)}`]);
  const from = select(options, { id: "path-a", data: { focusKey: "path-a" } });
  const to = select(options, { id: "path-b", data: { focusKey: "path-b" } });
  if (options.length > 1) to.value = options[1][0];
  return worldCard(
    "paths",
    "Paths",
    { class: "paths", id: "map-paths", level: "h4" },
    listOrNone(paths, "No paths drawn yet.", () =>
      el(
        "ul",
        { class: "plain-list path-list" },
        ...paths.map((p) =>
          removableRow(
            `Path: ${cardWhere(p.a)} – ${cardWhere(p.b)}`,
            `Rub out the path from ${cardWhere(p.a)} to ${cardWhere(p.b)}`,
            "The path was not rubbed out.",
            () => api.nsuWorldRemovePath(view.gameId, p.a, p.b),
            "Rubbed out a path.",
            "row path",
          ),
        ),
      ),
    ),
    placed.length < 2
      ? null
      : el(
          "form",
          {
            class: "path-form",
            id: "path-form",
            autocomplete: "off",
            on: { submit: (e) => { e.preventDefault(); move("The path was not drawn.", () => api.nsuWorldAddPath(view.gameId, from.value, to.value), "Drew a path."); } },
          },
          field("From", from),
          field("To", to),
          el("button", { type: "submit", id: "path-add" }, "Draw path"),
        ),
  );
}

function cell(x, y, card, placing) {
  const partyHere = card && view.world.party_at === card.id;
  if (!card) {
    const origin = x === 0 && y === 0;
    const words = whereWords({ x, y });
    if (view.dealing) {
      const picked = view.dealing.some((c) => c.x === x && c.y === y);
      const full = view.dealing.length >= view.world.locations.filter((l) => !l.position).length;
      return el(
        "button",
        {
          type: "button",
          class: `map-cell empty deal-cell${picked ? " picked" : ""}${origin ? " origin" : ""}`,
          data: { x: String(x), y: String(y), focusKey: `deal-${x}-${y}` },
          "aria-pressed": String(picked),
          "aria-label": `A card goes ${words}`,
          disabled: !picked && full,
          on: {
            click: () => {
              view.dealing = picked ? view.dealing.filter((c) => c.x !== x || c.y !== y) : [...view.dealing, { x, y }];
              render();
            },
          },
        },
        picked ? "✓" : origin ? "⌂" : "+",
      );
    }
    if (placing) {
      return el(
        "button",
        {
          type: "button",
          class: `map-cell empty${origin ? " origin" : ""}`,
          data: { x: String(x), y: String(y) },
          "aria-label": `Move ${nameOf(placing)} ${words}`,
          on: {
            click: () => {
              const id = placing.id;
              view.placing = null;
              move("The card was not moved.", () => api.nsuWorldPlace(view.gameId, id, { x, y }), `Moved ${nameOf(placing)} ${words}.`);
            },
          },
        },
        origin ? "⌂" : "+",
      );
    }
    return el("div", { class: `map-cell empty${origin ? " origin" : ""}`, data: { x: String(x), y: String(y) }, title: origin ? "The settlement" : null }, origin ? "⌂" : "");
  }
  // A card's back: its danger and reward levels only (the core leaves the rest out of a
  // face-down card this device's viewer did not write or scout).
  const face = card.face;
  if (!face || typeof face.name !== "string" || face.name === "") {
    const back = view.world.locations.find((l) => l.id === card.id) ?? card;
    const lv = back.danger_level ? levels(back) : null;
    return el(
      "div",
      { class: "map-cell map-card back", role: "img", data: { locationId: card.id, x: String(x), y: String(y) }, "aria-label": `Face-down card ${whereWords({ x, y })}${lv ? `, ${lv}` : ""}` },
      el("span", { "aria-hidden": "true" }, "✦"),
      lv ? el("span", { class: "card-meta card-levels" }, lv) : null,
    );
  }
  const l = card.face;
  const state = card.revealed ? "revealed" : card.scouted ? "scouted" : "authored";
  const how = card.revealed ? "revealed" : card.scouted ? "face down, scouted" : "face down, your card";
  return el(
    "button",
    {
      type: "button",
      class: `map-cell map-card ${state}${partyHere ? " party-here" : ""}`,
      data: { locationId: card.id, x: String(x), y: String(y), focusKey: `map-card-${card.id}` },
      on: { click: () => openLocation(card.id) },
    },
    // Named by what it shows, then (for a screen reader) the rest in words: a voice user
    // says the name or the levels they see.
    el("span", { class: "card-name" }, l.name),
    " ",
    el("span", { class: "card-meta" }, levels(l), el("span", { class: "card-collateral" }, ` · ${l.collateral}/8`)),
    el("span", { class: "visually-hidden" }, `, ${whereWords({ x, y })}, ${how}, collateral ${l.collateral} of 8${partyHere ? ", the party is here" : ""}`),
    partyHere ? el("span", { class: "party-marker", "aria-hidden": "true" }, "Party") : null,
  );
}

const levels = (l) => (l.danger_level ? `D${l.danger_level} R${l.reward_level}` : "D? R?");

/** A card's name, or its back's words when this device may not read it (face down). */
const nameOf = (l) => (typeof l.name === "string" && l.name !== "" ? l.name : l.position ? `the face-down card ${whereWords(l.position)} (${levels(l)})` : "a card not dealt yet");


function openLocation(id) {
  view.location = id;
  render();
  byId("location-heading")?.focus();
}

/** The Arbiters' list of every card: roll its levels, place it, reveal it, open it. */
function locationList() {
  const locs = view.world.locations;
  return worldCard(
    "locations",
    "Location cards",
    { class: "locations" },
    listOrNone(locs, "No cards yet; each player writes two.", () => el("ul", { class: "plain-list location-list" }, ...locs.map(locationRow))),
  );
}

function locationRow(l) {
  // A card this device may not read shows its back and place only: never its name, its
  // author, nor (by the deal) anything that tells whose it is.
  const readable = typeof l.name === "string" && l.name !== "";
  const title = readable ? l.name : l.position ? "Face-down card" : "A card not dealt yet";
  const about = readable
    ? ` by ${l.author} · ${levels(l)} · ${l.revealed ? "revealed" : "face down"} · ${whereWords(l.position)}`
    : l.position
      ? ` ${whereWords(l.position)}, ${levels(l)}`
      : `, ${levels(l)}`;
  const row = el(
    "li",
    { class: `location-card${readable ? "" : " closed"}`, data: { locationId: l.id } },
    el(
      "div",
      { class: "row" },
      el("span", { class: "grow" }, el("strong", { class: "location-name" }, title), el("span", { class: "muted" }, about)),
      el("button", { type: "button", class: "open-location", data: { focusKey: `open-${l.id}` }, on: { click: () => openLocation(l.id) } }, "Open"),
      l.position
        ? el("button", { type: "button", class: "place-start", data: { focusKey: `place-${l.id}` }, on: { click: () => { view.placing = l.id; render(); document.querySelector(".map-cell.empty[data-x]")?.scrollIntoView({ block: "nearest" }); } } }, "Move")
        : null,
      l.revealed || !l.position
        ? null
        : el("button", { type: "button", class: "reveal", data: { focusKey: `reveal-${l.id}` }, on: { click: () => move("The card was not revealed.", () => api.nsuWorldReveal(view.gameId, l.id), `Revealed ${nameOf(l)}.`) } }, "Reveal"),
    ),
  );
  if (l.danger_level === null) {
    row.append(
      el(
        "div",
        { class: "levels" },
        el("span", { class: "muted" }, "Danger and reward levels (2d4):"),
        diceControl(
          [{ label: "Danger", sides: 4 }, { label: "Reward", sides: 4 }],
          (dice) => move("The levels were not rolled.", () => api.nsuWorldRollLevels(view.gameId, l.id, dice), `${nameOf(l)}: levels set.`),
          { rollLabel: "Roll 2d4", cls: "levels-dice" },
        ),
      ),
    );
  }
  return row;
}

function authorForm() {
  const g = game();
  const listId = uid("players");
  const input = (id, label, textarea = false) => {
    const control = textarea ? el("textarea", { id, rows: 2 }) : el("input", { type: "text", id, required: id !== "location-description" });
    return field(label, control);
  };
  const author = el("input", { type: "text", id: "location-author", required: true, list: listId });
  // The character whose player writes the card: only they (and scouts) read it face down.
  const writers = (g.role ?? "both") === "player" ? g.characters.filter((c) => c.mine) : (g.role ?? "both") === "both" ? g.characters : [];
  const writer = select([...writers.map((c) => [c.id, c.name]), ["", "No character (the table's card)"]], { id: "location-writer" });
  return el(
    "details",
    { class: "author-location", open: view.world.locations.length === 0 },
    el("summary", { id: "location-form-toggle" }, "Write a location card"),
    el(
      "form",
      {
        id: "location-form",
        class: "stack",
        autocomplete: "off",
        on: {
          submit: (e) => {
            e.preventDefault();
            const v = (id) => byId(id).value.trim();
            const draft = {
              name: v("location-name"),
              author: v("location-author"),
              description: v("location-description"),
              collateral_harms: v("location-collateral-harms"),
              danger: v("location-danger"),
              treasure: v("location-treasure"),
              author_character: writer.value || null,
            };
            move("The location was not written.", () => api.nsuWorldAuthorLocation(view.gameId, draft), `Wrote ${draft.name}.`);
          },
        },
      },
      el("div", { class: "pair" }, input("location-name", "Name"), field("Author (player)", author)),
      writers.length > 0 ? field("Written by (only they read it face down)", writer) : null,
      el("datalist", { id: listId }, ...g.characters.map((c) => el("option", { value: c.name }))),
      input("location-description", "Description", true),
      fieldText("location-collateral-harms", "What collateral can harm here"),
      fieldText("location-danger", "Danger"),
      fieldText("location-treasure", "Treasure or knowledge"),
      el("button", { type: "submit", id: "location-submit", class: "primary" }, "Add the card (face down)"),
    ),
  );
}

const fieldText = (id, label) => field(label, el("textarea", { id, rows: 2 }));

// ---- one location --------------------------------------------------------------------------------

/** On a card's page: "The party is here", or the button that moves it here (revealed cards only). */
function partyHere(l) {
  if (view.world.party_at === l.id) {
    return el("div", { class: "row party-row" }, el("p", { class: "party-where grow", id: "location-party" }, "The party is here."), el("button", { type: "button", id: "party-home", on: { click: () => setParty(null) } }, "Send the party home"));
  }
  if (!l.revealed || !l.position) return el("p", { class: "muted", id: "location-party" }, "The party can go here once the card is revealed.");
  return el("div", { class: "row party-row" }, el("button", { type: "button", class: "primary", id: "party-move-here", on: { click: () => setParty(l.id) } }, "Move the party here"));
}

function renderLocation() {
  // A card opened on the map for one character (after the hand-over) shows its face from
  // the map; otherwise the world as this device sees it.
  const l = view.map.find((c) => c.id === view.location)?.face ?? view.world.locations.find((x) => x.id === view.location);
  const g = game();
  const host = part("location-view");
  if (!l) {
    view.location = null;
    return render();
  }
  const text = (label, value) => [el("dt", {}, label), el("dd", {}, value || "—")];
  const tick = (delta) =>
    move("The clock did not change.", () => api.nsuWorldTickCollateral(view.gameId, l.id, delta), `${nameOf(l)}: collateral ${delta > 0 ? "+1" : "−1"}.`);
  const detail = el("input", { type: "text", id: "scene-detail-text", required: true });
  // Written here by hand it ticks nothing: the table ticks the clock itself. (A detail written
  // from a roll's result ticks the party's location when the World was at risk.)
  const risk = checkbox("It came from a roll with the World at risk (recorded; tick the clock by hand)", { id: "scene-detail-world" });
  risk.box.id = "scene-detail-world";
  risk.node.setAttribute("for", "scene-detail-world");
  const scouts = l.scouted_by.map((id) => g.characters.find((c) => c.id === id)?.name ?? "someone no longer here");

  const parts = [
    el(
      "div",
      { class: "row" },
      el("button", { type: "button", id: "location-back", on: { click: () => { view.location = null; render(); byId("map-heading")?.focus(); } } }, "← Map"),
      el("h3", { id: "location-heading", tabindex: "-1", class: "grow" }, nameOf(l)),
    ),
    partyHere(l),
    el(
      "div",
      { class: "location-layout" },
      el(
        "div",
        { class: "clock-box" },
        clockSvg(l.collateral, 8, "Collateral", "collateral-clock"),
        el("p", { class: "clock-words", id: "collateral-words" }, `Collateral ${l.collateral} of 8`),
        el(
          "div",
          { class: "actions" },
          el("button", { type: "button", id: "clock-minus", data: { focusKey: "clock-minus" }, "aria-label": "Collateral −1", disabled: l.collateral === 0, on: { click: () => tick(-1) } }, "−1"),
          el("button", { type: "button", id: "clock-plus", data: { focusKey: "clock-plus" }, "aria-label": "Collateral +1", disabled: l.collateral === 8, on: { click: () => tick(1) } }, "+1"),
        ),
      ),
      el(
        "dl",
        { class: "location-texts written-texts" },
        ...text("Author", l.author),
        ...text("Levels", l.danger_level ? `Danger D${l.danger_level} · Reward R${l.reward_level}` : "not rolled yet"),
        ...text("State", `${l.revealed ? "Revealed" : "Face down"}, ${whereWords(l.position)}`),
        ...text("Description", l.description),
        ...text("Collateral can harm", l.collateral_harms),
        ...text("Danger", l.danger),
        ...text("Treasure or knowledge", l.treasure),
        ...text("Scouted by", scouts.join(", ") || "nobody"),
      ),
    ),
    el("h4", {}, "Scene details"),
    listOrNone(l.scene_details, "None yet.", () => el("ul", { class: "plain-list scene-details" }, ...l.scene_details.map((d) => el("li", {}, d.text, d.world_at_risk ? el("span", { class: "badge" }, "World at risk") : null)))),
    el(
      "form",
      {
        id: "scene-detail-form",
        class: "stack",
        autocomplete: "off",
        on: {
          submit: (e) => {
            e.preventDefault();
            if (detail.value.trim() === "") return;
            move("The scene detail was not added.", () => api.nsuWorldAddSceneDetail(view.gameId, l.id, detail.value.trim(), risk.box.checked), "Added a scene detail.");
          },
        },
      },
      field("New scene detail", detail),
      risk.node,
      el("button", { type: "submit", id: "scene-detail-submit" }, "Add scene detail"),
    ),
    // Scouting is an action roll (Downtime's Scout opens the roll wizard); nothing here records one.
    l.revealed
      ? null
      : el(
          "div",
          { class: "inline-form" },
          el("button", { type: "button", on: { click: () => move("The card was not revealed.", () => api.nsuWorldReveal(view.gameId, l.id), `Revealed ${nameOf(l)}.`) } }, "Reveal"),
        ),
  ];
  host.replaceChildren(...parts.filter(Boolean));
}
