// The NSU roll wizard's result: who won, the details granted, what a scouting roll found, what
// changed on the sheet, Undo, and the form writing a granted detail on a character or the world.

import { byId, el } from "../../kit/dom.js";
import * as api from "./api.js";
import { openRollLog } from "./log.js";
import { quickSetup, rollAgainWith } from "./roll-quick.js";
import { S, app, attempt, dialog, render, setupOf, sheet, showError, showNotice, w } from "./roll-state.js";
import { GRANT_NOTE, diceWords, eventWords, grantWords, quoted, winnerWords } from "./words.js";

// ---- the result -----------------------------------------------------------------------------

export function renderResult() {
  const { record, rollerBefore, helperBefore, helperName } = w.result;
  const names = { roller: w.name, helper: helperName, rollerSheet: rollerBefore, helperSheet: helperBefore };
  const events = record.events.map((e) => el("li", {}, eventWords(e, names)));
  const detailHost = el("div", { id: "roll-detail-host" });
  return el(
    "div",
    { id: "roll-result", class: "roll-step roll-result", data: { winner: record.winner } },
    el("h3", { id: "roll-winner", class: `roll-winner ${record.winner}` }, winnerWords(record)),
    el("p", { class: "roll-outcome-text" }, `Wanted: ${record.roll.setup.desired_outcome}`),
    el("p", { id: "roll-result-dice" }, `Dice — ${diceWords(record, helperName)}.`),
    el("h4", {}, "Details granted"),
    el("ul", { id: "roll-grants", class: "roll-list" }, ...record.grants.map((g) => el("li", {}, grantWords(g)))),
    el("p", { class: "muted hint" }, GRANT_NOTE),
    ...scoutedPart(w.result.scouted),
    el("h4", {}, "On the sheet"),
    events.length > 0
      ? el("ul", { id: "roll-events", class: "roll-list" }, ...events)
      : el("p", { id: "roll-events", class: "muted" }, "Nothing changed on the sheet."),
    el(
      "div",
      { class: "roll-actions" },
      el("button", { type: "button", id: "roll-write-detail", disabled: detailsLeft() === 0, on: { click: () => openDetailForm(detailHost) } }, "Write a detail the roll granted"),
      el("button", { type: "button", id: "roll-show-log", on: { click: () => openRollLog({ gameId: w.view.character.game_id, characterId: w.id, title: w.name }) } }, "Roll log"),
      el("button", { type: "button", id: "roll-undo", class: "danger", on: { click: undoRoll } }, "Undo this roll"),
      // A scouting roll spends its downtime action: it is not repeated from here.
      w.scout ? null : el("button", { type: "button", id: "roll-again", on: { click: rollAgain } }, "Roll again"),
      el("button", { type: "button", id: "roll-done", class: "primary", on: { click: () => dialog.close() } }, "Done"),
    ),
    detailHost,
  );
}

/** Rolls again with the same set-up (a new skill or mood named then is on the sheet now). */
function rollAgain() {
  const s = w.setup;
  const [kind, at] = s.skill.split(":");
  if (kind === "new" && sheet().skills[Number(at)]) s.skill = `existing:${at}`;
  rollAgainWith(w.quick ? quickSetup() : setupOf());
}

const SCOUT_WORDS = {
  won: "The roll was won: the card is seen.",
  accepted_details: "The details are accepted: the card is seen.",
  turned_back: "Turned back: the card stays unseen.",
};

/**
 * What a scouting roll found. The card's face comes from the core only for a device that may
 * see this character's private things; elsewhere the result says who may look.
 */
function scoutedPart(scouted) {
  if (!scouted) return [];
  const parts = [el("h4", {}, "Scouting"), el("p", { id: "roll-scouted" }, `${w.scoutWords ?? "The card"} — ${SCOUT_WORDS[scouted.outcome]}`)];
  const face = scouted.face;
  if (face) {
    const line = (label, text) => (text ? [el("dt", {}, label), el("dd", {}, text)] : []);
    parts.push(
      el(
        "div",
        { id: "roll-scouted-card", class: "roll-scouted-card" },
        el("p", { class: "muted" }, `Only ${w.name}’s player sees this until the card is revealed.`),
        el("h5", { id: "roll-scouted-name" }, face.name),
        el(
          "dl",
          {},
          ...line("Description", face.description),
          ...line("Danger", face.danger),
          ...line("Treasure or knowledge", face.treasure),
          ...line("Collateral can harm", face.collateral_harms),
        ),
      ),
    );
  } else if (scouted.outcome !== "turned_back") {
    parts.push(el("p", { class: "muted" }, `${w.name}’s player looks at the card on their own device (World tab).`));
  }
  return parts;
}

/** Undoes the settled roll and the dice before it, so nothing of the roll stays on the table. */
async function undoRoll() {
  const ok = await attempt("The roll was not undone.", async () => {
    await api.undoCharacter(w.id);
    for (let i = 0; i < 2; i++) {
      if (!(await api.nsuPendingRoll(w.id))) break;
      await api.undoCharacter(w.id);
    }
    w.view = await api.nsuSheet(w.id);
    w.result = null;
    w.pending = null;
    w.step = w.quick ? S.quick : S.odds;
  });
  if (ok) {
    showNotice(w.scout ? "The roll was undone, and the scouting with it: the action is back." : "The roll was undone: the sheet is as it was before it.");
    render();
    app.refresh().catch(() => {});
  }
}

/** How many of the roll's granted details are still to write (the core refuses one more). */
const detailsLeft = () => w.result.record.grants.length - (w.result.detailsWritten ?? 0);

function detailCountWords() {
  const granted = w.result.record.grants.length;
  const written = w.result.detailsWritten ?? 0;
  const many = granted === 1 ? "the one detail" : `all ${granted} details`;
  return written >= granted ? `Written: ${many} the roll granted.` : `Written: ${written} of ${granted} details the roll granted.`;
}

/** Shows the written count, and closes the form and its button once every grant is written. */
function showDetailCount() {
  const count = byId("detail-count");
  if (count) count.textContent = detailCountWords();
  const left = detailsLeft() > 0;
  byId("roll-write-detail").disabled = !left;
  const form = byId("roll-detail-form");
  if (form) form.hidden = !left;
}

function openDetailForm(host) {
  if (host.firstChild) {
    byId("detail-text").focus();
    return;
  }
  const gameId = w.view.character.game_id;
  // A harm or other detail goes on the roller, or on another character here (a helper the
  // Arbiters hurt, an ally): one this device plays or the table's.
  const others = (w.game ? w.game.characters : []).filter((c) => c.id !== w.id && c.mine !== false);
  const on = el(
    "select",
    { id: "detail-on" },
    el("option", { value: w.id }, w.name),
    ...others.map((c) => el("option", { value: c.id }, c.name)),
  );
  const onField = el("div", { class: "field", hidden: others.length === 0 }, el("label", { for: "detail-on" }, "On"), on);
  const onCharacter = () => (on.value && on.value !== w.id ? on.value : null);
  const kind = el(
    "select",
    { id: "detail-kind" },
    el("option", { value: "harm" }, "Harm detail (a negative hard detail the Arbiters mark as harm)"),
    el("option", { value: "negative" }, "Other detail, negative"),
    el("option", { value: "positive" }, "Other detail, positive"),
    el("option", { value: "scene" }, "Scene detail on a location"),
    el("option", { value: "npc" }, "Detail on an NPC"),
    el("option", { value: "npc_harm" }, "Harm detail on an NPC"),
  );
  // With the World at risk every detail written here ticks the clock of the location where
  // the party is (the core reads the roll and says which clock ticked); at home none does.
  const hint = el(
    "p",
    { class: "hint", id: "detail-collateral-hint" },
    w.setup.atRisk === "world"
      ? "The World was at risk: each detail you write ticks the collateral clock of the party's location (at home, none)."
      : "The character was at risk: no collateral clock ticks.",
  );
  const location = el("select", { id: "detail-location" });
  const locationField = el("div", { class: "field", hidden: true }, el("label", { for: "detail-location" }, "Location"), location);
  const npc = el("select", { id: "detail-npc" });
  const npcSign = el(
    "select",
    { id: "detail-npc-sign" },
    el("option", { value: "negative" }, "Negative"),
    el("option", { value: "positive" }, "Positive"),
  );
  const signField = el("div", { class: "field" }, el("label", { for: "detail-npc-sign" }, "Sign"), npcSign);
  const npcFields = el("div", { hidden: true }, el("div", { class: "field" }, el("label", { for: "detail-npc" }, "NPC"), npc), signField);
  // A card this device may not read is named by its back only.
  const cardLabel = (l) => (l.name ? l.name : `Face-down card${l.danger_level ? `, D${l.danger_level} R${l.reward_level}` : ""}`);
  kind.addEventListener("change", async () => {
    const onNpc = kind.value === "npc" || kind.value === "npc_harm";
    onField.hidden = others.length === 0 || !["harm", "negative", "positive"].includes(kind.value);
    locationField.hidden = kind.value !== "scene";
    npcFields.hidden = !onNpc;
    signField.hidden = kind.value !== "npc";
    if (onNpc && npc.options.length === 0) {
      await attempt("The NPCs could not be read.", async () => {
        const world = await api.nsuWorld(gameId);
        npc.replaceChildren(...(world.npcs ?? []).map((n) => el("option", { value: n.id }, n.name)));
      });
      return;
    }
    if (kind.value !== "scene" || location.options.length > 0) return;
    await attempt("The locations could not be read.", async () => {
      const world = await api.nsuWorld(gameId);
      location.replaceChildren(...world.locations.map((l) => el("option", { value: l.id }, cardLabel(l))));
    });
  });
  const text = el("input", { type: "text", id: "detail-text", maxlength: 200 });
  const target = () => {
    switch (kind.value) {
      case "harm":
        return { kind: "harm", character: onCharacter() };
      case "negative":
      case "positive":
        return { kind: "other", positive: kind.value === "positive", character: onCharacter() };
      case "scene":
        return location.value ? { kind: "scene", location: location.value } : null;
      case "npc":
        return npc.value ? { kind: "npc", npc: npc.value, positive: npcSign.value === "positive" } : null;
      default:
        return npc.value ? { kind: "npc_harm", npc: npc.value } : null;
    }
  };
  const save = async (event) => {
    event.preventDefault();
    const words = text.value.trim();
    if (words === "") {
      showError("Not yet:", "write the detail.");
      return;
    }
    const where = target();
    if (!where) {
      showError("Not yet:", kind.value === "scene" ? "this game has no location card to write on." : "this game has no NPC to write on; add one in the World screen.");
      return;
    }
    let written = null;
    const ok = await attempt("The detail was not written.", async () => {
      written = await api.nsuRollWriteDetail(w.id, w.result.event_id, where, words);
      if (written.sheet && written.sheet.character.id === w.id) w.view = written.sheet;
    });
    if (!ok || !written) return;
    text.value = "";
    w.result.detailsWritten = written.written;
    showDetailCount();
    // One undo takes back the detail and its tick together (one game step); a detail on a
    // sheet that ticked nothing is that character's own step.
    const whose = written.sheet ? written.sheet.character.id : w.id;
    showNotice(written.message, async () => {
      const undone = await attempt("That could not be undone.", async () => {
        if (written.undo === "character") await api.undoCharacter(whose);
        else await api.undoGame(gameId);
        w.view = await api.nsuSheet(w.id);
      });
      if (undone) {
        w.result.detailsWritten = Math.max(0, (w.result.detailsWritten ?? 1) - 1);
        showDetailCount();
        showNotice(`Took back ${quoted(words)}${written.ticked ? " and its collateral tick" : ""}.`);
      }
      app.refresh().catch(() => {});
    });
    app.refresh().catch(() => {});
  };
  host.replaceChildren(
    el("p", { id: "detail-count", class: "muted", "aria-live": "polite" }, detailCountWords()),
    el(
      "form",
      { id: "roll-detail-form", class: "roll-detail-form", autocomplete: "off", on: { submit: save } },
      hint,
      el("div", { class: "field" }, el("label", { for: "detail-kind" }, "Kind"), kind),
      onField,
      locationField,
      npcFields,
      el("div", { class: "field" }, el("label", { for: "detail-text" }, "The detail"), text),
      el("button", { type: "submit", id: "detail-save", class: "primary" }, "Write it down"),
    ),
  );
  text.focus();
}
