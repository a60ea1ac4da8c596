// Progress while the app works on something slow (a file dialog, reading or writing a file,
// waiting for the database): the button that started it waits (disabled, aria-busy, which
// shows a progress cursor and a spinner) and a status line says what is happening. A button
// that waits cannot hold the focus (a dialog closed meanwhile, like the import preview, gives
// it back to the page's body): when the work ends with the focus there, the button takes it.
//
//   import { working, keepBusy } from "./progress.js";
//   await working(button, byId("work-status"), "Choose where to save…", async (say) => {
//     await api.exportAll(name, (step) => say("Saving…"));
//   });
//   keepBusy(); // after a re-render: the redrawn button of a running job waits again

import { busy } from "./components.js";

/** `data-focus-key`s of the buttons whose work is running (a re-render redraws them). */
const running = new Set();

/**
 * Runs `action(say)` with `button` waiting and `status` reading `text` (then whatever `say`
 * says); both are put back afterwards. A button already waiting starts nothing.
 */
export async function working(button, status, text, action) {
  if (button?.getAttribute("aria-busy") === "true") return undefined;
  const key = button?.dataset?.focusKey;
  if (key) running.add(key);
  const say = (words) => {
    status.textContent = words;
    status.hidden = false;
  };
  say(text);
  try {
    return await busy(button, () => action(say));
  } finally {
    if (key) running.delete(key);
    status.textContent = "";
    status.hidden = true;
    if (key) for (const b of buttonsOf(key)) unbusy(b);
    const lost = !document.activeElement || document.activeElement === document.body;
    const back = button?.isConnected ? button : key ? buttonsOf(key)[0] : null;
    if (lost && back && !back.disabled) back.focus();
  }
}

/** Marks the buttons of running work as waiting again after the page redrew them. */
export function keepBusy() {
  for (const key of running) {
    for (const b of buttonsOf(key)) {
      if (b.getAttribute("aria-busy") === "true") continue;
      b.disabled = true;
      b.setAttribute("aria-busy", "true");
      b.classList.add("busy");
    }
  }
}

function buttonsOf(key) {
  return document.querySelectorAll(`button[data-focus-key="${CSS.escape(key)}"]`);
}

function unbusy(b) {
  b.disabled = false;
  b.removeAttribute("aria-busy");
  b.classList.remove("busy");
}
