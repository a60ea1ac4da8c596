// Small pieces the No Stone Unturned screens share.
//
//   import { xcardButton } from "./nsu-kit.js";
//   el("div", { class: "roll-head" }, title, xcardButton("roll-xcard"), close);

import * as xcard from "./xcard.js";
import { el, byId } from "./dom.js";

/**
 * An X-card button for inside a modal dialog (RULES.md §1.5: always reachable): the page's
 * header is inert behind a modal, so each dialog carries its own. It opens the same X-card
 * as the header's button (over the dialog: a modal opened later sits on top).
 */
export function xcardButton(id) {
  return el(
    "button",
    {
      type: "button",
      id,
      class: "xcard xcard-in-dialog",
      "aria-label": "X-card: skip or change this content",
      on: {
        click: () => {
          if (typeof xcard.openXCard === "function") xcard.openXCard();
          else byId("xcard")?.click();
        },
      },
    },
    "X-card",
  );
}
