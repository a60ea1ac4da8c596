// The Mezzo challenge's rounds: a major action (the acting challengers and the failure side as
// an action check, rolled, typed in or with the scores typed in), and the rest of a round
// (surrender, stakes, a complication, newcomers and goals joining, the round's end).

import { el } from "../../kit/dom.js";
import * as api from "./api.js";
import { CHANCES, nameOf, newMajor, play, playMove, sideLabel, state } from "./challenge-state.js";
import {
  allElements,
  button,
  card,
  checkbox,
  diceWords,
  disclosure,
  field,
  form,
  handDice,
  numberInput,
  plural,
  readCount,
  select,
  handOrRolled,
} from "./kit.js";

// ---- a major action ----------------------------------------------------------------------------------

export function majorCard(ctx, ch) {
  const s = state(ctx);
  const m = s.major;
  const inNow = ch.challengers.filter((c) => c.status === "in");
  for (const c of inNow) {
    // `major` stays null until the table says otherwise: by default an action is the major
    // action of a challenger that has not acted this round.
    m.actors[c.element] = m.actors[c.element] ?? { on: false, chance: "common", major: null };
  }
  const acting = inNow.filter((c) => m.actors[c.element].on);
  const changed = () => {
    m.values = [];
    ctx.render();
  };
  const what = el("input", { type: "text", id: "mzch-major-description", maxlength: 500, data: { focusKey: "mzch-major-description" } });
  what.value = m.description;
  what.addEventListener("input", () => {
    m.description = what.value;
  });
  const actorRows = inNow.map((c) => {
    const a = m.actors[c.element];
    const on = checkbox(`${c.name} acts${c.acted ? " (acted this round)" : ""}`, { id: `mzch-acts-${c.element}`, checked: a.on, data: { focusKey: `mzch-acts-${c.element}` } });
    on.box.addEventListener("change", () => {
      a.on = on.box.checked;
      changed();
    });
    const chance = select(CHANCES, { id: `mzch-chance-${c.element}`, data: { focusKey: `mzch-chance-${c.element}` } });
    chance.value = a.chance;
    chance.addEventListener("change", () => {
      a.chance = chance.value;
      changed();
    });
    const major = checkbox("Its major action this round", { id: `mzch-major-${c.element}`, checked: isMajor(a, c), disabled: c.acted, data: { focusKey: `mzch-major-${c.element}` } });
    major.box.addEventListener("change", () => {
      a.major = major.box.checked;
    });
    return el(
      "li",
      { class: "mzch-actor" },
      on.node,
      a.on && el("div", { class: "mz-fields" }, field(`Base chance for ${c.name}`, chance), major.node),
    );
  });
  const failOn = checkbox("A failure side opposes", { id: "mzch-failure-on", checked: m.failure.on, data: { focusKey: "mzch-failure-on" } });
  failOn.box.addEventListener("change", () => {
    m.failure.on = failOn.box.checked;
    changed();
  });
  const failChance = select(CHANCES, { id: "mzch-failure-chance", data: { focusKey: "mzch-failure-chance" } });
  failChance.value = m.failure.chance;
  failChance.addEventListener("change", () => {
    m.failure.chance = failChance.value;
    changed();
  });
  // On a D6 table each owner chooses a burst after seeing the first roll: that two-step roll
  // is the Action check tab's, so here only the final scores can be typed in.
  const d6 = ctx.table?.variant === "d6";
  if (d6) m.mode = "scores";
  const modes = (d6 ? [["scores", "Type in the scores"]] : [
    ["rolled", "Roll in the app"],
    ["dice", "Type in the dice"],
    ["scores", "Type in the scores"],
  ]).map(([value, label]) => {
    const input = el("input", { type: "radio", name: "mzch-mode", id: `mzch-mode-${value}`, value, checked: m.mode === value, data: { focusKey: `mzch-mode-${value}` } });
    input.addEventListener("change", () => {
      m.mode = value;
      ctx.render();
    });
    return el("label", { class: "mz-radio", for: input.id }, input, el("span", {}, label));
  });
  const sides = majorSides(m, acting);
  let entry = null;
  if (sides.length >= 2 && m.mode === "dice") entry = diceEntry(ctx, m, sides);
  if (sides.length >= 2 && m.mode === "scores") entry = scoreEntry(ctx, m, sides);
  const majors = acting.filter((c) => isMajor(m.actors[c.element], c));
  const ready = sides.length >= 2 && majors.length > 0;
  const pendingNote = s.pending && s.pending.check.phase === "rolled" ? pendingCard(ctx, ch) : null;
  return card(
    "mzch-major",
    "Major action",
    disclosure("How a major action is compared", el("p", { class: "mz-hint muted hint" }, "An action check: each acting challenger is a side; its roll is compared with the highest opposing roll (the failure side and other sides' actions).")),
    field("What is attempted (optional)", what),
    el("fieldset", { class: "mzch-actors" }, el("legend", {}, "Who acts"), el("ul", { class: "mz-list" }, ...actorRows)),
    el(
      "fieldset",
      { class: "mzch-failure" },
      el("legend", {}, "Failure"),
      failOn.node,
      m.failure.on && field("Base chance of failure", failChance),
    ),
    el("fieldset", { class: "mz-approaches mzch-modes" }, el("legend", {}, "The roll"), ...modes),
    d6 &&
      el(
        "p",
        { class: "muted", id: "mzch-d6-note" },
        "This table rolls the D6 variant: roll the major action on the Action check tab, where each owner chooses a burst after the first roll; the check then waits here to be recorded. Or type in the final scores.",
      ),
    sides.length < 2 && el("p", { class: "muted", id: "mzch-major-hint" }, "Choose who acts; with one actor, keep the failure side."),
    entry,
    button(m.mode === "rolled" ? "Roll the major action" : "Record the major action", (b) => recordMajor(ctx, ch, b), {
      id: "mzch-major-submit",
      class: "primary mz-big-button",
      disabled: !ready,
      data: { focusKey: "mzch-major-submit" },
    }),
    pendingNote,
  );
}

const isMajor = (a, c) => !c.acted && (a.major ?? true);

/** The check's sides in the core's order: the actors in the order listed, then the failure. */
function majorSides(m, acting) {
  const sides = acting.map((c) => ({ kind: { kind: "action", element: c.element }, description: "", chance: m.actors[c.element].chance, aptitude: 0, label: c.name }));
  if (m.failure.on) sides.push({ kind: { kind: "failure" }, description: "", chance: m.failure.chance, aptitude: 0, label: "Failure" });
  return sides;
}

function requestOf(m, sides) {
  return {
    setup: {
      description: m.description.trim(),
      sides: sides.map(({ kind, description, chance, aptitude }) => ({ kind, description, chance, aptitude })),
      involved: [],
    },
    casts: [],
    perks: [],
  };
}

/** Boxes for every die of the check, once the core said which dice it rolls. */
function diceEntry(ctx, m, sides) {
  const signature = JSON.stringify(requestOf(m, sides));
  if (m.previewFor !== signature) {
    m.previewFor = signature;
    m.preview = null;
    m.previewError = null;
    api
      .mezzoCheckPreview(ctx.gameId, requestOf(m, sides))
      .then((p) => {
        if (m.previewFor !== signature) return;
        m.preview = p;
        ctx.render();
      })
      .catch((e) => {
        if (m.previewFor !== signature) return;
        m.previewError = e && e.message ? e.message : String(e);
        ctx.render();
      });
  }
  if (m.previewError) return el("p", { class: "mz-problem", id: "mzch-dice-problem" }, m.previewError);
  if (!m.preview) return el("p", { class: "muted" }, "Reading the dice…");
  const p = m.preview;
  if (p.no_check_needed !== null) {
    return el("p", { class: "mz-problem", id: "mzch-dice-problem" }, "A negligible side takes no part and only one is left: no check is needed, so there is nothing to compare. Raise a base chance.");
  }
  const asked = p.dice.flatMap((d, i) => {
    if (!d || d.locked_out) return [];
    const name = sides[i].label;
    return d.dice.map((size, k) => ({ sides: size, label: d.dice.length === 1 ? name : `${name} die ${k + 1}` }));
  });
  const summary = p.dice.map((d, i) => `${sides[i].label}: ${d ? (d.locked_out ? "locked out" : diceWords(d.dice)) : "no part"}`).join(" · ");
  const boxes = handDice(asked, "mzch-die", "Each die's face, in this order", (faces) => {
    m.values = faces;
  }, m.values);
  m.read = boxes.read;
  return el("div", { id: "mzch-dice" }, el("p", { class: "muted", id: "mzch-dice-summary" }, summary), boxes.node);
}

function scoreEntry(ctx, m, sides) {
  const inputs = sides.map((side, i) => {
    const key = side.kind.kind === "action" ? side.kind.element : "failure";
    const input = numberInput({ id: `mzch-score-${key}`, min: 1, max: 99, required: true, data: { focusKey: `mzch-score-${key}` } });
    if (m.scores[key] !== undefined) input.value = String(m.scores[key]);
    input.addEventListener("input", () => {
      m.scores[key] = input.value;
    });
    return field(`${side.label}'s score`, input, null, "field mz-die-field");
  });
  return el("fieldset", { class: "mz-hand-dice", id: "mzch-scores" }, el("legend", {}, "Each side's score (its highest die, plus Sudden Surges)"), el("div", { class: "mz-die-fields" }, ...inputs));
}

async function recordMajor(ctx, ch, b) {
  const s = state(ctx);
  const m = s.major;
  const inNow = ch.challengers.filter((c) => c.status === "in");
  const acting = inNow.filter((c) => m.actors[c.element]?.on);
  const sides = majorSides(m, acting);
  const majors = acting.filter((c) => isMajor(m.actors[c.element], c)).map((c) => c.element);
  const reset = () => {
    s.major = { ...newMajor(), mode: m.mode, failure: { ...m.failure } };
  };
  if (m.mode === "scores") {
    const rolls = [];
    for (const side of sides) {
      const key = side.kind.kind === "action" ? side.kind.element : "failure";
      const input = document.getElementById(`mzch-score-${key}`);
      const score = input ? readCount(input, 1, 999) : null;
      if (score === null) return;
      rolls.push({ kind: side.kind, score });
    }
    const done = await playMove(ctx, "The major action was not recorded.", { move: "major_actions", rolls, majors }, b, reset);
    if (done) ctx.render(focusAfterMajor());
    return;
  }
  const dice = handOrRolled(m.mode === "dice", m.read);
  if (!dice) return;
  const done = await play(ctx, "The major action was not rolled.", () => api.mezzoChallengeRollMajors(ctx.gameId, requestOf(m, sides), majors, dice), b, reset);
  if (done) ctx.render(focusAfterMajor());
}

const focusAfterMajor = () => "#mzch-status-heading";

/** A check rolled on the Action check tab (with its casts and perks) waits: record it here. */
function pendingCard(ctx, ch) {
  const s = state(ctx);
  const check = s.pending.check;
  const actors = check.sides.filter((x) => x.kind.kind === "action" && !x.dropped).map((x) => x.kind.element);
  const eligible = ch.challengers.filter((c) => c.status === "in" && !c.acted && actors.includes(c.element));
  if (eligible.length === 0) return null;
  const boxes = eligible.map((c) => checkbox(`${c.name}'s major action`, { id: `mzch-pending-major-${c.element}`, checked: true }));
  return el(
    "div",
    { class: "mzch-pending", id: "mzch-pending" },
    el("h4", {}, "The check rolled on the Action check tab"),
    el("p", { class: "muted" }, `${check.description || "Action check"}: ${check.sides.map((x) => `${x.kind.kind === "action" ? nameOf(ctx, x.kind.element) : "Failure"} ${x.roll ? x.roll.highest : "—"}`).join(" · ")}`),
    el("div", { class: "mz-checks" }, ...boxes.map((x) => x.node)),
    button(
      "Record it as major actions",
      async (b) => {
        const majors = eligible.filter((_, i) => boxes[i].box.checked).map((c) => c.element);
        const done = await play(ctx, "The check was not recorded.", () => api.mezzoChallengeResolveMajors(ctx.gameId, [], majors), b, () => {
          s.pending = null;
        });
        if (done) ctx.render(focusAfterMajor());
      },
      { id: "mzch-pending-submit" },
    ),
  );
}

// ---- the rest of a round ----------------------------------------------------------------------------

export function roundCard(ctx, ch) {
  const inNow = ch.challengers.filter((c) => c.status === "in");
  const who = (id) => select(inNow.map((c) => [c.element, c.name]), { id, data: { focusKey: id } });

  const quitter = who("mzch-surrender-who");
  const surrender = form({ id: "mzch-surrender-form", "aria-label": "Surrender" }, [
    field("Who surrenders", quitter, "Takes its major action, unless it just gained a wound or restraint."),
    el("button", { type: "submit", class: "danger", id: "mzch-surrender" }, "Surrender"),
  ], (b) => playMove(ctx, "The challenger did not surrender.", { move: "surrender", challenger: quitter.value }, b));

  const changer = who("mzch-stakes-who");
  const newStake = el("input", { type: "text", id: "mzch-stakes-text", maxlength: 500 });
  const joining = select(
    [["", "Stays on its side"], ...ch.sides.filter((x) => x.still_in > 0).map((x) => [String(x.side), `Joins ${sideLabel(ch, x.side)}`]), ["new", "Starts a new side"]],
    { id: "mzch-stakes-side" },
  );
  const newSide = el("input", { type: "text", id: "mzch-stakes-new-side", maxlength: 200 });
  const stakes = form({ id: "mzch-stakes-form", "aria-label": "Change stakes" }, [
    el("div", { class: "mz-fields" }, field("Who", changer), field("New stake", newStake), field("Side", joining), field("New side's name (if new)", newSide)),
    el("button", { type: "submit", id: "mzch-stakes-submit" }, "Change stakes"),
  ], (b) => {
    const j = joining.value === "" ? null : joining.value === "new" ? { kind: "new_side", name: newSide.value.trim() } : { kind: "side", side: Number(joining.value) };
    playMove(ctx, "The stakes were not changed.", { move: "change_stakes", challenger: changer.value, stake: newStake.value, joining: j }, b);
  });

  const trumpSelects = ch.goals
    .filter((g) => g.trumps > 0 && !g.triggered)
    .map((g) => {
      // Using an effect spends a trump per challenger it moves; trumps kept trigger a boost
      // when the goal's supporters are all gone.
      const supporters = g.supporters.filter((id) => inNow.some((c) => c.element === id)).length;
      const opponents = inNow.filter((c) => c.side !== g.side).length;
      const s = select(
        [
          ["", `${g.name}: no trump effect`],
          ["victorious_withdrawal", `${g.name}: Victorious Withdrawal (its supporters leave in victory; spends ${plural(supporters, "trump")})`],
          ["defeated_exile", `${g.name}: Defeated Exile (its opponents leave in defeat; spends ${plural(opponents, "trump")})`],
        ],
        { id: `mzch-trump-${g.element}`, data: { goal: g.element } },
      );
      return { g, s };
    });
  const end = form({ id: "mzch-end-round-form", "aria-label": "End the round" }, [
    ...trumpSelects.map(({ g, s }) => field(`Trumps of ${g.name} (${g.trumps})`, s)),
    el("button", { type: "submit", class: "primary", id: "mzch-end-round" }, `End round ${ch.round}`),
  ], (b) => {
    const trumps = trumpSelects.filter(({ s }) => s.value !== "").map(({ g, s }) => ({ kind: s.value, goal: g.element }));
    playMove(ctx, "The round did not end.", { move: "end_round", trumps }, b);
  });

  const parts = [
    el("h4", {}, "End the round"),
    end,
    el("h4", {}, "Surrender"),
    surrender,
    el("h4", {}, "Change stakes (in place of a major action)"),
    stakes,
  ];
  if (ch.counterable.length > 0) {
    const goal = select(ch.counterable.map((p) => [p.goal, nameOf(ctx, p.goal)]), { id: "mzch-complicate-goal" });
    const text = el("input", { type: "text", id: "mzch-complicate-text", maxlength: 500 });
    parts.push(
      el("h4", {}, "A complication"),
      form({ id: "mzch-complicate-form", "aria-label": "A complication" }, [
        el("div", { class: "mz-fields" }, field("The Push on", goal), field("Why the task is not finished yet", text)),
        el("button", { type: "submit", id: "mzch-complicate" }, "Counter the Push"),
      ], (b) => playMove(ctx, "The complication was refused.", { move: "complicate", goal: goal.value, text: text.value }, b)),
    );
  }
  parts.push(joinForms(ctx, ch));
  return card("mzch-round-moves", "The round", ...parts);
}

/** A newcomer joins, or a goal is added (inside a closed disclosure: rarely needed). */
function joinForms(ctx, ch) {
  const s = state(ctx);
  const taking = new Set([...ch.challengers.map((c) => c.element), ...ch.goals.map((g) => g.element)]);
  const free = allElements(ctx.table).filter((e) => !taking.has(e.id));
  const newcomers = free.filter((e) => e.kind !== "goal");
  const goals = free.filter((e) => e.kind === "goal");
  const parts = [];
  if (newcomers.length > 0) {
    const who = select(newcomers.map((e) => [e.id, e.name]), { id: "mzch-join-who" });
    const side = select([...ch.sides.filter((x) => x.still_in > 0).map((x) => [String(x.side), sideLabel(ch, x.side)]), ["new", "A new side"]], { id: "mzch-join-side" });
    const newName = el("input", { type: "text", id: "mzch-join-new-side", maxlength: 200 });
    const stake = el("input", { type: "text", id: "mzch-join-stake", maxlength: 500 });
    parts.push(
      form({ id: "mzch-join-form", "aria-label": "A challenger joins" }, [
        el("div", { class: "mz-fields" }, field("Who joins", who), field("Side", side), field("New side's name (if new)", newName), field("Stake (optional)", stake)),
        el("button", { type: "submit", id: "mzch-join" }, "Join the challenge"),
      ], (b) => {
        const joining = side.value === "new" ? { kind: "new_side", name: newName.value.trim() } : { kind: "side", side: Number(side.value) };
        const text = stake.value.trim();
        playMove(ctx, "The challenger did not join.", { move: "add_challenger", element: who.value, joining, stake: text ? text : null }, b);
      }),
    );
  }
  if (goals.length > 0) {
    const goal = select(goals.map((e) => [e.id, e.name]), { id: "mzch-goal-which" });
    const inNow = ch.challengers.filter((c) => c.status === "in");
    const boxes = inNow.map((c) => checkbox(c.name, { id: `mzch-goal-supporter-${c.element}` }));
    parts.push(
      form({ id: "mzch-goal-form", "aria-label": "A goal" }, [
        field("Goal", goal),
        el("fieldset", {}, el("legend", {}, "Supported by (one side)"), el("div", { class: "mz-checks" }, ...boxes.map((x) => x.node))),
        el("button", { type: "submit", id: "mzch-add-goal" }, "Add the goal"),
      ], (b) => {
        const supporters = inNow.filter((_, i) => boxes[i].box.checked).map((c) => c.element);
        playMove(ctx, "The goal was not added.", { move: "add_goal", element: goal.value, supporters }, b);
      }),
    );
  }
  if (parts.length === 0) return null;
  const details = el("details", { class: "mzch-more", id: "mzch-more", open: s.moreOpen ?? false }, el("summary", {}, "A newcomer or a goal"), ...parts);
  details.addEventListener("toggle", () => {
    if (details.isConnected) s.moreOpen = details.open;
  });
  return details;
}
