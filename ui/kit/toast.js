// The status toast at the bottom (above a screen's bottom tab bar): a message and, when the
// change can be undone, an Undo button (it undoes the latest change). A quick series of
// changes shares one toast, with how many there were. It stays while the focus is inside it,
// or the pointer the person moved onto it (not one a new toast merely appeared under).
//
//   import { renderToast } from "./toast.js";
//   renderToast(state.toast, { undo: (undo) => …, dismiss: () => … });

import { byId } from "./dom.js";

let handlers = null;
let current = null;

let seen = null; // where the pointer was last seen over the page while this toast shows: {x, y}
let pointerOn = false; // moved onto the shown toast by the person

function wire() {
  const box = byId("toast");
  document.addEventListener("pointermove", (e) => {
    // A toast that came up under a resting pointer is not being read. The engine replays a
    // resting pointer's place when the page changes (and a pointer may never have moved
    // here before), so only a move from one place to another while the toast shows counts.
    if (box.hidden) return;
    const moved = seen !== null && (seen.x !== e.clientX || seen.y !== e.clientY);
    seen = { x: e.clientX, y: e.clientY };
    if (moved) pointerOn = box.contains(e.target);
  }, true);
  box.addEventListener("pointerleave", () => {
    pointerOn = false;
  });
  byId("toast-undo").addEventListener("click", () => {
    if (current && current.undo) handlers.undo(current.undo);
  });
  byId("toast-close").addEventListener("click", () => handlers.dismiss());
}

/** Shows `toast` ({message, undo}) or hides the toast when it is null. */
export function renderToast(toast, on) {
  if (handlers === null) wire();
  handlers = on;
  current = toast;
  const box = byId("toast");
  if (box.hidden) {
    pointerOn = false;
    seen = null;
  }
  // A hidden toast keeps no focus: the next one would stay for good, "in use".
  if (toast === null && box.contains(document.activeElement)) document.activeElement.blur();
  box.hidden = toast === null;
  if (toast === null) {
    stopWatching();
    return;
  }
  byId("toast-message").textContent = toast.message;
  const count = byId("toast-count");
  count.hidden = !(toast.count > 1);
  count.textContent = toast.count > 1 ? `${toast.count} changes` : "";
  byId("toast-undo").hidden = !toast.undo;
}

/**
 * A new toast must not hide what the person acts on next: when it covers a visible control of
 * the page (the focused one first), the page scrolls up by as much, into the room the page
 * keeps free at its end for the toast. Controls in a dialog above the page are left alone.
 * What the page draws after the toast came (a sheet that arrives in parts) is kept clear
 * too, until the toast goes or the person touches the page.
 */
export function keepControlsClear() {
  clearOnce();
  if (watching || typeof ResizeObserver === "undefined") return;
  watching = new ResizeObserver(() => clearOnce());
  watching.observe(document.body);
  for (const kind of ["pointerdown", "keydown", "wheel", "touchstart"]) document.addEventListener(kind, stopWatching, { once: true, capture: true });
}

let watching = null;

function stopWatching() {
  watching?.disconnect();
  watching = null;
}

function clearOnce() {
  const box = byId("toast");
  if (box.hidden) return;
  const t = box.getBoundingClientRect();
  const covered = (e) => {
    if (box.contains(e) || e.closest("dialog[open], [hidden], [data-layout='bar']")) return false;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    return r.bottom > t.top + 1 && r.top < t.bottom && r.right > t.left && r.left < t.right;
  };
  const controls = [...document.querySelectorAll("button, input, select, textarea, a[href], [role=button]")].filter(
    (e) => !e.disabled && covered(e) && getComputedStyle(e).visibility !== "hidden",
  );
  if (controls.length === 0) return;
  const lowest = Math.max(...controls.map((e) => e.getBoundingClientRect().bottom));
  window.scrollBy({ top: lowest - t.top + 8, behavior: "auto" });
}

/** True while the person is using the toast (pointer moved onto it, or focus in it), so it
 * must not vanish. A toast that came under a resting pointer still goes by itself: else one
 * closed and followed by another at once (the linked table's news) would stay for good. */
export function toastInUse() {
  const box = byId("toast");
  return box.contains(document.activeElement) || pointerOn;
}
