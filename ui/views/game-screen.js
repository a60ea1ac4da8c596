// The frame the systems' game screens share (Penny Ante, Mezzo, Scattershot's Mechanix): a
// screen that replaces the games layout while open, with a bar ("← Games", the heading, the
// tabs) and a body each screen fills with its shown tab. The screens keep their own state
// and moves; this is only the frame, built once.
//
//   import { gameScreen, showRefusal, ask } from "./game-screen.js";
//   const frame = gameScreen({ name: "mezzo", tabPrefix: "mezzo", kit: "mz", label: "Mezzo",
//                              tabs: TABS, onBack: close, onTab: switchTab });
//   frame.show();  frame.fill(`Mezzo — ${name}`, tab, host);  frame.hide("game-mezzo");

import { el, byId } from "./dom.js";

/**
 * Builds the hidden screen after the games layout. `name` makes the ids (`${name}-screen`,
 * `${name}-back`, `${name}-screen-heading`, `${name}-body`) and the body's class while it is
 * open (`${name}-open`); the tab buttons are `${tabPrefix}-tab-${tab}`; `kit` is the CSS
 * prefix of the bar, the tabs and the body ("penny" or "mz"); `tabs` is [[tab, label]].
 */
export function gameScreen({ name, tabPrefix, kit, label, tabs, screenClass = `${kit}-screen`, onBack, onTab }) {
  const heading = el("h2", { id: `${name}-screen-heading`, tabindex: "-1" });
  const tabButtons = tabs.map(([tab, text]) =>
    el("button", { type: "button", id: `${tabPrefix}-tab-${tab}`, data: { tab }, on: { click: () => onTab(tab) } }, text),
  );
  const body = el("div", { id: `${name}-body`, class: `${kit}-body` });
  const screen = el(
    "section",
    { id: `${name}-screen`, class: screenClass, hidden: true, "aria-labelledby": heading.id },
    el(
      "div",
      { class: `${kit}-bar` },
      el("button", { type: "button", id: `${name}-back`, on: { click: onBack } }, "← Games"),
      heading,
      el("nav", { class: `${kit}-tabs`, "aria-label": label }, ...tabButtons),
    ),
    body,
  );
  document.querySelector("main.layout").after(screen);
  return {
    heading,
    body,
    /** Shows the screen in place of the games layout, its heading focused. */
    show() {
      document.body.classList.add(`${name}-open`);
      screen.hidden = false;
      heading.focus();
    },
    /** Hides it and empties it; focus goes back to the button `openerId` that opened it. */
    hide(openerId) {
      screen.hidden = true;
      body.replaceChildren();
      document.body.classList.remove(`${name}-open`);
      const opener = byId(openerId);
      if (opener && !opener.closest("[hidden]")) opener.focus();
    },
    /**
     * Shows `host` as the tab `current` under `title`. Focus goes to `focus` (a selector in
     * the body) when given, else back to the control with the same data-focus-key as before.
     */
    fill(title, current, host, focus = null) {
      const focusKey = document.activeElement?.dataset?.focusKey;
      heading.textContent = title;
      for (const b of tabButtons) b.setAttribute("aria-current", b.dataset.tab === current ? "page" : "false");
      body.dataset.tab = current;
      body.replaceChildren(host);
      const target = focus ? body.querySelector(focus) : null;
      if (target) {
        target.focus();
        return;
      }
      if (focusKey) {
        const again = body.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
        if (again) again.focus();
      }
    },
  };
}

/** After a change: the error area scrolled into sight when the app refused (`result` null). */
export function showRefusal(result) {
  const error = byId("error");
  if (result === null && error && !error.hidden) error.scrollIntoView({ block: "nearest" });
}

/** Runs a read-only call for a view with `run` (no toast); an error shows in the error area. */
export async function ask(run, title, call) {
  let answer = null;
  await run(title, async () => {
    answer = await call();
  });
  return answer;
}
