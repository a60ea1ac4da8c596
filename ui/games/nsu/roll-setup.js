// The NSU roll wizard's set-up steps (RULES.md §1.3): the desired outcome, the aspect and
// what is at risk, the mood (with every approach's chances: roll-approach.js), and the
// details, skill and risked sentiment that count.

import { byId, el } from "../../kit/dom.js";
import { approachList, markApproach } from "./roll-approach.js";
import { refreshPlan } from "./roll-odds.js";
import { counter, radio, section, sheet, stepCount, w } from "./roll-state.js";
import { ASPECT_WORDS, MOOD_LINE_DICE } from "./words.js";

export function renderOutcome() {
  const input = el("textarea", { id: "roll-outcome", rows: 3, required: true, maxlength: 2000 });
  input.value = w.setup.outcome;
  input.addEventListener("input", () => {
    w.setup.outcome = input.value;
  });
  const parts = [
    el("p", { class: "muted hint" }, "The player states what they want to happen. It is kept in the roll log."),
    el("label", { for: "roll-outcome" }, "Desired outcome"),
    input,
  ];
  if (w.view.overcome) parts.unshift(overcomeNote());
  return section("What does the player want?", ...parts);
}

function overcomeNote() {
  return el(
    "p",
    { class: "roll-warning", id: "roll-overcome" },
    `${w.name} is Overcome (four harm details) and cannot make action rolls until a harm detail is recovered.`,
  );
}

export function renderAspect() {
  const aspects = sheet().aspects;
  const aspectOptions = ["body", "mind", "heart"].map((a) =>
    radio("roll-aspect", a, `${ASPECT_WORDS[a]} ${aspects ? aspects[a] : "(no die yet)"}`, w.setup.aspect === a, (v) => {
      w.setup.aspect = v;
    }, `roll-aspect-${a}`),
  );
  const riskOptions = [
    ["character", "Character", "the player holds the aspect die, the Arbiters the mood die"],
    ["world", "World", "the player holds the mood die, the Arbiters the aspect die"],
  ].map(([v, label, hint]) =>
    radio("roll-at-risk", v, `${label} at risk — ${hint}`, w.setup.atRisk === v, (x) => {
      w.setup.atRisk = x;
    }, `roll-at-risk-${v}`),
  );
  return section(
    "The Arbiters choose",
    el("p", { class: "muted hint" }, "The Arbiters choose the aspect and what is most at risk."),
    el("fieldset", { class: "roll-choices" }, el("legend", {}, "Aspect"), ...aspectOptions),
    el("fieldset", { class: "roll-choices" }, el("legend", {}, "What is at risk"), ...riskOptions),
  );
}

function moodLabel(line) {
  const mood = sheet().moods[line];
  const die = MOOD_LINE_DICE[line];
  if (!mood) return `Empty d${die} line — name a new mood`;
  return `${mood.name} — d${die}, level ${mood.level} of ${die + 1}${mood.overloaded ? ", overloaded" : ""}`;
}

export function renderMood() {
  const name = el("input", { type: "text", id: "roll-mood-name", maxlength: 200 });
  name.value = w.setup.moodName;
  name.addEventListener("input", () => {
    w.setup.moodName = name.value;
  });
  const nameField = el("div", { class: "field" }, el("label", { for: "roll-mood-name" }, "The new mood’s name"), name);
  const sync = () => {
    nameField.hidden = w.setup.moodLine === null || sheet().moods[w.setup.moodLine] !== null;
  };
  const options = sheet().moods.map((_, line) =>
    radio("roll-mood", String(line), moodLabel(line), w.setup.moodLine === line, (v) => {
      w.setup.moodLine = Number(v);
      sync();
      markApproach();
    }, `roll-mood-${line}`),
  );
  sync();
  return section(
    "The player chooses a mood",
    el("p", { class: "muted hint" }, "Its level goes up by one (even while another mood is overloaded)."),
    el("fieldset", { class: "roll-choices" }, el("legend", {}, "Mood"), ...options),
    nameField,
    approachList(),
  );
}

const COUNT_IDS = { adv: "roll-adv", dis: "roll-dis" };

/** Moves a counter (the source of the numbers sent to the core) and redraws what shows it. */
function bump(key, delta) {
  stepCount(COUNT_IDS[key], key, delta);
  refreshNet();
  refreshPlan();
}

function netWords() {
  const { adv, dis } = w.setup;
  if (adv > dis) return `Net: aspect advantage (${adv} for, ${dis} against; they cancel one for one and do not stack)`;
  if (dis > adv) return `Net: aspect disadvantage (${adv} for, ${dis} against; they cancel one for one and do not stack)`;
  return `Net: no edge (${adv} for, ${dis} against cancel out)`;
}

function refreshNet() {
  const node = byId("roll-aspect-net");
  if (node) node.textContent = netWords();
}

export function renderDetails() {
  const sk = sheet().skills;
  const skillOptions = [["", "No skill"]];
  sk.forEach((s, i) => {
    if (s) skillOptions.push([`existing:${i}`, `${s.name} (+${s.modifier})`]);
  });
  sk.forEach((s, i) => {
    if (!s) skillOptions.push([`new:${i}`, `New skill on empty line ${i + 1} (starts at 0)`]);
  });
  const skill = el("select", { id: "roll-skill" }, ...skillOptions.map(([v, t]) => el("option", { value: v }, t)));
  skill.value = w.setup.skill;
  const skillName = el("input", { type: "text", id: "roll-skill-name", maxlength: 200 });
  skillName.value = w.setup.skillName;
  const skillNameField = el("div", { class: "field" }, el("label", { for: "roll-skill-name" }, "The new skill’s name"), skillName);
  const syncSkill = () => {
    skillNameField.hidden = !w.setup.skill.startsWith("new:");
  };
  skill.addEventListener("change", () => {
    w.setup.skill = skill.value;
    syncSkill();
    refreshPlan();
  });
  skillName.addEventListener("input", () => {
    w.setup.skillName = skillName.value;
  });
  skillName.addEventListener("change", refreshPlan);
  syncSkill();

  const sentimentOptions = [["", "No sentiment risked"]];
  sheet().sentiments.forEach((s, i) => {
    if (s && s.state !== "lost") sentimentOptions.push([String(i), `${s.name} (${s.state === "at_risk" ? "at risk" : "connected"})`]);
  });
  const sentiment = el("select", { id: "roll-sentiment" }, ...sentimentOptions.map(([v, t]) => el("option", { value: v }, t)));
  sentiment.value = w.setup.sentiment;
  sentiment.addEventListener("change", () => {
    w.setup.sentiment = sentiment.value;
    refreshPlan();
  });

  return section(
    "Details, skill and sentiment",
    el("p", { class: "muted hint" }, "Count the details working for and against the character: tap one below to count it, or use the counters."),
    counter("roll-adv", "Details for (advantage)", "adv", (delta) => bump("adv", delta)),
    counter("roll-dis", "Details against (disadvantage)", "dis", (delta) => bump("dis", delta)),
    el("p", { id: "roll-aspect-net", class: "roll-net" }, netWords()),
    detailsThatCount(),
    el("div", { class: "field" }, el("label", { for: "roll-skill" }, "Skill (the player adds or subtracts its modifier)"), skill),
    skillNameField,
    el(
      "div",
      { class: "field" },
      el("label", { for: "roll-sentiment" }, "Risk a sentiment for mood advantage"),
      sentiment,
      el("p", { class: "muted roll-hint" }, "Win by 2 or more and it helped; otherwise mark its next box."),
    ),
    el("p", { id: "roll-mood-edge", class: "roll-net" }),
    el("p", { id: "roll-overload-rule", class: "roll-rule", hidden: true }),
    el("p", { id: "roll-odds-mini", class: "roll-odds-mini", "aria-live": "polite" }),
  );
}

/**
 * The details that may count in this roll: the character's harm, other details and scars,
 * and the scene details where the party is. Tapping "For" or "Against" moves the counters
 * (which stay the numbers sent); tapping it again takes the count back.
 */
function detailsThatCount() {
  const sh = sheet();
  const rows = [];
  sh.harm.forEach((text, i) => rows.push({ key: `harm:${i}`, text, kind: "Harm" }));
  sh.other_details.forEach((d, i) => rows.push({ key: `other:${i}`, text: d.text, kind: d.positive ? "Positive" : "Negative" }));
  sh.scars.forEach((text, i) => rows.push({ key: `scar:${i}`, text, kind: "Scar" }));
  const here = w.world && w.world.party_at ? w.world.locations.find((l) => l.id === w.world.party_at) : null;
  (here ? here.scene_details : []).forEach((d, i) => rows.push({ key: `scene:${i}`, text: d.text, kind: `Scene, ${here.name || "here"}` }));
  const where = !w.world || w.world.party_at === undefined ? "" : here ? ` The party is at ${here.name || "a card on the map"}.` : " The party is at home: no scene details.";
  const box = el("div", { id: "roll-details-list", class: "roll-details" }, el("h4", {}, "The details that count"));
  if (rows.length === 0) {
    box.append(el("p", { class: "muted" }, `${w.name} has no harm, other details or scars.${where}`));
    return box;
  }
  const buttons = (row) => {
    const side = (which, label) => {
      const b = el("button", { type: "button", class: `roll-detail-${which}`, "aria-pressed": String(w.counted[row.key] === which), "aria-label": `${label}: ${row.text}` }, label);
      b.addEventListener("click", () => {
        const was = w.counted[row.key];
        if (was) bump(was === "for" ? "adv" : "dis", -1);
        if (was === which) delete w.counted[row.key];
        else {
          w.counted[row.key] = which;
          bump(which === "for" ? "adv" : "dis", 1);
        }
        for (const other of b.parentNode.querySelectorAll("button")) {
          other.setAttribute("aria-pressed", String(other.classList.contains(`roll-detail-${w.counted[row.key]}`)));
        }
      });
      return b;
    };
    return el("span", { class: "roll-detail-count" }, side("for", "For"), side("against", "Against"));
  };
  box.append(
    el(
      "ul",
      { class: "roll-detail-list" },
      ...rows.map((row) =>
        el(
          "li",
          { data: { kind: row.kind.split(",")[0].toLowerCase() } },
          el("span", { class: "roll-detail-text" }, el("span", { class: "roll-detail-kind" }, row.kind), " ", row.text),
          buttons(row),
        ),
      ),
    ),
  );
  if (where) box.append(el("p", { class: "muted" }, where.trim()));
  return box;
}
