// The Mezzo action check's sides: the acting elements (one side each) and the failure side with
// their base chances, added and removed with every cast and perk that names a side kept right.

import { el } from "../../kit/dom.js";
import { CHANCES, sideName, sidesOf } from "./check-attempt.js";
import { schedulePreview } from "./check-odds.js";
import { allElements, button, card, checkbox, disclosure, field, numberInput, select, wholeNumber } from "./kit.js";

function chanceSelect(value, attrs) {
  const s = select(CHANCES, attrs);
  s.value = value;
  return s;
}

export function sidesCard(ctx) {
  const c = ctx.ui.check;
  const elements = allElements(ctx.table);
  const changed = () => {
    c.handValues = [];
    schedulePreview(ctx);
  };
  const what = el("input", { type: "text", id: "mzc-description", maxlength: 500, data: { focusKey: "mzc-description" } });
  what.value = c.description;
  what.addEventListener("input", () => {
    c.description = what.value;
  });
  const actions = c.actions.map((a, i) => {
    const taken = c.actions.filter((_, k) => k !== i).map((b) => b.element);
    const pick = select(
      [["", "Choose…"], ...elements.filter((e) => !taken.includes(e.id)).map((e) => [e.id, e.name])],
      { id: `mzc-actor-${i}`, class: "mzc-actor", data: { focusKey: `mzc-actor-${i}` } },
    );
    pick.value = a.element;
    pick.addEventListener("change", () => {
      a.element = pick.value;
      ctx.render();
    });
    const does = el("input", { type: "text", id: `mzc-action-${i}`, maxlength: 500, data: { focusKey: `mzc-action-${i}` } });
    does.value = a.description;
    does.addEventListener("input", () => {
      a.description = does.value;
    });
    const chance = chanceSelect(a.chance, { id: `mzc-chance-${i}`, class: "mzc-chance", data: { focusKey: `mzc-chance-${i}` } });
    chance.addEventListener("change", () => {
      a.chance = chance.value;
      changed();
    });
    const aptitude = numberInput({ id: `mzc-aptitude-${i}`, min: 0, max: 20, value: a.aptitude, data: { focusKey: `mzc-aptitude-${i}` } });
    aptitude.addEventListener("input", () => {
      const n = wholeNumber(aptitude);
      a.aptitude = n !== null && n > 0 ? n : 0;
      changed();
    });
    return el(
      "fieldset",
      { class: "mzc-side", data: { side: String(i) } },
      el("legend", {}, c.actions.length === 1 ? "The action" : `Action ${i + 1}`),
      el(
        "div",
        { class: "mz-fields" },
        field("Acting element", pick),
        field("What it attempts", does),
        field("Base chance", chance),
        field("Aptitude extras", aptitude),
      ),
      c.actions.length > 1 &&
        button("Remove this action", () => removeAction(ctx, i), {
          class: "mzc-remove-action",
          "aria-label": `Remove action ${i + 1}`,
          data: { focusKey: `mzc-remove-action-${i}` },
        }),
    );
  });
  const failWhat = el("input", { type: "text", id: "mzc-failure", maxlength: 500, data: { focusKey: "mzc-failure" } });
  failWhat.value = c.failure.description;
  failWhat.addEventListener("input", () => {
    c.failure.description = failWhat.value;
  });
  const failChance = chanceSelect(c.failure.chance, { id: "mzc-failure-chance", data: { focusKey: "mzc-failure-chance" } });
  failChance.addEventListener("change", () => {
    c.failure.chance = failChance.value;
    changed();
  });
  const contested = c.actions.length > 1;
  const failOn = checkbox("A way for every action to fail (the failure side)", {
    id: "mzc-failure-on",
    checked: c.failure.on || !contested,
    disabled: !contested,
    data: { focusKey: "mzc-failure-on" },
  });
  failOn.box.addEventListener("change", () => {
    c.failure.on = failOn.box.checked;
    c.perks = [];
    resetSides(c, (s) => (s >= c.actions.length ? 0 : s));
    ctx.render();
  });
  const withFailure = c.failure.on || !contested;
  return card(
    "mzc-sides",
    "The action check",
    field("What is being attempted", what),
    ...actions,
    button("Add a contested action", () => addAction(ctx), {
      id: "mzc-add-action",
      disabled: c.actions.length >= 7 || elements.length <= c.actions.length,
      data: { focusKey: "mzc-add-action" },
    }),
    el("p", { class: "mz-hint muted hint" }, "Contested: each acting element is a side of its own; the highest roll takes effect."),
    el(
      "fieldset",
      { class: "mzc-side mzc-failure" },
      el("legend", {}, "Failure"),
      contested ? failOn.node : el("p", { class: "mz-hint muted" }, "One action always has a way to fail."),
      withFailure &&
        el("div", { class: "mz-fields" }, field("How it fails", failWhat), field("Base chance of failure", failChance)),
    ),
    disclosure("How base chance works", el("p", { class: "mz-hint muted hint" }, "Base chance replaces free votes: negligible 0, occasional 1, common 2 (each Aptitude a step more). When a side is negligible and one is left, no check is needed.")),
  );
}

/** Moves every side reference in the casts and perks through `shift` (-1 drops it). */
function resetSides(c, shift) {
  for (const mine of Object.values(c.casts)) {
    for (const part of [mine.law, mine.influence]) {
      const moved = shift(part.side);
      if (moved === -1) {
        part.side = 0;
        if (part === mine.law) part.kind = "";
        else part.points = 0;
      } else part.side = moved;
    }
  }
  c.perks = c.perks.map((p) => ({ ...p, side: shift(p.side) })).filter((p) => p.side >= 0);
  c.traitVotes = c.traitVotes.map((v) => ({ ...v, side: shift(v.side) })).filter((v) => v.side >= 0);
  const totals = [];
  c.totals.forEach((n, side) => {
    const moved = shift(side);
    if (moved >= 0) totals[moved] = n;
  });
  c.totals = totals;
  c.handValues = [];
}

function addAction(ctx) {
  const c = ctx.ui.check;
  const n = c.actions.length;
  c.actions.push({ element: "", description: "", chance: "common", aptitude: 0 });
  // The failure side moves one place on.
  resetSides(c, (s) => (s >= n ? s + 1 : s));
  ctx.render(`#mzc-actor-${n}`);
}

function removeAction(ctx, i) {
  const c = ctx.ui.check;
  c.actions.splice(i, 1);
  resetSides(c, (s) => (s === i ? -1 : s > i ? s - 1 : s));
  ctx.render(`#mzc-actor-${Math.min(i, c.actions.length - 1)}`);
}

export function sideSelect(ctx, value, attrs) {
  const sides = sidesOf(ctx.ui.check);
  const s = select(sides.map((side, i) => [String(i), sideName(ctx, side)]), attrs);
  s.value = String(Math.min(value, sides.length - 1));
  return s;
}
