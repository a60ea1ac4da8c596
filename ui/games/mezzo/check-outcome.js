// The Mezzo action check's outcome: Sudden Surges on the rolled check, resolving it (or as a
// challenge's major action), a tie broken or settled, and the result with its consequences.

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { defaultPayer, newCheck, shortName, sideName } from "./check-attempt.js";
import { roll, rolledSides, rolledStep, tieDie } from "./check-dice.js";
import { payerSelect } from "./check-votes.js";
import { allElements, button, card, checkbox, compromiseForm, field, handDice, plural, handOrRolled } from "./kit.js";

export function rolledCard(ctx, pending, running) {
  const c = ctx.ui.check;
  const check = pending.check;
  const t = ctx.table;
  const surgeRows = check.sides
    .map((s, i) => [s, i])
    .filter(([s]) => !s.dropped && s.kind.kind === "action")
    .map(([s, i]) => {
      const e = allElements(t).find((x) => x.id === s.kind.element);
      if (!e) return null;
      const id = (what) => `mzc-${what}-${e.id}`;
      const bought = c.surges.filter((x) => x.element === e.id).length;
      const by = payerSelect(ctx, defaultPayer(ctx, e), { id: id("surge-by"), data: { focusKey: id("surge-by") } });
      const debt = checkbox("Take a shortfall as adversity debt", { id: id("surge-debt") });
      return el(
        "div",
        { class: "mz-cast-part mzc-surge", data: { elementId: e.id, side: String(i) } },
        el(
          "p",
          { class: "mz-cast-title", id: id("surge-title") },
          `${e.name}: ${e.adversity} adversity${e.adversity_debt > 0 ? `, debt ${e.adversity_debt}` : ""}`,
          bought > 0 ? ` — ${plural(bought, "Sudden Surge")} bought (${3 * bought} adversity)` : "",
        ),
        el("div", { class: "mz-fields" }, field("Paid by", by)),
        debt.node,
        el(
          "div",
          { class: "actions" },
          button("Buy a Sudden Surge (+1, 3 adversity)", () => {
            c.surges.push({ element: e.id, by: by.value, allow_debt: debt.box.checked });
            ctx.render(`#${id("surge")}`);
          }, { id: id("surge"), class: "mzc-surge-buy", "aria-describedby": id("surge-title"), data: { focusKey: id("surge") } }),
          bought > 0 &&
            button("Take one back", () => {
              c.surges.splice(c.surges.map((x) => x.element).lastIndexOf(e.id), 1);
              ctx.render(`#${id("surge")}`);
            }, { id: id("surge-back"), class: "mzc-surge-back", data: { focusKey: id("surge-back") } }),
        ),
      );
    })
    .filter(Boolean);
  return rolledStep(
    ctx,
    pending,
    "mzc-surges",
    "Sudden Surges",
    "After the roll and before the result: 3 adversity of an acting element for +1 to its own result. Paid when the check resolves.",
    ...surgeRows,
    button("Resolve the check", (b) => resolve(ctx, b), { id: "mzc-resolve", class: "primary mz-big-button" }),
    majorPart(ctx, check, running),
    button("Take the roll back", (b) => ctx.undoLast(b), { id: "mzc-unroll" }),
  );
}

/**
 * While a challenge is played: the rolled check resolved as the major action of the acting
 * elements ticked (challengers still in that have not acted this round), with the surges chosen.
 */
function majorPart(ctx, check, running) {
  const c = ctx.ui.check;
  if (!running.loaded) return el("p", { class: "muted", id: "mzc-major-wait" }, "Looking for a challenge being played…");
  const ch = running.challenge;
  if (!ch) return null;
  const part = (...children) =>
    el(
      "section",
      { class: "mzc-major", id: "mzc-major", "aria-labelledby": "mzc-major-heading" },
      el("h4", { id: "mzc-major-heading", tabindex: "-1" }, `Or resolve it as a major action in “${ch.description || "the challenge"}”`),
      ...children,
    );
  if (ch.phase !== "rounds") {
    return part(
      el(
        "p",
        { class: "mz-hint", id: "mzc-major-none" },
        `Round ${ch.round} of the challenge is not taking major actions now (${ch.phase === "perks" ? "perks are being resolved" : "challengers are departing"}): see the Challenge tab.`,
      ),
    );
  }
  const acting = check.sides.filter((s) => s.kind.kind === "action" && !s.dropped).map((s) => s.kind.element);
  const eligible = ch.challengers.filter((x) => x.status === "in" && !x.acted && acting.includes(x.element));
  if (c.majorFor !== check.id) {
    c.majorFor = check.id;
    c.majors = Object.fromEntries(eligible.map((x) => [x.element, true]));
  }
  if (eligible.length === 0) {
    return part(
      el(
        "p",
        { class: "mz-hint", id: "mzc-major-none" },
        "No acting element of this check can take a major action now: each must be a challenger still in that has not acted this round.",
      ),
    );
  }
  const boxes = eligible.map((x) => {
    const box = checkbox(`${x.name}'s major action (${x.side_name || `side ${x.side + 1}`})`, {
      id: `mzc-major-${x.element}`,
      class: "mzc-major-pick",
      checked: c.majors[x.element] ?? false,
      data: { focusKey: `mzc-major-${x.element}` },
    });
    box.box.addEventListener("change", () => {
      c.majors[x.element] = box.box.checked;
    });
    return box;
  });
  return part(
    el("p", { class: "mz-hint muted hint" }, "The check resolves with the Sudden Surges above and counts as the major action of each challenger ticked, against the highest opposing roll."),
    el("fieldset", { class: "mzc-major-picks" }, el("legend", {}, "Whose major action it is"), el("div", { class: "mz-checks" }, ...boxes.map((x) => x.node))),
    button("Resolve as major action", (b) => resolveMajor(ctx, eligible, b), { id: "mzc-resolve-major", class: "primary" }),
  );
}

async function resolveMajor(ctx, eligible, b) {
  const c = ctx.ui.check;
  const majors = eligible.filter((x) => c.majors[x.element]).map((x) => x.element);
  if (majors.length === 0) {
    const first = byId(`mzc-major-${eligible[0].element}`);
    if (first) first.focus();
    return;
  }
  const out = await ctx.move(
    "The check was not resolved as a major action.",
    () => api.mezzoChallengeResolveMajors(ctx.gameId, c.surges, majors),
    b,
  );
  if (!out) return;
  c.major = { message: out.change.message, challenge: out.challenge ?? null };
  ctx.render("#mzc-major-result-heading");
}

/** The check resolved as a major action: the core's words, and where its perks are declared. */
export function majorCard(ctx) {
  const c = ctx.ui.check;
  const ch = c.major.challenge;
  const open = ch && ch.phase === "perks";
  return card(
    "mzc-major-result",
    "Resolved as a major action",
    el("p", { class: "mz-summary", id: "mzc-major-message", role: "status" }, c.major.message),
    el(
      "p",
      { class: "mz-hint", id: "mzc-major-next" },
      open
        ? "Declare the perks it earned on the Challenge tab."
        : "Its result is recorded in the challenge: any perks are declared on the Challenge tab.",
    ),
    el(
      "div",
      { class: "actions" },
      button("Go to the Challenge tab", () => ctx.switchTab("challenge"), { id: "mzc-to-challenge", class: "primary" }),
      button("New action check", () => {
        ctx.ui.check = newCheck(ctx.diceByHand);
        ctx.render("#mzc-description");
      }, { id: "mzc-major-new" }),
    ),
  );
}

async function resolve(ctx, b) {
  const c = ctx.ui.check;
  const outcome = await ctx.move("The check was not resolved.", () => api.mezzoCheckResolve(ctx.gameId, c.surges), b);
  if (!outcome) return;
  c.result = outcome.result;
  // The resolve closed a check open for votes.
  if (ctx.ui.openCheck) ctx.ui.openCheck = await api.mezzoOpenCheck(ctx.gameId);
  ctx.render(ctx.ui.pending ? "#mzc-tie-heading" : "#mzc-result-heading");
}

export function tieCard(ctx, pending) {
  const c = ctx.ui.check;
  const check = pending.check;
  const tied = check.tied;
  const scores = check.sides.map((s) => s.score);
  const hand = checkbox("Dice rolled by hand", { id: "mzc-tie-hand", checked: c.tieHand, data: { focusKey: "mzc-tie-hand" } });
  hand.box.addEventListener("change", () => {
    c.tieHand = hand.box.checked;
    ctx.render();
  });
  const boxes = c.tieHand
    ? handDice(tied.map((i) => ({ sides: tieDie(check), label: shortName(ctx, check.sides[i]) })), "mzc-tie-die", `One d${tieDie(check)} per tied side`)
    : null;
  return card(
    "mzc-tie",
    `A tie: ${check.description || "the action check"}`,
    el("p", { class: "mz-summary", id: "mzc-tie-summary", role: "status" }, pending.summary),
    rolledSides(ctx, check, scores),
    compromiseForm("mzc", async (words, b) => {
      const out = await ctx.move("The compromise was not recorded.", () => api.mezzoCheckCompromise(ctx.gameId, words), b);
      if (!out) return;
      c.result = out.result;
      ctx.render("#mzc-result-heading");
    }),
    el(
      "div",
      { class: "mz-tie-break" },
      el("p", { class: "mz-cast-title" }, `Or break the tie: a d${tieDie(check)} per tied side, again while tied.`),
      hand.node,
      boxes && boxes.node,
      button(
        `Break the tie with d${tieDie(check)}s`,
        async (b) => {
          const dice = handOrRolled(Boolean(boxes), boxes && boxes.read);
          if (!dice) return;
          const out = await ctx.move("The tie was not broken.", () => api.mezzoCheckBreakTie(ctx.gameId, dice), b);
          if (!out) return;
          c.result = out.result;
          ctx.render(ctx.ui.pending ? "#mzc-tie-heading" : "#mzc-result-heading");
        },
        { id: "mzc-break-tie" },
      ),
    ),
  );
}

/**
 * The verdict in a few words, over the core's summary, which says which side took effect, with
 * the scores (so the card says it once).
 */
function outcomeWords(ctx, check) {
  const o = check.outcome;
  if (!o) return "";
  if (o.kind === "compromise") return "Settled by compromise.";
  const side = check.sides[o.winner];
  if (side.kind.kind === "failure") {
    return check.sides.filter((s) => s.kind.kind === "action").length === 1 ? "The action fails." : "Every action fails.";
  }
  const many = check.sides.filter((s) => s.kind.kind === "action").length > 1;
  return `${many ? `${shortName(ctx, side)}'s action succeeds` : "The action succeeds"}${o.tiebreak ? ` (after the d${tieDie(check)} tiebreak)` : ""}.`;
}

/**
 * The winning side bought Lingering Consequences: its side effects may be kept on the arc (the
 * plot tab lists them), contagious when it bought Contagious Consequences too.
 */
function keepConsequences(ctx, check) {
  const o = check.outcome;
  const side = o && (o.kind === "won" || o.kind === "no_check_needed") ? check.sides[o.winner] : null;
  if (!side || !side.perks.includes("lingering_consequences")) return null;
  const contagious = side.perks.includes("contagious_consequences");
  const text = [check.description, side.description].filter((x) => (x ?? "").trim() !== "").join(": ") || sideName(ctx, side);
  return el(
    "div",
    { class: "mz-row mzc-consequences" },
    el("p", { class: "grow muted", id: "mzc-consequences-note" }, contagious ? "Contagious Consequences: its side effects outlast the arc." : "Lingering Consequences: its side effects spread until the arc ends."),
    button(
      "Keep them on the arc",
      (b) => ctx.move("The consequences were not kept.", () => api.mezzoPutConsequence(ctx.gameId, null, text, contagious), b),
      { id: "mzc-keep-consequences", "aria-describedby": "mzc-consequences-note" },
    ),
  );
}

export function resultCard(ctx) {
  const c = ctx.ui.check;
  const r = c.result;
  const check = r.check;
  return card(
    "mzc-result",
    `Resolved: ${check.description || "the action check"}`,
    el("p", { class: "mz-winner", id: "mzc-outcome" }, outcomeWords(ctx, check)),
    el("p", { class: "mz-summary", id: "mzc-summary", role: "status" }, r.summary),
    rolledSides(ctx, check, check.sides.map((s) => s.score)),
    keepConsequences(ctx, check),
    el(
      "div",
      { class: "actions" },
      // The same set-up, rolled again at once (issue 32); by hand, the dice are typed first.
      !c.hand && button("Roll again", (b) => roll(ctx, b), { id: "mzc-roll-again", class: "primary", data: { focusKey: "mzc-roll-again" } }),
      button("New action check", () => {
        ctx.ui.check = newCheck(ctx.diceByHand);
        ctx.render("#mzc-description");
      }, { id: "mzc-new", class: c.hand ? "primary" : "" }),
      // A player may back the loser: the challenge screen sets it up (challenge.js, fromCheck).
      check.outcome?.kind === "won" &&
        button("Start a challenge from this check", () => {
          ctx.ui.fromCheck = check;
          ctx.switchTab("challenge", { focus: "#mzch-from-check" });
        }, { id: "mzc-challenge-from" }),
    ),
  );
}
