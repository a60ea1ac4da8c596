// Stylesheets added when a screen first needs them. index.html links only the design system's
// (styles.css, link.css), so the first screen waits for nothing else; the systems' sheets
// follow once it is shown, or as soon as a system's screen opens.
//
//   await systemStylesheets();          // before a system's screen is drawn
//   await addStylesheet("print.css");   // after everything, for printing

import { el } from "./dom.js";

/** The four systems' stylesheets, in the cascade's order (index.html put them before link.css). */
const SYSTEMS = [
  "world.css",
  "sheet.css",
  "roll.css",
  "reference.css",
  "penny.css",
  "mezzo.css",
  "mezzo-challenge.css",
  "scattershot.css",
  "scattershot-sheet.css",
];

const added = new Map(); // href → the promise of it loaded

/**
 * Adds the stylesheet `href` once, before the element `before` (the end of <head> when null);
 * resolves when it has loaded. A sheet that fails to load is taken out again, so a later call
 * tries anew.
 */
export function addStylesheet(href, before = null) {
  if (!added.has(href)) {
    const loaded = new Promise((resolve, reject) => {
      const link = el("link", { rel: "stylesheet", href });
      link.addEventListener("load", () => resolve());
      link.addEventListener("error", () => {
        added.delete(href);
        link.remove();
        reject(new Error(`The stylesheet ${href} could not be loaded.`));
      });
      document.head.insertBefore(link, before);
    });
    added.set(href, loaded);
  }
  return added.get(href);
}

/** Every system's stylesheets at once: one system's screens use rules of another's (the kits share them). */
export function systemStylesheets() {
  const before = document.querySelector('link[href="link.css"]');
  return Promise.all(SYSTEMS.map((href) => addStylesheet(href, before)));
}
