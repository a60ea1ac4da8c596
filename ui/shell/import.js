// The import preview dialog: lists the file's games and characters with their status
// (new, update, conflict, unchanged) and the differences; "Import as copies" previews the
// file again as copies; the chosen import runs with the dialog open and waiting.
//
//   import { askImport } from "./import.js";
//   const report = await askImport(picked, api); // ImportReport, or null when cancelled
//
// `picked` is api.importPick's {token, name, preview}; the token ends with the import or
// the cancel. A failure closes the dialog and rejects, so the caller shows the error.

import { el, byId } from "../kit/dom.js";
import { openModal } from "../kit/modal.js";
import { working } from "../kit/progress.js";

const STATUS_WORDS = {
  new: "new",
  update: "update",
  conflict: "conflict",
  unchanged: "unchanged",
};

/** The dialog's one import at a time: what the buttons act on. */
let current = null;
let wired = false;

function wire() {
  const dialog = byId("import-dialog");
  byId("import-confirm").addEventListener("click", (e) => apply(e.currentTarget, false));
  byId("import-replace").addEventListener("click", (e) => apply(e.currentTarget, true));
  byId("import-as-copy").addEventListener("change", (e) => previewAgain(e.currentTarget));
  byId("import-cancel").addEventListener("click", () => dialog.close(""));
  // Escape cancels, except while the app is working on the import.
  dialog.addEventListener("cancel", (e) => {
    if (current?.busy) e.preventDefault();
  });
  wired = true;
}

/** Shows the picked file's preview; resolves with the import's report, or null for cancel. */
export async function askImport(picked, api) {
  if (!wired) wire();
  current = { api, token: picked.token, name: picked.name, preview: picked.preview, busy: false };
  current.done = new Promise((resolve, reject) => Object.assign(current, { resolve, reject }));
  current.done.catch(() => {}); // the caller gets the failure from askImport's own promise
  byId("import-as-copy").checked = false;
  render();
  const answer = await openModal(byId("import-dialog"), byId("import-cancel"));
  const job = current;
  current = null;
  if (answer === "" && !job.settled) {
    // Cancelled: the token ends here (a failure to say so changes nothing for the person).
    await api.importCancel(job.token).catch(() => {});
    return null;
  }
  return job.done;
}

function render() {
  const { preview, name } = current;
  const counts = preview.counts ?? {};
  byId("import-file").textContent = name;
  byId("import-summary").textContent = summary(preview, counts);
  const sections = [];
  if (preview.games.length > 0) sections.push(itemSection("Games", preview.games));
  if (preview.characters.length > 0) sections.push(itemSection("Characters", preview.characters));
  byId("import-items").replaceChildren(...sections);
  const conflicts = (counts.conflict ?? 0) > 0;
  // Nothing new, updated or in conflict: nothing to import, so no Import; Cancel reads Close.
  const nothing = (counts.new ?? 0) + (counts.update ?? 0) + (counts.conflict ?? 0) === 0;
  byId("import-nothing").hidden = !nothing;
  byId("import-cancel").textContent = nothing ? "Close" : "Cancel";
  // The app refuses a plain import over conflicts: the person picks a side or imports copies.
  byId("import-confirm").hidden = conflicts || nothing;
  byId("import-replace").hidden = !conflicts;
  byId("import-conflict-note").hidden = !conflicts;
}

/** The as-copies box changed: preview the file again that way. */
async function previewAgain(box) {
  const job = current;
  if (!job) return;
  job.busy = true;
  setControls(true);
  const items = byId("import-items");
  items.setAttribute("aria-busy", "true");
  const words = box.checked ? "Checking the file again as copies…" : "Checking the file again…";
  try {
    await working(null, byId("import-status"), words, async () => {
      job.preview = await job.api.importPreview(job.token, box.checked);
    });
    if (current === job) render();
  } catch (e) {
    await job.api.importCancel(job.token).catch(() => {});
    fail(job, e);
  } finally {
    items.removeAttribute("aria-busy");
    job.busy = false;
    setControls(false);
  }
}

/** Imports (replacing conflicts or not) with the dialog waiting, then closes it. */
async function apply(button, replace) {
  const job = current;
  if (!job || job.busy) return;
  job.busy = true;
  setControls(true, button);
  const asCopy = byId("import-as-copy").checked;
  try {
    const report = await working(button, byId("import-status"), importingWords(job.preview), () =>
      job.api.importApply(job.token, asCopy, replace),
    );
    job.settled = true;
    job.resolve(report);
    byId("import-dialog").close("done");
  } catch (e) {
    fail(job, e);
  } finally {
    job.busy = false;
    setControls(false);
  }
}

function fail(job, e) {
  job.settled = true;
  job.reject(e);
  byId("import-dialog").close("failed");
}

/** While the app works: every control waits (the working button shows its own progress). */
function setControls(waiting, except = null) {
  for (const id of ["import-confirm", "import-replace", "import-as-copy", "import-cancel"]) {
    const control = byId(id);
    if (control !== except) control.disabled = waiting;
  }
}

function importingWords(preview) {
  const c = preview.counts ?? {};
  const n = (c.new ?? 0) + (c.update ?? 0) + (c.conflict ?? 0);
  const what = n === 1 ? "1 record" : `${n} records`;
  return `Importing ${what}… If another program is writing to the database, this waits for it.`;
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
