// The X-card (RULES.md §1.5, safety): a button in the app header, reachable from every
// screen. Pressing it covers the window with a calm full-screen notice; a button or Escape
// takes it away. Nothing is recorded and nobody is asked why.
//
//   import { wireXCard } from "./views/xcard.js";
//   wireXCard();   // once; needs <button id="xcard"> in the header

import { el, byId } from "./dom.js";

let overlay = null;

function build() {
  const close = el("button", { type: "button", id: "xcard-close", class: "xcard-close" }, "Close");
  overlay = el(
    "dialog",
    { id: "xcard-overlay", class: "xcard-overlay", "aria-labelledby": "xcard-title", "aria-describedby": "xcard-text" },
    el(
      "div",
      { class: "xcard-body" },
      el("p", { class: "xcard-mark", "aria-hidden": "true" }, "X"),
      el("h2", { id: "xcard-title" }, "X — skip or change this content"),
      el("p", { id: "xcard-text" }, "No questions asked. Take a breath; the table moves on when you are ready."),
      close,
    ),
  );
  close.addEventListener("click", () => overlay.close());
  // Escape closes a modal dialog by itself; focus goes back to the X-card button.
  overlay.addEventListener("close", () => byId("xcard")?.focus());
  document.body.append(overlay);
}

/** Wires the header's X-card button to the overlay. */
export function wireXCard() {
  const button = byId("xcard");
  if (!button) return;
  button.addEventListener("click", () => {
    if (overlay === null) build();
    if (overlay.open) return;
    overlay.showModal();
    byId("xcard-close").focus();
  });
}
