// Issuing a Penny Ante challenge (RULES.md §2.3 step 1): what is at stake, the ante, each
// side's lead (a player, the House or an antagonist) and its allied players, and — when one
// side is a lone antagonist — an anonymous challenge with the pennies the antagonist devotes.
//
//   import { renderSetup } from "./setup.js";
//   renderSetup(host, ctx);   // ctx from screen.js

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { field, numberInput, wholeNumber, checkbox, select, pennies, accountKey, accountOf, button } from "./kit.js";
import { listOrNone } from "../../kit/forms.js";

const SIDES = [
  ["challenger", "Challenger", "Who issues the challenge"],
  ["opponent", "Opponent", "Who is challenged"],
];

/** Fills `host` with the challenge form. */
export function renderSetup(host, ctx) {
  const t = ctx.table;
  if (!t.adventure.running) {
    host.append(
      el(
        "section",
        { class: "penny-card", id: "penny-setup" },
        el("h3", {}, "Issue a challenge"),
        el("p", { class: "muted" }, "Challenges happen during an adventure: start one on the Table tab first."),
        button("Go to the table", () => ctx.switchTab("table"), { id: "penny-setup-to-table" }),
      ),
    );
    return;
  }
  const leads = [
    ...t.players.map((p) => [accountKey({ kind: "character", id: p.id }), `${p.name} (${pennies(p.pile)})`]),
    ["house", `The House (${pennies(t.house)})`],
    ...t.antagonists.map((a) => [
      accountKey({ kind: "antagonist", id: a.id }),
      // The purse is the House's secret: shown only where the core sent it.
      a.purse === null || a.purse === undefined ? `${a.name}, antagonist (purse ? pennies)` : `${a.name}, antagonist (purse ${a.purse})`,
    ]),
  ];
  const stake = el("input", { type: "text", id: "penny-stake", required: true, maxlength: 200 });
  const ante = numberInput({ id: "penny-ante", min: 1, value: 1, required: true });
  const pick = {};
  const allies = {};
  const allyHosts = {};
  for (const [side, , hint] of SIDES) {
    pick[side] = select(leads, { id: `penny-${side}`, class: "penny-lead" });
    allies[side] = new Map();
    allyHosts[side] = el("div", { class: "penny-allies", id: `penny-${side}-allies` });
    pick[side].dataset.hint = hint;
  }
  // A sensible start: the first player challenges the House.
  if (t.players.length > 0) pick.challenger.value = accountKey({ kind: "character", id: t.players[0].id });
  pick.opponent.value = "house";

  const anonymous = checkbox("Anonymous: the House devotes a set number of pennies", { id: "penny-anonymous" });
  const devoted = numberInput({ id: "penny-devoted", min: 1 });
  const devotedField = field("Pennies the antagonist devotes", devoted, "The antagonist may not wager more; it folds rather than go all in.");
  const anonBox = el(
    "fieldset",
    { class: "penny-anon", id: "penny-anon-box" },
    el("legend", {}, "Anonymous challenge"),
    anonymous.node,
    devotedField,
  );

  /**
   * The antagonist of an anonymous challenge: only the House issues one, so the challenger
   * is a lone antagonist (no allies) and the opponent is not one alone.
   */
  const loneAntagonist = () => {
    const lone = SIDES.map(([side]) => {
      const key = pick[side].value;
      const hasAllies = [...allies[side].values()].some((b) => b.checked);
      return key.startsWith("antagonist:") && !hasAllies ? key : null;
    });
    return lone[0] && !lone[1] ? t.antagonists.find((a) => `antagonist:${a.id}` === lone[0]) : null;
  };

  const sync = () => {
    const leadKeys = SIDES.map(([side]) => pick[side].value);
    for (const [side] of SIDES) {
      const other = side === "challenger" ? "opponent" : "challenger";
      const boxes = t.players
        .filter((p) => !leadKeys.includes(`character:${p.id}`))
        .map((p) => {
          const old = allies[side].get(p.id);
          const box = checkbox(`${p.name} (${pennies(p.pile)})`, {
            id: `penny-${side}-ally-${p.id}`,
            class: "penny-ally",
            checked: old ? old.checked : false,
          });
          const taken = allies[other].get(p.id);
          if (taken && taken.checked) box.box.disabled = true;
          box.box.addEventListener("change", sync);
          return [p.id, box];
        });
      allies[side] = new Map(boxes.map(([id, b]) => [id, b.box]));
      allyHosts[side].replaceChildren(
        listOrNone(boxes, "No other players to ally.", () => el("div", { class: "penny-checks" }, ...boxes.map(([, b]) => b.node))),
      );
    }
    const lone = loneAntagonist();
    anonBox.hidden = !lone;
    if (!lone) anonymous.box.checked = false;
    devotedField.hidden = !anonymous.box.checked;
    if (lone && lone.purse !== null && lone.purse !== undefined) devoted.max = String(lone.purse);
  };
  for (const [side] of SIDES) pick[side].addEventListener("change", sync);
  anonymous.box.addEventListener("change", sync);

  const sideFieldset = ([side, label, hint]) =>
    el(
      "fieldset",
      { class: "penny-side-pick", id: `penny-${side}-box` },
      el("legend", {}, label),
      field(hint, pick[side]),
      el("p", { class: "penny-subhead" }, "Allied players (each buys in with the ante)"),
      allyHosts[side],
    );

  const formNode = el(
    "form",
    { id: "penny-setup-form", class: "penny-form", autocomplete: "off" },
    el("div", { class: "penny-fields" }, field("What is at stake", stake), field("Ante (also the smallest raise)", ante)),
    el("div", { class: "penny-pair" }, ...SIDES.map(sideFieldset)),
    anonBox,
    el(
      "div",
      { class: "actions" },
      el("button", { type: "submit", id: "penny-start-challenge", class: "primary" }, "Issue the challenge"),
      t.challenge && button("Cancel", () => ctx.switchTab("challenge", { setup: false }), { id: "penny-setup-cancel" }),
    ),
  );
  formNode.addEventListener("submit", (event) => {
    event.preventDefault();
    const submit = formNode.querySelector("#penny-start-challenge");
    if (stake.value.trim() === "") return stake.focus();
    const a = wholeNumber(ante);
    if (a === null || a < 1) return ante.focus();
    const side = (s) => [accountOf(pick[s].value), ...t.players.filter((p) => allies[s].get(p.id)?.checked).map((p) => ({ kind: "character", id: p.id }))];
    let d = null;
    if (!anonBox.hidden && anonymous.box.checked) {
      d = wholeNumber(devoted);
      if (d === null) return devoted.focus();
    }
    const draft = { stake: stake.value.trim(), ante: a, challenger: side("challenger"), opponent: side("opponent"), devoted: d };
    ctx.move(
      "The challenge was not issued.",
      () =>
        api.pennyStartChallenge(ctx.gameId, draft).then((change) => {
          ctx.ui.setupOpen = false;
          return change;
        }),
      submit,
    );
  });
  sync();
  host.append(
    el(
      "section",
      { class: "penny-card", id: "penny-setup", "aria-labelledby": "penny-setup-heading" },
      el("h3", { id: "penny-setup-heading", tabindex: "-1" }, "Issue a challenge"),
      formNode,
    ),
  );
}
