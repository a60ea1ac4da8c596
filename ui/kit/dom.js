// Tiny DOM helpers shared by the views. Text always goes in through `textContent`.
//
//   import { el } from "./dom.js";
//   list.append(el("li", { class: "row", data: { gameId: id } }, el("span", {}, name)));

/**
 * Creates `<tag>` with attributes and children. `attrs.class` sets the class, `attrs.data`
 * sets `data-*` attributes, `attrs.on` adds event listeners, other keys become attributes
 * (skipped when false/null). String children become text nodes, never markup.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key === "data") Object.assign(node.dataset, value);
    else if (key === "on") {
      for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** The SVG namespace, for `document.createElementNS(SVG, …)` (a name, not a network address). */
export const SVG = "http://www.w3.org/2000/svg";

/** Creates the SVG element `<tag>` with the attributes `attrs` (each set as given) and children. */
export function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** Shorthand for `document.getElementById`. */
export const byId = (id) => document.getElementById(id);
