// The Mezzo challenge's set-up: the start form (its description, the sides, the challengers on
// them with their stakes, the goals; or drafted from a lost action check), and Rest &
// Recuperation on an element's flaws while no challenge is played.

import { el } from "../../kit/dom.js";
import * as api from "./api.js";
import {
  elementOf,
  extrasOf,
  flawWords,
  flawsOf,
  fleeting,
  hasModifier,
  nameOf,
  newDraft,
  newMajor,
  newPerk,
  play,
  state,
} from "./challenge-state.js";
import { WORDS, MAX_SIDES, allElements, button, card, checkbox, disclosure, field, form, select } from "./kit.js";

// ---- the start -----------------------------------------------------------------------------------

/** The start form's draft from a lost check: the losers on side 1, the winner on side 2. */
export function draftFromCheck(check) {
  const d = newDraft();
  d.description = check.description ?? "";
  check.sides.forEach((side, i) => {
    if (side.kind.kind === "action" && side.score != null) d.sideOf[side.kind.element] = i === check.outcome?.winner ? "1" : "0";
  });
  return d;
}

/** What the start form says about the lost check it starts from, with a way back out. */
function fromCheckPart(ctx, check) {
  const s = state(ctx);
  const who = (side) => (side.kind.kind === "action" ? nameOf(ctx, side.kind.element) : "The failure");
  const rolled = check.sides.filter((x) => x.score != null);
  const winner = check.sides[check.outcome?.winner];
  const losers = rolled.filter((x) => x !== winner).map(who);
  const scores = rolled.map((x) => `${who(x)} ${x.score}`).join(", ");
  return el(
    "div",
    { class: "mzch-from-check" },
    el(
      "p",
      { id: "mzch-from-check", tabindex: "-1" },
      `From the action check “${check.description || "untitled"}”: ${losers.join(" and ")} lost (${scores}). Its scores are the first round's major actions; whoever backs the loser joins the loser's side.`,
    ),
    el(
      "div",
      { class: "actions" },
      button(
        "Not from this check",
        () => {
          s.fromCheck = null;
          s.draft = newDraft();
          s.starting = false;
          ctx.render("#mzch-start-heading");
        },
        { id: "mzch-from-check-cancel" },
      ),
    ),
  );
}

export function startCard(ctx) {
  const s = state(ctx);
  const d = s.draft;
  const elements = allElements(ctx.table);
  const takers = elements.filter((e) => e.kind !== "goal");
  const goals = elements.filter((e) => e.kind === "goal");
  if (takers.length < 2) {
    return card(
      "mzch-start",
      "Start a challenge",
      el("p", { class: "muted", id: "mzch-start-empty" }, "A challenge needs at least two story elements on opposing sides: add characters and obstacles (objects, locations, factions) on the Story elements tab."),
    );
  }
  const description = el("input", { type: "text", id: "mzch-description", maxlength: 500, data: { focusKey: "mzch-description" } });
  description.value = d.description;
  description.addEventListener("input", () => {
    d.description = description.value;
  });
  const sides = d.sides.map((side, i) => {
    const name = el("input", { type: "text", id: `mzch-side-name-${i}`, maxlength: 200, data: { focusKey: `mzch-side-name-${i}` } });
    name.value = side.name;
    name.addEventListener("input", () => {
      side.name = name.value;
    });
    return el(
      "li",
      { class: "mz-option" },
      field(`Side ${i + 1}: what it wants`, name),
      d.sides.length > 2 &&
        button(
          "Remove",
          () => {
            d.sides.splice(i, 1);
            for (const [id, v] of Object.entries(d.sideOf)) {
              if (v === String(i)) d.sideOf[id] = "";
              else if (v !== "" && Number(v) > i) d.sideOf[id] = String(Number(v) - 1);
            }
            ctx.render("#mzch-add-side");
          },
          { "aria-label": `Remove side ${i + 1}`, data: { focusKey: `mzch-remove-side-${i}` } },
        ),
    );
  });
  const sideChoices = [["", "Not taking part"], ...d.sides.map((side, i) => [String(i), side.name.trim() ? `Side ${i + 1}: ${side.name.trim()}` : `Side ${i + 1}`])];
  const rows = takers.map((e) => {
    const pick = select(sideChoices, { id: `mzch-side-of-${e.id}`, data: { focusKey: `mzch-side-of-${e.id}` } });
    pick.value = d.sideOf[e.id] ?? "";
    pick.addEventListener("change", () => {
      d.sideOf[e.id] = pick.value;
      ctx.render();
    });
    const stake = el("input", { type: "text", id: `mzch-stake-of-${e.id}`, maxlength: 500, data: { focusKey: `mzch-stake-of-${e.id}` } });
    stake.value = d.stakeOf[e.id] ?? "";
    stake.addEventListener("input", () => {
      d.stakeOf[e.id] = stake.value;
    });
    const nameId = `mzch-taker-${e.id}`;
    return el(
      "li",
      { class: "mzch-taker", data: { elementId: e.id } },
      el("div", { class: "mz-row" }, el("strong", { class: "grow", id: nameId }, e.name), el("span", { class: "mz-badge mz-kind" }, WORDS.kind[e.kind] ?? e.kind)),
      el("div", { class: "mz-fields" }, field("Side", pick), field("Stake (optional)", stake)),
    );
  });
  const chosen = takers.filter((e) => (d.sideOf[e.id] ?? "") !== "");
  const goalRows = goals.map((g) => {
    d.supporters[g.id] = (d.supporters[g.id] ?? []).filter((id) => chosen.some((e) => e.id === id));
    const boxes = chosen.map((e) => {
      const box = checkbox(e.name, { id: `mzch-supports-${g.id}-${e.id}`, checked: d.supporters[g.id].includes(e.id), data: { focusKey: `mzch-supports-${g.id}-${e.id}` } });
      box.box.addEventListener("change", () => {
        const list = d.supporters[g.id];
        d.supporters[g.id] = box.box.checked ? [...list, e.id] : list.filter((x) => x !== e.id);
      });
      return box.node;
    });
    return el(
      "fieldset",
      { class: "mzch-goal-setup" },
      el("legend", {}, `Goal: ${g.name}`),
      chosen.length === 0 ? el("p", { class: "muted" }, "Put challengers on sides first.") : el("div", { class: "mz-checks" }, ...boxes),
      el("p", { class: "mz-hint muted" }, "Its supporters, all of one side. With none it is not part of this challenge."),
    );
  });
  return card(
    "mzch-start",
    s.fromCheck ? "Start a challenge from the action check" : s.challenge ? "Start the next challenge" : "Start a challenge",
    form(
      { id: "mzch-start-form", "aria-label": "A new challenge" },
      [
        s.fromCheck && fromCheckPart(ctx, s.fromCheck),
        field("What the challenge is about", description),
        el("h4", {}, "Sides"),
        el("ol", { class: "mz-options", id: "mzch-sides-setup" }, ...sides),
        el(
          "div",
          { class: "actions" },
          button(
            "Add a side",
            () => {
              d.sides.push({ name: "" });
              ctx.render(`#mzch-side-name-${d.sides.length - 1}`);
            },
            { id: "mzch-add-side", disabled: d.sides.length >= MAX_SIDES, data: { focusKey: "mzch-add-side" } },
          ),
        ),
        el("h4", {}, "Challengers"),
        el("p", { class: "mz-hint muted hint" }, "Characters and obstacles (objects, locations, factions). Each side starts with at least one; each challenger holds at most one stake."),
        el("ul", { class: "mz-list mz-cards", id: "mzch-takers" }, ...rows),
        goals.length > 0 && el("h4", {}, "Goals"),
        ...goalRows,
        el("button", { type: "submit", class: "primary mz-big-button", id: "mzch-start-submit", data: { focusKey: "mzch-start-submit" } }, s.fromCheck ? "Start the challenge from this check" : "Start the challenge"),
      ],
      (b) => start(ctx, b),
    ),
  );
}

async function start(ctx, b) {
  const s = state(ctx);
  const d = s.draft;
  const takers = allElements(ctx.table).filter((e) => e.kind !== "goal" && (d.sideOf[e.id] ?? "") !== "");
  const draft = {
    description: d.description.trim(),
    sides: d.sides.map((side) => ({ name: side.name.trim() })),
    challengers: takers.map((e) => {
      const stake = (d.stakeOf[e.id] ?? "").trim();
      return { element: e.id, side: Number(d.sideOf[e.id]), ...(stake ? { stake } : {}) };
    }),
    goals: Object.entries(d.supporters)
      .filter(([, list]) => list.length > 0)
      .map(([element, supporters]) => ({ element, supporters })),
  };
  const from = s.fromCheck;
  const call = from ? () => api.mezzoChallengeFromCheck(ctx.gameId, from.id, draft) : () => api.mezzoChallengeStart(ctx.gameId, draft);
  const done = await play(ctx, "The challenge was not started.", call, b, () => {
    s.fromCheck = null;
    s.draft = newDraft();
    s.starting = false;
    s.major = newMajor(ctx.diceByHand);
    s.perk = newPerk();
  });
  if (done) ctx.render("#mzch-status-heading");
}

// ---- Rest & Recuperation -------------------------------------------------------------------------

export function restCard(ctx) {
  const s = state(ctx);
  const elements = allElements(ctx.table).filter((e) => e.kind !== "goal");
  if (elements.length === 0) return null;
  if (!elements.some((e) => e.id === s.rr.element)) s.rr.element = elements[0].id;
  const pick = select(elements.map((e) => [e.id, e.name]), { id: "mzch-rr-element", data: { focusKey: "mzch-rr-element" } });
  pick.value = s.rr.element;
  pick.addEventListener("change", () => {
    s.rr.element = pick.value;
    ctx.render();
  });
  const e = elementOf(ctx, s.rr.element);
  const rows = [];
  for (const f of flawsOf(e)) {
    const transient = hasModifier(e, f.id, "transient_flaw");
    const moves = [];
    if (fleeting(e, f)) {
      moves.push(button("Take a breather", (b) => ctx.move("The breather was refused.", () => api.mezzoTakeBreather(ctx.gameId, e.id, f.id), b), { id: `mzch-breather-${f.id}` }));
    }
    if (f.template === "restraint" && transient) {
      moves.push(button("Escape", (b) => ctx.move("The restraint stays.", () => api.mezzoEscapeRestraints(ctx.gameId, e.id, f.id), b), { id: `mzch-escape-${f.id}` }));
    }
    if (hasModifier(e, f.id, "wound") && transient) {
      const extras = extrasOf(e, f.id);
      const recovery = select(
        [["not_made", "No Recovery Check"], ["passed", "Recovery Check passed"], ["ample_time", "Triple the time taken"]],
        { id: `mzch-recovery-${f.id}` },
      );
      moves.push(
        field("Recovery (Vicious Wounds)", recovery, null, "field mzch-recovery"),
        button(
          extras.length > 0 ? `Treat: remove ${extras.slice(0, 2).map((x) => x.name).join(" and ")}` : "Treat: it turns One-Shot",
          (b) => {
            const vicious = extras.filter((x) => x.template === "vicious_wound");
            const removed = (vicious.length > 0 ? vicious : extras).slice(0, 2).map((x) => x.id);
            const effect = extras.length > 0 ? { kind: "remove_extras", extras: removed } : { kind: "one_shot" };
            ctx.move("The wound was not treated.", () => api.mezzoTreatWounds(ctx.gameId, e.id, f.id, effect, recovery.value), b);
          },
          { id: `mzch-treat-${f.id}` },
        ),
      );
    }
    rows.push(
      el(
        "li",
        { class: "mzch-rr-flaw" },
        el("p", {}, el("strong", {}, flawWords(e, f))),
        moves.length > 0 ? el("div", { class: "actions mzch-rr-moves" }, ...moves) : el("p", { class: "muted" }, "Nothing to recover here."),
      ),
    );
  }
  return card(
    "mzch-rest",
    "Rest & Recuperation",
    disclosure("What each rest does", el("p", { class: "mz-hint muted hint" }, "Outside challenges: Take Breather clears a One-Shot, Transient flaw; Escape Restraints removes a Transient restraint; Treat Wounds heals a Transient wound.")),
    field("Story element", pick),
    rows.length > 0 ? el("ul", { class: "mz-list", id: "mzch-rr-list" }, ...rows) : el("p", { class: "muted", id: "mzch-rr-list" }, "No flaws."),
  );
}
