// "I helped with…" (RULES.md §1.3 step 7): a helper whose player holds this character on
// their own device records here what helping with a roll made on another device did to their
// mood — its level goes up, and its overload and final box are checked against the face that
// counted and the roll's winner. One logged, undoable change (undoCharacter); no roll of theirs
// is on this device. When this device is joined to the game's table (a linked table), the
// dialog first offers "Send my die to the roller's device": the die rolled here (or typed)
// goes through the host to the roller's wizard, and the same faces are then recorded here.
//
//   import { openHelpedWith } from "./helped.js";
//   const done = await openHelpedWith(nsuSheetView, { toast });   // true once recorded

import * as api from "./api.js";
import { el, byId } from "../../kit/dom.js";
import { nsuDialog } from "./dialog.js";
import { MOOD_LINE_DICE, quoted } from "./words.js";

let dialog = null;

function build() {
  dialog = nsuDialog(
    { id: "helped-dialog", key: "helped", cls: "roll-wizard helped-dialog", title: "I helped with…", closeLabel: "Close" },
    el("div", { id: "helped-error", class: "roll-error", role: "alert", hidden: true }),
    el("div", { id: "helped-body", class: "roll-body" }),
    el(
      "div",
      { class: "roll-nav" },
      el("button", { type: "button", id: "helped-cancel" }, "Cancel"),
      el("button", { type: "button", id: "helped-save", class: "primary" }, "Record it"),
    ),
  );
  byId("helped-cancel").addEventListener("click", () => dialog.close());
}

/** The helper's die for the mood on `line`: its size, and its edge from their overload. */
function helperDie(line, overloaded) {
  const edge = overloaded < 0 ? "none" : line === overloaded ? "advantage" : "disadvantage";
  return { die: `d${MOOD_LINE_DICE[line]}`, edge };
}

const EDGE_WORDS = { none: "", advantage: " (advantage)", disadvantage: " (disadvantage)" };

/**
 * "Send my die to …" on a device joined to the table: the roller (another character at the
 * table), this helper's die and edge from the mood chosen above, rolled here or the faces
 * typed above; sent through the host to the roller's device, whose roll wizard offers it.
 * The faces sent are put in the fields above (and kept), so "Record it" records that die.
 */
function sendStep(character, mates, parts) {
  const { mood, roll, overloaded, faceInputs } = parts;
  const who = el(
    "select",
    { id: "helped-roller" },
    el("option", { value: "" }, mates.length ? "Choose whose roll" : "No other character at this table"),
    ...mates.map((c) => el("option", { value: c.id }, c.name)),
  );
  const dieWords = el("p", { class: "muted", id: "helped-send-die" });
  const sent = el("p", { class: "helped-sent", id: "helped-sent", role: "status", hidden: true });
  const error = el("p", { class: "roll-error", id: "helped-send-error", role: "alert", hidden: true });
  const describe = () => {
    const { die, edge } = helperDie(Number(mood.value), overloaded);
    dieWords.textContent = `Your die: a ${die}${EDGE_WORDS[edge]}, from the mood chosen above.`;
  };
  mood.addEventListener("change", describe);
  describe();
  who.addEventListener("change", () => {
    error.hidden = true;
    const mate = mates.find((c) => c.id === who.value);
    if (mate && roll.value.trim() === "") roll.value = mate.name;
  });
  const rollButton = el("button", { type: "button", id: "helped-send-roll", class: "primary" }, "Roll my die here and send it");
  const typedButton = el("button", { type: "button", id: "helped-send-typed" }, "Send the faces typed above");
  const go = async (rolled) => {
    error.hidden = true;
    const mate = mates.find((c) => c.id === who.value);
    const line = Number(mood.value);
    const values = faceInputs.map((x) => Number(x.value));
    try {
      if (!mate) throw new Error("choose whose roll your die is for.");
      if (!rolled && values.some((v) => !Number.isInteger(v) || v < 1)) throw new Error("type the face of every die you rolled, or roll it here.");
      const helper = { name: character.name, ...helperDie(line, overloaded) };
      rollButton.disabled = true;
      typedButton.disabled = true;
      const note = await api.linkSendNote(
        { kind: "nsu_help", roller: mate.id, helper, faces: [] },
        rolled ? { kind: "rolled" } : { kind: "entered", values },
      );
      // What was sent is what is recorded: the same mood, the same faces.
      note.faces.forEach((face, i) => {
        if (faceInputs[i]) {
          faceInputs[i].value = String(face);
          faceInputs[i].readOnly = true;
        }
      });
      mood.disabled = true;
      who.disabled = true;
      sent.textContent = `Sent to ${mate.name}’s device: a ${note.helper.die}${EDGE_WORDS[note.helper.edge]} showing ${note.faces.join(" and ")}. Once their roll is settled, record below what it did to your mood.`;
      sent.hidden = false;
    } catch (e) {
      rollButton.disabled = false;
      typedButton.disabled = false;
      error.textContent = `Not sent: ${e && e.message ? e.message : String(e)}`;
      error.hidden = false;
    }
  };
  rollButton.addEventListener("click", () => go(true));
  typedButton.addEventListener("click", () => go(false));
  return el(
    "fieldset",
    { class: "helped-send", id: "helped-send" },
    el("legend", {}, "Send my die to the roller’s device"),
    el("p", { class: "muted" }, "This device is linked to the table: your die can go straight into their roll."),
    field("helped-roller", "Whose roll", who),
    dieWords,
    el("div", { class: "roll-actions" }, rollButton, typedButton),
    error,
    sent,
  );
}

const field = (id, label, control) => el("div", { class: "field" }, el("label", { for: id }, label), control);

function radios(name, options, value) {
  return options.map(([v, label]) =>
    el(
      "label",
      { class: "roll-option", for: `${name}-${v}` },
      el("input", { type: "radio", name, id: `${name}-${v}`, value: v, checked: v === value }),
      el("span", {}, label),
    ),
  );
}

function sentimentOptions(sheet, lines) {
  return lines.map((line) => {
    const s = sheet.sentiments[line];
    return el("option", { value: String(line) }, s ? `${s.name} (${s.state === "at_risk" ? "at risk" : s.state})` : `Sentiment ${line + 1}`);
  });
}

/**
 * The other characters at this character's table when this device is joined to it (a linked
 * table), else null: then a helper can send their die to the roller's device.
 */
async function tableMates(character) {
  const status = await api.linkJoinStatus().catch(() => null);
  if (!status || status.game !== character.game_id) return null;
  const games = await api.listGames();
  const game = games.find((g) => g.id === character.game_id);
  return game ? game.characters.filter((c) => c.id !== character.id) : null;
}

/** Opens the dialog for the sheet `saved` (an NsuSheetView); resolves true once recorded. */
export async function openHelpedWith(saved, app) {
  if (dialog === null) build();
  const sheet = saved.sheet;
  const id = saved.character.id;
  const mates = await tableMates(saved.character);
  const overloaded = sheet.moods.findIndex((m) => m && m.overloaded);
  const roll = el("input", { type: "text", id: "helped-roll", maxlength: 200, autocomplete: "off", placeholder: "e.g. Ines, climbing the tower" });
  const mood = el(
    "select",
    { id: "helped-mood" },
    ...sheet.moods.map((m, line) =>
      el("option", { value: String(line) }, m ? `${m.name} — d${MOOD_LINE_DICE[line]}, level ${m.level}${m.overloaded ? ", overloaded" : ""}` : `Empty d${MOOD_LINE_DICE[line]} line — a new mood`),
    ),
  );
  const first = sheet.moods.findIndex((m) => m);
  mood.value = String(first >= 0 ? first : 0);
  const newName = el("input", { type: "text", id: "helped-mood-name", maxlength: 200, autocomplete: "off" });
  const newField = field("helped-mood-name", "The new mood’s name", newName);
  const faces = el("div", { class: "roll-die-fields", id: "helped-faces" });
  const edgeNote = el("p", { class: "muted", id: "helped-edge" });
  const keptHost = el("fieldset", { class: "roll-choices", id: "helped-kept" }, el("legend", {}, "Which face counted"), ...radios("helped-kept", [["0", "The first"], ["1", "The second"]], "0"));
  const needsHost = el("div", { id: "helped-needs" });
  const faceInputs = [];
  const sync = () => {
    const line = Number(mood.value);
    newField.hidden = sheet.moods[line] !== null;
    // While a mood is overloaded the helper's die has an edge (rolled twice): advantage with
    // that mood, disadvantage with another. The core checks it again.
    const two = overloaded >= 0;
    edgeNote.textContent = !two
      ? "One face: your mood’s die."
      : line === overloaded
        ? "Your overloaded mood: your die had advantage (two faces; the roller kept one)."
        : "Another mood while overloaded: your die had disadvantage (two faces; the Arbiters kept one), and the old overload ends.";
    keptHost.hidden = !two;
    const sides = MOOD_LINE_DICE[line];
    faceInputs.length = 0;
    faces.replaceChildren(
      ...Array.from({ length: two ? 2 : 1 }, (_, i) => {
        const fid = `helped-face-${i + 1}`;
        const input = el("input", { type: "number", id: fid, min: 1, max: sides, inputmode: "numeric", class: "roll-die-input" });
        faceInputs.push(input);
        return field(fid, two ? `Face ${i + 1} (d${sides})` : `Your d${sides}`, input);
      }),
    );
    needsHost.replaceChildren();
  };
  mood.addEventListener("change", sync);
  sync();
  const send = mates ? sendStep(saved.character, mates, { mood, roll, overloaded, faceInputs }) : null;
  byId("helped-body").replaceChildren(
    el("p", { class: "muted" }, "You helped with a roll made on another device. Record what it did to your mood here: nobody else’s sheet changes."),
    field("helped-roll", "Whose roll, for what", roll),
    field("helped-mood", "The mood you helped with (its level goes up by one)", mood),
    newField,
    edgeNote,
    faces,
    // Only on a linked table (unlinked, `send` is null, which replaceChildren would write as text).
    ...(send ? [send] : []),
    keptHost,
    el(
      "fieldset",
      { class: "roll-choices", id: "helped-winner" },
      el("legend", {}, "Who won the roll"),
      ...radios("helped-winner", [["player", "The player (your side)"], ["arbiters", "The Arbiters"], ["tie", "A tie"]], "player"),
    ),
    needsHost,
  );
  byId("helped-error").hidden = true;
  const input = () => {
    const line = Number(mood.value);
    const kept = dialog.querySelector("input[name='helped-kept']:checked");
    const winner = dialog.querySelector("input[name='helped-winner']:checked");
    const finalName = byId("helped-final-name");
    const finalSentiment = byId("helped-final-sentiment");
    const overloadSentiment = byId("helped-overload-sentiment");
    return {
      roll: roll.value,
      mood: sheet.moods[line] ? { kind: "existing", line } : { kind: "new", line, name: newName.value.trim() },
      rolls: faceInputs.map((x) => Number(x.value)),
      kept: faceInputs.length > 1 && kept ? Number(kept.value) : null,
      winner: winner ? winner.value : "player",
      final_box: finalName ? { new_name: finalName.value.trim(), sentiment_line: finalSentiment ? Number(finalSentiment.value) : null } : null,
      overload_end_sentiment: overloadSentiment ? Number(overloadSentiment.value) : null,
    };
  };
  const showNeeds = (needs) => {
    needsHost.replaceChildren(
      ...needs.map((need) => {
        if (need.kind === "final_box") {
          const name = el("input", { type: "text", id: "helped-final-name", maxlength: 200 });
          return el(
            "div",
            { class: "roll-helper" },
            el("p", {}, `${quoted(need.mood)} filled its last box: its level goes back to 0 and it takes a more intense name.`),
            field("helped-final-name", "Its new name (from the winning side)", name),
            need.sentiments.length ? field("helped-final-sentiment", "The sentiment you mark one step", el("select", { id: "helped-final-sentiment" }, ...sentimentOptions(sheet, need.sentiments))) : null,
          );
        }
        return field(
          "helped-overload-sentiment",
          `The overload of ${quoted(need.mood)} ended without a win: the sentiment you mark one step`,
          el("select", { id: "helped-overload-sentiment" }, ...sentimentOptions(sheet, need.sentiments)),
        );
      }),
    );
  };
  let recorded = false;
  const save = async () => {
    const box = byId("helped-error");
    box.hidden = true;
    try {
      const data = input();
      if (data.rolls.some((v) => !Number.isInteger(v) || v < 1)) throw new Error("type the face of every die you rolled.");
      const needs = await api.nsuHelpedWithNeeds(id, data);
      const asked = needs.every((n) => (n.kind === "final_box" ? byId("helped-final-name") : byId("helped-overload-sentiment")));
      if (!asked) {
        showNeeds(needs);
        byId("helped-save").textContent = "Record it";
        needsHost.querySelector("input, select")?.focus();
        return;
      }
      const done = await api.nsuHelpedWith(id, data);
      recorded = true;
      dialog.close();
      if (app && app.toast) app.toast(done.message, { kind: "character", id });
    } catch (e) {
      box.textContent = `Not recorded: ${e && e.message ? e.message : String(e)}`;
      box.hidden = false;
    }
  };
  const saveButton = byId("helped-save");
  const onSave = () => save();
  saveButton.addEventListener("click", onSave);
  dialog.showModal();
  roll.focus();
  await new Promise((resolve) => dialog.addEventListener("close", resolve, { once: true }));
  saveButton.removeEventListener("click", onSave);
  return recorded;
}
