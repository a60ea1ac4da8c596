// The Scattershot rewards tab (RULES.md §4.4, "Rewards"): experience dice handed out
// - after a session (each character shown with its description, the "contract"): an equal
//   share for every character a player plays, none for the Gamemaster's non-player characters
//   (withheld from one played well outside its description) plus
//   bonuses for exceptional contributions, with their reasons;
// - on the spot, for well-played detail: from the Gamemaster, or from a player's own
//   character's pool (given back from the common stock when the Gamemaster replaces them);
// - by vote: each player votes once for a character; the most voted get the dice (all of them
//   in a tie).
// Each award is one move with an Undo toast (ctx.move). The rules check the numbers.
//
//   import { renderRewards } from "./rewards.js";
//   renderRewards(host, ctx);   // ctx from screen.js

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { card, checkbox, experienceDice, field, form, numberInput, readCount, select } from "./kit.js";

/** Fills `host` with the pools and the three ways of giving dice. */
export function renderRewards(host, ctx) {
  const t = ctx.table;
  if (t.characters.length === 0) {
    host.append(
      card("sc-rewards", "Rewards", el("p", { class: "muted" }, "Make characters first, with the games layout's New character form.")),
    );
    return;
  }
  host.append(poolsCard(ctx), sessionCard(ctx), el("div", { class: "sc-grid sc-reward-grid" }, spotCard(ctx), voteCard(ctx)));
}

function reward(ctx, title, move, b) {
  return ctx.move(title, () => api.scattershotReward(ctx.gameId, move), b);
}

/** A box for a number of dice (the rules cap one award). */
function diceInput(id, value, min = 1) {
  return numberInput({ id, min, value, class: "sc-small" });
}

// ---- who holds what -------------------------------------------------------------------------------

/** Who holds what: each player's one stock (audit D-SC4), each character with no player. */
function poolsCard(ctx) {
  const t = ctx.table;
  const nameOf = (id) => t.characters.find((c) => c.id === id)?.name ?? "";
  return card(
    "sc-pools",
    "Experience dice held",
    el(
      "ul",
      { class: "sc-pools", id: "sc-pools-list" },
      ...t.players.map((p) =>
        el(
          "li",
          { data: { playerId: p.id } },
          el("span", {}, `${p.name}'s stock`, p.characters.length ? ` (${p.characters.map(nameOf).join(", ")})` : ""),
          el("strong", {}, experienceDice(p.dice)),
        ),
      ),
      ...t.characters
        .filter((c) => !c.player)
        .map((c) => el("li", { data: { characterId: c.id } }, el("span", {}, c.name), el("strong", {}, experienceDice(c.experience_dice)))),
      el("li", { class: "muted" }, el("span", {}, "The Gamemaster's stock"), el("strong", {}, experienceDice(t.gm_dice))),
    ),
  );
}

// ---- after a session ---------------------------------------------------------------------------

function sessionCard(ctx) {
  const t = ctx.table;
  const equal = diceInput("sc-rw-equal", 1, 0);
  // The Gamemaster's non-player characters earn no reward (the core leaves them out).
  const rows = t.characters.filter((c) => !c.npc).map((c) => {
    const withhold = checkbox("Withhold the equal share", { id: `sc-rw-withhold-${c.id}` });
    const bonus = diceInput(`sc-rw-bonus-${c.id}`, 0, 0);
    bonus.setAttribute("aria-label", `Bonus dice for ${c.name}`);
    const reason = el("input", {
      type: "text",
      id: `sc-rw-reason-${c.id}`,
      maxlength: 200,
      placeholder: "Why (for a bonus)",
      "aria-label": `Why ${c.name} gets a bonus`,
    });
    return {
      c,
      withhold,
      bonus,
      reason,
      node: el(
        "li",
        { class: "sc-reward-row", data: { characterId: c.id } },
        el("strong", { class: "sc-reward-name" }, c.name),
        // The "contract" a share is withheld by, from the sheet.
        c.description && el("p", { class: "muted sc-reward-description" }, c.description),
        withhold.node,
        el("span", { class: "sc-bonus" }, el("label", { for: bonus.id }, "Bonus"), bonus),
        reason,
      ),
    };
  });
  return card(
    "sc-rw-session",
    "After the session",
    el(
      "p",
      { class: "muted" },
      "Every player's character gets the same share, the Gamemaster's non-player characters none; a character played well outside its description may have it withheld. Bonuses reward exceptional contributions.",
    ),
    form(
      { id: "sc-rw-session-form" },
      [
        field("Equal share for each character", equal),
        el("ul", { class: "sc-reward-rows", "aria-label": "Each character's share and bonus" }, ...rows.map((r) => r.node)),
        el("button", { type: "submit", id: "sc-rw-session-give", class: "primary" }, "Give the session's dice"),
      ],
      (b) => {
        const share = readCount(equal, 0);
        if (share === null) return;
        const bonuses = [];
        for (const r of rows) {
          const dice = readCount(r.bonus, 0);
          if (dice === null) return;
          if (dice > 0) bonuses.push({ character: r.c.id, dice, reason: r.reason.value.trim() });
        }
        const withheld = rows.filter((r) => r.withhold.box.checked).map((r) => r.c.id);
        reward(ctx, "The session's dice were not given.", { reward: "after_session", rewards: { equal: share, bonuses, withheld } }, b);
      },
    ),
  );
}

// ---- on the spot -------------------------------------------------------------------------------

function spotCard(ctx) {
  const t = ctx.table;
  // A player gives from their own stock, named by one of their characters.
  const givers = [
    ...t.players.filter((p) => p.characters.length > 0).map((p) => [p.characters[0], `${p.name}, from ${p.name}'s stock`]),
    ...t.characters.filter((c) => !c.player).map((c) => [c.id, `${c.name}'s player, from ${c.name}'s pool`]),
  ];
  const giver = select([["gamemaster", "The Gamemaster"], ...givers], { id: "sc-rw-giver" });
  const replaced = checkbox("The Gamemaster replaces them from the common stock", { id: "sc-rw-replaced", checked: true });
  const to = select(
    t.characters.map((c) => [c.id, c.name]),
    { id: "sc-rw-to" },
  );
  const dice = diceInput("sc-rw-dice", 1);
  const note = el("input", { type: "text", id: "sc-rw-note", maxlength: 200, placeholder: "e.g. the line about the broken clock" });
  const showReplaced = () => {
    replaced.node.hidden = giver.value === "gamemaster";
  };
  giver.addEventListener("change", showReplaced);
  showReplaced();
  return card(
    "sc-rw-spot",
    "On the spot",
    el("p", { class: "muted hint" }, "For well-played detail, while it happens. Nobody rewards their own character."),
    form(
      { id: "sc-rw-spot-form" },
      [
        field("Given by", giver),
        replaced.node,
        el("div", { class: "sc-grid" }, field("To", to), field("Experience dice", dice)),
        field("For what", note),
        el("button", { type: "submit", id: "sc-rw-spot-give", class: "primary" }, "Give the dice"),
      ],
      (b) => {
        const n = readCount(dice, 1);
        if (n === null) return;
        const from =
          giver.value === "gamemaster" ? { kind: "gamemaster" } : { kind: "player", from: giver.value, replaced: replaced.box.checked };
        reward(ctx, "The dice were not given.", { reward: "on_the_spot", giver: from, to: to.value, dice: n, note: note.value.trim() }, b);
      },
    ),
  );
}

// ---- by vote -------------------------------------------------------------------------------

function voteCard(ctx) {
  const t = ctx.table;
  const played = t.characters.filter((c) => !c.npc);
  const ballots = played.map((voter) => {
    const choice = select([["", "No vote"], ...played.map((c) => [c.id, c.name])], {
      id: `sc-rw-vote-${voter.id}`,
      class: "sc-vote",
    });
    return { voter, choice, node: field(`${voter.name}'s player votes for`, choice) };
  });
  const dice = diceInput("sc-rw-vote-dice", 1);
  return card(
    "sc-rw-vote",
    "By vote",
    el("p", { class: "muted hint" }, "Each player votes once for the most valuable character; the most voted get the dice, every one of them in a tie."),
    form(
      { id: "sc-rw-vote-form" },
      [
        el("div", { class: "sc-grid" }, ...ballots.map((b) => b.node)),
        field("Experience dice for the winner", dice),
        el("button", { type: "submit", id: "sc-rw-vote-give", class: "primary" }, "Count the votes and give the dice"),
      ],
      (b) => {
        const n = readCount(dice, 1);
        if (n === null) return;
        const votes = ballots.filter((v) => v.choice.value).map((v) => ({ voter: v.voter.id, character: v.choice.value }));
        reward(ctx, "The votes were not counted.", { reward: "by_vote", votes, dice: n }, b);
      },
    ),
  );
}
