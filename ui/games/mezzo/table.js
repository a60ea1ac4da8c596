// The Mezzo table tab (RULES.md §3.1): the arc (start the first, end one and start the next),
// the characters active in the scene, and the players — influence (spend, gain), the Actor
// role (take, leave), claims on characters (claim, give up), rename and remove — and a new
// player, and the table's dice (step dice or the D6 variant, used by action checks and
// challenge actions). Every change is one move with an Undo toast (ctx.move).
//
//   import { renderTable, sceneCard } from "./table.js";
//   renderTable(host, ctx);   // ctx from screen.js: {gameId, table, ui, move, …}

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { askName } from "../../kit/rename.js";
import { confirmAction } from "../../kit/confirm.js";
import { card, checkbox, form, field, button, select, plural, stepper, listOrNone } from "./kit.js";

/** Fills `host` with the table's cards. */
export function renderTable(host, ctx) {
  const t = ctx.table;
  host.append(
    el("div", { class: "mz-grid" }, arcCard(t, ctx), sceneCard(t, ctx, "mz-scene"), diceCard(t, ctx)),
    playersCard(t, ctx),
  );
}

// ---- the arc --------------------------------------------------------------------------------

function arcCard(t, ctx) {
  const first = t.arc === 0;
  return card(
    "mz-arc",
    first ? "Arc" : `Arc ${t.arc}`,
    el(
      "p",
      { id: "mz-arc-status", class: first ? "mz-status" : "mz-status running" },
      first ? "No arc has started yet." : `Arc ${t.arc} is being played.`,
    ),
    el(
      "p",
      { class: "muted", id: "mz-arc-hint" },
      first
        ? "Starting it gives every player 3 influence."
        : "Ending it clears every element's adversity, adversity debt and momentum and the traits that last one arc; the next arc gives every player 3 influence again (influence does not carry over).",
    ),
    button(
      first ? "Start the first arc" : `End arc ${t.arc} and start arc ${t.arc + 1}`,
      (b) => ctx.move("The arc did not start.", () => api.mezzoStartArc(ctx.gameId), b),
      { id: "mz-start-arc", class: first ? "primary" : "", "aria-describedby": "mz-arc-hint", data: { focusKey: "mz-start-arc" } },
    ),
  );
}

/**
 * The scene (RULES.md §3.4, "Scenes"): start and end it, and the characters active in it, as
 * checkboxes stored with the table (each change a move with Undo; ctx.ui.active follows the
 * table). An Actor plays while one they claimed is active, and cannot leave the role then.
 * Ending the scene ends what lasts until the end of the scene on every element. `prefix`
 * keeps ids unique.
 */
export function sceneCard(t, ctx, prefix, onChange = null) {
  const scene = t.scene ?? { open: false, active: [] };
  const checks = t.characters.map((c) => {
    const check = checkbox(c.name, {
      id: `${prefix}-active-${c.id}`,
      class: "mz-active",
      checked: scene.active.includes(c.id),
      data: { characterId: c.id, focusKey: `${prefix}-active-${c.id}` },
    });
    check.box.addEventListener("change", async () => {
      const next = check.box.checked ? [...scene.active.filter((id) => id !== c.id), c.id] : scene.active.filter((id) => id !== c.id);
      const done = await ctx.move("Who is active did not change.", () => api.mezzoSetActive(ctx.gameId, next), null);
      if (done && onChange) onChange();
    });
    return check.node;
  });
  return card(
    prefix,
    scene.open ? "The scene (being played)" : "The scene",
    el(
      "p",
      { id: `${prefix}-status`, class: scene.open ? "mz-status running" : "mz-status" },
      scene.open ? "A scene is being played." : "No scene is being played.",
    ),
    el("p", { class: "mz-cast-title", id: `${prefix}-active-label` }, "Active in the scene"),
    listOrNone(t.characters, "No characters in this game yet (add them on the Story elements tab).", () => el("div", { class: "mz-checks", role: "group", "aria-labelledby": `${prefix}-active-label` }, ...checks)),
    el(
      "p",
      { class: "mz-hint muted", id: `${prefix}-hint` },
      scene.open
        ? "Ending it ends what lasts until the end of the scene on every element: scene-only traits, a Background's phantom edge, protection lent by a Heroic Sacrifice outside a challenge."
        : "A player who claimed an active character plays in the Actor role: 3 free votes on that character's matters, none elsewhere.",
    ),
    button(
      scene.open ? "End the scene" : "Start a scene",
      (b) => ctx.move(scene.open ? "The scene did not end." : "The scene did not start.", () => (scene.open ? api.mezzoEndScene(ctx.gameId) : api.mezzoStartScene(ctx.gameId)), b),
      { id: `${prefix}-toggle`, class: scene.open ? "" : "primary", "aria-describedby": `${prefix}-hint`, data: { focusKey: `${prefix}-toggle` } },
    ),
  );
}

// ---- the table's dice -----------------------------------------------------------------------

const VARIANTS = [
  ["steps", "Step dice (d4 to d12)"],
  ["d6", "D6 variant (d6s only)"],
];

/** How Leave to Chance rolls at the table: action checks and challenge actions follow it. */
function diceCard(t, ctx) {
  const choice = select(VARIANTS, { id: "mz-variant", data: { focusKey: "mz-variant" }, "aria-describedby": "mz-variant-hint" });
  choice.value = t.variant ?? "steps";
  choice.addEventListener("change", () => {
    const want = choice.value;
    ctx.move("The dice did not change.", () => api.mezzoSetDiceVariant(ctx.gameId, want), null);
  });
  return card(
    "mz-dice-variant",
    "Dice",
    field("The table rolls", choice),
    el(
      "p",
      { class: "mz-hint muted", id: "mz-variant-hint" },
      t.variant === "d6"
        ? "D6 variant: every full 6 votes always raise a side's multiplier (keeping them as threshold never gives a better chance), the rest are its burst threshold; after a low first roll its owner may burst. Action checks and challenge actions roll this way."
        : "Step dice: each vote raises a die a size (d4 to d12, then another die). Action checks and challenge actions roll this way.",
    ),
  );
}

// ---- players --------------------------------------------------------------------------------

function playersCard(t, ctx) {
  return card(
    "mz-players",
    "Players",
    listOrNone(t.players, el("p", { class: "muted", id: "mz-players-empty" }, "No players yet. Add the first one below."), () => el("ul", { class: "mz-list mz-cards", id: "mz-player-list" }, ...t.players.map((p) => playerItem(p, t, ctx)))),
    newPlayerForm(ctx),
  );
}

/** `p`'s influence as a one-tap stepper: − spends a point, + gains one (each an undoable move). */
export function influenceStepper(p, ctx, label, id) {
  return stepper({
    label,
    id,
    value: p.influence,
    min: 0,
    onChange: async (next) =>
      (await ctx.move(
        next < p.influence ? "The influence was not spent." : "The influence was not gained.",
        () => (next < p.influence ? api.mezzoSpendInfluence : api.mezzoGainInfluence)(ctx.gameId, p.id, 1),
      )) !== null,
  });
}

function playerItem(p, t, ctx) {
  const nameId = `mz-player-name-${p.id}`;
  const claimable = t.characters.filter((c) => !c.claimed_by);
  return el(
    "li",
    { class: "mz-player", data: { playerId: p.id } },
    el(
      "div",
      { class: "mz-row" },
      el("strong", { class: "mz-name grow", id: nameId }, p.name),
      p.actor && el("span", { class: "mz-badge mz-actor-badge" }, "Actor"),
      el(
        "span",
        { class: "mz-stat" },
        el("span", {}, "Influence "),
        el("strong", { class: "mz-influence", id: `mz-influence-${p.id}` }, String(p.influence)),
      ),
    ),
    p.claimed_names.length > 0
      ? el(
          "ul",
          { class: "mz-claims", "aria-label": `Characters ${p.name} claimed` },
          ...p.claimed.map((id, i) =>
            el(
              "li",
              { class: "mz-claim" },
              el("span", { class: "grow" }, `Claims ${p.claimed_names[i] || "a character"}`),
              button(
                "Give up",
                (b) => ctx.move("The claim was not given up.", () => api.mezzoUnclaim(ctx.gameId, p.id, id), b),
                {
                  class: "mz-unclaim",
                  "aria-label": `Give up: ${p.name} gives up the claim on ${p.claimed_names[i] || "the character"}`,
                  data: { focusKey: `mz-unclaim-${p.id}-${id}` },
                },
              ),
            ),
          ),
        )
      : el("p", { class: "muted mz-claims-none" }, "No claims."),
    influenceStepper(p, ctx, "Influence", `mz-influence-step-${p.id}`),
    p.actor ? claimForm(p, claimable, ctx, nameId) : el("p", { class: "mz-hint muted" }, "Take the Actor role to claim a character."),
    el(
      "div",
      { class: "actions" },
      p.actor
        ? button(
            "Leave the Actor role",
            (b) =>
              ctx.move("The role was not left.", () => api.mezzoLeaveRole(ctx.gameId, p.id, ctx.ui.active), b),
            { class: "mz-leave-role", "aria-describedby": nameId, data: { focusKey: `mz-role-${p.id}` } },
          )
        : button(
            "Take the Actor role",
            (b) => ctx.move("The role was not taken.", () => api.mezzoTakeRole(ctx.gameId, p.id), b),
            { class: "mz-take-role", "aria-describedby": nameId, data: { focusKey: `mz-role-${p.id}` } },
          ),
      button(
        "Rename",
        async () => {
          const name = await askName({ title: "Rename player", current: p.name });
          if (name === null) return;
          ctx.move("The player was not renamed.", () => api.mezzoRenamePlayer(ctx.gameId, p.id, name));
        },
        { class: "mz-rename-player", "aria-describedby": nameId },
      ),
      button(
        "Remove",
        async (b) => {
          const yes = await confirmAction({
            title: `Remove ${p.name} from the table?`,
            message:
              (p.claimed.length > 0 ? "The characters they claimed are no longer claimed. " : "") +
              "You can undo this right after.",
            yes: "Remove player",
          });
          if (yes) ctx.move("The player was not removed.", () => api.mezzoRemovePlayer(ctx.gameId, p.id), b);
        },
        { class: "mz-remove-player danger", "aria-describedby": nameId },
      ),
    ),
  );
}

function claimForm(p, claimable, ctx, nameId) {
  if (claimable.length === 0) {
    return el("p", { class: "mz-hint muted" }, "No character is left to claim.");
  }
  const pick = select(
    claimable.map((c) => [c.id, c.name]),
    { id: `mz-claim-pick-${p.id}`, class: "mz-claim-pick", data: { focusKey: `mz-claim-pick-${p.id}` } },
  );
  return form(
    { class: "mz-form mz-one", "aria-label": `${p.name} claims a character` },
    [
      el("label", { for: pick.id }, "Claim a character"),
      el(
        "div",
        { class: "mz-one-row" },
        pick,
        el("button", { type: "submit", class: "mz-claim-submit", "aria-describedby": nameId }, "Claim"),
      ),
    ],
    (b) => ctx.move("The character was not claimed.", () => api.mezzoClaim(ctx.gameId, p.id, pick.value), b),
  );
}

function newPlayerForm(ctx) {
  const name = el("input", { type: "text", id: "mz-new-player", required: true, maxlength: 120 });
  return form(
    { id: "mz-new-player-form", class: "mz-form mz-one", "aria-label": "New player" },
    [
      el("label", { for: name.id }, "New player"),
      el(
        "div",
        { class: "mz-one-row" },
        name,
        el("button", { type: "submit", id: "mz-new-player-submit", class: "primary" }, "Add player"),
      ),
      el("p", { class: "mz-hint muted" }, `A player joins with ${plural(3, "influence point")}.`),
    ],
    async (b) => {
      const value = name.value.trim();
      if (value === "") return name.focus();
      const done = await ctx.move("The player was not added.", () => api.mezzoAddPlayer(ctx.gameId, value), b);
      if (done) {
        const again = document.getElementById("mz-new-player");
        if (again) again.focus();
      }
    },
  );
}
