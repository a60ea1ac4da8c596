// The confirmation dialog for destructive actions. "Keep it" has the focus first, so Enter
// or Escape right away never deletes anything.
//
//   import { confirmAction } from "./confirm.js";
//   if (await confirmAction({ title: "Delete Ada?", message: "…", yes: "Delete" })) { … }

import { byId } from "./dom.js";
import { openModal } from "./modal.js";

let wired = false;

function wire() {
  const dialog = byId("confirm-dialog");
  byId("confirm-yes").addEventListener("click", () => dialog.close("yes"));
  byId("confirm-no").addEventListener("click", () => dialog.close(""));
  wired = true;
}

/** Resolves true only when the person presses the "yes" button. */
export async function confirmAction({ title, message, yes = "Delete", no = "Keep it" }) {
  if (!wired) wire();
  byId("confirm-title").textContent = title;
  byId("confirm-message").textContent = message;
  byId("confirm-yes").textContent = yes;
  byId("confirm-no").textContent = no;
  return (await openModal(byId("confirm-dialog"), byId("confirm-no"))) === "yes";
}
