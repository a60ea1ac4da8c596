// The Mezzo challenge's perks: the open action's perks traded, declared on their targets with
// the fields each needs (damage, healing), removed by a Final Counter or settled; and No
// Escape's pay-off.

import { el } from "../../kit/dom.js";
import * as api from "./api.js";
import {
  MINOR_FLAWS,
  NOBODY,
  PERKS,
  RESULT_WORDS,
  WOUND_EXTRAS,
  WOUND_FLAWS,
  elementOf,
  extrasOf,
  flawWords,
  flawsOf,
  fleeting,
  hasModifier,
  nameOf,
  newPerk,
  oneShotsOf,
  play,
  playMove,
  restraintsOf,
  state,
  woundsOf,
} from "./challenge-state.js";
import { perkWords } from "./challenge-status.js";
import { button, card, checkbox, field, form, plural, select, templateName } from "./kit.js";

// ---- perks -------------------------------------------------------------------------------------------

export function perksCard(ctx, ch) {
  const s = state(ctx);
  const a = ch.actions.find((x) => x.index === ch.open_action);
  if (!a) return card("mzch-perks", "Perks", el("p", { class: "muted" }, "No perks are open."));
  const p = s.perk;
  if (p.action !== a.index) {
    s.perk = { ...newPerk(), action: a.index };
    return perksCard(ctx, ch);
  }
  const left = el(
    "p",
    { class: "mz-summary", id: "mzch-perks-left" },
    `${a.name}: ${plural(a.majors_left, "major perk")} and ${plural(a.minors_left, "minor perk")} left`,
  );
  const declared = a.declared.length > 0
    ? el("ul", { class: "mz-list", id: "mzch-declared" }, ...a.declared.map((d, i) => el("li", {}, perkWords(ctx, d), temptingTarget(ctx, a, d, i))))
    : el("p", { class: "muted", id: "mzch-declared" }, "Nothing declared yet.");
  const counterer = select(ch.challengers.filter((c) => c.status === "in").map((c) => [c.element, c.name]), { id: "mzch-counter-who" });
  return card(
    "mzch-perks",
    `Perks of ${a.name}'s major action`,
    el("p", { class: "muted" }, `${a.score} against ${a.opposing}: ${RESULT_WORDS[a.result] ?? a.result}.`),
    left,
    el("h4", {}, "Declared"),
    declared,
    a.majors_left > 0 &&
      button("Trade a major perk for two minor perks", (b) => playMove(ctx, "The perk was not traded.", { move: "trade", action: a.index }, b), { id: "mzch-trade", data: { focusKey: "mzch-trade" } }),
    a.majors_left + a.minors_left > 0 ? declareForm(ctx, ch, a) : null,
    el(
      "div",
      { class: "actions mzch-settle" },
      button(
        a.majors_left + a.minors_left > 0 ? "Settle (the rest is forfeited)" : "Settle: the perks take effect",
        (b) => playMove(ctx, "The perks did not settle.", { move: "settle", action: a.index }, b),
        { id: "mzch-settle", class: a.majors_left + a.minors_left > 0 ? "mz-big-button" : "primary mz-big-button", data: { focusKey: "mzch-settle" } },
      ),
    ),
    el(
      "details",
      { class: "mzch-more", id: "mzch-counter" },
      el("summary", {}, "Final Counter"),
      form({ id: "mzch-counter-form", "aria-label": "Final Counter" }, [
        field("Who sacrifices its Plot Protection", counterer, "Removes every perk of this action."),
        el("button", { type: "submit", class: "danger", id: "mzch-counter-submit" }, "Final Counter"),
      ], (b) => playMove(ctx, "The Final Counter was refused.", { move: "final_counter", action: a.index, element: counterer.value }, b)),
    ),
  );
}

/** The element a harmful perk targets (as the core's PerkUse::harms), or null. */
function harmed(p) {
  if (["hinder", "expose", "bind", "damage"].includes(p.kind)) return p.target;
  return p.kind === "ruin" ? p.goal : null;
}

/** Tempting Target (Adversity Debt): offered on a harmful perk whose target owes debt. */
function temptingTarget(ctx, a, p, i) {
  const target = harmed(p);
  const e = target ? elementOf(ctx, target) : null;
  if (!e || !(e.adversity_debt > 0)) return null;
  return el(
    "div",
    { class: "actions mzch-tempting" },
    button(
      `Tempting Target: ${a.name} takes 1 adversity, ${e.name} pays off 1 debt`,
      (b) => play(ctx, "Tempting Target was refused.", () => api.mezzoTemptingTarget(ctx.gameId, a.index, target), b),
      { id: `mzch-tempting-${i}`, data: { focusKey: `mzch-tempting-${i}` } },
    ),
  );
}

function declareForm(ctx, ch, a) {
  const s = state(ctx);
  const p = s.perk;
  const allowed = PERKS.filter(([, , major]) => (major ? a.majors_left > 0 : a.minors_left > 0));
  const actor = ch.challengers.find((c) => c.element === a.challenger);
  const fields = perkFields(ctx, ch, p, {
    allowed,
    actorSide: actor?.side,
    candidates: ch.challengers.filter((c) => c.status === "in"),
    px: "mzch",
    onKind: (kind) => {
      s.perk = { ...newPerk(), action: a.index, kind, target: p.target };
    },
  });
  return form(
    { id: "mzch-declare-form", "aria-label": "Declare a perk" },
    [
      el("h4", {}, "Declare a perk"),
      el("div", { class: "mz-fields" }, ...fields),
      el("button", { type: "submit", class: "primary", id: "mzch-declare" }, "Declare"),
    ],
    (b) => {
      const perk = perkOf(p);
      if (!perk) return;
      playMove(ctx, "The perk was not declared.", { move: "declare", action: a.index, perk }, b, () => {
        s.perk = { ...newPerk(), action: a.index, kind: p.kind, target: p.target };
      }).then((done) => {
        if (done) ctx.render("#mzch-perks-heading");
      });
    },
  );
}

/**
 * The fields choosing a perk and its target, kept in `p` (a newPerk()). Shared by a major
 * action's perks and claiming stakes: `allowed` perks, the acting side, the challengers it may
 * target, an id prefix `px`, and what a new kind resets (`onKind`).
 */
export function perkFields(ctx, ch, p, { allowed, actorSide, candidates, px, onKind, claimed = false }) {
  if (!allowed.some(([v]) => v === p.kind)) p.kind = allowed[0][0];
  const rerender = (focus) => ctx.render(focus);
  const kind = select(allowed.map(([v, n, major]) => [v, `${n} (${major ? "major" : "minor"})`]), { id: `${px}-perk-kind`, data: { focusKey: `${px}-perk-kind` } });
  kind.value = p.kind;
  kind.addEventListener("change", () => {
    onKind(kind.value);
    rerender();
  });
  const hint = PERKS.find(([v]) => v === p.kind)[3];
  const fields = [field("Perk", kind, hint)];
  const actor = { side: actorSide };
  const inNow = candidates;
  const onElement = !["discover", "push", "ruin"].includes(p.kind);
  let target = null;
  if (onElement) {
    // Harmful perks default to an opponent, helpful ones to the actor's side.
    const helpful = ["recover", "break_free", "heal"].includes(p.kind);
    const order = [...inNow].sort((x, y) => Number((x.side === actor?.side) !== helpful) - Number((y.side === actor?.side) !== helpful));
    if (!inNow.some((c) => c.element === p.target)) p.target = order[0]?.element ?? "";
    const pick = select(order.map((c) => [c.element, `${c.name} (side ${c.side + 1})`]), { id: `${px}-perk-target`, data: { focusKey: `${px}-perk-target` } });
    pick.value = p.target;
    pick.addEventListener("change", () => {
      p.target = pick.value;
      p.restraint = "";
      p.wound = "new";
      p.expend = [];
      p.healExtras = [];
      rerender();
    });
    fields.push(field("On", pick));
    target = elementOf(ctx, p.target);
  }
  const text = (id, label, key, hintText = null) => {
    const input = el("input", { type: "text", id, maxlength: 200, data: { focusKey: id } });
    input.value = p[key];
    input.addEventListener("input", () => {
      p[key] = input.value;
    });
    return field(label, input, hintText);
  };
  const templatePick = (choices, label) => {
    if (!choices.some(([v]) => v === p.template)) p.template = choices[0][0];
    const t = select(choices, { id: `${px}-perk-template`, data: { focusKey: `${px}-perk-template` } });
    t.value = p.template;
    t.addEventListener("change", () => {
      p.template = t.value;
      p.targetTrait = "";
      rerender();
    });
    const picked = [field(label, t)];
    // A Dulled Edge dulls one of the target's edges (or extras); an Impaired Ability may name an Ability.
    const selectable =
      p.template === "dulled_edge"
        ? (target?.traits ?? []).filter((x) => x.kind === "edge" || x.kind === "extra").map((x) => [x.id, x.name])
        : p.template === "impaired_ability"
          ? [["", "No Ability named"], ...(target?.traits ?? []).filter((x) => x.template === "ability").map((x) => [x.id, x.name])]
          : null;
    if (selectable) {
      if (!selectable.some(([v]) => v === p.targetTrait)) p.targetTrait = selectable[0]?.[0] ?? "";
      const which = select(selectable.length > 0 ? selectable : [["", "The target has no edge to dull"]], { id: `${px}-perk-trait`, data: { focusKey: `${px}-perk-trait` } });
      which.value = p.targetTrait;
      which.addEventListener("change", () => {
        p.targetTrait = which.value;
      });
      picked.push(field(p.template === "dulled_edge" ? "The edge it dulls" : "The Ability it impairs", which));
    }
    return picked;
  };
  const flawPick = (id, label, flaws, key) => {
    if (!flaws.some((f) => f.id === p[key])) p[key] = flaws[0]?.id ?? "";
    const f = select(flaws.length > 0 ? flaws.map((x) => [x.id, flawWords(target, x)]) : [["", "None"]], { id, data: { focusKey: id } });
    f.value = p[key];
    f.addEventListener("change", () => {
      p[key] = f.value;
      p.healExtras = [];
      rerender();
    });
    return field(label, f);
  };
  if (p.kind === "hinder") fields.push(...templatePick(MINOR_FLAWS, "Flaw"), text(`${px}-perk-name`, "The new flaw's name", "name"));
  if (p.kind === "expose") fields.push(text(`${px}-perk-name`, "The new Vulnerability's name", "name"));
  if (p.kind === "bind") fields.push(text(`${px}-perk-name`, "The new Restraint's name", "name"));
  if (p.kind === "discover") fields.push(text(`${px}-perk-detail`, "What the challenger finds", "detail"));
  // Recover and Heal work on what this challenge gave the target (the core's `gained`).
  const gained = ch.challengers.find((c) => c.element === target?.id)?.gained ?? [];
  if (p.kind === "recover") fields.push(flawPick(`${px}-perk-flaw`, "Flaw to remove", flawsOf(target).filter((f) => fleeting(target, f) && gained.includes(f.id)), "restraint"));
  if (p.kind === "break_free") {
    fields.push(
      flawPick(`${px}-perk-restraint`, "Restraint to remove", restraintsOf(target).filter((f) => hasModifier(target, f.id, "transient_flaw")), "restraint"),
      ...templatePick(WOUND_FLAWS, "The minor flaw it gains"),
      text(`${px}-perk-name`, "That flaw's name", "name"),
    );
  }
  if (p.kind === "damage") fields.push(...damageFields(ctx, p, target, templatePick, text, px, claimed));
  if (p.kind === "heal") fields.push(...healFields(ctx, p, target, flawPick, gained, px));
  if (p.kind === "push" || p.kind === "ruin") {
    const goals = ch.goals.filter((g) => (p.kind === "push" ? g.side === actor?.side : g.side !== actor?.side));
    if (!goals.some((g) => g.element === p.goal)) p.goal = goals[0]?.element ?? "";
    const g = select(goals.length > 0 ? goals.map((x) => [x.element, `${x.name} (${plural(x.trumps, "trump")})`]) : [["", "No goal fits"]], { id: `${px}-perk-goal`, data: { focusKey: `${px}-perk-goal` } });
    g.value = p.goal;
    g.addEventListener("change", () => {
      p.goal = g.value;
    });
    fields.push(field("Goal", g));
  }
  return fields;
}

function damageFields(ctx, p, target, templatePick, text, px, claimed) {
  const wounds = woundsOf(target);
  if (p.wound !== "new" && !wounds.some((w) => w.id === p.wound)) p.wound = "new";
  const how = select([["new", "A new wound"], ...wounds.map((w) => [w.id, `Worsen ${flawWords(target, w)} (+2 extras)`])], { id: `${px}-perk-wound`, data: { focusKey: `${px}-perk-wound` } });
  how.value = p.wound;
  how.addEventListener("change", () => {
    p.wound = how.value;
    ctx.render();
  });
  const out = [field("Wound", how)];
  if (p.wound === "new") out.push(...templatePick(WOUND_FLAWS, "The wound's flaw"), text(`${px}-perk-name`, "The wound's name", "name"));
  const shots = oneShotsOf(target).filter((f) => f.id !== p.wound);
  if (shots.length > 0) {
    const boxes = shots.map((f) => {
      const box = checkbox(`Expend ${flawWords(target, f)} (+1 extra)`, { id: `${px}-expend-${f.id}`, checked: p.expend.includes(f.id), data: { focusKey: `${px}-expend-${f.id}` } });
      box.box.addEventListener("change", () => {
        p.expend = box.box.checked ? [...p.expend, f.id] : p.expend.filter((x) => x !== f.id);
        ctx.render();
      });
      return box.node;
    });
    out.push(el("fieldset", { class: "mzch-wide" }, el("legend", {}, "One-Shot flaws to expend"), el("div", { class: "mz-checks" }, ...boxes)));
  }
  const wanted = (p.wound === "new" ? 0 : 2) + p.expend.length;
  while (p.extras.length < wanted) p.extras.push(WOUND_EXTRAS[0][0]);
  p.extras.length = wanted;
  p.extras.forEach((x, i) => {
    const s = select(WOUND_EXTRAS, { id: `${px}-extra-${i}`, data: { focusKey: `${px}-extra-${i}` } });
    s.value = x;
    s.addEventListener("change", () => {
      p.extras[i] = s.value;
    });
    out.push(field(`Extra ${i + 1}`, s));
  });
  // A claimed perk lands as its buyer leaves: it takes nobody out (the core refuses it).
  if (claimed) return out;
  const takes = checkbox("It takes the target out (it can no longer contribute)", { id: `${px}-takes-out`, checked: p.takesOut, data: { focusKey: `${px}-takes-out` } });
  takes.box.addEventListener("change", () => {
    p.takesOut = takes.box.checked;
  });
  out.push(el("div", { class: "mzch-wide" }, takes.node));
  return out;
}

function healFields(ctx, p, target, flawPick, gained, px) {
  const wounds = woundsOf(target).filter((w) => hasModifier(target, w.id, "transient_flaw") && gained.includes(w.id));
  const out = [flawPick(`${px}-perk-heal-wound`, "Wound", wounds, "restraint")];
  const wound = wounds.find((w) => w.id === p.restraint);
  const extras = wound ? extrasOf(target, wound.id) : [];
  if (extras.length === 0) {
    out.push(el("p", { class: "mz-hint muted" }, "A wound with no extras turns One-Shot."));
  } else {
    const boxes = extras.map((x) => {
      const box = checkbox(`Remove ${x.name}`, { id: `${px}-heal-extra-${x.id}`, checked: p.healExtras.includes(x.id) });
      box.box.addEventListener("change", () => {
        p.healExtras = box.box.checked ? [...p.healExtras, x.id] : p.healExtras.filter((y) => y !== x.id);
      });
      return box.node;
    });
    out.push(el("fieldset", { class: "mzch-wide" }, el("legend", {}, "Extras to remove (1 or 2; Vicious first)"), el("div", { class: "mz-checks" }, ...boxes)));
  }
  p.effect = extras.length === 0 ? "one_shot" : "remove_extras";
  return out;
}

/** The perk the form stands for, as the core reads it (new traits without ids). */
export function perkOf(p) {
  const named = (template) => ({
    template,
    name: p.name.trim(),
    ...(p.targetTrait && ["dulled_edge", "impaired_ability"].includes(template) ? { target_trait: p.targetTrait } : {}),
  });
  switch (p.kind) {
    case "hinder":
      return { kind: "hinder", target: p.target, flaw: named(p.template) };
    case "expose":
      return { kind: "expose", target: p.target, flaw: named("vulnerability") };
    case "bind":
      return { kind: "bind", target: p.target, restraint: named("restraint") };
    case "discover":
      return { kind: "discover", detail: p.detail };
    case "recover":
      return { kind: "recover", target: p.target, flaw: p.restraint || null };
    case "break_free":
      return { kind: "break_free", target: p.target, restraint: p.restraint || null, flaw: named(p.template) };
    case "damage":
      return {
        kind: "damage",
        target: p.target,
        wound: p.wound === "new" ? { kind: "new_flaw", flaw: named(p.template) } : { kind: "worsen", wound: p.wound },
        expend: p.expend,
        extras: p.extras.map((x) => ({ template: x, name: templateName(x) })),
        takes_out: p.takesOut,
      };
    case "heal":
      return {
        kind: "heal",
        target: p.target,
        wound: p.restraint || null,
        effect: p.effect === "one_shot" ? { kind: "one_shot" } : { kind: "remove_extras", extras: p.healExtras },
      };
    case "push":
      return { kind: "push", goal: p.goal || null };
    case "ruin":
      return { kind: "ruin", goal: p.goal || null };
    default:
      return null;
  }
}

// ---- No Escape -------------------------------------------------------------------------------------

/**
 * No Escape's pay-off, where it applies: a challenger that named a target for removal and
 * leaves (or left) this challenge in victory may spend 2 momentum to ignore the target's Plot
 * Protection until the challenge ends. The core checks the victory itself.
 */
export function noEscapeCard(ctx, ch) {
  if (ch.over) return null;
  const s = state(ctx);
  const open = (s.noEscape ?? []).filter((n) => n.challenge === ch.id && !n.used);
  const ready = open.filter((n) => ch.challengers.some((c) => c.element === n.by && c.how === "victory"));
  if (ready.length === 0) return null;
  const players = ctx.table?.players ?? [];
  return card(
    "mzch-no-escape",
    "No Escape",
    ...ready.map((n) => {
      const c = ch.challengers.find((x) => x.element === n.by);
      const player = c.claimed_by ?? players[0]?.player?.id ?? players[0]?.id ?? NOBODY;
      return el(
        "div",
        { class: "mzch-no-escape-item" },
        el("p", {}, `${c.name} left in victory and named ${nameOf(ctx, n.target)} for removal (${c.momentum} momentum).`),
        button(
          `Ignore ${nameOf(ctx, n.target)}'s Plot Protection (2 momentum)`,
          (b) =>
            ctx.move(
              "No Escape was refused.",
              () =>
                api.mezzoIgnoreProtection(ctx.gameId, ch.id, { player, element: n.by }, n.target).then((r) => {
                  n.used = true;
                  return r;
                }),
              b,
            ),
          { id: `mzch-ignore-${n.target}`, class: "primary", disabled: c.momentum < 2, data: { focusKey: `mzch-ignore-${n.target}` } },
        ),
      );
    }),
  );
}
