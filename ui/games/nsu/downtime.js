// The downtime screen of a No Stone Unturned game (RULES.md §1.4): start a phase, roll the
// complication for the location just left, then each character's free actions and
// downtime actions, the final boxes they owe, and the end of the phase. It also exports the
// small form parts the world screen shares (dice typed in or rolled, mood and aspect picks).
//
//   import { renderDowntime, diceControl } from "./downtime.js";
//   renderDowntime(host, { game, world, downtime, lastEvents, move, reload });   // reload(): the tab anew
//   // move(title, () => api.nsuDowntime…(…), "toast words") runs one undoable change.
//
// Every number a move will use is shown next to its button; what the move did is listed
// under "What happened" in words.

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { ASPECT_WORDS, MOOD_LINE_DICE, cardBackWords } from "./words.js";
import { complicationTable, complicationWords, openReference } from "./reference.js";
import { openRollWizard } from "./roll.js";

const ASPECTS = ["body", "mind", "heart"];
const SENTIMENT_WORDS = { connected: "connected", at_risk: "at risk", lost: "lost" };
const ACTION_WORDS = {
  long_term_project: "Long-term project",
  reconnect: "Reconnect with sentiments",
  introspection: "Introspection",
  address_collateral: "Address collateral",
  train_skills: "Train skills",
  seek_recovery: "Seek recovery",
  scout: "Scout",
};

// ---- shared form parts ------------------------------------------------------------------

let serial = 0;
/** A fresh id for a label/control pair inside re-rendered forms. */
export const uid = (prefix) => `${prefix}-${++serial}`;

/** A labelled field: `<div class="field"><label>…</label>control</div>`. */
export function field(label, control, cls = "field") {
  if (!control.id) control.id = uid("f");
  return el("div", { class: cls }, el("label", { for: control.id }, label), control);
}

/** A checkbox with its label on the right. */
export function checkbox(label, attrs = {}) {
  const box = el("input", { type: "checkbox", id: uid("c"), ...attrs });
  return { box, node: el("label", { class: "check", for: box.id }, box, ` ${label}`) };
}

/** A project clock's size: the usual 4, 6 or 8 first, then any other from 2 to 12. */
export function projectSizeSelect(attrs = {}) {
  return select([4, 6, 8, 2, 3, 5, 7, 9, 10, 11, 12].map((n) => [String(n), `${n} segments`]), attrs);
}

export function select(options, attrs = {}) {
  return el("select", attrs, ...options.map(([value, text]) => el("option", { value }, text)));
}

/**
 * Dice a move asks for: one number box per die ("Danger (d4)", …) and two buttons, "Roll"
 * (the app rolls) and "Use typed dice" (the boxes filled in, in order). `onDice` gets a
 * DiceInput. Boxes left empty are not sent, so optional dice can stay blank; a face outside
 * 1…sides is refused here, at its box, before anything is sent.
 */
export function diceControl(dice, onDice, { rollLabel = "Roll", cls = "" } = {}) {
  const inputs = dice.map(({ label, sides }) =>
    el("input", {
      type: "number",
      inputmode: "numeric",
      min: 1,
      max: sides,
      class: "die-input",
      "aria-label": `${label} (d${sides}), as rolled by hand`,
      placeholder: `d${sides}`,
    }),
  );
  const typed = () => {
    const values = inputs.map((i) => i.value.trim()).filter((v) => v !== "").map(Number);
    return { kind: "entered", values };
  };
  const sendTyped = () => {
    const wrong = inputs.find((i) => !i.checkValidity());
    if (wrong) {
      wrong.reportValidity();
      wrong.focus();
      return;
    }
    onDice(typed());
  };
  return el(
    "div",
    { class: `dice-control ${cls}`.trim() },
    el(
      "div",
      { class: "dice-inputs" },
      ...dice.map(({ label, sides }, i) =>
        el("label", { class: "die-field" }, el("span", {}, `${label} (d${sides})`), inputs[i]),
      ),
    ),
    el(
      "div",
      { class: "actions" },
      el("button", { type: "button", class: "dice-roll", on: { click: () => onDice({ kind: "rolled" }) } }, rollLabel),
      el("button", { type: "button", class: "dice-enter", on: { click: sendTyped } }, "Use typed dice"),
    ),
  );
}

const dieOf = (text) => (text ? Number(String(text).replace("d", "")) : null);

/**
 * A diceControl whose dice follow other fields (an aspect or a mood picked, a helper):
 * `specs()` gives the dice now; `refresh()` rebuilds the boxes when they changed.
 */
function followingDice(specs, onDice, options) {
  const host = el("div", { class: "following-dice" });
  let shown = "";
  const refresh = () => {
    const now = specs();
    const key = JSON.stringify(now);
    if (key === shown) return;
    shown = key;
    host.replaceChildren(diceControl(now, onDice, options));
  };
  refresh();
  return { node: host, refresh };
}

/** The die of `aspect` on `sheet` ("Body die", 6), or a d8 while creation has not set it. */
function aspectSpec(sheet, aspect, label = `${ASPECT_WORDS[aspect]} die`) {
  return { label, sides: aspectDie(sheet, aspect) ?? 8 };
}

/** "Curious (d8, level 3 of 9)" or "empty d6 line". */
function moodWords(sheet, line) {
  const mood = sheet.moods[line];
  const die = MOOD_LINE_DICE[line];
  if (!mood) return `empty d${die} line`;
  return `${mood.name} (d${die}, level ${mood.level} of ${die + 1}${mood.overloaded ? ", overloaded" : ""})`;
}

/** A mood choice: an existing mood, or a new one named on an empty line. */
function moodPicker(sheet, label = "Mood") {
  const options = sheet.moods.map((_, line) => [String(line), moodWords(sheet, line)]);
  const pick = select(options, { class: "mood-pick" });
  const name = el("input", { type: "text", class: "mood-new-name", placeholder: "name of the new mood" });
  const nameField = field("New mood's name", name);
  const sync = () => {
    nameField.hidden = sheet.moods[Number(pick.value)] !== null;
  };
  pick.addEventListener("change", sync);
  sync();
  return {
    node: el("div", { class: "pair" }, field(label, pick), nameField),
    line: () => Number(pick.value),
    value() {
      const line = Number(pick.value);
      return sheet.moods[line] ? { line } : { new: { line, name: name.value.trim() } };
    },
  };
}

function skillOptions(sheet, none = "No skill") {
  return [["", none], ...sheet.skills.flatMap((s, i) => (s ? [[String(i), `${s.name} (+${s.modifier})`]] : []))];
}

const optionalLine = (value) => (value === "" ? null : Number(value));

// ---- the view -------------------------------------------------------------------------------

/** Renders the downtime screen into `host` (see the usage comment on top). */
export function renderDowntime(host, ctx) {
  const { downtime } = ctx;
  const phase = downtime ? downtime.phase : null;
  const parts = [];
  if (ctx.lastEvents.length > 0) parts.push(resultsBox(ctx));
  if (!phase) parts.push(startForm(ctx));
  else {
    parts.push(phaseSummary(ctx, phase));
    parts.push(complicationSection(ctx, phase));
    if (phase.collateral_attempts.length > 0) parts.push(attemptsSection(ctx, phase));
    for (const view of downtime.characters) parts.push(characterCard(ctx, phase, view));
    parts.push(
      el(
        "div",
        { class: "actions end-phase" },
        el(
          "button",
          {
            type: "button",
            id: "downtime-end",
            class: "primary",
            on: { click: () => ctx.move("The downtime phase did not end.", () => api.nsuDowntimeEnd(ctx.game.id), "Downtime ended.") },
          },
          "End the downtime phase",
        ),
      ),
    );
  }
  host.replaceChildren(...parts);
}

function nameOf(ctx, id) {
  const c = ctx.game.characters.find((c) => c.id === id);
  return c ? c.name : "a character no longer here";
}

function locationName(ctx, id) {
  const l = ctx.world.locations.find((l) => l.id === id);
  return l ? l.name : "a location no longer here";
}

function startForm(ctx) {
  const picks = ctx.game.characters.map((c) => ({ id: c.id, ...checkbox(c.name, { checked: true, class: "downtime-who", value: c.id }) }));
  const home = checkbox("At home (or somewhere safe): everyone gains 1 recovery point", { id: "downtime-at-home" });
  home.box.id = "downtime-at-home";
  home.node.setAttribute("for", "downtime-at-home");
  const units = el("input", { type: "number", id: "downtime-time-units", min: 0, max: 20, value: 0, inputmode: "numeric" });
  // The location just left is where the party is (the World tab moves it); downtime at home
  // brings the party home, camped elsewhere it stays there.
  const here = ctx.world.party_at ? ctx.world.locations.find((l) => l.id === ctx.world.party_at) : null;
  const left = here
    ? el("p", { id: "downtime-just-left", class: "just-left" }, `Leaving ${here.name} (${here.collateral} of 8 collateral): its complication is rolled first. At home the party goes home; camped elsewhere it stays there.`)
    : el("p", { id: "downtime-just-left", class: "just-left muted" }, "The party is at home: no location was just left, so no complication is rolled for one.");
  const form = el(
    "form",
    {
      id: "downtime-start-form",
      class: "stack",
      autocomplete: "off",
      on: {
        submit: (event) => {
          event.preventDefault();
          const characters = picks.filter((p) => p.box.checked).map((p) => p.id);
          const setup = { at_home: home.box.checked, time_units: Number(units.value || 0) };
          ctx.move("Downtime did not start.", () => api.nsuDowntimeStart(ctx.game.id, characters, setup), "Downtime started.");
        },
      },
    },
    el("fieldset", {}, el("legend", {}, "Who rests"), ...(picks.length ? picks.map((p) => p.node) : [el("p", { class: "muted" }, "This game has no characters yet.")])),
    home.node,
    field("Extra time units (each: one more action each, one more complication roll)", units),
    left,
    el("button", { type: "submit", id: "downtime-start", class: "primary" }, "Start downtime"),
  );
  return el("section", { class: "card" }, el("h3", {}, "Start a downtime phase"), form);
}

function phaseSummary(ctx, phase) {
  const bits = [phase.at_home ? "At home" : "Away from home", `${phase.time_units} extra time unit${phase.time_units === 1 ? "" : "s"}`];
  if (phase.just_left) bits.push(`just left ${locationName(ctx, phase.just_left)}`);
  return el("p", { id: "downtime-summary", class: "summary" }, bits.join(" · "));
}

function complicationSection(ctx, phase) {
  const section = el("section", { class: "card", id: "downtime-complications" }, el("h3", {}, "Complications"));
  const roll = (location, dice) =>
    ctx.move("The complication was not rolled.", () => api.nsuDowntimeComplication(ctx.game.id, location, dice), "Complication rolled.");
  if (phase.just_left && !phase.just_left_rolled) {
    const loc = ctx.world.locations.find((l) => l.id === phase.just_left);
    const ticks = loc ? loc.collateral : 0;
    section.append(el("p", { class: "first" }, `First, before anything else: ${locationName(ctx, phase.just_left)} has ${ticks} of 8 collateral ticks.`));
    if (ticks === 0) {
      section.append(
        el("p", { class: "muted" }, "A clock at 0 brings no complication."),
        el("button", { type: "button", class: "complication-none", on: { click: () => roll(phase.just_left, { kind: "rolled" }) } }, "Note: no complication"),
      );
    } else {
      section.append(
        complicationPreview(ticks),
        diceControl([{ label: "Complication", sides: 6 }], (d) => roll(phase.just_left, d), { rollLabel: "Roll d6", cls: "complication-dice" }),
      );
    }
    // What comes after this roll is owed too: the phase cannot end before it.
    if (phase.extra_complications_left > 0) section.append(el("p", { id: "downtime-extra-owed" }, `Then ${extraRolls(phase)}.`));
    return section;
  }
  if (phase.extra_complications_left > 0) {
    const revealed = ctx.world.locations.filter((l) => l.revealed);
    section.append(el("p", { id: "downtime-extra-owed" }, `${extraRolls(phase)}.`));
    if (revealed.length === 0) section.append(el("p", { class: "muted" }, "No location is revealed yet."));
    else {
      const where = select(revealed.map((l) => [l.id, `${l.name} — ${l.collateral} of 8`]), { class: "extra-location" });
      const preview = el("div", { class: "extra-preview" });
      const showTable = () => preview.replaceChildren(complicationPreview(revealed.find((l) => l.id === where.value)?.collateral ?? 0));
      where.addEventListener("change", showTable);
      showTable();
      section.append(field("Location", where), preview, diceControl([{ label: "Complication", sides: 6 }], (d) => roll(where.value, d), { rollLabel: "Roll d6" }));
    }
  } else {
    section.append(el("p", { class: "muted" }, "No complication roll is due."));
  }
  return section;
}

/** "2 extra complication rolls due, …": one per extra time unit (RULES §1.4). */
function extraRolls(phase) {
  const n = phase.extra_complications_left;
  return `${n} extra complication roll${n === 1 ? "" : "s"} due (one per extra time unit), on revealed locations of the table's choice`;
}

/** The table a location's ticks roll on, shown before its d6 is rolled; all three are a tap away. */
function complicationPreview(ticks) {
  const table = complicationTable(ticks);
  return el(
    "div",
    { class: "complication-preview" },
    table ?? el("p", { class: "muted" }, "A clock at 0 brings no complication."),
    el("button", { type: "button", class: "complication-tables", on: { click: () => openReference({ section: "complications" }) } }, "All three tables"),
  );
}

function attemptsSection(ctx, phase) {
  const section = el("section", { class: "card" }, el("h3", {}, "Open attempts on collateral"));
  for (const a of phase.collateral_attempts) {
    const loc = ctx.world.locations.find((l) => l.id === a.location);
    const ticks = loc ? loc.collateral : 0;
    const dice = a.dice.reduce((s, d) => s + d.roll, 0);
    const total = dice + a.votes_for - a.votes_against;
    const result = total - ticks;
    const who = select(ctx.downtime.characters.map((v) => [v.character.id, v.character.name]));
    const aspect = select(ASPECTS.map((x) => [x, ASPECT_WORDS[x]]));
    const sheetOf = () => ctx.downtime.characters.find((v) => v.character.id === who.value)?.sheet ?? { aspects: null };
    const added = followingDice(
      () => [aspectSpec(sheetOf(), aspect.value, `Added ${ASPECT_WORDS[aspect.value]} die`)],
      (d) => ctx.move("The die was not added.", () => api.nsuDowntimeAddCollateralDie(ctx.game.id, who.value, a.location, aspect.value, d), "Die added to the attempt."),
      { rollLabel: "Roll and add" },
    );
    for (const c of [who, aspect]) c.addEventListener("change", added.refresh);
    section.append(
      el(
        "div",
        { class: "attempt", data: { locationId: a.location } },
        el("p", {}, `${locationName(ctx, a.location)}: dice ${a.dice.map((d) => `${ASPECT_WORDS[d.aspect]} ${d.roll}`).join(" + ")} + votes ${a.votes_for} − ${a.votes_against} = ${total}; less ${ticks} ticks = ${result}. `,
          el("strong", {}, result > 0 ? `Settling removes ${result} tick${result === 1 ? "" : "s"}.` : result < 0 ? "Settling now fails (a tick may be added)." : "Settling now changes nothing.")),
        el("div", { class: "pair" }, field("Another die from", who), field("Aspect", aspect)),
        added.node,
        el("button", { type: "button", class: "settle-collateral primary", on: { click: () => ctx.move("The attempt was not settled.", () => api.nsuDowntimeSettleCollateral(ctx.game.id, a.location), "Attempt settled.") } }, "Settle"),
      ),
    );
  }
  return section;
}

// ---- one character ---------------------------------------------------------------------------

function characterCard(ctx, phase, view) {
  const id = view.character.id;
  const sheet = view.sheet;
  const cp = phase.characters[id] ?? { actions_left: 0, recovered_harm: true, upgraded_skills: true, awaiting: null, final_boxes: [] };
  const heading = el("h3", {}, view.character.name);
  if (view.overcome) heading.append(" ", el("span", { class: "badge overcome" }, "Overcome"));
  const card = el(
    "section",
    { class: "card downtime-character", data: { characterId: id }, "aria-label": view.character.name },
    heading,
    el(
      "p",
      { class: "character-facts" },
      `Recovery points: `,
      el("strong", { class: "recovery-points" }, String(sheet.recovery_points)),
      ` · Actions left: `,
      el("strong", { class: "actions-left" }, String(cp.actions_left)),
    ),
    listBlock("Harm", sheet.harm, "harm-list"),
    listBlock("Scars", sheet.scars, "scar-list"),
  );
  for (const box of cp.final_boxes) card.append(finalBoxForm(ctx, id, sheet, box));
  card.append(recoverHarm(ctx, id, sheet, cp), upgradeSkills(ctx, id, sheet, cp));
  if (cp.awaiting) card.append(awaitingForm(ctx, id, sheet, cp.awaiting));
  else if (cp.actions_left > 0 && cp.final_boxes.length === 0) card.append(actionsBlock(ctx, phase, id, sheet));
  else if (cp.actions_left === 0) card.append(el("p", { class: "muted" }, "No downtime action left this phase."));
  return card;
}

function listBlock(title, items, cls) {
  return el(
    "div",
    { class: "list-block" },
    el("span", { class: "list-title" }, `${title}: `),
    items.length ? el("ul", { class: `inline-list ${cls}` }, ...items.map((t) => el("li", {}, t))) : el("span", { class: `muted ${cls}` }, "none"),
  );
}

function finalBoxForm(ctx, id, sheet, box) {
  const name = el("input", { type: "text", class: "final-box-name", required: true, placeholder: "a more intense name" });
  const sentiments = sheet.sentiments.flatMap((s, i) => (s && s.state !== "lost" ? [[String(i), `${s.name} (${SENTIMENT_WORDS[s.state]})`]] : []));
  const sentiment = select(sentiments.length ? sentiments : [["", "No sentiment can be marked"]], { class: "final-box-sentiment" });
  return el(
    "form",
    {
      class: "final-box notice",
      autocomplete: "off",
      on: {
        submit: (event) => {
          event.preventDefault();
          const choice = { new_name: name.value.trim(), sentiment: optionalLine(sentiment.value) };
          ctx.move("The final box was not resolved.", () => api.nsuDowntimeFinalBox(ctx.game.id, id, box.line, choice), `${box.mood} was renamed.`);
        },
      },
    },
    el("p", {}, `The last box of ${box.mood} is filled: rename it and mark a sentiment one step; its level goes to 0.`),
    el("div", { class: "pair" }, field(`New name for ${box.mood}`, name), field("Sentiment to mark", sentiment)),
    el("button", { type: "submit", class: "primary" }, "Resolve the final box"),
  );
}

function recoverHarm(ctx, id, sheet, cp) {
  const block = el("details", { class: "free-action recover-harm", open: sheet.harm.length > 0 && !cp.recovered_harm });
  block.append(el("summary", {}, `Recover Harm (free${cp.recovered_harm ? ", used this phase" : ""})`));
  if (sheet.harm.length === 0) {
    block.append(el("p", { class: "muted" }, "No harm to recover."));
    return block;
  }
  const cost = el("p", { class: "harm-cost" });
  const rows = sheet.harm.map((text, index) => {
    const pick = checkbox(text, { class: "harm-pick" });
    const scar = el("input", { type: "text", class: "harm-scar", value: text, "aria-label": `Scar that “${text}” becomes` });
    pick.box.addEventListener("change", update);
    return { index, pick, scar, node: el("div", { class: "harm-row" }, pick.node, scar) };
  });
  function update() {
    let n = sheet.harm.length;
    let total = 0;
    for (const r of rows) if (r.pick.box.checked) total += n--;
    cost.textContent =
      `Each scar costs as many recovery points as there are harm details at that moment (now ${sheet.harm.length}).` +
      ` Chosen: ${total} of ${sheet.recovery_points} points.`;
  }
  update();
  block.append(
    cost,
    ...rows.map((r) => r.node),
    el(
      "button",
      {
        type: "button",
        class: "recover-harm-submit primary",
        disabled: cp.recovered_harm,
        on: {
          click: () => {
            const recoveries = rows.filter((r) => r.pick.box.checked).map((r) => ({ harm: r.index, scar: r.scar.value.trim() }));
            ctx.move("The harm was not recovered.", () => api.nsuDowntimeRecoverHarm(ctx.game.id, id, recoveries), "Harm recovered into a scar.");
          },
        },
      },
      "Turn into scars",
    ),
  );
  return block;
}

function upgradeSkills(ctx, id, sheet, cp) {
  const ready = sheet.skills.filter((s) => s && s.boxes.body && s.boxes.mind && s.boxes.heart);
  return el(
    "details",
    { class: "free-action upgrade-skills" },
    el("summary", {}, `Upgrade Skills (free${cp.upgraded_skills ? ", used this phase" : ""})`),
    el("p", {}, ready.length ? `Gains +1 and clears its boxes: ${ready.map((s) => `${s.name} (+${s.modifier} → +${s.modifier + 1})`).join(", ")}.` : "No skill has all three boxes marked."),
    el(
      "button",
      {
        type: "button",
        class: "upgrade-skills-submit",
        disabled: cp.upgraded_skills || ready.length === 0,
        on: { click: () => ctx.move("The skills were not upgraded.", () => api.nsuDowntimeUpgradeSkills(ctx.game.id, id), "Skills upgraded.") },
      },
      "Upgrade skills",
    ),
  );
}

function aspectDie(sheet, aspect) {
  return sheet.aspects ? dieOf(sheet.aspects[aspect]) : null;
}

function actionsBlock(ctx, phase, id, sheet) {
  const wrap = el("div", { class: "downtime-actions" }, el("h4", {}, "Downtime action"));
  const item = (key, ...body) => el("details", { class: `downtime-action action-${key}` }, el("summary", {}, ACTION_WORDS[key]), ...body);
  const go = (title, call, message) => ctx.move(title, call, message);
  const g = ctx.game.id;

  // Long-term project.
  {
    const open = ctx.world.projects.filter((p) => p.filled < p.size);
    const which = select([...open.map((p) => [p.id, `${p.name} (${p.filled} of ${p.size})`]), ["new", "A new project…"]]);
    const name = el("input", { type: "text", placeholder: "project name" });
    const size = projectSizeSelect();
    const newFields = el("div", { class: "pair" }, field("New project's name", name), field("Size", size));
    const syncNew = () => (newFields.hidden = which.value !== "new");
    which.addEventListener("change", syncNew);
    syncNew();
    const aspect = select(ASPECTS.map((a) => [a, `${ASPECT_WORDS[a]}${sheet.aspects ? ` (${sheet.aspects[a]})` : ""}`]));
    const mood = moodPicker(sheet);
    const skill = select(skillOptions(sheet));
    const note = el("p", { class: "uses" });
    const dice = followingDice(
      () => [aspectSpec(sheet, aspect.value), { label: "Mood die", sides: MOOD_LINE_DICE[mood.line()] }],
      (rolled) => {
        const project = which.value === "new" ? { kind: "new", name: name.value.trim(), size: Number(size.value) } : { kind: "existing", project: which.value };
        const action = { project, aspect: aspect.value, mood: mood.value(), skill: optionalLine(skill.value) };
        go("The project was not worked on.", () => api.nsuDowntimeProject(g, id, action, rolled), "Worked on a project.");
      },
      { cls: "project-dice" },
    );
    const sync = () => {
      const s = skill.value === "" ? null : sheet.skills[Number(skill.value)];
      note.textContent = `Rolls ${ASPECT_WORDS[aspect.value]} d${aspectDie(sheet, aspect.value) ?? "?"} and the mood's d${MOOD_LINE_DICE[mood.line()]}; marks |difference|${s ? ` + ${s.modifier}` : ""} segments; the mood goes up 1.`;
      dice.refresh();
    };
    for (const c of [aspect, skill]) c.addEventListener("change", sync);
    mood.node.addEventListener("change", sync);
    sync();
    wrap.append(
      item(
        "long_term_project",
        field("Project", which),
        newFields,
        el("div", { class: "pair" }, field("Aspect", aspect), field("Skill", skill)),
        mood.node,
        note,
        dice.node,
      ),
    );
  }

  // Reconnect with sentiments.
  {
    const lines = sheet.sentiments.map((s, i) => [String(i), s ? `${s.name} (${SENTIMENT_WORDS[s.state]})` : "empty line"]);
    const sentiment = select(lines);
    const forge = el("input", { type: "text", placeholder: "only to forge a new sentiment" });
    const mood = moodPicker(sheet, "Relevant mood (its level rises)");
    const note = el("p", { class: "uses" });
    const sync = () => {
      const s = sheet.sentiments[Number(sentiment.value)];
      if (forge.value.trim() !== "") note.textContent = "Forging a new sentiment in place of a lost one: the mood rises 4.";
      else if (!s) note.textContent = "An empty line: name a new sentiment to forge (the mood rises 4).";
      else if (s.state === "lost") note.textContent = "Lost → at risk: the mood rises 3.";
      else if (s.state === "at_risk") note.textContent = "At risk → connected: the mood rises 2.";
      else note.textContent = "Already connected: nothing to reconnect.";
    };
    sentiment.addEventListener("change", sync);
    forge.addEventListener("input", sync);
    sync();
    wrap.append(
      item(
        "reconnect",
        field("Sentiment", sentiment),
        field("New sentiment (forge)", forge),
        mood.node,
        note,
        el("button", {
          type: "button",
          class: "primary",
          on: {
            click: () => {
              const choice = { sentiment: Number(sentiment.value), mood: mood.value(), forge: forge.value.trim() || null };
              go("The sentiment was not reconnected.", () => api.nsuDowntimeReconnect(g, id, choice), "Reconnected with a sentiment.");
            },
          },
        }, "Reconnect"),
      ),
    );
  }

  // Introspection (first half).
  wrap.append(
    item(
      "introspection",
      el("p", { class: "uses" }, `Rolls Heart d${aspectDie(sheet, "heart") ?? "?"}; then you remove that many ticks across moods, and may swap two moods' dice or replace a mood at level 0.`),
      diceControl([aspectSpec(sheet, "heart")], (dice) =>
        go("Introspection was not rolled.", () => api.nsuDowntimeIntrospectionRoll(g, id, dice), "Rolled for introspection."),
      ),
    ),
  );

  // Address collateral.
  {
    const places = ctx.world.locations.filter((l) => !phase.collateral_attempts.some((a) => a.location === l.id));
    const where = select(places.map((l) => [l.id, `${l.name} — ${l.collateral} of 8`]));
    const sound = el("input", { type: "number", min: 0, max: 20, value: 0, inputmode: "numeric" });
    const unsound = el("input", { type: "number", min: 0, max: 20, value: 0, inputmode: "numeric" });
    const note = el("p", { class: "uses" });
    const sync = () => {
      const l = places.find((p) => p.id === where.value);
      note.textContent = `Result = Mind d${aspectDie(sheet, "mind") ?? "?"} + ${Number(sound.value || 0)} − ${Number(unsound.value || 0)} votes − ${l ? l.collateral : 0} ticks; above 0 removes that many ticks when settled. Others may add dice first.`;
    };
    for (const c of [where, sound, unsound]) c.addEventListener("input", sync);
    sync();
    wrap.append(
      item(
        "address_collateral",
        places.length ? field("Location", where) : el("p", { class: "muted" }, "No location to address."),
        el("div", { class: "pair" }, field("Votes: the plan is sound (+1 each)", sound), field("Votes against (−1 each)", unsound)),
        note,
        diceControl([aspectSpec(sheet, "mind")], (dice) => {
          const votes = { sound: Number(sound.value || 0), unsound: Number(unsound.value || 0) };
          go("Collateral was not addressed.", () => api.nsuDowntimeAddressCollateral(g, id, where.value, votes, dice), "Attempt on collateral opened.");
        }),
      ),
    );
  }

  // Train skills (first half).
  {
    const aspect = select(ASPECTS.map((a) => [a, `${ASPECT_WORDS[a]}${sheet.aspects ? ` (${sheet.aspects[a]})` : ""}`]));
    const dice = followingDice(
      () => [aspectSpec(sheet, aspect.value)],
      (rolled) => go("Training was not rolled.", () => api.nsuDowntimeTrainRoll(g, id, aspect.value, rolled), "Rolled to train skills."),
      { cls: "train-dice" },
    );
    aspect.addEventListener("change", dice.refresh);
    wrap.append(
      item(
        "train_skills",
        field("Aspect", aspect),
        el("p", { class: "uses" }, "Rolls that aspect's die; you then mark its box on that many skills."),
        dice.node,
      ),
    );
  }

  // Seek recovery.
  {
    const healer = checkbox("A healer or healing facilities (Body rolled twice)");
    const skill = select(skillOptions(sheet));
    const others = ctx.downtime.characters.filter((v) => v.character.id !== id);
    const helper = select([["", "No helper"], ...others.map((v) => [v.character.id, v.character.name])], { class: "recovery-helper" });
    const helperSheet = () => others.find((v) => v.character.id === helper.value)?.sheet ?? null;
    // The helper's own skills, by name (their lines, not this character's).
    const helperSkill = select([["", "No skill"]], { class: "recovery-helper-skill" });
    const helperSkillField = field("Helper's skill (optional)", helperSkill);
    const dice = followingDice(
      () => {
        const body = aspectSpec(sheet, "body");
        const heart = helperSheet() ? [aspectSpec(helperSheet(), "heart", "Helper's Heart die")] : [];
        return [body, { ...body, label: "Body die, second roll" }, ...heart];
      },
      (rolled) => {
        const choice = {
          healer: healer.box.checked,
          skill: optionalLine(skill.value),
          helper: helper.value ? { character: helper.value, skill: optionalLine(helperSkill.value) } : null,
        };
        go("Recovery was not sought.", () => api.nsuDowntimeSeekRecovery(g, id, choice, rolled), "Sought recovery.");
      },
      { cls: "recovery-dice" },
    );
    const syncHelper = () => {
      const other = helperSheet();
      helperSkill.replaceChildren(...skillOptions(other ?? { skills: [] }).map(([value, text]) => el("option", { value }, text)));
      helperSkillField.hidden = other === null;
      dice.refresh();
    };
    helper.addEventListener("change", syncHelper);
    syncHelper();
    wrap.append(
      item(
        "seek_recovery",
        healer.node,
        el("div", { class: "pair" }, field("Relevant skill", skill), field("Helping teammate (adds their Heart die)", helper)),
        helperSkillField,
        el("p", { class: "uses" }, `Recovery points = Body d${aspectDie(sheet, "body") ?? "?"} (twice with a healer) + skill + helper's Heart + their skill. Leave unused dice blank.`),
        dice.node,
      ),
    );
  }

  // Scout: an action roll (the roll wizard, its odds and dice) whose purpose is a face-down
  // card on the map. The card is picked by its back and place only: its name is never here.
  {
    // The core says which cards are close enough (next to where the party is, or reached
    // through cards already seen): those come first. The others stay open to the table's call;
    // at home, which the map does not place, the table judges them all.
    const close = ctx.downtime.close_to_scout;
    const near = (l) => close === null || close === undefined || close.includes(l.id);
    const unseen = ctx.world.locations.filter((l) => !l.revealed && l.position && !l.scouted_by.includes(id));
    const faceDown = [...unseen.filter(near), ...unseen.filter((l) => !near(l))];
    // Radios, not a select: a card's back in words is long and must wrap on a phone.
    const group = uid("scout-card");
    const picks = faceDown.map((l, i) => {
      const box = el("input", { type: "radio", name: group, value: l.id, id: uid("scout-pick"), checked: i === 0 });
      return { box, node: el("label", { class: "check scout-pick", for: box.id, data: { close: near(l) } }, box, ` ${cardBackWords(l)}`) };
    });
    const part = (legend, list, cls) =>
      list.length ? el("fieldset", { class: `scout-cards ${cls}` }, el("legend", {}, legend), ...list.map((p) => p.node)) : null;
    const where =
      close === null || close === undefined
        ? el(
            "div",
            {},
            el("p", { class: "muted scout-home" }, "The party is at home, which the map does not place: the table judges which card is close enough."),
            part("Face-down card", picks, "scout-all"),
          )
        : el(
            "div",
            {},
            part("Close enough: next to where the party is, or reached through cards already seen", picks.filter((p) => p.node.dataset.close === "true"), "scout-close"),
            part("Farther: only if the table agrees it makes sense", picks.filter((p) => p.node.dataset.close !== "true"), "scout-far"),
          );
    const overcome = sheet.harm.length >= 4;
    wrap.append(
      item(
        "scout",
        el("p", { class: "uses" }, "An action roll: the roll screen shows the odds and rolls. A win shows the card to this character's player; after a loss or a tie the player accepts the details and looks, or turns back. The roll spends the action."),
        overcome
          ? el("p", { class: "muted scout-overcome" }, "An Overcome character cannot scout until a harm detail is recovered.")
          : faceDown.length
            ? where
            : el("p", { class: "muted" }, "No face-down card on the map left to scout."),
        el("button", {
          type: "button",
          class: "primary scout-roll",
          disabled: faceDown.length === 0 || overcome,
          on: {
            click: () => {
              const picked = picks.find((p) => p.box.checked);
              const card = picked && faceDown.find((l) => l.id === picked.box.value);
              if (!card) return;
              // The roll's settlement changes the phase: the tab reloads once the wizard closes.
              openRollWizard(id, { scout: { location: card.id, words: cardBackWords(card) } }).then(ctx.reload);
            },
          },
        }, "Roll to scout…"),
      ),
    );
  }
  return wrap;
}

/** The second half of Introspection or Train Skills, owed right after the roll. */
function awaitingForm(ctx, id, sheet, awaiting) {
  const g = ctx.game.id;
  if (awaiting.action === "train_skills") {
    const word = ASPECT_WORDS[awaiting.aspect];
    const picks = sheet.skills.flatMap((s, i) => (s && !s.boxes[awaiting.aspect] ? [{ i, ...checkbox(`${s.name}`, { class: "train-pick" }) }] : []));
    return el(
      "div",
      { class: "notice awaiting" },
      el("p", {}, `${word} roll: ${awaiting.roll}. Mark the ${word} box on ${awaiting.roll} skill${awaiting.roll === 1 ? "" : "s"} (or every one still unmarked).`),
      ...picks.map((p) => p.node),
      el("button", {
        type: "button",
        class: "primary train-mark",
        on: { click: () => go(picks.filter((p) => p.box.checked).map((p) => p.i)) },
      }, "Mark the boxes"),
    );
    function go(skills) {
      ctx.move("The skills were not marked.", () => api.nsuDowntimeTrainMark(g, id, skills), "Skills trained.");
    }
  }
  // Introspection.
  const rows = sheet.moods.flatMap((m, line) => {
    if (!m) return [];
    const ticks = el("input", { type: "number", min: 0, max: m.level, value: 0, inputmode: "numeric", class: "reduce-ticks" });
    return [{ line, ticks, node: field(`Remove from ${moodWords(sheet, line)}`, ticks) }];
  });
  const moodOptions = [["", "—"], ...sheet.moods.flatMap((m, line) => (m ? [[String(line), moodWords(sheet, line)]] : []))];
  const swapA = select(moodOptions);
  const swapB = select(moodOptions);
  const replaceLine = select([["", "—"], ...sheet.moods.flatMap((m, line) => (m ? [[String(line), moodWords(sheet, line)]] : []))]);
  const replaceName = el("input", { type: "text", placeholder: "new mood" });
  return el(
    "div",
    { class: "notice awaiting" },
    el("p", {}, `Heart roll: ${awaiting.roll}. Remove up to ${awaiting.roll} ticks across moods.`),
    ...rows.map((r) => r.node),
    el("div", { class: "pair" }, field("Swap the dice of", swapA), field("with", swapB)),
    el("div", { class: "pair" }, field("Replace a mood at level 0", replaceLine), field("by", replaceName)),
    el("button", {
      type: "button",
      class: "primary introspection-finish",
      on: {
        click: () => {
          const choice = {
            reductions: rows.filter((r) => Number(r.ticks.value) > 0).map((r) => ({ line: r.line, ticks: Number(r.ticks.value) })),
            swap: swapA.value !== "" && swapB.value !== "" ? [Number(swapA.value), Number(swapB.value)] : null,
            replace: replaceLine.value !== "" ? [Number(replaceLine.value), replaceName.value.trim()] : null,
          };
          ctx.move("Introspection was not finished.", () => api.nsuDowntimeIntrospectionFinish(g, id, choice), "Introspection done.");
        },
      },
    }, "Finish introspection"),
  );
}

// ---- what happened ----------------------------------------------------------------------------

function resultsBox(ctx) {
  const lines = ctx.lastEvents.map((e) => describe(ctx, e)).filter(Boolean);
  return el(
    "section",
    { class: "card results", id: "downtime-results", "aria-labelledby": "downtime-results-title" },
    el("h3", { id: "downtime-results-title" }, "What happened"),
    el("ul", {}, ...lines.map((t) => el("li", {}, t))),
  );
}

function describe(ctx, e) {
  const who = (id) => nameOf(ctx, id);
  switch (e.event) {
    case "phase_started":
      return `Downtime began${e.at_home ? " at home" : ""}: ${e.actions_each} action${e.actions_each === 1 ? "" : "s"} each.`;
    case "recovery_points_changed":
      return `${who(e.character)}: recovery points ${e.before} → ${e.after}.`;
    case "complication_rolled":
      return e.roll === null
        ? `${locationName(ctx, e.location)}: no collateral, no complication.`
        : `${locationName(ctx, e.location)} (${e.ticks} ticks), d6 = ${e.roll}: ${complicationWords(e.complication)}.`;
    case "action_spent":
      return `${who(e.character)} spent an action on ${ACTION_WORDS[e.action] ?? e.action} (${e.after} left).`;
    case "free_action_used":
      return null;
    case "harm_recovered":
      return `${who(e.character)}: “${e.harm}” became the scar “${e.scar}” for ${e.cost} recovery points.`;
    case "overcome_cleared":
      return `${who(e.character)} is no longer Overcome.`;
    case "skill_upgraded":
      return `${who(e.character)}: ${e.skill} +${e.before} → +${e.after}.`;
    case "mood_named":
      return `${who(e.character)} named a new mood, ${e.name}.`;
    case "mood_level_changed":
      return `${who(e.character)}: ${e.mood} level ${e.before} → ${e.after}.`;
    case "final_box_filled":
      return `${who(e.character)}: the last box of ${e.mood} is filled.`;
    case "final_box_resolved":
      return `${who(e.character)}: ${e.before} evolved into ${e.after} (level 0)${e.overload_ended ? "; its overload ended" : ""}.`;
    case "overload_ended":
      return `${who(e.character)}: ${e.mood} is at level 0, so its overload ended.`;
    case "project_rolled":
      return `${who(e.character)}: ${ASPECT_WORDS[e.aspect]} ${e.aspect_roll} vs mood ${e.mood_roll}${e.skill_modifier ? `, skill +${e.skill_modifier}` : ""}: ${e.segments} segment${e.segments === 1 ? "" : "s"}.`;
    case "sentiment_changed":
      return `${who(e.character)}: ${e.name_after} is now ${SENTIMENT_WORDS[e.after]}.`;
    case "heart_rolled":
      return `${who(e.character)} rolled Heart: ${e.roll}.`;
    case "moods_swapped":
      return `${who(e.character)} swapped ${e.moods[0]} and ${e.moods[1]}.`;
    case "mood_replaced":
      return `${who(e.character)}: ${e.before} replaced by ${e.after}.`;
    case "collateral_die_rolled":
      return `${who(e.character)} rolled ${ASPECT_WORDS[e.aspect]} ${e.roll} at ${locationName(ctx, e.location)}: total ${e.total_after}, result ${e.result}.`;
    case "collateral_settled":
      return `${locationName(ctx, e.location)}: total ${e.total} − ${e.ticks} ticks = ${e.result}.`;
    case "training_rolled":
      return `${who(e.character)} rolled ${ASPECT_WORDS[e.aspect]}: ${e.roll} skill${e.roll === 1 ? "" : "s"} to mark.`;
    case "skill_box_marked":
      return `${who(e.character)}: ${e.skill} marked for ${ASPECT_WORDS[e.aspect]}.`;
    case "recovery_rolled":
      return `${who(e.character)} rolled Body ${e.body_rolls.join(" + ")}${e.skill_modifier ? ` + skill ${e.skill_modifier}` : ""}${e.helper_roll ? ` + helper ${e.helper_roll}` : ""}${e.helper_skill_modifier ? ` + ${e.helper_skill_modifier}` : ""} = ${e.total} recovery points.`;
    case "scouted":
      return `${who(e.character)} scouted a card: ${e.outcome === "turned_back" ? "turned back" : e.outcome === "won" ? "won the roll and saw it" : "accepted the details and saw it"}.`;
    case "world":
      return worldWords(ctx, e.change);
    default:
      return String(e.event).replaceAll("_", " ");
  }
}

function worldWords(ctx, w) {
  switch (w.event) {
    case "collateral_changed":
      return `${locationName(ctx, w.location)}: collateral ${w.before} → ${w.after} of 8${w.clamped ? " (the clock stopped at its end)" : ""}.`;
    case "project_marked":
      return `Project clock ${w.before} → ${w.after}${w.completed ? ": complete!" : ""}.`;
    case "project_started":
      return `New project ${w.name} (${w.size} segments).`;
    case "location_scouted":
      return null;
    default:
      return String(w.event).replaceAll("_", " ");
  }
}
