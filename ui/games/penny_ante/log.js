// The Penny Ante log tab: every move at the table and in challenges, newest first, in words;
// undone moves struck through. "Undo the last move" takes back the newest live one
// (undoGame), whether at the table or in a challenge.
//
//   import { renderLog } from "./log.js";
//   renderLog(host, ctx);   // ctx from screen.js; ctx.ui.log holds PennyLogEntry[]

import { el } from "../../kit/dom.js";
import { button, houseSecretsControl, houseHandOver } from "./kit.js";
import { listOrNone } from "../../kit/forms.js";

const when = (at) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString();
};

/** Fills `host` with the log and its Undo button. */
export function renderLog(host, ctx) {
  const log = ctx.ui.log ?? [];
  const live = log.find((e) => !e.undone);
  if (ctx.ui.handOverHouse) {
    host.append(el("section", { class: "penny-card", id: "penny-log" }, houseHandOver(ctx)));
    return;
  }
  host.append(
    el(
      "section",
      { class: "penny-card", id: "penny-log", "aria-labelledby": "penny-log-heading" },
      el("h3", { id: "penny-log-heading" }, "Log of moves"),
      ctx.table.antagonists.length > 0 && houseSecretsControl(ctx),
      live &&
        el(
          "div",
          { class: "penny-row" },
          el("p", { class: "grow", id: "penny-log-last" }, `Last move: ${live.action}`),
          button("Undo the last move", (b) => ctx.undoLast(b), {
            id: "penny-log-undo",
            "aria-describedby": "penny-log-last",
          }),
        ),
      listOrNone(log, el("p", { class: "muted", id: "penny-log-empty" }, "Nothing has happened at this table yet."), () =>
        el(
          "ol",
          { class: "penny-log-list", id: "penny-log-list", "aria-label": "Moves, newest first" },
          ...log.map((e) =>
            el(
              "li",
              { class: `penny-log-entry${e.undone ? " undone" : ""}`, data: { seq: String(e.seq) } },
              el("time", { datetime: e.at, class: "muted" }, when(e.at)),
              el("span", { class: "penny-log-action" }, e.action),
              e.undone && el("span", { class: "muted" }, " (undone)"),
            ),
          ),
        ),
      ),
    ),
  );
}
