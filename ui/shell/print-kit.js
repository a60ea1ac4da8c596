// The parts every printed sheet shares: the page with its title and name line, headed
// sections, ruled lines (written on or empty), rows of boxes and tracks (squares, diamonds,
// triangles, circles), a labelled number box. Black on white; ui/print.css lays them out.
// The system layouts (games/nsu/print.js, games/penny_ante/print.js, games/mezzo/print.js, games/scattershot/print.js)
// build their sheets from these; print-sheet.js shows and prints them.
//
//   import { page, section, lines, track } from "./print-kit.js";
//   page("No Stone Unturned", [["Name", "Wren"], ["Look", ""]], section("Harm", lines(["Cut"], 4)));

import { el, svgEl } from "../kit/dom.js";

/** A page: the system's title beside its name fields ([label, value]), then the sheet's parts. */
export function page(title, fields, ...parts) {
  return el(
    "article",
    { class: "ps-page" },
    el(
      "header",
      { class: "ps-head" },
      el("h1", { class: "ps-title" }, title),
      el("div", { class: "ps-fields" }, ...fields.map(([label, value]) => field(label, value))),
    ),
    ...parts,
  );
}

/** A value written on a ruled line with its label under the line's end, as on paper. */
export function field(label, value = "") {
  return el("div", { class: "ps-field" }, el("span", { class: "ps-line ps-field-line" }, value ?? ""), el("span", { class: "ps-label" }, label));
}

/** A headed part of the sheet; `wide` spans both columns of a grid. */
export function section(title, ...content) {
  return el("section", { class: "ps-section" }, el("h2", { class: "ps-heading" }, title), ...content);
}

/** Two columns side by side. */
export function columns(...parts) {
  return el("div", { class: "ps-columns" }, ...parts);
}

/** `texts` written on ruled lines, then empty ones up to `at_least` lines. */
export function lines(texts, atLeast = 0, cls = "") {
  const rows = texts.filter((t) => t !== null && t !== undefined);
  const count = Math.max(rows.length, atLeast);
  return el(
    "div",
    { class: `ps-lines ${cls}`.trim() },
    ...Array.from({ length: count }, (_, i) => el("div", { class: "ps-line" }, rows[i] ?? "")),
  );
}

const SHAPES = {
  square: "2,2 14,2 14,14 2,14",
  diamond: "8,1 15,8 8,15 1,8",
  triangle: "8,2 15,14 1,14",
};

/**
 * One shape ("square", "diamond", "triangle", "circle"), marked (filled) or empty. Not the
 * NSU sheet's `shape()` (games/nsu/sheet.js): that one takes the theme's colours from sheet.css,
 * a printed mark is black or white whatever the theme, and printing must not load the NSU
 * sheet's module for every system.
 */
export function shape(kind, marked = false, label = null) {
  const ink = { fill: marked ? "black" : "white", stroke: "black", "stroke-width": "1.3" };
  const mark =
    kind === "circle"
      ? svgEl("circle", { cx: "8", cy: "8", r: "6.5", ...ink })
      : svgEl("polygon", { points: SHAPES[kind] ?? SHAPES.square, ...ink });
  return svgEl(
    "svg",
    {
      viewBox: "0 0 16 16",
      class: `ps-shape ps-${kind}${marked ? " ps-marked" : ""}`,
      role: "img",
      "aria-label": label ?? `${marked ? "marked" : "empty"} ${kind}`,
    },
    mark,
  );
}

/** A row of `count` shapes with the first `marked` filled: a track or a row of checkboxes. */
export function track(count, marked = 0, kind = "square", label = "track", threshold = null) {
  const boxes = Array.from({ length: count }, (_, i) => shape(kind, i < marked, ""));
  // A threshold is a bar drawn after that many boxes, as on the official sheets.
  if (threshold !== null) boxes.splice(threshold, 0, el("span", { class: "ps-threshold" }));
  const after = threshold === null ? "" : `, threshold after box ${threshold}`;
  return el("span", { class: "ps-track", role: "img", "aria-label": `${label}: ${marked} of ${count}${after}` }, ...boxes);
}

/** A labelled box with a number (or empty, to write in). */
export function numberBox(label, value = "") {
  return el("div", { class: "ps-number" }, el("span", { class: "ps-number-box" }, value === null ? "" : String(value)), el("span", { class: "ps-label" }, label));
}

/** A checkbox with its words. */
export function check(label, marked = false) {
  return el("span", { class: "ps-check" }, shape("square", marked, ""), el("span", {}, label));
}

/**
 * A ruled table: `head` the column names, `rows` arrays of cells (strings or nodes), padded
 * with empty rows up to `atLeast`.
 */
export function table(head, rows, atLeast = 0, cls = "") {
  const count = Math.max(rows.length, atLeast);
  return el(
    "table",
    { class: `ps-table ${cls}`.trim() },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))),
    el(
      "tbody",
      {},
      ...Array.from({ length: count }, (_, i) =>
        el("tr", {}, ...head.map((_, j) => el("td", {}, rows[i]?.[j] ?? ""))),
      ),
    ),
  );
}

/** A signed number as a sheet writes it (+2, −1, 0). */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
