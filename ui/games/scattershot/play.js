// The Scattershot mechanical play tab (RULES.md §4.4): a round and turn tracker.
//
// - Starting: who called for mechanical play (its character acts first), the characters at
//   the table in their seating going to the right, who plays whom, and whether the game is
//   cinematic (free actions of a kind may repeat).
// - Running: the round and whose turn it is with the immediate actions left; that character's
//   immediate actions, a flurry, restoring the free actions, the end of its turn; free actions
//   for anyone; forfeiting an action to react when engaged; each character's engagement and
//   the combat advantages it holds (seized, held, checked or upset by the foe); the Scope
//   reminder when the non-player characters are as many as the players' or more; and the
//   lull, which ends mechanical play (results landed when their rolls concluded; residual
//   modifiers that lasted until now end).
//
//   import { renderPlay } from "./play.js";
//   renderPlay(host, ctx);   // ctx from screen.js

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { button, card, checkbox, field, form, numberInput, plural, readCount, resourceWord, select, signed } from "./kit.js";

/** Fills `host` with the tracker, or the form that starts mechanical play. */
export function renderPlay(host, ctx) {
  const play = ctx.table.play;
  if (!play) {
    host.append(startCard(ctx));
    return;
  }
  if (play.scope_shift) host.append(scopeNote(play));
  host.append(turnCard(play, ctx), combatantsCard(play, ctx), lullCard(play, ctx));
}

/** The seed's reminder, from the core's count of non-player characters in the fight. */
function scopeNote(play) {
  return el(
    "p",
    { class: "sc-scope-note", id: "sc-play-scope", role: "note" },
    `${plural(play.npcs, "non-player character")} against ${plural(play.players, "player")}: shift the Scope up at least one level.`,
  );
}

function playMove(ctx, title, stepMove, b) {
  return ctx.move(title, () => api.scattershotPlay(ctx.gameId, stepMove), b);
}

// ---- starting ----------------------------------------------------------------------------------

function startCard(ctx) {
  const t = ctx.table;
  if (t.characters.length === 0) {
    return card(
      "sc-play-start",
      "Mechanical play",
      el("p", { class: "muted" }, "Make characters first, with the games layout's New character form."),
    );
  }
  const caller = select(
    t.characters.map((c) => [c.id, c.name]),
    { id: "sc-play-caller" },
  );
  const rows = t.characters.map((c) => {
    const { box, node } = checkbox(c.name, { id: `sc-play-seat-${c.id}` });
    box.checked = true;
    const player = select([["", "Its own player"], ...t.characters.filter((o) => o.id !== c.id).map((o) => [o.id, `${o.name}'s player`])], {
      id: `sc-play-player-${c.id}`,
      "aria-label": `Who plays ${c.name}`,
    });
    return { c, box, player, node: el("li", { class: "sc-seat" }, node, player) };
  });
  const cinematic = checkbox("Cinematic: free actions of a kind may repeat in a round", { id: "sc-play-cinematic" });
  return card(
    "sc-play-start",
    "Start mechanical play",
    el(
      "p",
      { class: "muted" },
      "The character whose player called for mechanical play acts first; play then passes to the right. Each turn has 2 immediate actions.",
    ),
    form(
      { id: "sc-play-start-form" },
      [
        field("Called for by", caller),
        el(
          "fieldset",
          { class: "sc-fieldset" },
          el("legend", {}, "At the table, in seating order going to the right"),
          el("ol", { class: "sc-seats" }, ...rows.map((r) => r.node)),
        ),
        el("div", { class: "mz-row" }, cinematic.node),
        el("button", { type: "submit", id: "sc-play-start-submit", class: "primary" }, "Start mechanical play"),
      ],
      (b) => {
        const seating = rows
          .filter((r) => r.box.checked)
          .map((r) => (r.player.value ? { character: r.c.id, player: r.player.value } : { character: r.c.id }));
        playMove(ctx, "Mechanical play did not start.", { move: "start", caller: caller.value, seating, cinematic: cinematic.box.checked }, b);
      },
    ),
  );
}

// ---- the turn ----------------------------------------------------------------------------------

function turnCard(play, ctx) {
  const current = play.combatants.find((c) => c.character === play.current);
  const name = current ? current.name : "someone";
  const length = numberInput({ id: "sc-play-flurry-length", min: 2, max: ctx.table.settings.epic_index, value: 2, class: "sc-small" });
  const who = select(
    play.combatants.map((c) => [c.character, c.name]),
    { id: "sc-play-free-who" },
  );
  who.value = ctx.ui.freeWho && play.combatants.some((c) => c.character === ctx.ui.freeWho) ? ctx.ui.freeWho : play.current;
  who.addEventListener("change", () => {
    ctx.ui.freeWho = who.value;
  });
  const kind = el("input", { type: "text", id: "sc-play-free-kind", maxlength: 200, placeholder: "e.g. a shout, a step" });
  return card(
    "sc-play-turn",
    `Round ${play.round}`,
    el(
      "p",
      { class: "sc-turn", id: "sc-play-current" },
      `${name}'s turn: `,
      el("strong", { id: "sc-play-actions-left" }, plural(play.actions_left, "immediate action")),
      " left",
      play.cinematic ? " (cinematic)" : "",
    ),
    el(
      "div",
      { class: "mz-row sc-turn-actions" },
      button("Take an immediate action", (b) => playMove(ctx, "The action was not taken.", { move: "action", character: play.current, action: { kind: "immediate" } }, b), {
        id: "sc-play-action",
        class: "primary",
        data: { focusKey: "sc-play-action" },
      }),
      button(`Roll for ${name}`, () => {
        ctx.ui.roll.actor.character = play.current;
        ctx.switchTab("roll", { focus: "#sc-roll-actor" });
      }, { id: "sc-play-roll" }),
      button("End the turn", (b) => playMove(ctx, "The turn did not end.", { move: "end_turn" }, b), {
        id: "sc-play-end-turn",
        data: { focusKey: "sc-play-end-turn" },
      }),
    ),
    form(
      { class: "mz-form mz-one", "aria-label": "A flurry of following actions" },
      [
        el("label", { for: length.id }, `A flurry of following actions, counted as one (2 to ${ctx.table.settings.epic_index} long)`),
        el("div", { class: "mz-one-row" }, length, el("button", { type: "submit", id: "sc-play-flurry" }, "Take a flurry")),
      ],
      (b) => {
        const n = readCount(length, 2, ctx.table.settings.epic_index);
        if (n !== null) playMove(ctx, "The flurry was not taken.", { move: "action", character: play.current, action: { kind: "flurry", length: n } }, b);
      },
    ),
    button(
      "Spend an action to restore the free actions",
      (b) => playMove(ctx, "The free actions were not restored.", { move: "action", character: play.current, action: { kind: "restore_free_actions" } }, b),
      { id: "sc-play-restore" },
    ),
    form(
      { id: "sc-play-free-form", "aria-label": "A free action" },
      [
        el("h4", {}, `Free actions (up to ${ctx.table.settings.epic_index} a round, on anyone's turn)`),
        el("div", { class: "sc-grid" }, field("Who", who), field("What kind", kind)),
        el("button", { type: "submit", id: "sc-play-free" }, "Take a free action"),
      ],
      (b) => {
        if (kind.value.trim() === "") {
          kind.setAttribute("aria-invalid", "true");
          kind.focus();
          return;
        }
        playMove(ctx, "The free action was not taken.", { move: "free_action", character: who.value, kind: kind.value.trim() }, b);
      },
    ),
  );
}

// ---- who is at the table ---------------------------------------------------------------------------

function combatantsCard(play, ctx) {
  return card(
    "sc-play-combatants",
    "Turn order, engagements and combat advantages",
    el(
      "p",
      { class: "muted" },
      `Each advantage held against a foe is −1 to all its rolls, at most ${ctx.table.settings.epic_index} (the Epic Index). Engaging someone else erases those held.`,
    ),
    el("ol", { class: "sc-combatants" }, ...play.combatants.map((c, i) => combatantRow(c, i, play, ctx))),
  );
}

function combatantRow(c, index, play, ctx) {
  const nameOf = (id) => play.combatants.find((o) => o.character === id)?.name ?? ctx.nameOf(id);
  const turn = index === play.turn;
  const foe = select(
    [["", "Nobody"], ...play.combatants.filter((o) => o.character !== c.character).map((o) => [o.character, o.name])],
    { class: "sc-engage-foe", "aria-label": `Whom ${c.name} engages`, data: { focusKey: `sc-engage-foe-${c.character}` } },
  );
  foe.value = c.engaged ?? "";
  const facts = [
    c.engaged ? `engages ${nameOf(c.engaged)}` : "engages nobody",
    c.advantages > 0 && `holds ${plural(c.advantages, "advantage")} against ${nameOf(c.engaged)}`,
    c.penalty < 0 && `${signed(c.penalty)} to its rolls`,
    c.reduced_penalty < 0 && `${signed(c.reduced_penalty)} for reduced resources, until the lull`,
    // What the fight has done to its resources shows now, though it counts only from the lull.
    c.lull_penalty !== (c.reduced_penalty ?? 0) &&
      (c.lull_penalty < 0 ? `${signed(c.lull_penalty)} for reduced resources from the lull` : "no penalty for reduced resources from the lull"),
    `${plural(c.free_actions_left, "free action")} left${c.second_cycle ? " (second cycle)" : ""}`,
    c.forfeits > 0 && `forfeited ${c.forfeits} this round`,
    c.forfeited > 0 && `${c.forfeited} fewer next turn`,
  ].filter(Boolean);
  const actions = [
    el("div", { class: "mz-one-row" }, foe, button("Engage", (b) => playMove(ctx, "The engagement did not change.", { move: "engage", character: c.character, foe: foe.value || null }, b), {
      class: "sc-engage",
      "aria-label": `Engage: ${c.name} engages the one chosen`,
    })),
  ];
  if (c.engaged) {
    const foeName = nameOf(c.engaged);
    const gain = c.advantages === 0 ? "seize" : "hold";
    actions.push(
      button(
        c.advantages === 0 ? `Seize an advantage over ${foeName}` : `Hold one more over ${foeName}`,
        (b) => playMove(ctx, "No advantage was gained.", { move: "advantage", holder: c.character, foe: c.engaged, gain }, b),
        { class: "sc-seize primary", data: { focusKey: `sc-seize-${c.character}` } },
      ),
    );
    if (c.advantages > 0) {
      actions.push(
        button(`${foeName} checks one`, (b) => playMove(ctx, "The advantage was not checked.", { move: "check", by: c.engaged, holder: c.character, check: "check" }, b), {
          class: "sc-check",
          data: { focusKey: `sc-check-${c.character}` },
        }),
        button(`${foeName} upsets them all`, (b) => playMove(ctx, "The advantages were not upset.", { move: "check", by: c.engaged, holder: c.character, check: "upset" }, b), {
          class: "sc-upset",
        }),
      );
    }
  }
  const engagedByCurrent = play.combatants[play.turn]?.engaged === c.character;
  if (!turn && engagedByCurrent) {
    actions.push(
      button("Forfeit an action to react", (b) => playMove(ctx, "No action was forfeited.", { move: "forfeit", character: c.character }, b), {
        class: "sc-forfeit",
      }),
    );
  }
  return el(
    "li",
    { class: `sc-combatant${turn ? " sc-current" : ""}`, data: { characterId: c.character } },
    el("p", { class: "sc-combatant-name" }, el("strong", {}, c.name), turn ? " — this turn" : ""),
    el("p", { class: "sc-combatant-facts" }, facts.join(" · ")),
    el("div", { class: "sc-combatant-actions" }, ...actions),
  );
}

// ---- the lull ----------------------------------------------------------------------------------

function lullCard(play, ctx) {
  // With the table's rule for reduced resources, each combatant's penalty is the one it began
  // the fight with; the lull sets it anew from what it holds then (RULES.md §4.3).
  const reduced = (ctx.table.game.table_settings.low_resource_percent ?? 0) > 0
    ? " The penalties for reduced resources are set anew then, from what each character holds."
    : "";
  return card(
    "sc-play-lull",
    "The lull",
    play.pending.length === 0
      ? el(
          "p",
          { class: "muted", id: "sc-play-pending-none" },
          `Results land when their rolls conclude, so nothing waits here. Ending mechanical play ends the residual modifiers that last until then.${reduced}`,
        )
      : el(
          "ul",
          { id: "sc-play-pending", "aria-label": "Results waiting for the lull" },
          ...play.pending.map((p) => el("li", {}, `${p.name} loses ${p.amount} ${resourceWord(p.resource)}`)),
        ),
    button("End mechanical play (the lull)", (b) => playMove(ctx, "Mechanical play did not end.", { move: "end" }, b), {
      id: "sc-play-end",
      class: "primary",
    }),
  );
}
