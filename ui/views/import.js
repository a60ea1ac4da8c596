// The import preview dialog: lists the file's games and characters with their status
// (new, update, conflict, unchanged) and the differences, then asks how to import.
//
//   import { askImport } from "./views/import.js";
//   const choice = await askImport(preview); // "import" | "copy" | "replace" | null

import { el, byId } from "./dom.js";
import { openModal } from "./modal.js";

const STATUS_WORDS = {
  new: "new",
  update: "update",
  conflict: "conflict",
  unchanged: "unchanged",
};

let wired = false;

function wire() {
  const dialog = byId("import-dialog");
  const close = (value) => () => dialog.close(value);
  byId("import-confirm").addEventListener("click", close("import"));
  byId("import-as-copy").addEventListener("click", close("copy"));
  byId("import-replace").addEventListener("click", close("replace"));
  byId("import-cancel").addEventListener("click", close(""));
  wired = true;
}

/** Shows `preview`; resolves with the chosen way to import, or null for cancel. */
export async function askImport(preview) {
  if (!wired) wire();
  const counts = preview.counts ?? {};
  byId("import-summary").textContent = summary(preview, counts);
  const sections = [];
  if (preview.games.length > 0) sections.push(itemSection("Games", preview.games));
  if (preview.characters.length > 0) sections.push(itemSection("Characters", preview.characters));
  byId("import-items").replaceChildren(...sections);
  const conflicts = (counts.conflict ?? 0) > 0;
  byId("import-replace").hidden = !conflicts;
  byId("import-conflict-note").hidden = !conflicts;
  const answer = await openModal(byId("import-dialog"), byId("import-cancel"));
  return answer === "" ? null : answer;
}

function summary(preview, counts) {
  const what = preview.kind === "backup" ? "This backup" : `This ${preview.kind} file`;
  const parts = ["new", "update", "conflict", "unchanged"]
    .filter((k) => (counts[k] ?? 0) > 0)
    .map((k) => `${counts[k]} ${STATUS_WORDS[k]}`);
  return parts.length > 0 ? `${what}: ${parts.join(", ")}.` : `${what} is empty.`;
}

function itemSection(title, items) {
  return el(
    "section",
    { class: "import-section" },
    el("h3", {}, title),
    el("ul", { class: "import-list" }, ...items.map(itemRow)),
  );
}

function itemRow(item) {
  const status = STATUS_WORDS[item.status] ?? String(item.status);
  const row = el(
    "li",
    { class: "import-item", data: { status: item.status } },
    el("span", { class: "import-name" }, item.name),
    el("span", { class: `badge status-${status}` }, status),
  );
  const diffs = item.differences ?? [];
  if (diffs.length > 0) {
    row.append(
      el(
        "dl",
        { class: "differences" },
        ...diffs.flatMap((d) => [
          el("dt", {}, String(d.field)),
          el("dd", {}, `yours: ${show(d.mine)} → file: ${show(d.theirs)}`),
        ]),
      ),
    );
  }
  return row;
}

/** Differences may carry strings, numbers or small JSON values; all are shown as text. */
function show(value) {
  if (value === null || value === undefined) return "(none)";
  return typeof value === "string" ? value : JSON.stringify(value);
}
