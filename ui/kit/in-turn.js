// Reads of one screen, one after another.
//
// A linked table's newer copy reloads the open screen while another reload may still be
// under way. Side by side, the read that answers last draws last, and that may be the older
// copy: a mood box just tapped shows untapped again, and no newer copy comes to mend it. Run
// in turn, the last read asked for is the last drawn, so the screen ends on the newest copy.

/** A queue: `inTurn()(task)` runs `task` once every task given before it has settled. */
export function inTurn() {
  let last = Promise.resolve();
  return (task) => {
    const next = last.then(() => task());
    last = next.catch(() => {});
    return next;
  };
}
