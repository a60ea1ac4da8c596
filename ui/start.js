// The start's data, before anything else of the page's runs: index.html runs this file first,
// as a plain script (a module would run only once the page's modules have loaded).
//
//   <script src="start.js"></script>   (first in <head>)
//
// On the page's first load the window already holds the home screen's data, put there when
// the app built it (`sheetkeeperHomeJson`, webview.rs): a call sent while the page loads
// comes back late. A reload asks for it again, as that copy may be old by then; so does a
// window built without it. api.js hands the answer on (`home`).

"use strict";

performance.mark("asked"); // for the start-up probe (app.js, startMarks)
window.sheetkeeperHome = (() => {
  const given = window.sheetkeeperHomeJson;
  const load = performance.getEntriesByType("navigation")[0];
  if (typeof given === "string" && load?.type === "navigate") {
    return Promise.resolve(JSON.parse(given));
  }
  return window.__TAURI__.core.invoke("home");
})();
// api.js reports a failure; without a handler here it would also count as "unhandled".
window.sheetkeeperHome.catch(() => {});
