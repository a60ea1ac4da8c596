// The Mezzo plot tab (RULES.md §3.5): the arc with its Turning Point and themes, its open plot
// hooks with the points each holds, and the moves on them. Whoever triggers a hook is "the
// user": a player, and the element they act through (adversity and momentum are an element's,
// influence a player's). A hook is made for 1 influence, 1 momentum or 2 adversity (doubled
// after the Turning Point, the costs shown); a triggered hook is invested in, tapped for a
// point, or resolved — the even share-out of its points is shown before it is confirmed.
// Several hooks triggered at once during the challenge being played (mezzoChallenge: its id,
// and its challengers, those still in ticked) give Raise Stakes, No Escape or the Turning
// Point; with no challenge being played the three are shown disabled ("Start a challenge
// first": the rules allow none of them outside a challenge). The arc ends after its Turning Point with the
// memorable-element awards, and the next one starts. Every change is one move (ctx.move).
//
//   import { renderPlot } from "./plot.js";
//   renderPlot(host, ctx);   // ctx from screen.js; ctx.ui.plot is the PlotView

import * as api from "./api.js";
import { el } from "../../kit/dom.js";
import { card, checkbox, field, form, numberInput, readCount, button, select, plural, allElements, listOrNone } from "./kit.js";
import { runningChallenge } from "./check.js";

const RESOURCES = ["influence", "momentum", "adversity"];
const WORD = { influence: "influence", momentum: "momentum", adversity: "adversity" };

function uiOf(ctx) {
  ctx.ui.plotUi = ctx.ui.plotUi ?? {
    player: "",
    element: "",
    triggered: [],
    challenge: { id: null, challengers: [] }, // the running challenge's id and the challengers ticked
    resolving: null, // {hook, reward, user, share}
  };
  const u = ctx.ui.plotUi;
  const t = ctx.table;
  if (!t.players.some((p) => p.id === u.player)) u.player = t.players[0]?.id ?? "";
  if (u.element !== "" && !allElements(t).some((e) => e.id === u.element)) u.element = "";
  const open = (ctx.ui.plot?.hooks ?? []).map((h) => h.id);
  u.triggered = u.triggered.filter((id) => open.includes(id));
  // The running challenge: its challengers still in are ticked when it is first seen.
  const ch = runningChallenge(ctx).challenge;
  if (!ch) u.challenge = { id: null, challengers: [] };
  else if (u.challenge.id !== ch.id) {
    u.challenge = { id: ch.id, challengers: ch.challengers.filter((x) => x.status === "in").map((x) => x.element) };
  } else {
    u.challenge.challengers = u.challenge.challengers.filter((id) => ch.challengers.some((x) => x.element === id));
  }
  if (u.resolving && !open.includes(u.resolving.hook)) u.resolving = null;
  return u;
}

const userOf = (u) => ({ player: u.player, element: u.element || null });

const nameIn = (plot, id) => plot.names[id] ?? "someone no longer at the table";

/** "2 influence, 1 momentum" or "no points". */
function pointsWords(points) {
  const parts = RESOURCES.filter((r) => points[r] > 0).map((r) => `${points[r]} ${WORD[r]}`);
  return parts.length === 0 ? "no points" : parts.join(", ");
}

/** Fills `host` with the plot. */
export function renderPlot(host, ctx) {
  const plot = ctx.ui.plot;
  const t = ctx.table;
  if (!plot) {
    host.append(el("p", { class: "muted" }, "Loading the plot…"));
    return;
  }
  if (t.players.length === 0) {
    host.append(card("mzp-empty", "Plot", el("p", { class: "muted" }, "Add players on the Table tab first: they make and trigger plot hooks.")));
    return;
  }
  const u = uiOf(ctx);
  host.append(el("div", { class: "mz-grid" }, arcCard(plot, ctx, u), userCard(ctx, u)));
  if (plot.arc === 0) return;
  host.append(newHookCard(plot, ctx, u), hooksCard(plot, ctx, u), multiCard(plot, ctx, u), consequencesCard(plot, ctx), registerCard(ctx, u));
}

// ---- consequences ------------------------------------------------------------------------------

/**
 * Actions' side effects kept on the arc (Lingering Consequences): a lingering one fades when its
 * arc ends, a contagious one (Contagious Consequences) carries on until struck out.
 */
function consequencesCard(plot, ctx) {
  const list = plot.consequences ?? [];
  const text = el("input", { type: "text", id: "mzp-consequence-text", maxlength: 500, required: true });
  const contagious = checkbox("Contagious: it outlasts the arc", { id: "mzp-consequence-contagious" });
  const lasts = (c) => (c.contagious ? `Contagious, from arc ${c.arc}: outlasts the arc's end` : `Lingering: fades at the end of arc ${c.arc}`);
  return card(
    "mzp-consequences",
    "Lingering consequences",
    el("p", { class: "mz-hint muted" }, "An action with the Lingering Consequences perk keeps its side effects here; the check's result offers to keep them."),
    listOrNone(list, el("p", { class: "muted", id: "mzp-consequence-list" }, "No consequences spreading."), () =>
      el(
        "ul",
        { class: "mz-list", id: "mzp-consequence-list" },
        ...list.map((c) => {
          const wordsId = `mzp-consequence-${c.id}`;
          return el(
            "li",
            { class: "mz-row", data: { consequenceId: c.id } },
            el("span", { class: "grow", id: wordsId }, el("strong", {}, c.text), el("span", { class: "muted" }, ` · ${lasts(c)}`)),
            button("Over", (b) => ctx.move("The consequence was not struck out.", () => api.mezzoRemoveConsequence(ctx.gameId, c.id), b), {
              class: "mzp-consequence-remove",
              "aria-describedby": wordsId,
              "aria-label": `Over: strike out “${c.text}”`,
            }),
          );
        }),
      ),
    ),
    form(
      { id: "mzp-consequence-form", "aria-label": "Keep an action's consequences" },
      [
        field("Side effects", text),
        contagious.node,
        el("button", { type: "submit", id: "mzp-consequence-submit" }, "Keep them on the arc"),
      ],
      (b) => {
        if (text.value.trim() === "") return text.focus();
        ctx.move("The consequences were not kept.", () => api.mezzoPutConsequence(ctx.gameId, null, text.value.trim(), contagious.box.checked), b);
      },
    ),
  );
}

// ---- the game's own Setting Laws and the arc's facts register -------------------------------------

/**
 * The table's Setting Laws (name and what it does, kept for the game) and the facts established
 * in this arc: each added, rewritten or struck out as one move. Conflicts offer them by name.
 */
function registerCard(ctx, u) {
  const src = ctx.ui.sources ?? { laws: [], facts: [] };
  return card(
    "mzp-register",
    "Setting Laws and established facts",
    el("p", { class: "mz-hint muted" }, "The table's own laws are invoked in a conflict like Potential (+1 for, −1 against). Facts are offered to Consistency and Inertia by name."),
    el("h4", {}, "The game's own Setting Laws"),
    ...registerList(ctx, u, {
      kind: "law",
      editKey: "editLaw",
      items: src.laws,
      words: (l) => `${l.name}: ${l.effect}`,
      none: "None yet: Consistency, Inertia and Potential only.",
      inputs: (editing) => [
        registerInput("mzp-law-name", 100, editing?.name),
        registerInput("mzp-law-effect", 500, editing?.effect),
      ],
      fields: ([name, effect]) => el("div", { class: "mz-fields" }, field("Law", name), field("What it does", effect)),
      formLabel: (editing) => (editing ? `Rewrite the law “${editing.name}”` : "Add a Setting Law"),
      remove: (id) => api.mezzoRemoveLaw(ctx.gameId, id),
      save: (id, [name, effect]) => api.mezzoPutLaw(ctx.gameId, id, name, effect),
    }),
    el("h4", {}, `Facts of arc ${ctx.table.arc}`),
    ...registerList(ctx, u, {
      kind: "fact",
      editKey: "editFact",
      items: src.facts,
      words: (f) => f.text,
      none: "No fact established yet.",
      inputs: (editing) => [registerInput("mzp-fact-text", 500, editing?.text)],
      fields: ([text]) => field("Fact", text),
      formLabel: (editing) => (editing ? "Rewrite the fact" : "Establish a fact"),
      remove: (id) => api.mezzoRemoveFact(ctx.gameId, id),
      save: (id, [text]) => api.mezzoPutFact(ctx.gameId, id, text),
    }),
  );
}

const registerInput = (id, maxlength, value) => {
  const input = el("input", { type: "text", id, maxlength, required: true });
  input.value = value ?? "";
  return input;
};

/**
 * One list of the register (the laws, the facts) and its form: each item with Edit (its words
 * back in the form, `u[editKey]` naming it) and Remove; the form adds one, or saves the one
 * edited, once every input is filled. `kind` makes the ids (`mzp-${kind}s`,
 * `mzp-${kind}-form`, `mzp-${kind}-submit`) and the words; `inputs(editing)` are the form's
 * inputs, filled with the edited item's words, the first focused by Edit; `save(id, words)`
 * with id null adds a new one.
 */
function registerList(ctx, u, { kind, editKey, items, words, none, inputs, fields, formLabel, remove, save }) {
  if (!items.some((item) => item.id === u[editKey])) u[editKey] = null;
  const editing = items.find((item) => item.id === u[editKey]);
  const boxes = inputs(editing);
  const row = (item) =>
    el(
      "li",
      { class: "mz-row", data: { [`${kind}Id`]: item.id } },
      el("span", { class: "grow" }, words(item)),
      // The two buttons wrap together, beside or under the text.
      el(
        "span",
        { class: "mz-row" },
        button(
          "Edit",
          () => {
            u[editKey] = item.id;
            ctx.render(`#${boxes[0].id}`);
          },
          { class: `mzp-${kind}-edit`, "aria-label": `Edit “${item.name ?? item.text}”` },
        ),
        button("Remove", (b) => ctx.move(`The ${kind} was not removed.`, () => remove(item.id), b), {
          class: `mzp-${kind}-remove`,
          "aria-label": `Remove “${item.name ?? item.text}”`,
        }),
      ),
    );
  return [
    listOrNone(items, el("p", { class: "muted", id: `mzp-${kind}s` }, none), () =>
      el("ul", { class: "mz-list", id: `mzp-${kind}s` }, ...items.map(row)),
    ),
    form(
      { id: `mzp-${kind}-form`, "aria-label": formLabel(editing) },
      [
        fields(boxes),
        el(
          "div",
          { class: "mz-row" },
          el("button", { type: "submit", id: `mzp-${kind}-submit` }, editing ? `Save the ${kind}` : `Add the ${kind}`),
          editing &&
            button("Cancel", () => {
              u[editKey] = null;
              ctx.render();
            }),
        ),
      ],
      (b) => {
        const empty = boxes.find((box) => box.value.trim() === "");
        if (empty) return empty.focus();
        const id = u[editKey];
        u[editKey] = null;
        ctx.move(`The ${kind} was not saved.`, () => save(id, boxes.map((box) => box.value.trim())), b);
      },
    ),
  ];
}

// ---- the arc ----------------------------------------------------------------------------------

function arcCard(plot, ctx, u) {
  if (plot.arc === 0) {
    return card(
      "mzp-arc",
      "Arc",
      el("p", { id: "mzp-arc-status" }, "No arc has started yet: plot hooks belong to an arc."),
      button("Start the first arc", (b) => ctx.move("The arc did not start.", () => api.mezzoStartArc(ctx.gameId), b), {
        id: "mzp-start-arc",
        class: "primary",
      }),
    );
  }
  const tp = plot.turning_point;
  const cost = plot.hook_cost;
  return card(
    "mzp-arc",
    `Arc ${plot.arc}`,
    el(
      "p",
      { id: "mzp-arc-status", class: "mz-status running" },
      tp
        ? `After its Turning Point: hooks cost and give twice as much (${cost.influence} influence, ${cost.momentum} momentum or ${cost.adversity} adversity).`
        : `Before its Turning Point: a hook costs ${cost.influence} influence, ${cost.momentum} momentum or ${cost.adversity} adversity, and resolving one gives as much.`,
    ),
    tp && themesPart(plot, ctx, tp),
    !plot.can_end
      ? el("p", { class: "mz-hint muted", id: "mzp-end-hint" }, "The arc ends after its Turning Point.")
      : ctx.table.scene?.open
        ? // The seed: after the Turning Point the arc may end "at the end of each scene" (DEV-10).
          el("p", { class: "mz-hint muted", id: "mzp-end-hint" }, "The arc ends at the end of a scene: end the scene being played (Table tab), then end the arc here.")
        : endArcForm(plot, ctx),
  );
}

function themesPart(plot, ctx, tp) {
  const left = tp.challengers.filter((id) => !tp.themes.some((th) => th.by === id));
  const by = select(left.map((id) => [id, nameIn(plot, id)]), { id: "mzp-theme-by" });
  const text = el("input", { type: "text", id: "mzp-theme-text", maxlength: 500 });
  return el(
    "div",
    {},
    el("h4", {}, "Themes of the arc"),
    listOrNone(tp.themes, el("p", { class: "muted", id: "mzp-themes" }, "No theme yet."), () => el("ul", { class: "mz-list", id: "mzp-themes" }, ...tp.themes.map((th) => el("li", {}, `“${th.text}” — ${nameIn(plot, th.by)}`)))),
    left.length > 0 &&
      form(
        { id: "mzp-theme-form", "aria-label": "Set a theme of the arc" },
        [
          el("div", { class: "mz-fields" }, field("Challenger leaving", by), field("Theme (invoked in conflicts like a Setting Law, ±1)", text)),
          el("button", { type: "submit", id: "mzp-theme-submit" }, "Set the theme"),
        ],
        (b) => {
          if (text.value.trim() === "") return text.focus();
          ctx.move("The theme was not set.", () => api.mezzoSetTheme(ctx.gameId, by.value, text.value.trim()), b);
        },
      ),
  );
}

function endArcForm(plot, ctx) {
  const t = ctx.table;
  const elements = allElements(t);
  const rows = t.players.map((p) => {
    const pick = select([["", "No award"], ...elements.map((e) => [e.id, e.name])], { id: `mzp-memorable-${p.id}`, class: "mzp-memorable" });
    const firm = checkbox("Undisputable (one per player and arc)", { id: `mzp-undisputable-${p.id}` });
    return { p, pick, firm, node: el("div", { class: "mz-cast-part" }, field(`${p.name}'s memorable element`, pick), firm.node) };
  });
  return form(
    { id: "mzp-end-arc-form", "aria-label": `End arc ${plot.arc}` },
    [
      el("h4", {}, "End the arc"),
      el("p", { class: "mz-hint muted hint" }, "Every element's adversity, debt and momentum go to 0, one-arc boons and open hooks expire; each memorable element gets an edge slot; every player starts the next arc with 3 influence."),
      ...rows.map((r) => r.node),
      el("button", { type: "submit", id: "mzp-end-arc", class: "primary" }, `End arc ${plot.arc} and start arc ${plot.arc + 1}`),
    ],
    (b) => {
      const memorable = rows
        .filter((r) => r.pick.value !== "")
        .map((r) => ({ by: r.p.id, element: r.pick.value, undisputable: r.firm.box.checked }));
      ctx.move("The arc did not end.", () => api.mezzoEndArc(ctx.gameId, memorable), b);
    },
  );
}

// ---- who triggers -----------------------------------------------------------------------------

function userCard(ctx, u) {
  const t = ctx.table;
  const player = select(t.players.map((p) => [p.id, p.name]), { id: "mzp-user-player", data: { focusKey: "mzp-user-player" } });
  player.value = u.player;
  player.addEventListener("change", () => {
    u.player = player.value;
    u.resolving = null;
    ctx.render();
  });
  const element = select([["", "No element"], ...allElements(t).map((e) => [e.id, `${e.name} (${e.adversity} adversity, ${e.momentum} momentum)`])], {
    id: "mzp-user-element",
    data: { focusKey: "mzp-user-element" },
  });
  element.value = u.element;
  element.addEventListener("change", () => {
    u.element = element.value;
    u.resolving = null;
    ctx.render();
  });
  const p = t.players.find((x) => x.id === u.player);
  return card(
    "mzp-user",
    "Who triggers the hook",
    el("div", { class: "mz-fields" }, field("Player", player), field("Acting through", element)),
    el(
      "p",
      { class: "mz-hint muted", id: "mzp-user-hint" },
      `Influence is ${p ? p.name : "the player"}'s (${p ? p.influence : 0} now); adversity and momentum are the element's. Resolving shares the hook's points among everyone else.`,
    ),
  );
}

// ---- hooks ------------------------------------------------------------------------------------

function resourceSelect(id, amounts = null) {
  return select(
    RESOURCES.map((r) => [r, amounts ? `${amounts[r]} ${WORD[r]}` : WORD[r][0].toUpperCase() + WORD[r].slice(1)]),
    { id, data: { focusKey: id } },
  );
}

function newHookCard(plot, ctx, u) {
  const text = el("input", { type: "text", id: "mzp-hook-text", maxlength: 500, required: true });
  const about = allElements(ctx.table).map((e) => checkbox(e.name, { id: `mzp-hook-about-${e.id}`, data: { elementId: e.id } }));
  const pay = resourceSelect("mzp-hook-pay", plot.hook_cost);
  return card(
    "mzp-new-hook",
    "New plot hook",
    form(
      { id: "mzp-hook-form", "aria-label": "New plot hook" },
      [
        field("Its focus: a question, goal or statement", text),
        about.length > 0 &&
          el("fieldset", {}, el("legend", {}, "About"), el("div", { class: "mz-checks" }, ...about.map((a) => a.node))),
        field("The user pays", pay, "Influence from the player; momentum or adversity from the element they act through."),
        el("button", { type: "submit", id: "mzp-hook-submit", class: "primary" }, "Make the hook"),
      ],
      async (b) => {
        if (text.value.trim() === "") return text.focus();
        const draft = {
          text: text.value.trim(),
          elements: about.filter((a) => a.box.checked).map((a) => a.box.dataset.elementId),
          pay_with: pay.value,
        };
        const done = await ctx.move("The plot hook was not made.", () => api.mezzoCreateHook(ctx.gameId, userOf(u), draft), b);
        if (done) document.getElementById("mzp-hook-text")?.focus();
      },
    ),
  );
}

function hooksCard(plot, ctx, u) {
  return card(
    "mzp-hooks",
    `Plot hooks of arc ${plot.arc}`,
    listOrNone(plot.hooks, el("p", { class: "muted", id: "mzp-hooks-empty" }, "No open plot hook."), () => el("ul", { class: "mz-list mz-cards", id: "mzp-hook-list" }, ...plot.hooks.map((h) => hookItem(h, plot, ctx, u)))),
  );
}

function hookItem(h, plot, ctx, u) {
  const id = (what) => `mzp-${what}-${h.id}`;
  const textId = id("text");
  const trigger = checkbox("Triggered now (for several hooks at once)", {
    id: id("trigger"),
    class: "mzp-trigger",
    checked: u.triggered.includes(h.id),
    data: { focusKey: id("trigger") },
  });
  trigger.box.addEventListener("change", () => {
    u.triggered = trigger.box.checked ? [...u.triggered, h.id] : u.triggered.filter((x) => x !== h.id);
    ctx.render();
  });
  const investResource = resourceSelect(id("invest-resource"));
  const investPoints = numberInput({ id: id("invest-points"), min: 1, value: 1, data: { focusKey: id("invest-points") } });
  const tapResource = resourceSelect(id("tap-resource"));
  const reward = resourceSelect(id("reward"), plot.resolve_reward);
  const investors = [...new Set(h.stored.map((s) => s.by))].map((by) => nameIn(plot, by));
  const resolving = u.resolving && u.resolving.hook === h.id ? u.resolving : null;
  return el(
    "li",
    { class: "mzp-hook", data: { hookId: h.id } },
    el("strong", { class: "mzp-hook-text", id: textId }, h.text),
    el("p", { class: "mzp-hook-points", id: id("points") }, `Holds ${pointsWords(h.points)}${h.total > 0 ? ` (${plural(h.total, "point")})` : ""}.`),
    el(
      "p",
      { class: "muted" },
      `Made by ${nameIn(plot, h.creator)}`,
      h.elements.length > 0 ? ` · about ${h.elements.map((e) => nameIn(plot, e)).join(", ")}` : "",
      investors.length > 0 ? ` · invested by ${investors.join(", ")}` : "",
    ),
    trigger.node,
    el(
      "div",
      { class: "mzp-hook-moves" },
      form(
        { class: "mz-form", "aria-label": `Invest in ${h.text}` },
        [
          el(
            "div",
            { class: "mz-act-row" },
            field("Invest", investResource),
            field("Points", investPoints),
            el("button", { type: "submit", id: id("invest"), class: "mzp-invest", "aria-describedby": textId }, "Invest"),
          ),
        ],
        (b) => {
          const n = readCount(investPoints);
          if (n === null) return;
          ctx.move("The investment was not made.", () => api.mezzoInvest(ctx.gameId, h.id, userOf(u), investResource.value, n), b);
        },
      ),
      form(
        { class: "mz-form", "aria-label": `Tap ${h.text}` },
        [
          el(
            "div",
            { class: "mz-act-row" },
            field("Tap one point of", tapResource),
            el("button", { type: "submit", id: id("tap"), class: "mzp-tap", "aria-describedby": textId, disabled: h.total === 0 }, "Tap 1 point"),
          ),
        ],
        (b) => ctx.move("The hook was not tapped.", () => api.mezzoTap(ctx.gameId, h.id, userOf(u), tapResource.value), b),
      ),
      form(
        { class: "mz-form", "aria-label": `Resolve ${h.text}` },
        [
          field("Resolve: the user takes", reward),
          el("button", { type: "submit", id: id("resolve"), class: "mzp-resolve", "aria-describedby": textId }, "Resolve…"),
        ],
        async (b) => {
          const user = userOf(u);
          let share = null;
          await ctx.run("The share-out could not be worked out.", async () => {
            share = await api.mezzoEvenShare(ctx.gameId, h.id, user);
          });
          if (share === null) return;
          u.resolving = { hook: h.id, reward: reward.value, user, share };
          ctx.render(`#${id("share-heading")}`);
        },
      ),
    ),
    resolving && sharePanel(h, plot, ctx, u, resolving),
  );
}

/** The share-out resolving `h` makes, to confirm or cancel. */
function sharePanel(h, plot, ctx, u, r) {
  const id = (what) => `mzp-${what}-${h.id}`;
  const reward = plot.resolve_reward[r.reward];
  const takerId = r.reward === "influence" ? r.user.player : r.user.element;
  const kinds = RESOURCES.filter((k) => h.points[k] > 0);
  const shared = (k) => r.share.filter((a) => a.resource === k).reduce((n, a) => n + a.points, 0);
  const lost = kinds.filter((k) => shared(k) < h.points[k]);
  return el(
    "div",
    { class: "mz-tie mzp-share", id: id("share") },
    el("h4", { id: id("share-heading"), tabindex: "-1" }, "Resolve this hook?"),
    el("p", {}, `${takerId ? nameIn(plot, takerId) : "The user"} takes ${reward} ${WORD[r.reward]}.`),
    listOrNone(r.share, el("p", { class: "muted", id: id("share-list") }, h.total === 0 ? "The hook holds no points to share out." : "Nobody else can take its points."), () =>
      el(
        "ul",
        { class: "mz-list", id: id("share-list"), "aria-label": "The even share-out" },
        ...r.share.map((a) => el("li", { class: "mzp-award" }, `${nameIn(plot, a.to)} gets ${a.points} ${WORD[a.resource]}`)),
      ),
    ),
    lost.length > 0 && el("p", { class: "mz-hint" }, `Lost, as nobody else can hold it: ${lost.map((k) => `${h.points[k] - shared(k)} ${WORD[k]}`).join(", ")}.`),
    el("p", { class: "mz-hint muted" }, "Even: nobody gets a point more before everyone has as many."),
    el(
      "div",
      { class: "actions" },
      button(
        "Resolve and share out",
        async (b) => {
          const done = await ctx.move("The hook was not resolved.", () => api.mezzoResolveHook(ctx.gameId, h.id, r.user, r.reward, r.share), b);
          if (done) u.resolving = null;
          if (done) ctx.render("#mzp-hooks-heading");
        },
        { id: "mzp-resolve-confirm", class: "primary" },
      ),
      button(
        "Cancel",
        () => {
          u.resolving = null;
          ctx.render(`#${id("resolve")}`);
        },
        { id: "mzp-resolve-cancel" },
      ),
    ),
  );
}

// ---- several hooks at once, during a challenge ------------------------------------------------

/** A fieldset around an option's controls, disabled (with the reason) when it cannot be used. */
function option(id, label, why, children) {
  return el(
    "fieldset",
    { class: "mzp-option", id: `${id}-set`, disabled: why !== null, "aria-describedby": why !== null ? `${id}-why` : null },
    el("legend", {}, label),
    why !== null && el("p", { class: "mz-hint mzp-why", id: `${id}-why` }, why),
    ...children,
  );
}

function noEscapeList(plot) {
  return (
    plot.no_escape.length > 0 &&
    el(
      "ul",
      { class: "mz-list", id: "mzp-no-escape-list", "aria-label": "No Escape targets" },
      ...plot.no_escape.map((x) => el("li", {}, `${nameIn(plot, x.by)} named ${nameIn(plot, x.target)} for removal${x.used ? " (Plot Protection ignored)" : ""}.`)),
    )
  );
}

function multiCard(plot, ctx, u) {
  const t = ctx.table;
  const elements = allElements(t);
  const running = runningChallenge(ctx);
  const ch = running.challenge;
  const triggered = plot.hooks.filter((h) => u.triggered.includes(h.id));
  const n = triggered.length;
  const challengers = u.challenge.challengers;
  const nameOf = (id) => ch?.names?.[id] ?? nameIn(plot, id);
  const checks = (ch ? ch.challengers : []).map((x) => {
    const status = x.status === "in" ? "still in" : x.status === "leaving" ? "leaving" : "left";
    const c = checkbox(`${x.name} (${status})`, {
      id: `mzp-challenger-${x.element}`,
      checked: challengers.includes(x.element),
      data: { focusKey: `mzp-challenger-${x.element}` },
    });
    c.box.addEventListener("change", () => {
      u.challenge.challengers = c.box.checked ? [...challengers, x.element] : challengers.filter((id) => id !== x.element);
      ctx.render();
    });
    return c.node;
  });
  const challenge = () => ({ id: u.challenge.id, challengers: u.challenge.challengers });
  const named = challengers.map((id) => [id, nameOf(id)]);
  const hookIds = triggered.map((h) => h.id);
  // Why an option cannot be used now (null: it can be tried; the core checks the rest).
  const why = (least) => {
    if (challengers.length === 0) return "Tick the challenge's challengers first.";
    if (n < least) return `Trigger at least ${least} hooks (${n} now).`;
    return null;
  };

  // Raise Stakes: points out of the triggered hooks into one challenger's stake.
  // Only a challenger holding a stake has one to raise (the core refuses the others by name).
  const stakeOf = (id) => ch?.challengers.find((x) => x.element === id)?.stake ?? null;
  const staked = challengers.filter((id) => stakeOf(id)).map((id) => [id, `${nameOf(id)}: “${stakeOf(id)}”`]);
  const stakesBy = select(staked, { id: "mzp-stakes-challenger" });
  const takes = [];
  const takeRows = triggered.map((h) =>
    el(
      "div",
      { class: "mz-fields" },
      ...RESOURCES.filter((r) => h.points[r] > 0).map((r) => {
        const box = numberInput({ id: `mzp-take-${h.id}-${r}`, min: 0, max: h.points[r], value: 0 });
        takes.push({ hook: h.id, resource: r, box });
        return field(`From “${h.text}”: ${WORD[r]} (of ${h.points[r]})`, box);
      }),
    ),
  );
  const escapeBy = select(named, { id: "mzp-escape-by" });
  const escapeTarget = select(elements.map((e) => [e.id, e.name]), { id: "mzp-escape-target" });
  const draws = challengers.map((cid) => {
    const s = select([["", "No draw"], ...triggered.map((h) => [h.id, h.text])], { id: `mzp-draw-${cid}` });
    return { challenger: cid, s, node: field(`${nameOf(cid)} draws 1 adversity from`, s) };
  });
  const head = [
    "mzp-multi",
    "Several hooks at once (during a challenge)",
    el("p", { id: "mzp-triggered", role: "status" }, `${plural(n, "hook")} triggered. Raise Stakes needs 2, No Escape 3, the Turning Point 5 (once per arc).`),
  ];
  if (!ch) {
    // The rules allow none of the three outside a challenge: said once, no dead buttons.
    return card(
      ...head,
      running.loaded
        ? el("p", { class: "mz-hint", id: "mzp-no-challenge", role: "status" }, "Start a challenge first (Challenge tab): Raise Stakes, No Escape and the Turning Point are only used during a challenge.")
        : el("p", { class: "muted", id: "mzp-challenge-wait" }, "Looking for a challenge being played…"),
      noEscapeList(plot),
    );
  }
  return card(
    ...head,
    el(
      "fieldset",
      { id: "mzp-challengers" },
      el("legend", {}, `The challengers of “${ch.description || "the challenge being played"}”`),
      el("p", { class: "mz-hint muted" }, "Those still in are ticked; the options name the ones ticked."),
      el("div", { class: "mz-checks" }, ...checks),
    ),
    noEscapeList(plot),
    form(
      { id: "mzp-stakes-form", "aria-label": "Raise Stakes" },
      [
        option("mzp-stakes", "Raise Stakes", why(2), [
          el("p", { class: "mz-hint muted" }, "Points leave the triggered hooks as momentum for one challenger's stake: 1 per influence or momentum, 1 per 2 adversity."),
          staked.length > 0
            ? field("Into the stake of", stakesBy)
            : el("p", { class: "mz-hint", id: "mzp-stakes-none", role: "status" }, "None of the challengers ticked holds a stake: a stake is set when a challenger joins or changes stakes."),
          ...takeRows,
          el("button", { type: "submit", id: "mzp-raise-stakes", disabled: staked.length === 0 }, "Raise the stakes"),
        ]),
      ],
      (b) => {
        const take = takes
          .map((x) => ({ hook: x.hook, resource: x.resource, points: Number(x.box.value) || 0 }))
          .filter((x) => x.points > 0);
        ctx.move("The stakes were not raised.", () => api.mezzoRaiseStakes(ctx.gameId, hookIds, challenge(), stakesBy.value, take), b);
      },
    ),
    form(
      { id: "mzp-escape-form", "aria-label": "No Escape" },
      [
        option("mzp-escape", "No Escape", why(3), [
          el("div", { class: "mz-fields" }, field("The challenger setting its stakes", escapeBy), field("Names for removal", escapeTarget)),
          el("button", { type: "submit", id: "mzp-no-escape" }, "Name the target"),
        ]),
      ],
      (b) =>
        ctx.move(
          "No Escape was not used.",
          () => api.mezzoNoEscape(ctx.gameId, hookIds, challenge(), { player: u.player, element: escapeBy.value || null }, escapeTarget.value),
          b,
        ),
    ),
    !plot.turning_point &&
      form(
        { id: "mzp-turning-form", "aria-label": "Turning Point" },
        [
          option("mzp-turning", "Turning Point", why(5), [
            el("p", { class: "mz-hint muted" }, "Once per arc. The triggered hooks must hold a point per challenger; each challenger may draw a point of adversity. Afterwards hooks cost and give twice as much and the arc may end."),
            ...draws.map((d) => d.node),
            el("button", { type: "submit", id: "mzp-turning-point" }, "Reach the Turning Point"),
          ]),
        ],
        (b) => {
          const chosen = draws.filter((d) => d.s.value !== "").map((d) => ({ challenger: d.challenger, hook: d.s.value }));
          ctx.move("The Turning Point was not reached.", () => api.mezzoTurningPoint(ctx.gameId, hookIds, challenge(), [], chosen), b);
        },
      ),
  );
}
