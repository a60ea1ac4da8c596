// Stylesheets added when a screen first needs them. index.html links only the design system's
// and the shell's (kit/styles.css, shell/link.css), so the first screen waits for nothing
// else; the games' sheets follow (shell/systems.js), and print's when printing.
//
//   await addStylesheet("shell/print.css");   // after everything, for printing

import { el } from "./dom.js";

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
