// The approach (issue 34), on the roll wizard's mood step under the rules hints: every aspect
// with every mood line, with the chances the roll would have (from the core, as the CLI's
// `sheetkeeper odds nsu --choices`), the best overall and per aspect marked. Tapping one sets
// that aspect and mood. The list shows the chosen aspect's moods, with a button to show all.

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { EDGE_WORDS, pct, render, setupOf, sheet, w } from "./roll-state.js";
import { ASPECT_WORDS, quoted } from "./words.js";

/**
 * The set-up the approaches start from. Its aspect, mood and desired outcome are what the
 * approaches vary (the core sets its own), so the same ones are always sent: a tap that
 * changes them finds the list it drew in the wizard's state, and draws it at once.
 */
function baseSetup() {
  return { ...setupOf(), desired_outcome: "", aspect: "body", mood: { kind: "new", line: 0, name: "" } };
}

/** "Heart with “Calm” (d8): 42.0% to win, 30.0% to tie — best". */
function approachWords(a) {
  const mood = a.new_mood ? "a new mood" : quoted(sheet().moods[a.mood_line].name);
  const edge = a.plan.mood_edge === "none" ? "" : `, ${EDGE_WORDS[a.plan.mood_edge]}`;
  const mark = a.best ? " — best" : a.best_for_aspect ? ` — best for ${ASPECT_WORDS[a.aspect]}` : "";
  const odds = `${pct(a.odds.win)} to win, ${pct(a.odds.tie)} to tie`;
  const not = a.unavailable ? " (not now: its final box waits)" : "";
  return `${ASPECT_WORDS[a.aspect]} with ${mood} (${a.plan.mood_die}${edge}): ${odds}${mark}${not}`;
}

/**
 * The list, drawn into the mood step; fetched once per set-up (the wizard's state keeps the
 * last one, so a tap that redraws the step does not ask again). Any error leaves it out:
 * the mood step works as before.
 */
export function approachList() {
  const list = el("ul", { id: "roll-approach-list", class: "roll-approach-list" });
  const toggle = el("button", { type: "button", id: "roll-approach-all", class: "roll-approach-all", hidden: true });
  const helping = w.helperDie !== "";
  const node = el(
    "section",
    { id: "roll-approaches", class: "hint roll-approaches", "aria-labelledby": "roll-approaches-title" },
    el("h4", { id: "roll-approaches-title" }, "The chances of each approach"),
    el(
      "p",
      { class: "muted" },
      `With what is at risk, the details, skill and sentiment as chosen so far${helping ? ` and the helper’s ${w.helperDie}` : ""}. ` +
        "The Arbiters choose the aspect, the player the mood; tap one to set both.",
    ),
    list,
    toggle,
  );
  const setup = baseSetup();
  if (!setup.at_risk) return node;
  const args = [w.id, setup, helping ? w.helperDie : null, helping ? w.helperEdge : null];
  const key = JSON.stringify(args);
  const draw = (all) => {
    const aspect = w.setup.aspect;
    const showAll = w.approachesAll || !aspect;
    const shown = showAll ? all : all.filter((a) => a.aspect === aspect);
    list.replaceChildren(...shown.map((a) => el("li", {}, approachButton(a))));
    toggle.hidden = !aspect;
    toggle.textContent = showAll ? `Only ${ASPECT_WORDS[aspect]}` : `Show every aspect (${all.length})`;
    toggle.setAttribute("aria-expanded", String(showAll));
    toggle.setAttribute("aria-controls", "roll-approach-list");
  };
  toggle.addEventListener("click", () => {
    w.approachesAll = !w.approachesAll;
    draw(w.approaches.list);
    byId("roll-approach-all")?.focus();
  });
  if (w.approaches && w.approaches.key === key) {
    draw(w.approaches.list);
  } else {
    api
      .nsuRollApproaches(...args)
      .then((all) => {
        if (!w) return;
        w.approaches = { key, list: all };
        draw(all);
      })
      .catch(() => node.remove());
  }
  return node;
}

/** Marks the approach the wizard holds now (after a mood is picked by its own radio). */
export function markApproach() {
  for (const b of document.querySelectorAll("#roll-approach-list .roll-approach")) {
    const chosen = b.dataset.aspect === w.setup.aspect && Number(b.dataset.line) === w.setup.moodLine;
    b.setAttribute("aria-pressed", String(chosen));
  }
}

function approachButton(a) {
  const id = `roll-approach-${a.aspect}-${a.mood_line}`;
  const chosen = w.setup.aspect === a.aspect && w.setup.moodLine === a.mood_line;
  const cls = ["roll-approach", a.best ? "best" : "", a.best_for_aspect ? "best-for-aspect" : ""].filter(Boolean).join(" ");
  const b = el(
    "button",
    {
      type: "button",
      id,
      class: cls,
      data: { aspect: a.aspect, line: String(a.mood_line) },
      "aria-pressed": String(chosen),
      disabled: Boolean(a.unavailable),
      title: a.unavailable ?? `Win ${pct(a.odds.win)} · Tie ${pct(a.odds.tie)} · Lose ${pct(a.odds.lose)}`,
    },
    approachWords(a),
  );
  b.addEventListener("click", () => {
    w.setup.aspect = a.aspect;
    w.setup.moodLine = a.mood_line;
    render();
    byId(id)?.focus();
  });
  return b;
}
