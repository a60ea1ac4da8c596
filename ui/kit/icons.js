// The design system's icons: small line drawings (24 × 24, drawn with the text's colour) for
// the phone's bottom tab bar and the frame's icon buttons. Each is one SVG path made here with
// createElementNS (never markup), hidden from screen readers: the control's words name it.
//
//   import { icon } from "../kit/icons.js";
//   el("button", {}, icon("sheet"), el("span", {}, "Sheet"));

import { SVG } from "./dom.js";

/** Path data by name: a game's tab ids, "more" and "dice". A dot is a zero-length stroke. */
const PATHS = {
  sheet: "M6 3h9l3 3v15H6z M9 10h6 M9 14h6 M9 18h4",
  world: "M3 6l6-3 6 3 6-3v15l-6 3-6-3-6 3z M9 3v15 M15 6v15",
  downtime: "M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z",
  log: "M9 6h11 M9 12h11 M9 18h11 M4.5 6h.01 M4.5 12h.01 M4.5 18h.01",
  table: "M3 9h18 M6 9v11 M18 9v11 M9 5h6",
  roll: "M5 5h14v14H5z M9 9h.01 M15 15h.01 M12 12h.01",
  check: "M5 5h14v14H5z M9 12l2 2 4-4",
  dice: "M5 5h14v14H5z M9 9h.01 M15 15h.01 M15 9h.01 M9 15h.01",
  conflict: "M4 4l10 10 M20 4L10 14 M5 19l3-3 M19 19l-3-3 M12 16l4-4 M12 16l-4-4",
  challenge: "M6 21V4 M6 4h11l-2 4 2 4H6",
  elements: "M12 3l9 5-9 5-9-5z M3 13l9 5 9-5",
  plot: "M6 3v18 M6 12c6 0 6-6 12-6 M6 12c6 0 6 6 12 6",
  deck: "M8 3h11v14H8z M5 7v14h11",
  ledger: "M5 7c0-1.7 3.1-3 7-3s7 1.3 7 3-3.1 3-7 3-7-1.3-7-3z M5 7v5c0 1.7 3.1 3 7 3s7-1.3 7-3V7 M5 12v5c0 1.7 3.1 3 7 3s7-1.3 7-3v-5",
  play: "M7 4l13 8-13 8z",
  rewards: "M12 3l2.6 5.5 6 .8-4.4 4.2 1.1 6L12 16.6l-5.3 2.9 1.1-6-4.4-4.2 6-.8z",
  more: "M5 12h.01 M12 12h.01 M19 12h.01",
  journal: "M6 3h11a2 2 0 0 1 2 2v16H8a2 2 0 0 1-2-2z M6 19a2 2 0 0 1 2-2h11 M10 7h6 M10 11h6",
};

/** The icon `name` as an inline SVG (a blank one for a name without a drawing). */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", PATHS[name] ?? "");
  svg.append(path);
  return svg;
}
