// The X-card (RULES.md §1.5, safety): reachable from every screen, every dialog and every
// wizard. A small button floats at the top of the window over every screen; every modal
// dialog gets its own X-card button too (showModal is wrapped here), because a modal dialog
// makes the page behind it unreachable. Pressing either covers the window with a calm
// full-screen notice, itself a modal dialog above anything else open; a button or Escape
// takes it away. Nothing is recorded and nobody is asked why.
//
//   import { wireXCard } from "./xcard.js";
//   wireXCard();   // once; needs <button id="xcard"> in the page

import { el, byId } from "../kit/dom.js";

let overlay = null;
let opener = null;

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
  // Escape closes a modal dialog by itself; focus goes back to the X-card button pressed.
  overlay.addEventListener("close", () => {
    const back = opener && opener.isConnected ? opener : byId("xcard");
    back?.focus();
  });
  document.body.append(overlay);
}

/** Shows the X-card notice above everything (also above an open dialog). */
export function showXCard(from = null) {
  if (overlay === null) build();
  if (overlay.open) return;
  opener = from;
  nativeShowModal.call(overlay);
  byId("xcard-close").focus();
}

const nativeShowModal = HTMLDialogElement.prototype.showModal;

/** Gives `dialog` its own X-card button (once), first in the dialog. */
function addXCardTo(dialog) {
  if (dialog === overlay || dialog.querySelector(":scope > .xcard-in-dialog")) return;
  const button = el(
    "button",
    {
      type: "button",
      class: "xcard xcard-in-dialog",
      "aria-label": "X-card: skip or change this content",
      on: { click: (e) => showXCard(e.currentTarget) },
    },
    "X-card",
  );
  dialog.prepend(button);
}

/** Wires the floating X-card button and gives every modal dialog one. */
export function wireXCard() {
  const button = byId("xcard");
  if (button) button.addEventListener("click", () => showXCard(button));
  HTMLDialogElement.prototype.showModal = function showModalWithXCard(...args) {
    addXCardTo(this);
    const result = nativeShowModal.apply(this, args);
    // The dialog's own first control gets the focus, not its X-card button.
    if (document.activeElement?.classList.contains("xcard-in-dialog")) {
      const first = [...this.querySelectorAll("button, input, select, textarea, [tabindex]:not([tabindex='-1'])")].find(
        (e) => !e.classList.contains("xcard-in-dialog") && !e.disabled && e.offsetParent !== null,
      );
      if (first) first.focus();
      else document.activeElement.blur();
    }
    return result;
  };
}
