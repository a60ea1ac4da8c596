// The frame of NSU's dialogs (the roll wizard, the roll log, "I helped with…", the reference
// card; styled in roll.css: full-screen on phones, the head pinned, only the body scrolls): a
// closed modal <dialog> with its heading and × in the head, added to the page.
//
//   import { nsuDialog } from "./dialog.js";
//   const dialog = nsuDialog({ id: "roll-log", key: "roll-log", cls: "roll-log", title: "Roll log", closeLabel: "Close the roll log" }, body);

import { el } from "../../kit/dom.js";

/**
 * A <dialog id> of class `cls` headed `title` (the heading `${key}-title`, the × `${key}-close`
 * labelled `closeLabel`, which closes it; `head` are more controls before the ×), then `children`.
 */
export function nsuDialog({ id, key, cls, title, closeLabel, head = [] }, ...children) {
  const close = el("button", { type: "button", id: `${key}-close`, class: "roll-close", "aria-label": closeLabel }, "×");
  const dialog = el(
    "dialog",
    { id, class: cls, "aria-labelledby": `${key}-title` },
    el("div", { class: "roll-head" }, el("h2", { id: `${key}-title`, tabindex: "-1" }, title), ...head, close),
    ...children,
  );
  close.addEventListener("click", () => dialog.close());
  document.body.append(dialog);
  return dialog;
}
