// The No Stone Unturned reference card: the reference sheet and the rules a table looks up
// mid-session, in the app's own words (RULES.md §1; never the source's sentences), offline.
// A modal dialog of folding sections, so it reads at 360 px; it opens over the sheet or over
// the roll wizard (a dialog over a dialog), gets its X-card from xcard.js, and closing it
// puts the focus back where it was.
//
//   import { openReference, complicationTable } from "./reference.js";
//   openReference();                          // every section folded
//   openReference({ row: 3 });                // the results table open, the row for 3 marked
//   openReference({ section: "complications" });
//   form.append(complicationTable(ticks));    // one band's table (downtime, before the roll)
//   DANGER[level - 1][1], REWARD[level - 1][1]  // a card's D/R level in words
//
// Sections: steps, sides, results, details, when, overload, sentiment, levels,
// complications, agenda, creation.

import { el } from "../../kit/dom.js";
import { disclosure } from "../../kit/components.js";
import * as api from "./api.js";
import { nsuDialog } from "./dialog.js";
import { GRANT_NOTE } from "./words.js";

// The three complication tables come from the core, which rolls them
// (rules/nsu/downtime.rs `complication_tables`); fetched once, when first needed.
let tables = null;

/** The complication tables, `[{band, ticks: [lo, hi], rows: [{faces: [lo, hi], complication, label}]}]`. */
export function complicationTables() {
  tables ??= api.nsuComplicationTables().catch((e) => {
    tables = null;
    throw e;
  });
  return tables;
}

const span = ([lo, hi]) => (lo === hi ? `${lo}` : `${lo}–${hi}`);

/** The table used at `ticks` of collateral (0 ticks: none; a full clock uses the 6–7 table). */
function bandFor(all, ticks) {
  return ticks <= 0 ? null : (all.find((t) => ticks >= t.ticks[0] && ticks <= t.ticks[1]) ?? null);
}

/** One complication table as a small <table>: the d6 and what it means; filled when the tables arrive. */
export function complicationTable(ticks, { caption = null } = {}) {
  if (ticks <= 0) return null;
  const host = el("table", { class: "ref-table complication-table" });
  complicationTables()
    .then((all) => {
      const table = bandFor(all, ticks);
      if (!table) return;
      host.dataset.band = table.band;
      host.replaceChildren(
        el("caption", {}, caption ?? `Collateral ${span(table.ticks)} ticks: roll a d6`),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "d6"), el("th", { scope: "col" }, "What happens there"))),
        el("tbody", {}, ...table.rows.map((r) => el("tr", {}, el("th", { scope: "row" }, span(r.faces)), el("td", {}, r.label)))),
      );
    })
    .catch(() => host.replaceChildren(el("caption", {}, "The complication tables could not be read.")));
  return host;
}

// Fetched as this module loads (it does not wait for them), so a rolled complication's
// words are at hand by the time a downtime phase lists it.
const labels = new Map();
complicationTables()
  .then((all) => all.flatMap((t) => t.rows).forEach((r) => labels.set(r.complication, r.label)))
  .catch(() => {});

/** What a rolled complication means, by the core's name for it (its label in the tables). */
export const complicationWords = (key) => labels.get(key) ?? key.replaceAll("_", " ");

// ---- the card's text (paraphrased; asterisked steps in the source are marked optional) ----

const STEPS = [
  ["Before the dice", [
    [1, "The player says what they want their character to achieve."],
    [2, "The Arbiters pick the aspect (Body, Mind or Heart) and say what is most at risk: the Character or the World. That decides who holds which die."],
    [3, "The player picks the mood the character acts from (an open line takes a new mood) and marks one more box of its level. Always, even while another mood is overloaded."],
    [4, "Look at the details in play: those that help give aspect advantage, those that hinder give disadvantage. One of each cancels out; several of the same kind count once."],
    [5, "Pick a skill that fits, or write a new one on an empty line at 0.", true],
    [6, "Stake a sentiment that is not lost, for mood advantage.", true],
  ]],
  ["The dice", [
    [7, "Roll the aspect die and the mood die. With advantage roll two of that die and the player keeps one; with disadvantage the Arbiters keep one. An overloaded mood gives advantage, any other mood disadvantage."],
  ]],
  ["After the dice", [
    [8, "Someone helps: another character rolls one of their moods and marks its level; the player may use that die instead of their own mood die. Using it brings the two closer; turning it down strains the bond.", true],
    [9, "Add or take away the skill from the aspect die, see who wins and by how much, and add details from the results table."],
    [10, "Check mood effects: overload and the final box, for the helper too."],
  ]],
];

const RESULTS = [
  ["0", "Both sides add one hard detail each."],
  ["1", "The winner adds one hard detail, and an ally adds one hard negative detail against the winner."],
  ["2", "The winner adds one hard detail."],
  ["3", "The winner adds one hard detail and one scene detail."],
  ["4", "The winner adds one hard detail, and one ally adds one more."],
  ["5+", "The winner adds two hard details."],
];

const DETAILS = [
  ["Hard", "A lasting change to a person, a place or a thing: a wound, a jammed door, an offended guard. Only an action roll grants one; write it down."],
  ["Soft", "A small, passing change made freely while playing: stepping aside, calling out, asking a question. Nobody writes it down."],
  ["Scene", "A change to the surroundings or the tactics rather than to someone or something: a blasted-open door, a crowd turning sour. The Arbiters keep the list (here, on the location)."],
  ["Positive and negative", "A positive detail helps whoever has it (it can give advantage); a negative one hinders."],
  ["Harm", "A negative hard detail the Arbiters count as harm: bodily, emotional or social. The fourth harm makes the character Overcome: no action rolls until Recover Harm in downtime turns one into a scar."],
];

const CALL_FOR = [
  "trying something the character does not usually do (a hard climb, a stubborn lock)",
  "doing something dangerous (a fight, a leap over a gap)",
  "searching for something hard to find (a hidden way in, a password)",
  "remembering knowledge the character has not shown yet",
  "acting in a way that could damage the surroundings",
  "talking someone into what they would rather not do",
  "dodging or reacting to a threat about to land",
  "noticing something that is not obvious, when missing it would be interesting",
];

/** What each danger level means at the table (["D1", text], …), for the card and the map. */
export const DANGER = [
  ["D1", "Care keeps you clear of the worst. Animals keep to themselves and only defend; the people here assume the best of you."],
  ["D2", "Real dangers, but you see them coming. Animals attack only when provoked; the people here are friendly, if careful."],
  ["D3", "The danger counts. Animals are wary and can hurt you badly if they strike; the people are cool to strangers, and once at peace with them you had better not cross them."],
  ["D4", "Nearly everything is hostile and mistakes cost dearly. Animals strike without waiting for a reason; any people here must be won over the hard way."],
];

/** What each reward level means (["R1", text], …). */
export const REWARD = [
  ["R1", "Scattered, coded, broken or hard to reach: using it takes a long-term project, and even then it lifts a scarcity to neutral at best."],
  ["R2", "One long-term project lifts a resource from scarcity to neutral; a second one takes it on to abundance."],
  ["R3", "Lifts a scarcity to neutral on its own; a long-term project can take it on to abundance. If no scarcity fits, it can make a new abundance."],
  ["R4", "Brought home whole, it turns a scarcity into an abundance: useful and ready to use."],
];

const AGENDA = ["Show a world that lives and heals", "Let the characters see what their actions cause", "Play to discover what happens"];

const PRINCIPLES = [
  "Cheer for the characters",
  "Cheer for the world",
  "Ask how everyone is doing, now and then",
  "Bring out the secrets of each place",
  "Reshape the land in big ways",
  "These places are someone’s home, not yours",
  "Picture the new, then picture it ancient",
  "Be honest: add details that follow the story",
  "Share the describing with the other Arbiters",
  "Put your own character in danger",
  "Give every person a name",
  "Give every creature a life of its own",
  "Skip what is dull",
];

// ---- building the card ------------------------------------------------------------------------

const p = (text, attrs = {}) => el("p", attrs, text);
const bullets = (items, cls = "ref-list") => el("ul", { class: cls }, ...items.map((t) => el("li", {}, t)));
const terms = (pairs) => el("dl", { class: "ref-terms" }, ...pairs.flatMap(([term, text]) => [el("dt", {}, term), el("dd", {}, text)]));

function stepsSection() {
  return [
    ...STEPS.map(([title, steps]) =>
      el(
        "div",
        { class: "ref-steps" },
        el("h3", {}, title),
        el(
          "ol",
          {},
          ...steps.map(([n, text, optional]) =>
            el("li", { value: String(n), class: optional ? "optional" : null }, optional ? el("span", { class: "ref-optional" }, "optional ") : null, text),
          ),
        ),
      ),
    ),
    terms([
      ["Body", "strength, speed and athletic feats"],
      ["Mind", "quick thinking and what you know"],
      ["Heart", "reaching other people and pushing through hardship"],
    ]),
  ];
}

function sidesSection() {
  const cell = (text, player) => el("td", { class: player ? "ref-player" : "ref-arbiters" }, text);
  return [
    el(
      "table",
      { class: "ref-table ref-sides", id: "ref-sides-table" },
      el("caption", {}, "Who wins, by which die is higher"),
      el(
        "thead",
        {},
        el("tr", {}, el("td", {}), el("th", { scope: "col" }, "World at risk"), el("th", { scope: "col" }, "Character at risk")),
      ),
      el(
        "tbody",
        {},
        el("tr", {}, el("th", { scope: "row" }, "Mood die higher"), cell("Player wins", true), cell("Arbiters win", false)),
        el("tr", {}, el("th", { scope: "row" }, "Aspect die higher"), cell("Arbiters win", false), cell("Player wins", true)),
      ),
    ),
    p("Character at risk: the player holds the aspect die and the Arbiters the mood die. World at risk: the player holds the mood die and the Arbiters the aspect die. Equal dice are a tie."),
  ];
}

function resultsSection(row) {
  const marked = row === null || row === undefined ? null : Math.min(Math.max(Number(row), 0), 5);
  return [
    el(
      "table",
      { class: "ref-table ref-results", id: "ref-results-table" },
      el("caption", {}, "The difference between the two dice, after the skill"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Difference"), el("th", { scope: "col" }, "Details added"))),
      el(
        "tbody",
        {},
        ...RESULTS.map(([diff, text], i) =>
          el(
            "tr",
            { class: i === marked ? "current" : null, "aria-current": i === marked ? "true" : null, data: { row: String(i) } },
            el("th", { scope: "row" }, diff),
            el("td", {}, text, i === marked ? el("strong", { class: "ref-this-roll" }, " ← this roll") : null),
          ),
        ),
      ),
    ),
    p(GRANT_NOTE),
    p("With the World at risk, each detail written from the roll ticks the collateral clock of the location the party is at, once (none at home)."),
    p("Losing is not a dead end: once the details are down, ask what the character does next."),
  ];
}

function whenSection() {
  return [
    p("Roll when the outcome is uncertain and either way would be interesting, for example:"),
    bullets(CALL_FOR),
    el("h3", {}, "When not to roll"),
    bullets([
      "The stakes are low, or the character is plainly good at it: it just happens.",
      "Someone asks about the world or looks around: most of the time, simply answer.",
      "Roll only when a consequence would make the story better.",
    ]),
  ];
}

function overloadSection() {
  return [
    bullets([
      "A mood overloads when its die shows less than its level and the level is past its threshold (d8: above 4, d6: above 3, d4: above 2). Only one mood is overloaded at a time.",
      "Acting with the overloaded mood gives mood advantage; acting with any other mood gives mood disadvantage. Mark the mood you act with either way.",
      "Acting with another mood ends the overload, whoever wins. A win clears the old mood’s level to 0; a loss marks one sentiment one step; a tie does both.",
      "A helper’s die follows the same rules: helping with their overloaded mood gives it advantage; with another mood it has disadvantage and their overload ends, judged on the roll’s result (the helper is on the player’s side). (Table decision, 2026-11-25.)",
    ]),
    el("h3", {}, "The final box"),
    bullets([
      "When a mark fills a mood’s last box, the player marks one sentiment one step, the winning side renames the mood to something stronger (Curious → Obsessed), and its level goes back to 0.",
      "That reset also ends an overload of that mood: a mood at level 0 is never overloaded. (Table decision, 2026-11-25.)",
    ]),
  ];
}

function sentimentSection() {
  return [
    bullets([
      "Before the dice, a player may stake a sentiment that is not lost (connected or at risk) for mood advantage, saying how it comes into play.",
      "It is marked one step (connected → at risk → lost) whenever the Arbiters or an ally have negative details to add: when the player loses, ties, or wins by exactly 1.",
      "A win by 2 or more leaves it as it was.",
    ]),
    p(
      "Note: the printed reference sheet says any win keeps the sentiment safe. This app follows the full rules of the gameplay chapter instead, so a win by 1 still marks it, because an ally adds a negative detail on that row.",
      { class: "ref-note", id: "ref-sentiment-note" },
    ),
  ];
}

function levelsSection() {
  return [
    p("Each card’s back shows its danger and reward levels, rolled as two d4 when the map is made."),
    el("h3", {}, "Danger"),
    terms(DANGER),
    p("The higher the danger, the more often a lost roll should bring harm."),
    el("h3", {}, "Reward"),
    terms(REWARD),
  ];
}

function complicationsSection() {
  return [
    p("At the start of downtime, roll a d6 for the location just left, on the table for its collateral ticks. A clock at 0 brings no roll; a full clock uses the last table. Describe what it means there and around it."),
    ...[1, 4, 6].map((ticks) => complicationTable(ticks)),
  ];
}

function agendaSection() {
  return [
    el("h3", {}, "Agenda"),
    bullets(AGENDA),
    el("h3", {}, "Principles"),
    bullets(PRINCIPLES),
  ];
}

function creationSection() {
  return [
    terms([
      ["Moods", "A big mood die helps when the World is at risk and hurts when the Character is. Put on the d8 the mood the character acts from when taking care not to harm the world, on the d4 the one they act from when protecting themselves, and on the d6 one in between. Three lines stay open for moods found in play."],
      ["Aspects", "Body, Mind and Heart take the d4, d6 and d8. The aspect die is rolled in every action roll; it is the player’s die when the Character is at risk. A big aspect die guards the character, often at the world’s expense."],
      ["Sentiments", "Three things the character holds dear, such as a possession, a belief and a relationship; not more than one of each kind."],
      ["Skills", "Three things the character is good at, each at ±1. A skill written in play starts at 0; each aspect used with it marks a box, and all three boxes let it go up by 1 in downtime."],
      ["Rumours", "Something the character has heard about each of the two locations its player wrote."],
    ]),
  ];
}

const SECTIONS = [
  ["steps", "The action roll, step by step", () => stepsSection()],
  ["sides", "Who holds which die", () => sidesSection()],
  ["results", "Results table", (row) => resultsSection(row)],
  ["details", "Kinds of details", () => [terms(DETAILS), p("A hard detail may always be taken as a scene or a soft detail instead.")]],
  ["when", "When to call for a roll", () => whenSection()],
  ["overload", "Overload and the final box", () => overloadSection()],
  ["sentiment", "Risking a sentiment", () => sentimentSection()],
  ["levels", "Danger and reward levels", () => levelsSection()],
  ["complications", "Complication tables", () => complicationsSection()],
  ["agenda", "Agenda and principles (for the Arbiters)", () => agendaSection()],
  ["creation", "Making a character", () => creationSection()],
];

// ---- the dialog -----------------------------------------------------------------------------

let dialog = null;
let opener = null;

function build() {
  // The roll wizard's dialog frame (roll.css): full-screen on phones, the head and its X-card
  // pinned, only the body scrolls.
  dialog = nsuDialog(
    { id: "nsu-reference", key: "reference", cls: "roll-wizard reference-dialog", title: "Reference", closeLabel: "Close the reference" },
    el("div", { id: "reference-body", class: "roll-body reference-body" }),
  );
  // Escape closes it too; either way the focus goes back to what opened it.
  dialog.addEventListener("close", () => {
    const back = opener;
    opener = null;
    if (back && back.isConnected) back.focus();
  });
}

/**
 * Opens the reference card over whatever is showing. `row` (0–5, 5 for "5 or more") marks
 * the current roll's row and opens the results table; `section` (a name from the list on
 * top) opens that section and brings it into view.
 */
export function openReference({ row = null, section = null } = {}) {
  if (dialog === null) build();
  const open = section ?? (row === null || row === undefined ? null : "results");
  const body = dialog.querySelector("#reference-body");
  body.replaceChildren(
    el("p", { class: "muted reference-intro" }, "The rules in short, in this app’s words. Tap a heading to open it."),
    ...SECTIONS.map(([key, title, content]) => {
      const part = disclosure(title, ...content(row));
      part.id = `ref-${key}`;
      part.dataset.section = key;
      part.open = key === open;
      return part;
    }),
  );
  // Opened again while open (a link inside it): only its content changes.
  if (!dialog.open) {
    opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
  }
  const target = open ? dialog.querySelector(`#ref-${open}`) : null;
  if (target) {
    target.querySelector("summary").focus();
    target.scrollIntoView({ block: "start" });
  } else {
    dialog.querySelector("#reference-close").focus();
  }
}
