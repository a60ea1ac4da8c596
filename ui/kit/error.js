// The error area under the header (`role="alert"`). Messages from the app may hold several
// lines, one problem per line; CSS keeps the line breaks.
//
//   import { renderError } from "./error.js";
//   renderError(state.error); // {title, message} or null

import { byId } from "./dom.js";

/** Shows `error` as "title" + the message lines, or empties and hides the area. */
export function renderError(error) {
  const box = byId("error");
  const text = byId("error-message");
  if (error === null) {
    box.hidden = true;
    text.textContent = "";
    return;
  }
  text.textContent = error.title ? `${error.title}\n${error.message}` : error.message;
  box.hidden = false;
}
