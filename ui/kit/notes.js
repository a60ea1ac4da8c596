// A character's notes card, for the sheets that keep free-form notes (Penny Ante, Scattershot).
//
//   host.append(notesCard("penny", characterId, notes, hooks, api.setCharacterNotes));

import { el } from "./dom.js";
import { busy, button } from "./forms.js";
import { textBlock } from "./sheet-mode.js";

/**
 * A character's free-form notes (Penny Ante and Scattershot sheets): a text area and "Save
 * the notes", one logged, undoable change (`api.setCharacterNotes`; the toast's Undo is the
 * character's). `hooks` are {run, toast, onSaved, play}. Ids: `${prefix}-notes`, `-notes-save`.
 * With `hooks.play` (a sheet in play mode, kit/sheet-mode.js) the notes are text
 * (`${prefix}-notes-text`), written in edit mode.
 */
export function notesCard(prefix, characterId, notes, hooks, setNotes) {
  if (hooks.play) {
    return el(
      "section",
      { id: `${prefix}-notes-card`, class: "penny-card penny-notes", "aria-labelledby": `${prefix}-notes-heading` },
      el("h3", { id: `${prefix}-notes-heading` }, "Notes"),
      textBlock(notes, { id: `${prefix}-notes-text` }),
    );
  }
  const area = el("textarea", { id: `${prefix}-notes`, rows: 5, maxlength: 20000, data: { focusKey: `${prefix}-notes` } });
  area.value = notes ?? "";
  const save = button(
    "Save the notes",
    (b) =>
      busy(b, () =>
        hooks.run("The notes were not saved.", async () => {
          const result = await setNotes(characterId, area.value);
          hooks.toast(result && result.message ? result.message : "Notes saved.", { kind: "character", id: characterId });
          if (hooks.onSaved) await hooks.onSaved(area.value);
        }),
      ),
    { id: `${prefix}-notes-save`, data: { focusKey: `${prefix}-notes-save` } },
  );
  return el(
    "section",
    { id: `${prefix}-notes-card`, class: "penny-card penny-notes", "aria-labelledby": `${prefix}-notes-heading` },
    el("h3", { id: `${prefix}-notes-heading` }, "Notes"),
    el("label", { for: area.id, class: "visually-hidden" }, "Notes"),
    area,
    save,
  );
}
