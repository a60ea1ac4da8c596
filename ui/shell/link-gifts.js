// Characters and games given over the linked table, in the game panel's "Linked table":
// "Give to a device" while hosting (what, to which linked device), "Send to the table" while
// joined, and the files given to this device, each with "Look at it" (the import preview,
// then import) and "Put away". link.js draws these parts and says when gifts arrive.
//
//   import { giveBox, giftsBox, toastNewGifts } from "./link-gifts.js";
//   giveBox(app, { to: onlineDevices | null, game, redraw })  // null `to`: send to the table
//   giftsBox(app, gifts, redraw)                              // nothing when none waits
//   toastNewGifts(app, before, now)                           // after each poll

import * as api from "./api.js";
import { el } from "../kit/dom.js";

/** What the person chose in the give box, kept over the panel's redraws. */
const chosen = { what: "", to: "" };

/** The characters (every game on this device) and, when hosting, the game itself. */
function choices(app, game, hosting) {
  const options = [];
  for (const g of app.games()) {
    // A joined device's own table already has its game's characters.
    if (!hosting && g.id === game.id) continue;
    for (const c of g.characters) options.push({ value: `character:${c.id}`, words: `${c.name} (${g.name})` });
  }
  if (hosting) options.push({ value: `game:${game.id}`, words: `The whole game “${game.name}”, for that device to host` });
  return options;
}

function select(id, label, options, key) {
  if (!options.some((o) => o.value === chosen[key])) chosen[key] = options[0]?.value ?? "";
  return [
    el("label", { for: id }, label),
    el(
      "select",
      { id, data: { focusKey: id }, on: { change: (e) => (chosen[key] = e.currentTarget.value) } },
      ...options.map((o) => el("option", { value: o.value, selected: o.value === chosen[key] }, o.words)),
    ),
  ];
}

/**
 * "Give to a device" (`to`: the linked devices, {id, name}) or, with `to` null, "Send to the
 * table"; nothing when there is nothing to give or nobody to give it to.
 */
export function giveBox(app, { to, game }) {
  const hosting = to !== null;
  const options = choices(app, game, hosting);
  if (options.length === 0 || (hosting && to.length === 0)) return null;
  const heading = hosting ? "Give to a device" : "Send to the table";
  return el(
    "div",
    { class: "link-give-box", id: "link-give" },
    el("h4", { id: "link-give-heading" }, heading),
    el(
      "p",
      { class: "muted hint" },
      hosting
        ? "A character, or this whole game, goes to that device over the link; its person sees what it holds and imports it."
        : "A character from another game on this device goes to the table over the link; the table’s person sees what it holds and imports it.",
    ),
    el(
      "div",
      { class: "link-give-fields" },
      ...select("link-give-what", "What", options, "what"),
      ...(hosting ? select("link-give-to", "To", to.map((d) => ({ value: d.id, words: d.name })), "to") : []),
    ),
    el(
      "button",
      { type: "button", id: "link-give-button", class: "primary", data: { focusKey: "link-give-button" }, on: { click: () => give(app, hosting) } },
      hosting ? "Give" : "Send to the table",
    ),
  );
}

async function give(app, hosting) {
  const [kind, id] = chosen.what.split(":");
  await app.run(hosting ? "It was not given." : "It was not sent.", async () => {
    const done = await api.linkGive(kind === "character" ? id : null, kind === "game" ? id : null, hosting ? chosen.to : null);
    app.toast(done.message);
  });
}

/** The files given to this device, each with "Look at it" and "Put away"; nothing when none waits. */
export function giftsBox(app, gifts, redraw) {
  if (!gifts || gifts.length === 0) return null;
  return el(
    "div",
    { class: "link-gifts-box", id: "link-gifts" },
    el("h4", { id: "link-gifts-heading" }, "Sent to this device"),
    el(
      "ul",
      { class: "link-gifts", "aria-labelledby": "link-gifts-heading" },
      ...gifts.map((g) => {
        const nameId = `link-gift-${g.id}`;
        return el(
          "li",
          { class: "link-gift", data: { giftId: g.id } },
          el("span", { id: nameId }, el("strong", {}, g.what), ` from ${g.from}`),
          el(
            "span",
            { class: "link-gift-actions" },
            el(
              "button",
              { type: "button", class: "primary link-gift-open", "aria-describedby": nameId, data: { focusKey: `link-gift-open:${g.id}` }, on: { click: () => look(app, g, redraw) } },
              "Look at it",
            ),
            el(
              "button",
              { type: "button", class: "link-gift-put-away", "aria-describedby": nameId, data: { focusKey: `link-gift-put-away:${g.id}` }, on: { click: () => putAway(app, g, redraw) } },
              "Put away",
            ),
          ),
        );
      }),
    ),
  );
}

/** The import preview of a given file; once imported, it leaves the list. */
async function look(app, gift, redraw) {
  await app.run("The file was not imported.", async () => {
    const picked = await api.linkGiftOpen(gift.id);
    const report = await app.importPicked(picked);
    if (report === null) return;
    await api.linkGiftPutAway(gift.id).catch(() => {});
    redraw();
  });
}

async function putAway(app, gift, redraw) {
  await app.run("The file was not put away.", async () => {
    const done = await api.linkGiftPutAway(gift.id);
    redraw();
    app.toast(done.message);
  });
}

/** A file given to this device: said once, wherever its person is. */
export function toastNewGifts(app, before, now) {
  const seen = new Set((before?.gifts ?? []).map((g) => g.id));
  const fresh = (now?.gifts ?? []).filter((g) => !seen.has(g.id));
  if (fresh.length === 1) app.toast(`${fresh[0].from} sent ${fresh[0].what}: look at it under Linked table.`);
  else if (fresh.length > 1) app.toast(`${fresh.length} files were sent to this device: look at them under Linked table.`);
}
