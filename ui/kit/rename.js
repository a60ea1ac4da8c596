// The rename dialog: asks for a new name, resolves with it (trimmed) or null when cancelled.
//
//   import { askName } from "./rename.js";
//   const name = await askName({ title: "Rename game", current: game.name });

import { byId } from "./dom.js";
import { openModal } from "./modal.js";

let wired = false;

function wire() {
  const dialog = byId("rename-dialog");
  byId("rename-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (byId("rename-input").value.trim() === "") return;
    dialog.close("ok");
  });
  byId("rename-cancel").addEventListener("click", () => dialog.close(""));
  wired = true;
}

/** Resolves with the new name, or null when the person cancels or leaves it unchanged. */
export async function askName({ title, current }) {
  if (!wired) wire();
  byId("rename-title").textContent = title;
  const input = byId("rename-input");
  input.value = current;
  const answer = await openModal(byId("rename-dialog"), input);
  const name = input.value.trim();
  return answer === "ok" && name !== "" && name !== current ? name : null;
}
