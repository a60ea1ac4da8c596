// Opens a `<dialog>` modally and resolves once it closes, with the value it was closed with.
// Escape closes it with "" (the browser's cancel), so callers treat "" as "cancelled".
//
//   import { openModal } from "./modal.js";
//   const answer = await openModal(byId("confirm-dialog"), byId("confirm-no"));

/** Shows `dialog` with `showModal()`, focuses `focusFirst`, resolves with its return value. */
export function openModal(dialog, focusFirst) {
  dialog.returnValue = "";
  dialog.showModal();
  if (focusFirst) focusFirst.focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
  });
}
