// A press under way: a pointer down on the page, not yet up. Whatever redraws the page on news
// that nobody here asked for (the linked table's, a reload) waits for it: drawn between a
// press's down and its up, the control under the finger is replaced and the tap is lost.
//
//   import { pressing, afterPress } from "../kit/press.js";
//   if (pressing()) afterPress(render); else render();

const down = new Set();
let waiting = [];

/** Whether a pointer is down on the page now. */
export const pressing = () => down.size > 0;

/** Runs `task` once no pointer is down: after the press's click, which follows its up. */
export function afterPress(task) {
  if (!pressing()) {
    task();
    return;
  }
  if (!waiting.includes(task)) waiting.push(task);
}

function released(event) {
  // A lost window forgets every press (its up may never come here).
  if (event.type === "blur") down.clear();
  else down.delete(event.pointerId);
  if (pressing() || waiting.length === 0) return;
  const tasks = waiting;
  waiting = [];
  setTimeout(() => tasks.forEach((task) => task()), 0);
}

document.addEventListener("pointerdown", (event) => down.add(event.pointerId), true);
for (const end of ["pointerup", "pointercancel"]) document.addEventListener(end, released, true);
window.addEventListener("blur", released);
