// The Mezzo story elements tab (RULES.md §3.1): the game's characters (their sheets) and the
// table's own objects, locations, factions and goals, and each element's sheet — traits (add
// with kind, template, name and properties; edit; remove), edge slots free and filled, the
// edge-slot awards, adversity with its debt (gain, spend), momentum (gain, spend), and Plot
// Protection with where it comes from (Heroic Sacrifice, Final Counter). Every change is one
// move with an Undo toast (ctx.move); characters are made and renamed as characters (ctx.other).
//
//   import { renderElements } from "./elements.js";
//   renderElements(host, ctx);   // ctx from screen.js; ctx.ui.elementId is the open sheet

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { askName } from "../../kit/rename.js";
import { confirmAction } from "../../kit/confirm.js";
import {
  card,
  checkbox,
  field,
  form,
  numberInput,
  readCount,
  button,
  select,
  plural,
  WORDS,
  TEMPLATES,
  templateName,
  stepper,
  disclosure,
  statStrip,
  allElements,
  listOrNone,
} from "./kit.js";
import { startCheckWith } from "./check.js";
import { sheetEditing, modeToggle, textBlock } from "../../kit/sheet-mode.js";
import { influenceStepper } from "./table.js";

const quoted = (name) => `“${name}”`;

/** Fills `host` with the list of elements, or with the open sheet. */
export function renderElements(host, ctx) {
  const t = ctx.table;
  const open = ctx.ui.elementId ? allElements(t).find((e) => e.id === ctx.ui.elementId) : null;
  if (open) {
    renderSheet(host, open, ctx);
    return;
  }
  ctx.ui.elementId = null;
  host.append(charactersCard(t, ctx), elementsCard(t, ctx));
}

/**
 * The Sheet tab: the open character's sheet (this device's own character first), or, when
 * none is open, this device's characters to pick from and a new character.
 */
export function renderSheetTab(host, ctx) {
  const t = ctx.table;
  const open = ctx.ui.sheetId ? t.characters.find((e) => e.id === ctx.ui.sheetId) : null;
  if (open) {
    renderSheet(host, open, ctx);
    return;
  }
  ctx.ui.sheetId = null;
  const own = ctx.ownCharacters;
  host.append(
    card(
      "mz-my-characters",
      ctx.role === "player" ? "My characters" : "Characters",
      listOrNone(own, el("p", { class: "muted" }, ctx.role === "player" ? "None of this game's characters is yours yet." : "No characters in this game yet."), () => el("ul", { class: "mz-list mz-cards", id: "mz-my-character-list" }, ...own.map((e) => elementItem(e, ctx)))),
      newCharacterForm(ctx),
    ),
  );
}

// ---- the lists ----------------------------------------------------------------------------

function summary(e) {
  const parts = [
    `Edge slots ${e.filled_slots}/${e.edge_slots}`,
    `Adversity ${e.adversity}${e.adversity_debt > 0 ? ` (debt ${e.adversity_debt})` : ""}`,
    `Momentum ${e.momentum}`,
  ];
  if (e.has_plot_protection) parts.push("Plot Protection");
  return parts.join(" · ");
}

function elementItem(e, ctx) {
  const nameId = `mz-element-name-${e.id}`;
  return el(
    "li",
    { class: "mz-element", data: { elementId: e.id, kind: e.kind } },
    el(
      "div",
      { class: "mz-row" },
      el("strong", { class: "mz-name grow", id: nameId }, e.name),
      el("span", { class: "mz-badge mz-kind" }, WORDS.kind[e.kind] ?? e.kind),
    ),
    e.claimed_by_name && el("p", { class: "mz-claimed-by" }, `Claimed by ${e.claimed_by_name}`),
    el("p", { class: "muted mz-element-summary" }, summary(e)),
    e.traits.length > 0 &&
      el(
        "ul",
        { class: "mz-tags", "aria-label": `Traits of ${e.name}` },
        ...e.traits.slice(0, 6).map((tr) => el("li", { class: `mz-tag ${tr.kind}` }, tr.name)),
        e.traits.length > 6 && el("li", { class: "mz-tag more" }, `+${e.traits.length - 6} more`),
      ),
    el(
      "div",
      { class: "actions" },
      button("Open the sheet", () => ctx.switchTab(ctx.ui.tab, { element: e.id, focus: "#mz-sheet-heading" }), {
        class: "mz-open-sheet",
        "aria-describedby": nameId,
        data: { focusKey: `mz-open-sheet-${e.id}` },
      }),
    ),
  );
}

function charactersCard(t, ctx) {
  return card(
    "mz-characters",
    "Characters",
    listOrNone(t.characters, "No characters in this game yet.", () => el("ul", { class: "mz-list mz-cards", id: "mz-character-list" }, ...t.characters.map((e) => elementItem(e, ctx)))),
    newCharacterForm(ctx),
  );
}

/** A new character's name (the box takes the row, its button below on a phone); it opens on its sheet. */
function newCharacterForm(ctx) {
  const name = el("input", { type: "text", id: "mz-new-character", required: true, maxlength: 120, autocomplete: "off" });
  return form(
    { id: "mz-new-character-form", class: "mz-form mz-new-character", "aria-label": "New character" },
    [field("New character", name), el("button", { type: "submit", id: "mz-new-character-submit", class: "primary" }, "Add the character")],
    async (b) => {
      const value = name.value.trim();
      if (value === "") return name.focus();
      const created = await ctx.other(
        "The character was not created.",
        () => api.createCharacter(ctx.gameId, value),
        (made) => (made && made.id ? { kind: "character", id: made.id } : null),
        `Created ${quoted(value)}.`,
        b,
      );
      // From the Sheet tab the new character opens on its sheet; the Story elements list stays for the next one.
      if (created && created.id && ctx.ui.tab === "sheet") ctx.switchTab("sheet", { element: created.id, focus: "#mz-sheet-heading" });
      else document.getElementById("mz-new-character")?.focus();
    },
  );
}

const TABLE_KINDS = [
  ["object", "Object"],
  ["location", "Location"],
  ["faction", "Faction"],
  ["goal", "Goal"],
];

function elementsCard(t, ctx) {
  const kind = select(TABLE_KINDS, { id: "mz-new-element-kind" });
  const name = el("input", { type: "text", id: "mz-new-element-name", required: true, maxlength: 120 });
  return card(
    "mz-elements",
    "Objects, locations, factions and goals",
    listOrNone(t.elements, "None yet.", () => el("ul", { class: "mz-list mz-cards", id: "mz-element-list" }, ...t.elements.map((e) => elementItem(e, ctx)))),
    form(
      { id: "mz-new-element-form", "aria-label": "New story element" },
      [
        el("div", { class: "mz-fields" }, field("Kind", kind), field("Name", name)),
        el("button", { type: "submit", id: "mz-new-element-submit", class: "primary" }, "Add to the story"),
      ],
      async (b) => {
        const value = name.value.trim();
        if (value === "") return name.focus();
        const done = await ctx.move(
          "The element was not added.",
          () => api.mezzoAddElement(ctx.gameId, kind.value, value),
          b,
        );
        if (done) {
          const again = document.getElementById("mz-new-element-name");
          if (again) again.focus();
        }
      },
    ),
  );
}

// ---- one element's sheet ------------------------------------------------------------------

/**
 * The player acting on a sealed element (its claimer by default); "" is the table. A player
 * device acts only for its own players.
 */
function actingPlayer(e, ctx) {
  ctx.ui.acting = ctx.ui.acting ?? {};
  const chosen = ctx.ui.acting[e.id];
  const allowed = ctx.devicePlayers;
  if (chosen !== undefined && (chosen === "" || allowed.some((p) => p.id === chosen))) return chosen;
  if (ctx.role === "player") return allowed.find((p) => p.id === e.claimed_by)?.id ?? allowed[0]?.id ?? "";
  return e.claimed_by ?? "";
}

const byOf = (e, ctx) => actingPlayer(e, ctx) || null;

/** The sticky line a player glances at: momentum, adversity (and debt), the claimer's influence. */
function summaryStrip(e, ctx) {
  const claimer = ctx.table.players.find((p) => p.id === e.claimed_by);
  const debt = e.adversity_debt > 0;
  const strip = statStrip(
    [
      { label: "Momentum", value: e.momentum },
      { label: "Adversity", value: debt ? `${e.adversity} (debt ${e.adversity_debt})` : e.adversity, tone: debt ? "warn" : null },
      ...(claimer ? [{ label: "Influence", value: `${claimer.influence} (${claimer.name})` }] : []),
    ],
    { label: `${e.name} now` },
  );
  strip.id = "mz-sheet-strip";
  // A bar the sheet scrolls under, stacked against the frame's own (the layout check's word).
  strip.dataset.layout = "bar";
  const values = strip.querySelectorAll("dd");
  ["mz-strip-momentum", "mz-strip-adversity", "mz-strip-influence"].forEach((id, i) => {
    if (values[i]) values[i].id = id;
  });
  return strip;
}

/** Who acts on the sheet: a choice on a shared device, a line on a player's own device. */
function actingField(e, ctx) {
  const allowed = ctx.devicePlayers;
  if (ctx.role === "player") {
    const who = allowed.find((p) => p.id === actingPlayer(e, ctx));
    if (allowed.length <= 1) {
      return el("p", { class: "mz-hint", id: "mz-acting-line" }, who ? `You act as ${who.name}.` : "Claim it for your player (Table tab) to spend its resources.");
    }
  }
  const acting = select(
    [...(ctx.role === "player" ? [] : [["", "The table (no player)"]]), ...allowed.map((p) => [p.id, p.name])],
    { id: "mz-acting", data: { focusKey: "mz-acting" } },
  );
  acting.value = actingPlayer(e, ctx);
  acting.addEventListener("change", () => {
    ctx.ui.acting[e.id] = acting.value;
  });
  return el(
    "div",
    { class: "field mz-acting" },
    el("label", { for: acting.id }, "Acting player"),
    acting,
    disclosure(
      "Who may act",
      el(
        "p",
        { class: "mz-hint muted" },
        e.claimed_by_name
          ? `Only ${e.claimed_by_name}, who claimed it, fills its edge slots and spends its adversity and momentum.`
          : "Anyone fills its edge slots and spends its resources while it is unclaimed.",
      ),
    ),
  );
}

function renderSheet(host, e, ctx) {
  const character = e.kind === "character";
  // Play or edit (kit/sheet-mode.js): in play a trait is its name, an "Action check ›" tap
  // away, and the notes are text; adding, editing and removing traits, the notes' box and
  // removing the element are edit mode's. The resources' gains and spends are moves, in both.
  // A character not yet claimed or without traits (an element without traits) opens in edit
  // mode, and stays in it until "Done" (sticky: its making has no end of its own).
  const editing = sheetEditing(e.id, e.traits.length === 0 || (character && !e.claimed_by), { sticky: true });
  const back = ctx.ui.tab === "sheet" && ctx.ownCharacters.length <= 1 ? null : ctx.ui.tab === "sheet" ? "← My characters" : "← All story elements";
  const parts = [
    summaryStrip(e, ctx),
    el(
      "div",
      { class: "mz-sheet-head", id: "mz-sheet", data: { elementId: e.id } },
      back && button(back, () => ctx.switchTab(ctx.ui.tab, { element: null }), { id: "mz-sheet-back" }),
      el("h3", { id: "mz-sheet-heading", tabindex: "-1" }, e.name),
      el(
        "p",
        { class: "mz-sheet-sub" },
        el("span", { class: "mz-badge mz-kind" }, WORDS.kind[e.kind] ?? e.kind),
        e.claimed_by_name ? ` Claimed by ${e.claimed_by_name}.` : character ? " Not claimed." : "",
        e.in_challenge ? " In a challenge." : "",
      ),
      el(
        "div",
        { class: "actions" },
        modeToggle({ id: "mz-sheet-mode", characterId: e.id, editing, onToggle: () => ctx.render("#mz-sheet-mode") }),
        button(
          "Rename",
          async () => {
            const name = await askName({ title: character ? "Rename character" : "Rename element", current: e.name });
            if (name === null) return;
            if (character) {
              ctx.other(
                "The character was not renamed.",
                () => api.renameCharacter(e.id, name),
                () => ({ kind: "character", id: e.id }),
                `Renamed ${quoted(e.name)} to ${quoted(name)}.`,
              );
            } else {
              ctx.move("The element was not renamed.", () => api.mezzoRenameElement(ctx.gameId, e.id, name));
            }
          },
          { id: "mz-sheet-rename" },
        ),
        !character &&
          editing &&
          button(
            "Remove from the story",
            async (b) => {
              const yes = await confirmAction({
                title: `Remove ${quoted(e.name)} from the story?`,
                message: "Its traits and resources go with it. You can undo this right after.",
                yes: "Remove",
              });
              if (!yes) return;
              const done = await ctx.move("The element was not removed.", () => api.mezzoRemoveElement(ctx.gameId, e.id), b);
              if (done) ctx.switchTab("elements", { element: null });
            },
            { id: "mz-sheet-remove", class: "danger" },
          ),
      ),
      actingField(e, ctx),
    ),
    firstSteps(e, ctx),
    el("div", { class: "mz-grid" }, adversityCard(e, ctx), momentumCard(e, ctx), influenceCard(e, ctx)),
    traitsCard(e, ctx, editing),
    el("div", { class: "mz-grid" }, slotsCard(e, ctx), protectionCard(e, ctx)),
    character && notesCard(e, ctx, editing),
  ];
  host.append(...parts.filter(Boolean));
}

/** A new character's first steps: a player to claim it, its first traits. */
function firstSteps(e, ctx) {
  if (e.kind !== "character" || e.claimed_by) return null;
  const t = ctx.table;
  const parts = [];
  if (t.players.length === 0) {
    const name = el("input", { type: "text", id: "mz-first-player", required: true, maxlength: 120, autocomplete: "off" });
    parts.push(
      form(
        { id: "mz-first-player-form", "aria-label": "The player who plays it" },
        [field("Who plays it (a player at the table)", name), el("button", { type: "submit", id: "mz-first-player-submit" }, "Add the player")],
        async (b) => {
          const value = name.value.trim();
          if (value === "") return name.focus();
          const done = await ctx.move("The player was not added.", () => api.mezzoAddPlayer(ctx.gameId, value), b);
          const p = done?.view?.players?.find((x) => x.name === value && !x.claimed.includes(e.id));
          if (p) await claimFor(ctx, p, e);
        },
      ),
    );
  } else {
    const pool = ctx.role === "player" && ctx.devicePlayers.length > 0 ? ctx.devicePlayers : t.players;
    const who = select(pool.map((p) => [p.id, p.name]), { id: "mz-first-claim-player" });
    parts.push(
      form(
        { id: "mz-first-claim-form", "aria-label": "Claim it" },
        [field("Played by (takes the Actor role)", who), el("button", { type: "submit", id: "mz-first-claim-submit" }, "Claim it (+2 edge slots)")],
        (b) => claimFor(ctx, t.players.find((p) => p.id === who.value), e, b),
      ),
    );
  }
  if (e.traits.length === 0) parts.push(el("p", { class: "mz-hint muted" }, "Then give it its first traits below: each edge fills an edge slot."));
  return card("mz-first-steps", "First steps", ...parts);
}

/** `p` claims character `e`, taking the Actor role first when needed (each an undoable move). */
async function claimFor(ctx, p, e, b = null) {
  if (!p) return;
  if (!p.actor && !(await ctx.move("The Actor role was not taken.", () => api.mezzoTakeRole(ctx.gameId, p.id), b))) return;
  await ctx.move("The character was not claimed.", () => api.mezzoClaim(ctx.gameId, p.id, e.id), b);
}

/** The claiming player's influence: one tap to spend or gain a point. */
function influenceCard(e, ctx) {
  const p = ctx.table.players.find((x) => x.id === e.claimed_by);
  if (!p) return null;
  return card(
    "mz-sheet-influence",
    "Influence",
    influenceStepper(p, ctx, `${p.name}'s influence`, "mz-sheet-influence-step"),
  );
}

/** The character's notes, saved with the button (undoable: the toast and the log). */
function notesCard(e, ctx, editing) {
  if (typeof api.setCharacterNotes !== "function") return null;
  const saved = ctx.character(e.id)?.notes ?? "";
  if (!editing) return card("mz-sheet-notes", "Notes", textBlock(saved, { id: "mz-notes-text" }));
  const area = el("textarea", { id: "mz-notes", rows: 4, maxlength: 4000, data: { focusKey: "mz-notes" } });
  area.value = saved;
  const save = async (b) => {
    if (area.value === (ctx.character(e.id)?.notes ?? "")) return;
    await ctx.other(
      "The notes were not saved.",
      () => api.setCharacterNotes(e.id, area.value),
      () => ({ kind: "character", id: e.id }),
      "Notes saved.",
      b,
    );
  };
  return card(
    "mz-sheet-notes",
    "Notes",
    form({ id: "mz-notes-form", "aria-label": `Notes on ${e.name}` }, [field("Notes", area), el("button", { type: "submit", id: "mz-notes-save" }, "Save the notes")], save),
  );
}

// ---- edge slots -----------------------------------------------------------------------------

const AWARDS = [
  ["first_action_check", "First action check", 4],
  ["first_challenge", "First challenge", 4],
  ["first_claim", "First claim", 2],
];

function slotsCard(e, ctx) {
  const t = ctx.table;
  const boxes = [];
  for (let i = 0; i < e.edge_slots; i++) {
    boxes.push(el("span", { class: `mz-slot ${i < e.filled_slots ? "filled" : "free"}`, "aria-hidden": "true" }));
  }
  const memorable = () => {
    if (t.arc === 0) return el("p", { class: "mz-hint muted" }, "A memorable-element award is given at the end of an arc.");
    if (t.players.length === 0) return el("p", { class: "mz-hint muted" }, "Add players to name memorable elements.");
    if (e.awards.memorable_arcs.includes(t.arc)) {
      return el("p", { class: "mz-hint" }, `Named a memorable element of arc ${t.arc}.`);
    }
    const who = select(t.players.map((p) => [p.id, p.name]), { id: "mz-memorable-player" });
    const free = checkbox("Their undisputable award of this arc", { id: "mz-memorable-undisputable" });
    return form(
      { id: "mz-memorable-form", "aria-label": "Memorable element" },
      [
        field("Named memorable by", who),
        free.node,
        el("button", { type: "submit", id: "mz-memorable-submit" }, `Memorable in arc ${t.arc} (+1 slot)`),
      ],
      (b) =>
        ctx.move(
          "The award was not given.",
          () => api.mezzoAwardMemorable(ctx.gameId, e.id, who.value, free.box.checked),
          b,
        ),
    );
  };
  return card(
    "mz-slots",
    "Edge slots",
    el(
      "p",
      { class: "mz-stat-line", id: "mz-slots-status" },
      el("strong", { class: "mz-big" }, String(e.edge_slots)),
      ` ${e.edge_slots === 1 ? "slot" : "slots"}: ${e.filled_slots} filled, ${e.free_slots} free`,
    ),
    boxes.length > 0 && el("div", { class: "mz-slots", "aria-hidden": "true" }, ...boxes),
    el("h4", {}, "Awards (each once)"),
    el(
      "div",
      { class: "mz-awards" },
      ...AWARDS.map(([kind, label, n]) => {
        const had = e.awards[kind];
        return button(
          had ? `${label}: given` : `${label} (+${n})`,
          (b) => ctx.move("The slots were not awarded.", () => api.mezzoAwardEdgeSlots(ctx.gameId, e.id, { kind }), b),
          { class: "mz-award", id: `mz-award-${kind}`, disabled: had, data: { focusKey: `mz-award-${kind}` } },
        );
      }),
    ),
    e.awards.memorable_arcs.length > 0 &&
      el("p", { class: "mz-hint muted" }, `Memorable in arc ${e.awards.memorable_arcs.join(", ")}.`),
    memorable(),
  );
}

// ---- adversity ------------------------------------------------------------------------------

const ADVERSITY_HINT =
  "Fortune's Favor (2): one more vote for its action. Sudden Surge (3): +1 to the rolled result. Overcome Flaws (2): ignore one of its flaws for one action. Background (1): a phantom edge for an action its Background relates to, lost when the scene ends. Adversity goes down only by spending it.";

/** A Background's phantom edge (1 adversity): named here, it lasts until the scene ends. */
function backgroundPart(e, ctx, debt) {
  const backgrounds = e.traits.filter((tr) => tr.template === "background");
  if (backgrounds.length === 0) return null;
  const from = select(backgrounds.map((b) => [b.id, b.name]), { id: "mz-background-from", data: { focusKey: "mz-background-from" } });
  const name = el("input", { type: "text", id: "mz-background-edge", maxlength: 100, autocomplete: "off", data: { focusKey: "mz-background-edge" } });
  return form(
    { id: "mz-background-form", class: "mz-background", "aria-label": "A Background's phantom edge" },
    [
      field("From the Background", from),
      field("Phantom edge (until the scene ends)", name),
      el("button", { type: "submit", id: "mz-background-buy" }, "Gain it (1 adversity)"),
    ],
    (b) => {
      const words = name.value.trim();
      if (words === "") return name.focus();
      const edge = {
        id: crypto.randomUUID(),
        kind: "edge",
        template: null,
        name: words,
        target_trait: null,
        granted_by: null,
        via: "granted",
        lasts: "scene",
        uses_left: null,
      };
      return ctx.move("The phantom edge was not gained.", () => api.mezzoSpendAdversity(ctx.gameId, e.id, byOf(e, ctx), { kind: "background", background: from.value, edge }, debt.box.checked), b);
    },
  );
}

function adversityCard(e, ctx) {
  const flaws = e.traits.filter((tr) => tr.kind === "flaw");
  const debt = checkbox("Take a shortfall as adversity debt", { id: "mz-adversity-debt" });
  const spend = (spendOf, title) => (b) =>
    ctx.move(title, () => api.mezzoSpendAdversity(ctx.gameId, e.id, byOf(e, ctx), spendOf, debt.box.checked), b);
  // A shortfall may be taken as debt once it holds any: the core says what is missing.
  const can = () => e.adversity >= 1;
  return card(
    "mz-adversity",
    "Adversity",
    // Adversity goes down only by spending it (below): its − stays off.
    stepper({
      label: "Adversity",
      id: "mz-adversity-value",
      value: e.adversity,
      min: e.adversity,
      onChange: async () => (await ctx.move("The adversity was not gained.", () => api.mezzoGainAdversity(ctx.gameId, e.id, 1))) !== null,
    }),
    e.adversity_debt > 0
      ? el("p", { class: "mz-debt", id: "mz-adversity-debt-value" }, `Debt ${e.adversity_debt}: gained adversity pays it first; it ends with the arc.`)
      : null,
    el("p", { class: "mz-cast-title", id: "mz-adversity-spend-title" }, "Spend it on"),
    el(
      "div",
      { class: "mz-spend-row", role: "group", "aria-labelledby": "mz-adversity-spend-title" },
      button("Fortune's Favor (2)", spend({ kind: "fortunes_favor" }, "The adversity was not spent."), { id: "mz-spend-fortunes_favor", disabled: !can(2) }),
      button("Sudden Surge (3)", spend({ kind: "sudden_surge" }, "The adversity was not spent."), { id: "mz-spend-sudden_surge", disabled: !can(3) }),
      ...flaws.map((f) =>
        button(`Overcome “${f.name}” (2)`, spend({ kind: "overcome_flaws", flaw: f.id }, "The adversity was not spent."), {
          class: "mz-spend-overcome",
          disabled: !can(2),
          data: { focusKey: `mz-overcome-${f.id}` },
        }),
      ),
    ),
    debt.node,
    backgroundPart(e, ctx, debt),
    disclosure("What each spend does", el("p", { class: "mz-hint muted hint" }, ADVERSITY_HINT)),
  );
}

// ---- momentum -------------------------------------------------------------------------------

const MOMENTUM_SPENDS = [
  ["victory_narration", "Victory narration", "votes"],
  ["claiming_stakes", "Claiming stakes", "perks"],
  ["lasting_effect", "Lasting effect (1)", null],
  ["defeat_conversion", "Defeat: to adversity", "adversity"],
  ["plot_hook", "A plot hook", "points"],
];

const MOMENTUM_HINT =
  "After a victory: narration costs 1 per vote, stakes 1 per major perk, a lasting effect 1. After a defeat, 2 momentum become 1 adversity. A plot hook costs 1 per point.";

function momentumCard(e, ctx) {
  ctx.ui.momentumSource = ctx.ui.momentumSource ?? "plot_hook";
  const sources = [
    ["plot_hook", "A plot hook"],
    ["boost", "Momentum boost (in a challenge)"],
    ...(e.kind === "goal" ? [["ruin", "Ruin took a trump"]] : []),
  ];
  const source = select(sources, { id: "mz-momentum-source", data: { focusKey: "mz-momentum-source" } });
  source.value = sources.some(([v]) => v === ctx.ui.momentumSource) ? ctx.ui.momentumSource : "plot_hook";
  source.addEventListener("change", () => {
    ctx.ui.momentumSource = source.value;
  });
  const kind = select(
    MOMENTUM_SPENDS.map(([k, label]) => [k, label]),
    { id: "mz-momentum-spend-kind" },
  );
  const amount = numberInput({ id: "mz-momentum-amount", min: 1, value: 1 });
  const amountField = field("How many", amount);
  const sync = () => {
    amountField.hidden = kind.value === "lasting_effect";
  };
  kind.addEventListener("change", sync);
  sync();
  return card(
    "mz-momentum",
    "Momentum",
    // Momentum goes down only by spending it (below): its − stays off.
    stepper({
      label: "Momentum",
      id: "mz-momentum-value",
      value: e.momentum,
      min: e.momentum,
      onChange: async () => (await ctx.move("The momentum was not gained.", () => api.mezzoGainMomentum(ctx.gameId, e.id, 1, source.value))) !== null,
    }),
    field("Gained from", source),
    form(
      { id: "mz-momentum-spend-form", "aria-label": "Spend momentum" },
      [
        el("div", { class: "mz-fields" }, field("Spend momentum on", kind), amountField),
        disclosure("What each spend does", el("p", { class: "mz-hint muted hint" }, MOMENTUM_HINT)),
        el("button", { type: "submit", id: "mz-momentum-spend-submit", disabled: e.momentum === 0 }, "Spend"),
      ],
      (b) => {
        const entry = MOMENTUM_SPENDS.find(([k]) => k === kind.value);
        const spend = { kind: kind.value };
        if (entry[2]) {
          const n = readCount(amount);
          if (n === null) return;
          spend[entry[2]] = n;
        }
        ctx.move("The momentum was not spent.", () => api.mezzoSpendMomentum(ctx.gameId, e.id, byOf(e, ctx), spend), b);
      },
    ),
  );
}

// ---- Plot Protection ------------------------------------------------------------------------

function protectionCard(e, ctx) {
  const others = allElements(ctx.table).filter((o) => o.id !== e.id);
  const receiver = others.length > 0 ? select(others.map((o) => [o.id, o.name]), { id: "mz-sacrifice-to" }) : null;
  const status = e.plot_protection.sacrificed
    ? "Sacrificed: no protection until the challenge is over."
    : e.has_plot_protection
      ? "Protected: narration cannot take it out of play."
      : "Not protected.";
  return card(
    "mz-protection",
    "Plot Protection",
    el("p", { id: "mz-protection-status", class: e.has_plot_protection ? "mz-status running" : "mz-status" }, status),
    e.protection_sources.length > 0 &&
      el(
        "ul",
        { class: "mz-notes", "aria-label": "Where its protection comes from" },
        ...e.protection_sources.map((s) => el("li", {}, `From ${WORDS.protection[s] ?? s}`)),
      ),
    !e.plot_protection.sacrificed &&
      e.has_plot_protection &&
      receiver &&
      form(
        { id: "mz-sacrifice-form", "aria-label": "Heroic Sacrifice" },
        [
          field("Heroic Sacrifice: lend it to", receiver),
          el("button", { type: "submit", id: "mz-sacrifice-submit" }, "Lend the protection"),
        ],
        (b) =>
          ctx.move(
            "The protection was not lent.",
            () => api.mezzoPlotProtection(ctx.gameId, e.id, "heroic_sacrifice", receiver.value),
            b,
          ),
      ),
    // A Final Counter removes the perks of one action: it is made on the challenge, where
    // the action is, never here (sacrificing here alone removed nothing; audit #12).
    !e.plot_protection.sacrificed &&
      e.has_plot_protection &&
      e.in_challenge &&
      el(
        "div",
        { class: "mz-final-counter-note", id: "mz-final-counter-note" },
        el("p", { class: "muted" }, "A Final Counter sacrifices this protection to remove every perk of one action: make it on the challenge, while that action's perks are declared."),
        button("Go to the challenge", () => ctx.switchTab("challenge"), { id: "mz-to-final-counter" }),
      ),
  );
}

// ---- traits ---------------------------------------------------------------------------------

const PROPERTY_KEYS = ["requirements", "restrictions", "owner", "target", "set_up", "effects", "details"];

function traitsCard(e, ctx, editing) {
  return card(
    "mz-traits",
    "Traits",
    listOrNone(e.traits, el("p", { class: "muted", id: "mz-traits-empty" }, "No traits yet."), () => el("ul", { class: "mz-list", id: "mz-trait-list" }, ...e.traits.map((tr) => traitItem(tr, e, ctx, editing)))),
    editing && addTraitForm(e, ctx),
  );
}

function traitItem(tr, e, ctx, editing) {
  const nameId = `mz-trait-name-${tr.id}`;
  const target = tr.target_trait ? e.traits.find((o) => o.id === tr.target_trait) : null;
  const facts = [
    tr.template && templateName(tr.template),
    WORDS.via[tr.via] ?? tr.via,
    tr.lasts !== "lasting" && (WORDS.lasts[tr.lasts] ?? tr.lasts),
    tr.uses_left !== null && tr.uses_left !== undefined && plural(tr.uses_left, "use") + " left",
    target && `on ${target.name}`,
  ].filter(Boolean);
  const props = PROPERTY_KEYS.filter((k) => (tr.properties?.[k] ?? "").trim() !== "");
  const edit = editing && el(
    "details",
    { class: "mz-edit-trait", id: `mz-edit-${tr.id}`, open: ctx.ui.open[`edit-${tr.id}`] ?? false },
    el("summary", { "aria-describedby": nameId }, "Edit"),
    editTraitForm(tr, e, ctx),
  );
  if (edit) {
    edit.addEventListener("toggle", () => {
      if (edit.isConnected) ctx.ui.open[`edit-${tr.id}`] = edit.open;
    });
  }
  return el(
    "li",
    { class: `mz-trait ${tr.kind}`, data: { traitId: tr.id } },
    el(
      "div",
      { class: "mz-row" },
      el(
        "button",
        { type: "button", class: "mz-trait-act grow", data: { focusKey: `mz-trait-act-${tr.id}` }, on: { click: () => startCheckWith(ctx, e, tr) } },
        el("strong", { class: "mz-trait-name", id: nameId }, tr.name),
        el("span", { class: "mz-act-word" }, "Action check ›"),
      ),
      el("span", { class: `mz-badge mz-trait-kind ${tr.kind}` }, WORDS.traitKind[tr.kind] ?? tr.kind),
      editing &&
      button(
        "Remove",
        (b) => ctx.move("The trait was not removed.", () => api.mezzoRemoveTrait(ctx.gameId, e.id, tr.id), b),
        { class: "mz-remove-trait danger", "aria-describedby": nameId, data: { focusKey: `mz-remove-trait-${tr.id}` } },
      ),
    ),
    el("p", { class: "muted mz-trait-facts" }, facts.join(" · ")),
    tr.template === "favored_flaw" && favoredFlawUse(tr, e, ctx, nameId),
    tr.template === "asset" && assetAccess(tr, e, ctx, nameId),
    tr.template === "empowering_gift" && giftLending(tr, e, ctx, nameId),
    tr.template === "asset_investment" && assetInvesting(tr, e, ctx, nameId),
    props.length > 0 &&
      el(
        "dl",
        { class: "mz-props written-texts" },
        ...props.flatMap((k) => [el("dt", {}, WORDS.property[k]), el("dd", {}, tr.properties[k])]),
      ),
    edit,
  );
}

/** A Favored Flaw's flaw used against its owner: +1 adversity, once per scene or challenge. */
function favoredFlawUse(tr, e, ctx, nameId) {
  const when = e.in_challenge ? "challenge" : "scene";
  // Empowering Flaw (a Signature Flaw's grant) lifts the once-a-scene limit.
  const empowered = e.traits.some((o) => o.template === "empowering_flaw" && o.target_trait === tr.id);
  const spent = tr.favored_used === true && !empowered;
  return el(
    "div",
    { class: "mz-row mz-favored" },
    button(
      `Used against ${e.name}: +1 adversity`,
      (b) => ctx.move("The adversity was not gained.", () => api.mezzoFavoredFlawUsed(ctx.gameId, e.id, tr.id), b),
      {
        id: `mz-favored-used-${tr.id}`,
        "aria-describedby": nameId,
        disabled: spent,
        data: { focusKey: `mz-favored-used-${tr.id}` },
      },
    ),
    spent && el("span", { class: "muted", id: `mz-favored-note-${tr.id}` }, `Gave its adversity this ${when}.`),
    empowered && el("span", { class: "muted", id: `mz-favored-note-${tr.id}` }, "Empowering Flaw: as often as it works against them."),
  );
}

/** An Asset's access lost (its owner gains the Favored Flaw for it) or back (it goes). */
function assetAccess(tr, e, ctx, nameId) {
  const lost = e.traits.some((o) => o.template === "favored_flaw" && o.granted_by === tr.id);
  return el(
    "div",
    { class: "mz-row mz-asset-access" },
    button(
      lost ? "Access regained" : "Access lost: gain its Favored Flaw",
      (b) => ctx.move("The access was not changed.", () => api.mezzoAssetAccess(ctx.gameId, e.id, tr.id, !lost), b),
      { id: `mz-asset-access-${tr.id}`, "aria-describedby": nameId, data: { focusKey: `mz-asset-access-${tr.id}` } },
    ),
    lost && el("span", { class: "muted", id: `mz-asset-lost-${tr.id}` }, `${e.name} has lost access to it.`),
  );
}

/** An Empowering Gift lent to another element (the core refuses past the seed's limits), and taken back. */
function giftLending(tr, e, ctx, nameId) {
  const all = allElements(ctx.table);
  const holders = (e.lent_gifts ?? []).find((l) => l.gift === tr.id)?.targets ?? [];
  const nameOf = (id) => all.find((o) => o.id === id)?.name ?? "an element no longer here";
  const choices = all.filter((o) => !holders.includes(o.id)).map((o) => [o.id, o.id === e.id ? `${o.name} (itself)` : o.name]);
  const pick = select(choices, { id: `mz-gift-target-${tr.id}`, data: { focusKey: `mz-gift-target-${tr.id}` } });
  const other = choices.find(([id]) => id !== e.id);
  if (other) pick.value = other[0];
  return el(
    "div",
    { class: "mz-gift" },
    (e.gifts_at_once ?? 1) > 1 &&
      el("p", { class: "muted", id: `mz-gift-at-once-${tr.id}` }, `${e.name} lends up to ${e.gifts_at_once} Empowering Gifts at a time (its Asset Investments).`),
    holders.length > 0 &&
      el(
        "ul",
        { class: "mz-list", id: `mz-gift-holders-${tr.id}`, "aria-label": `Holding ${tr.name}` },
        ...holders.map((h) => {
          const wordsId = `mz-gift-holder-${tr.id}-${h}`;
          return el(
            "li",
            { class: "mz-row" },
            el("span", { class: "grow", id: wordsId }, `Lent to ${nameOf(h)}`),
            button(
              "Take back",
              (b) => ctx.move("The gift was not taken back.", () => api.mezzoLendGift(ctx.gameId, e.id, tr.id, h, false), b),
              { class: "mz-gift-back", id: `mz-gift-back-${tr.id}-${h}`, "aria-describedby": wordsId, data: { focusKey: `mz-gift-back-${tr.id}-${h}` } },
            ),
          );
        }),
      ),
    choices.length > 0 &&
      el(
        "div",
        { class: "mz-row mz-gift-lend" },
        field("Lend to", pick),
        button(
          "Lend",
          (b) => ctx.move("The gift was not lent.", () => api.mezzoLendGift(ctx.gameId, e.id, tr.id, pick.value, true), b),
          { id: `mz-gift-lend-${tr.id}`, "aria-describedby": nameId, data: { focusKey: `mz-gift-lend-${tr.id}` } },
        ),
      ),
  );
}

/**
 * An Asset Investment put into the asset's selected element: it gains the target edge and lends
 * one more Empowering Gift at a time (the core refuses past the seed's limits); or taken back.
 */
function assetInvesting(tr, e, ctx, nameId) {
  const all = allElements(ctx.table);
  const into = (e.investments ?? []).find((i) => i.investment === tr.id)?.target ?? null;
  if (into) {
    const wordsId = `mz-invested-${tr.id}`;
    const name = all.find((o) => o.id === into)?.name ?? "an element no longer here";
    return el(
      "div",
      { class: "mz-row mz-invest" },
      el("span", { class: "grow", id: wordsId }, `Invested in ${name}`),
      button(
        "Take back",
        (b) => ctx.move("The investment was not taken back.", () => api.mezzoInvestAsset(ctx.gameId, e.id, tr.id, into, false), b),
        { class: "mz-invest-back", id: `mz-invest-back-${tr.id}`, "aria-describedby": wordsId, data: { focusKey: `mz-invest-back-${tr.id}` } },
      ),
    );
  }
  const choices = all.filter((o) => o.id !== e.id).map((o) => [o.id, o.name]);
  if (choices.length === 0) return null;
  const pick = select(choices, { id: `mz-invest-target-${tr.id}`, data: { focusKey: `mz-invest-target-${tr.id}` } });
  return el(
    "div",
    { class: "mz-row mz-invest" },
    field("The asset's selected element", pick),
    button(
      "Invest",
      (b) => ctx.move("The investment was not made.", () => api.mezzoInvestAsset(ctx.gameId, e.id, tr.id, pick.value, true), b),
      { id: `mz-invest-${tr.id}`, "aria-describedby": nameId, data: { focusKey: `mz-invest-${tr.id}` } },
    ),
  );
}

/** Text areas for a trait's properties, filled from `properties`; `read()` collects them. */
function propertyFields(prefix, properties = {}) {
  const areas = PROPERTY_KEYS.map((k) => {
    const area = el("textarea", { id: `${prefix}-${k}`, class: `mz-prop-${k}`, rows: 2, maxlength: 2000 });
    area.value = properties[k] ?? "";
    return [k, area];
  });
  return {
    node: el("div", { class: "mz-fields mz-prop-fields" }, ...areas.map(([k, area]) => field(WORDS.property[k], area))),
    read: () => Object.fromEntries(areas.map(([k, area]) => [k, area.value.trim()])),
  };
}

function editTraitForm(tr, e, ctx) {
  const prefix = `mz-edit-${tr.id}`;
  const name = el("input", { type: "text", id: `${prefix}-name`, class: "mz-edit-name", required: true, maxlength: 120 });
  name.value = tr.name;
  const props = propertyFields(prefix, tr.properties);
  return form(
    { id: `${prefix}-form`, class: "mz-form mz-edit-form" },
    [
      field("Name", name),
      props.node,
      el("button", { type: "submit", class: "primary mz-edit-submit" }, "Save the trait"),
    ],
    async (b) => {
      if (name.value.trim() === "") return name.focus();
      const done = await ctx.move(
        "The trait was not changed.",
        () => api.mezzoEditTrait(ctx.gameId, e.id, tr.id, byOf(e, ctx), name.value.trim(), props.read()),
        b,
      );
      if (done) {
        ctx.ui.open[`edit-${tr.id}`] = false;
        ctx.render();
      }
    },
  );
}

const KINDS = [
  ["edge", "Edge"],
  ["flaw", "Flaw"],
  ["modifier", "Modifier"],
  ["extra", "Extra"],
];

const VIAS = [
  ["edge_slot", "Bought with an edge slot"],
  ["granted", "Granted by play (no slot)"],
  ["free_extra", "The free extra of an Ability or Resistance"],
];

const LASTS = [
  ["lasting", "Until lost"],
  ["scene", "Until the end of the scene"],
  ["challenge", "Until the end of the challenge"],
  ["next_challenge", "Through the next challenge"],
  ["arc", "Until the end of the arc"],
];

const SETUP_HINTS = {
  signature_flaw: "Name the flaw in the set-up: it comes with a Favored Flaw (with Empowering Flaw), and all three go with the Signature Flaw.",
  specialty: "Name the two perks in the set-up. With no minor perk (Hinder, Recover, Discover, Expose) among them, a roll only level with the best other side loses 1.",
};

const TARGETING = new Set(["favored_flaw", "dulled_edge", "impaired_ability"]);

function addTraitForm(e, ctx) {
  const kind = select(KINDS, { id: "mz-trait-kind" });
  const template = el("select", { id: "mz-trait-template" });
  const name = el("input", { type: "text", id: "mz-trait-name", required: true, maxlength: 120 });
  const via = select(VIAS, { id: "mz-trait-via" });
  const target = select([["", "(none)"], ...e.traits.map((tr) => [tr.id, tr.name])], { id: "mz-trait-target" });
  const targetField = field("Attached to", target, "An extra or a modifier is attached to one of its traits; a Favored Flaw, Dulled Edge or Impaired Ability to the trait it selects.");
  const lasts = select(LASTS, { id: "mz-trait-lasts" });
  const props = propertyFields("mz-trait-prop");
  const propsMore = el("details", { class: "mz-props-more" }, el("summary", {}, "Properties"), props.node);
  // Extras and modifiers attach to a trait; of edges and flaws, only those templates that
  // select one (a Favored Flaw's flaw, a Dulled Edge's edge, an Impaired Ability's ability).
  const showTarget = () => {
    const k = kind.value;
    targetField.hidden = (k === "edge" || k === "flaw") && !TARGETING.has(template.value);
  };
  template.addEventListener("change", showTarget);
  // A Signature Flaw's flaw and a Specialty's two perks are named in the set-up, which the core reads.
  const setUpHint = el("p", { class: "muted", id: "mz-trait-setup-hint", hidden: true });
  template.addEventListener("change", () => {
    const hint = SETUP_HINTS[template.value];
    setUpHint.hidden = !hint;
    setUpHint.textContent = hint ?? "";
    if (hint) propsMore.open = true;
  });
  const fillTemplates = () => {
    const k = kind.value;
    template.replaceChildren(
      el("option", { value: "" }, "None: the table's own"),
      ...TEMPLATES.filter(([, , tk]) => tk === k).map(([v, label]) =>
        el("option", { value: v }, v === "trump" ? `${label} (goals only)` : label),
      ),
    );
    showTarget();
    const slots = k === "edge" || k === "extra";
    for (const option of via.options) option.disabled = (option.value === "edge_slot" && !slots) || (option.value === "free_extra" && k !== "extra");
    if (via.selectedOptions[0]?.disabled || !slots) via.value = "granted";
    else via.value = e.free_slots > 0 && k === "edge" ? "edge_slot" : "granted";
  };
  kind.addEventListener("change", fillTemplates);
  fillTemplates();
  const details = el(
    "details",
    { class: "mz-add-trait", id: "mz-add-trait", open: ctx.ui.open.addTrait ?? e.traits.length === 0 },
    el("summary", {}, "Add a trait"),
    form(
      { id: "mz-trait-form", "aria-label": `A new trait for ${e.name}` },
      [
        el(
          "div",
          { class: "mz-fields" },
          field("Kind", kind),
          field("Template", template),
          field("Name", name),
          field("How it comes", via, `${plural(e.free_slots, "free edge slot")}.`),
          targetField,
          field("Lasts", lasts),
        ),
        setUpHint,
        propsMore,
        el("button", { type: "submit", id: "mz-trait-submit", class: "primary" }, "Add the trait"),
      ],
      async (b) => {
        if (name.value.trim() === "") return name.focus();
        const draft = {
          kind: kind.value,
          template: template.value === "" ? null : template.value,
          name: name.value.trim(),
          properties: props.read(),
          target_trait: targetField.hidden || target.value === "" ? null : target.value,
          via: via.value,
          lasts: lasts.value,
        };
        const done = await ctx.move(
          "The trait was not added.",
          () => api.mezzoAddTrait(ctx.gameId, e.id, byOf(e, ctx), draft),
          b,
        );
        if (done) {
          ctx.ui.open.addTrait = true;
          ctx.render("#mz-trait-name");
        }
      },
    ),
  );
  details.addEventListener("toggle", () => {
    if (details.isConnected) ctx.ui.open.addTrait = details.open;
  });
  return details;
}

