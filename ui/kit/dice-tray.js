// The dice tray: a modal dialog to roll any XdY±N, or one of the game's own dice (its presets),
// showing each die's face and the total in big type, the last few rolls, and the problem with
// a typed expression. The kit knows no game: the caller gives the presets and the calls.
//
//   import { openDiceTray } from "./dice-tray.js";
//   await openDiceTray({
//     title: "Dice tray",
//     presets: [{ label: "2d10", expression: "2d10", note: "Made-It-By" }],
//     roll: (expression) => api.diceTrayRoll(gameId, expression),   // → {expression, dice, modifier, total, action, seq}
//     recent: () => api.diceTrayLog(gameId),                          // → the same, newest first
//     opener: button,                                                 // gets the focus back on close
//   });   // resolves with how many rolls were made once the tray closes

import { el, byId } from "./dom.js";
import { busy } from "./components.js";
import { openModal } from "./modal.js";

/** A preset that is named by its dice: `die("d6", "a circumstance die")`. */
export const die = (expression, note) => ({ label: expression, expression, note });

/** How many earlier rolls the tray lists. */
const RECENT = 5;

let dialog = null;
let current = null; // {roll, recent, rolls} of the open tray

function build() {
  const input = el("input", {
    id: "dice-tray-expression",
    type: "text",
    inputmode: "text",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    placeholder: "2d6+1",
    "aria-describedby": "dice-tray-help dice-tray-error",
  });
  const form = el(
    "form",
    { id: "dice-tray-form", class: "dice-tray-form", on: { submit: (e) => (e.preventDefault(), rollTyped()) } },
    el("label", { for: "dice-tray-expression" }, "Dice to roll"),
    el("div", { class: "dice-tray-row" }, input, el("button", { type: "submit", id: "dice-tray-roll", class: "primary" }, "Roll")),
    el("p", { id: "dice-tray-help", class: "muted dice-tray-help" }, "Any dice: 2d6+1, d20, 3d8-2, 2d6+1d4+3."),
    el("p", { id: "dice-tray-error", class: "dice-tray-error", role: "alert", hidden: true }),
  );
  dialog = el(
    "dialog",
    { id: "dice-tray", class: "dice-tray", "aria-labelledby": "dice-tray-title" },
    el(
      "div",
      { class: "dice-tray-head" },
      el("h2", { id: "dice-tray-title", tabindex: "-1" }, "Dice tray"),
      el("button", { type: "button", id: "dice-tray-close", on: { click: () => dialog.close("") } }, "Close"),
    ),
    el("div", { id: "dice-tray-presets", class: "dice-tray-presets", role: "group", "aria-label": "The game's dice" }),
    form,
    el("div", { id: "dice-tray-result", class: "dice-tray-result", "aria-live": "polite", hidden: true }),
    el("h3", { class: "dice-tray-recent-title" }, "Last rolls"),
    el("p", { id: "dice-tray-none", class: "muted" }, "No rolls yet."),
    el("ol", { id: "dice-tray-recent", class: "dice-tray-recent" }),
  );
  document.body.append(dialog);
}

/** Opens the tray; resolves with the number of rolls made once it closes. */
export async function openDiceTray({ title = "Dice tray", presets = [], roll, recent = null, opener = null }) {
  if (dialog === null) build();
  current = { roll, recent, rolls: 0, shown: [] };
  byId("dice-tray-title").textContent = title;
  byId("dice-tray-presets").replaceChildren(
    ...presets.map((p, i) =>
      el(
        "button",
        { type: "button", id: `dice-tray-preset-${i}`, class: "dice-tray-preset", data: { expression: p.expression }, on: { click: (e) => rollThis(p.expression, e.currentTarget) } },
        el("span", { class: "dice-tray-preset-label" }, p.label),
        p.note ? el("span", { class: "dice-tray-preset-note" }, p.note) : null,
      ),
    ),
  );
  byId("dice-tray-presets").hidden = presets.length === 0;
  byId("dice-tray-expression").value = "";
  showError(null);
  byId("dice-tray-result").hidden = true;
  byId("dice-tray-result").replaceChildren();
  showRecent([]);
  const closed = openModal(dialog, byId("dice-tray-title"));
  if (recent) {
    // The log's earlier rolls, unless a roll made meanwhile already shows the newest.
    const tray = current;
    const earlier = await recent().catch(() => []);
    if (tray === current && tray.rolls === 0) showRecent(earlier);
  }
  await closed;
  const rolls = current.rolls;
  current = null;
  if (opener?.isConnected) opener.focus();
  return rolls;
}

function rollTyped() {
  const text = byId("dice-tray-expression").value;
  return rollThis(text, byId("dice-tray-roll"));
}

async function rollThis(expression, button) {
  if (!current) return;
  const tray = current;
  await busy(button, async () => {
    try {
      const rolled = await tray.roll(expression);
      if (tray !== current) return;
      tray.rolls += 1;
      showError(null);
      showRoll(rolled);
      showRecent([rolled, ...tray.shown]);
    } catch (e) {
      if (tray !== current) return;
      showError(e && e.message ? e.message : String(e));
      byId("dice-tray-expression").focus();
    }
  });
}

function showError(message) {
  const box = byId("dice-tray-error");
  box.textContent = message ?? "";
  box.hidden = !message;
  byId("dice-tray-expression").setAttribute("aria-invalid", message ? "true" : "false");
}

/** The roll in big type: each die's face, the modifier, the total. */
function showRoll(rolled) {
  const box = byId("dice-tray-result");
  const faces = rolled.dice.map((d) => el("span", { class: "dice-tray-face", title: `d${d.sides}` }, String(d.face)));
  const modifier = rolled.modifier ? el("span", { class: "dice-tray-modifier" }, rolled.modifier > 0 ? `+${rolled.modifier}` : `−${-rolled.modifier}`) : null;
  box.replaceChildren(
    el("p", { id: "dice-tray-rolled", class: "dice-tray-rolled" }, rolled.expression),
    el("div", { id: "dice-tray-faces", class: "dice-tray-faces" }, ...faces, modifier),
    el("p", { class: "dice-tray-total-line" }, "Total ", el("strong", { id: "dice-tray-total", class: "dice-tray-total" }, String(rolled.total))),
  );
  if (rolled.seq == null) box.append(el("p", { class: "muted" }, "This game's log is kept on the table's device."));
  box.hidden = false;
}

function showRecent(entries) {
  if (!current) return;
  current.shown = entries.slice(0, RECENT);
  byId("dice-tray-none").hidden = current.shown.length > 0;
  byId("dice-tray-recent").replaceChildren(...current.shown.map((r) => el("li", {}, r.action)));
}
