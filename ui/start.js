// The start's one read, sent before anything else of the page's: index.html runs this file
// first, as a plain script (a module would run only once the page's modules have loaded), so
// the app gathers the home screen's data while the stylesheets and modules load and run.
// api.js hands the answer on (`home`).
//
//   <script src="start.js"></script>   (first in <head>)

"use strict";

performance.mark("asked"); // for the start-up probe (app.js, startMarks)
window.sheetkeeperHome = window.__TAURI__.core.invoke("home");
// api.js reports a failure; without a handler here it would also count as "unhandled".
window.sheetkeeperHome.catch(() => {});
