// The printed Mezzo sheet: a character as a story element — who claims it, its resources
// (adversity, adversity debt, momentum) as boxes to tick, its edge slots, its traits by kind
// (edges, flaws, modifiers, extras), plot protection and the awards it had. `load` reads the
// table as the Sheet tab does (mezzoTable: this device's own view).
//
//   import * as mezzo from "./print.js";
//   const page = mezzo.layout(await mezzo.load(gameId, characterId));   // layout(null): blank

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { page, section, columns, lines, numberBox, track, check } from "../../shell/print-kit.js";

export const TITLE = "Mezzo";

const KINDS = [
  ["edge", "Edges"],
  ["flaw", "Flaws"],
  ["modifier", "Modifiers"],
  ["extra", "Extras"],
];

/** The character's element view (ElementView). */
export async function load(gameId, character) {
  const t = await api.mezzoTable(gameId);
  return t.characters.find((c) => c.id === character) ?? null;
}

/** The sheet as a page; `e` null: a blank sheet. */
export function layout(e) {
  const resources = section(
    "Resources",
    el(
      "div",
      { class: "ps-row ps-wrap" },
      numberBox("Adversity", e ? e.adversity : ""),
      numberBox("Adversity debt", e ? e.adversity_debt : ""),
      numberBox("Momentum", e ? e.momentum : ""),
    ),
    el("p", { class: "ps-sub" }, "Momentum"),
    track(12, Math.min(e?.momentum ?? 0, 12), "circle", "momentum"),
    el("p", { class: "ps-sub" }, "Edge slots: filled / free"),
    track(Math.max(e?.edge_slots ?? 4, 4), e?.filled_slots ?? 0, "square", "edge slots"),
  );
  const a = e?.awards ?? {};
  const standing = section(
    "Plot protection and awards",
    el(
      "div",
      { class: "ps-checks" },
      check("Plot protection", Boolean(e?.has_plot_protection)),
      check("First action check", Boolean(a.first_action_check)),
      check("First challenge", Boolean(a.first_challenge)),
      check("First claim", Boolean(a.first_claim)),
    ),
    el("p", { class: "ps-sub" }, "Memorable arcs"),
    track(6, Math.min(a.memorable_arcs ?? 0, 6), "square", "memorable arcs"),
  );
  const traits = KINDS.map(([kind, heading]) => {
    const mine = (e?.traits ?? []).filter((t) => t.kind === kind).map((t) => {
      const details = t.properties?.details || t.properties?.effects || "";
      return details ? `${t.name} — ${details}` : t.name;
    });
    return section(heading, lines(mine, kind === "edge" || kind === "flaw" ? 5 : 3));
  });
  return page(
    TITLE,
    [["Name", e?.name ?? ""], ["Claimed by", e?.claimed_by_name ?? ""]],
    columns(resources, standing),
    columns(traits[0], traits[1]),
    columns(traits[2], traits[3]),
    section("Notes", lines([], 4)),
  );
}
