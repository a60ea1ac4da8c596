// The Mezzo challenge as it stands: the round and phase, each side with its challengers
// (status, stake, momentum, adversity, whether they acted, their flaws), and the actions so far.

import { el } from "../../kit/dom.js";
import {
  PHASE_WORDS,
  RESULT_WORDS,
  elementOf,
  flawWords,
  flawsOf,
  nameOf,
  perkName,
  sideLabel,
  state,
  statusWords,
} from "./challenge-state.js";
import { WORDS, button, card, plural } from "./kit.js";

// ---- the challenge as it stands ---------------------------------------------------------------------

export function statusCard(ctx, ch) {
  const s = state(ctx);
  const title = ch.description ? `Challenge: ${ch.description}` : "Challenge";
  let line;
  if (ch.over) line = `Over after round ${ch.round}.`;
  else line = `Round ${ch.round} · ${PHASE_WORDS[ch.phase] ?? ch.phase}`;
  const parts = [el("p", { class: "mz-summary", id: "mzch-round" }, line)];
  if (ch.phase === "rounds") {
    const waiting = ch.challengers.filter((c) => c.status === "in" && !c.acted).map((c) => c.name);
    parts.push(
      el(
        "p",
        { class: "muted", id: "mzch-next" },
        waiting.length > 0 ? `Still to act this round: ${waiting.join(", ")}.` : "Everyone still in has acted: end the round.",
      ),
    );
  }
  if (ch.over) {
    parts.push(endWords(ch));
    if (!s.starting) {
      parts.push(
        button(
          "Start the next challenge",
          () => {
            s.starting = true;
            ctx.render("#mzch-description");
          },
          { id: "mzch-next-challenge", class: "primary", data: { focusKey: "mzch-next-challenge" } },
        ),
      );
    }
  }
  return el(
    "section",
    { id: "mzch-status", class: `mz-card mzch-status ${ch.phase}`, "aria-labelledby": "mzch-status-heading" },
    el("h3", { id: "mzch-status-heading", tabindex: "-1" }, title),
    ...parts,
  );
}

function endWords(ch) {
  return el(
    "ul",
    { class: "mzch-ending", id: "mzch-ending" },
    ...ch.challengers.map((c) =>
      el("li", { class: c.how === "victory" ? "victory" : "defeat" }, el("strong", {}, c.name), ` — ${statusWords(c).replace(/^Left in /, "").replace(/^Leaving in /, "")}`),
    ),
  );
}

export function sidesView(ctx, ch) {
  return el(
    "div",
    { class: "mzch-sides", id: "mzch-sides" },
    ...ch.sides.map((side) => {
      const who = ch.challengers.filter((c) => c.side === side.side);
      const goals = ch.goals.filter((g) => g.side === side.side);
      const headingId = `mzch-side-${side.side}-heading`;
      return el(
        "section",
        { class: "mz-card mzch-side", id: `mzch-side-${side.side}`, "aria-labelledby": headingId },
        el("h3", { id: headingId }, sideLabel(ch, side.side)),
        !ch.over && el("p", { class: "muted" }, `${plural(side.still_in, "challenger")} still in`),
        el("ul", { class: "mz-list" }, ...who.map((c) => challengerItem(ctx, ch, c))),
        goals.length > 0 &&
          el(
            "ul",
            { class: "mz-list mzch-goals", "aria-label": "Goals" },
            ...goals.map((g) =>
              el(
                "li",
                { class: "mzch-goal", id: `mzch-goal-${g.element}` },
                el("strong", {}, `Goal: ${g.name}`),
                el("p", { class: "muted" }, `${plural(g.trumps, "trump")} · momentum ${g.momentum}${g.triggered ? " · its trumps triggered" : ""} · supported by ${g.supporters.map((id) => nameOf(ctx, id)).join(", ")}`),
              ),
            ),
          ),
      );
    }),
  );
}

function challengerItem(ctx, ch, c) {
  const e = elementOf(ctx, c.element);
  const flaws = flawsOf(e);
  const stats = [
    ["Momentum", c.momentum, "momentum"],
    ["Adversity", c.adversity_debt > 0 ? `${c.adversity} (debt ${c.adversity_debt})` : c.adversity, "adversity"],
  ];
  return el(
    "li",
    { class: `mzch-challenger ${c.status}`, id: `mzch-challenger-${c.element}`, data: { elementId: c.element } },
    el(
      "div",
      { class: "mz-row" },
      el("strong", { class: "mz-name grow" }, c.name),
      el("span", { class: "mz-badge mz-kind" }, WORDS.kind[c.kind] ?? c.kind),
    ),
    el("p", { class: `mzch-state ${c.status}`, id: `mzch-status-${c.element}` }, statusWords(c), c.status === "in" ? (c.acted ? " · acted this round" : " · not acted yet") : ""),
    c.stake && el("p", { class: "mzch-stake", id: `mzch-stake-${c.element}` }, `Stake: ${c.stake}`, c.stake_momentum > 0 ? ` · its pool: ${c.stake_momentum} momentum (shared by its owners)` : ""),
    el(
      "dl",
      { class: "mzch-stats" },
      ...stats.map(([label, value, key]) => el("div", { class: "mzch-stat" }, el("dt", {}, label), el("dd", { id: `mzch-${key}-${c.element}` }, String(value)))),
    ),
    c.may_surrender && el("p", { class: "mz-hint" }, "Just wounded or bound: may surrender at once."),
    flaws.length > 0 &&
      el(
        "ul",
        { class: "mz-tags", id: `mzch-flaws-${c.element}`, "aria-label": `Flaws of ${c.name}` },
        ...flaws.map((f) => el("li", { class: "mz-tag flaw" }, flawWords(e, f))),
      ),
  );
}

export function actionsCard(ctx, ch) {
  const items = [...ch.actions].reverse().map((a) => {
    const perks = a.declared.length > 0 ? ` Declared: ${a.declared.map((p) => perkWords(ctx, p)).join(", ")}.` : "";
    let closed = "";
    if (a.open) closed = " Perks open.";
    else if (a.closed?.kind === "settled") closed = " Settled.";
    else if (a.closed?.kind === "countered") closed = ` Countered by ${nameOf(ctx, a.closed.by)}.`;
    else if (a.closed?.kind === "lapsed") closed = " Lapsed: its challenger left.";
    return el(
      "li",
      { class: `mzch-action ${a.result}`, id: `mzch-action-${a.index}` },
      el("strong", {}, `Round ${a.round} · ${a.name}: ${a.score} against ${a.opposing}`),
      el("span", { class: "mzch-result" }, ` — ${RESULT_WORDS[a.result] ?? a.result}.`),
      a.traded > 0 ? ` Traded ${plural(a.traded, "major perk")} for minor perks.` : "",
      perks,
      closed,
    );
  });
  return card("mzch-actions", "Major actions", el("ol", { class: "mz-list", id: "mzch-action-list" }, ...items));
}

export function perkWords(ctx, p) {
  const name = perkName(p.kind);
  if (p.kind === "discover") return `${name} (“${p.detail}”)`;
  const target = p.target ?? p.goal;
  return target ? `${name} on ${nameOf(ctx, target)}` : name;
}
