// "Add the guiding questions" in the World tab's Scope card (world.js): a new No Stone
// Unturned game starts with the nine guiding questions of worldbuilding (the core writes
// them with the game); an older game may lack some. The button shows only while some are
// missing, with how many; adding them is one undoable world move.
//
//   import { guidingQuestionsButton } from "./scope.js";
//   card.append(guidingQuestionsButton(gameId, move));   // move(title, call, toastWords)

import * as api from "./api.js";
import { el } from "../../kit/dom.js";

/** The button for game `gameId`; `move` is the World tab's one-undoable-change runner. */
export function guidingQuestionsButton(gameId, move) {
  const button = el(
    "button",
    {
      type: "button",
      id: "scope-add-guiding",
      hidden: true,
      on: { click: () => move("The guiding questions were not added.", () => api.nsuWorldAddGuidingQuestions(gameId), "Added the guiding questions.") },
    },
    "Add the guiding questions",
  );
  // How many are missing is the core's to say (it compares the questions' words).
  api.nsuWorldGuidingMissing(gameId).then(
    (missing) => {
      button.hidden = missing === 0;
      button.textContent = `Add the guiding questions (${missing})`;
    },
    () => {},
  );
  return button;
}
