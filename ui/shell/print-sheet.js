// Print a character's sheet, or a blank one, and save it as PDF. Loaded the first time a
// screen's "Print / PDF" or "Blank sheet" is pressed (game-screen.js), never at start-up:
// it brings its own stylesheet (print.css, injected here and waited for) and the system's
// layout (games/nsu/print.js, games/penny_ante/print.js, games/mezzo/print.js, games/scattershot/print.js), which reads
// the same view the Sheet tab shows. The sheet is built into `.print-root` (hidden on
// screen; in print it is the only thing shown), then a dialog offers Save as PDF (the app's
// save_sheet_pdf: the save dialog, then the webview printed to that file) and Print (the
// system's print dialog, which offers PDF too).
//
//   const { openPrint } = await import("./print-sheet.js");
//   await openPrint({ system: "nsu", gameId, character: id /* null: blank */, toast });

import * as api from "./api.js";
import { el, byId } from "../kit/dom.js";
import { openModal } from "../kit/modal.js";
import { addStylesheet } from "../kit/stylesheets.js";

const LAYOUTS = {
  nsu: () => import("../games/nsu/print.js"),
  penny_ante: () => import("../games/penny_ante/print.js"),
  mezzo: () => import("../games/mezzo/print.js"),
  scattershot: () => import("../games/scattershot/print.js"),
};

/** Letter where people use it, A4 elsewhere. */
function defaultPaper() {
  const lang = (navigator.language || "").toLowerCase();
  return /^(en|es)-(us|ca|mx)$/.test(lang) || lang === "en-ph" ? "letter" : "a4";
}

function root() {
  let node = byId("print-root");
  if (!node) {
    node = el("div", { id: "print-root", class: "print-root", "aria-hidden": "true" });
    document.body.append(node);
  }
  return node;
}

/** A name for the PDF: the character's, or "Blank <system> sheet". */
function fileName(title, name) {
  const clean = (s) => s.replace(/[\\/:*?"<>|\u0000-\u001f]/g, "").trim();
  return name ? `${clean(name)} — ${clean(title)} sheet.pdf` : `Blank ${clean(title)} sheet.pdf`;
}

let dialog = null;

function buildDialog() {
  const paper = el(
    "select",
    { id: "print-paper" },
    el("option", { value: "a4" }, "A4"),
    el("option", { value: "letter" }, "Letter"),
  );
  paper.value = defaultPaper();
  dialog = el(
    "dialog",
    { id: "print-dialog", class: "print-dialog", "aria-labelledby": "print-title" },
    el(
      "form",
      { method: "dialog", class: "dialog-form" },
      el("h2", { id: "print-title" }, "Print or save as PDF"),
      el("p", { id: "print-what" }),
      el("div", { class: "field" }, el("label", { for: "print-paper" }, "Paper"), paper),
      el("p", { id: "print-status", class: "work-status", role: "status", "aria-live": "polite", hidden: true }),
      el(
        "div",
        { class: "dialog-buttons" },
        el("button", { type: "button", id: "print-save-pdf", class: "primary" }, "Save as PDF…"),
        el("button", { type: "button", id: "print-print" }, "Print…"),
        el("button", { type: "submit", id: "print-close", value: "close" }, "Close"),
      ),
    ),
  );
  document.body.append(dialog);
  return dialog;
}

/** Marks the paper on the root element, so print.css sizes the page for it. */
function setPaper(paper) {
  document.documentElement.dataset.paper = paper;
}

/**
 * Builds the sheet of `character` (null: a blank sheet) of `system` in game `gameId` and
 * opens the print dialog. `toast(message)` tells the outcome. Rejects when the sheet could
 * not be read (the caller's `run` shows it).
 */
export async function openPrint({ system, gameId, character = null, toast, content = null }) {
  // `content`: a page built elsewhere ({node, what, file}: the journal's), printed the same way.
  const layout = content ? null : await LAYOUTS[system]();
  const [data] = await Promise.all([character && layout ? layout.load(gameId, character) : null, addStylesheet("shell/print.css")]);
  const name = data ? (data.character?.name ?? data.player?.name ?? data.name ?? null) : null;
  const sheet = content ? content.node : layout.layout(data);
  const host = root();
  host.dataset.system = system;
  host.replaceChildren(sheet);

  const d = dialog ?? buildDialog();
  const status = byId("print-status");
  status.hidden = true;
  byId("print-what").textContent = content
    ? content.what
    : name
      ? `“${name}” — the ${layout.TITLE} sheet.`
      : `A blank ${layout.TITLE} sheet.`;
  const paper = byId("print-paper");
  setPaper(paper.value);
  paper.onchange = () => setPaper(paper.value);
  const buttons = [byId("print-save-pdf"), byId("print-print"), byId("print-close")];
  const busy = (on, text = "") => {
    for (const b of buttons) b.disabled = on;
    byId("print-save-pdf").toggleAttribute("aria-busy", on);
    status.hidden = !on;
    status.textContent = text;
  };
  byId("print-save-pdf").onclick = async () => {
    const file = content ? content.file.replace(/[\\/:*?"<>|\u0000-\u001f]/g, "").trim() : fileName(layout.TITLE, name);
    busy(true, `Choose where to save “${file}”…`);
    let outcome;
    try {
      outcome = await api.saveSheetPdf(file, paper.value);
    } catch (e) {
      outcome = { outcome: "failed", error: e.kind ?? "internal", message: e.message ?? String(e) };
    }
    busy(false);
    if (outcome.outcome === "cancelled") return;
    if (outcome.outcome === "print_dialog") {
      d.close("print");
      window.print();
      return;
    }
    d.close(outcome.outcome);
    if (outcome.outcome === "saved") toast(`Saved the ${content ? "journal" : "sheet"} as “${outcome.file_name}”.`);
    else toast(`The PDF was not saved (${outcome.error}): ${outcome.message}`);
  };
  byId("print-print").onclick = () => {
    d.close("print");
    window.print();
  };
  await openModal(d, byId("print-save-pdf"));
}
