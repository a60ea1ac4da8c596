// The layout check the window tests run with every screenshot (tests/window/webdriver.rs
// includes this file). It returns a list of problems, each naming the elements:
//
// - two visible controls or texts overlap by more than 2 px both ways;
// - something visible reaches past the window's right (or left) edge, or the page is wider
//   than the window;
// - at a phone's width (480 px or less), an enabled control smaller than 44 × 44 px.
//
// What counts (the narrow rules):
// - Controls are boxes (button, input, select, textarea, summary, a[href], [role=button],
//   [role=tab]); texts are the rectangles of text nodes (one per line), so a paragraph is
//   as wide as its words, not its block. A text inside a control is part of it, and a
//   control inside another is part of it: such pairs are not compared.
// - Visible: rendered (not inside a closed <details> but for its summary), not
//   visibility:hidden, opacity above 0.05 up the tree, not clipped
//   away (`clip` set, `clip-path: inset(50%)`: the visually-hidden pattern), and at least
//   3 px each way after every scrolling or clipping ancestor has cut it (an element inside
//   a scroll container is measured as far as the container shows it; the container itself
//   must fit the window).
// - Layers: an element belongs to its nearest fixed or sticky ancestor (or the page). Texts
//   and controls are compared pairwise within one layer. Across layers, a layer may not
//   cover another layer's controls — except a bar: an element marked data-layout="bar" that
//   is fixed or sticky against the top or bottom edge of the window (or stacked against
//   such a bar, like the toast above a bottom tab bar), which in-flow page content scrolls
//   under (the page must leave room for it at its end; bars still may not cover each other
//   or an overlay).
// - The page's X-card (#xcard, shell/xcard.js) is no bar: it floats in the top right corner
//   that the header and the screens' bar keep free, so it may cover no text and no control
//   of any other layer, except what is out of sight under a bar there (the page scrolled
//   under a screen's sticky bar).
// - When a modal dialog is open, only the topmost one is checked (the page behind is inert);
//   the page is still checked for sideways overflow.
(() => {
  const SLACK = 2;
  const problems = [];
  const W = window.innerWidth;
  const H = window.innerHeight;

  const describe = (node) => {
    const e = node.nodeType === 1 ? node : node.parentElement;
    let s = e.tagName.toLowerCase();
    if (e.id) s += `#${e.id}`;
    const cls = [...e.classList].slice(0, 2);
    if (cls.length) s += `.${cls.join(".")}`;
    const text = (node.nodeType === 1 ? e.innerText || e.value || e.getAttribute("aria-label") || "" : node.textContent)
      .replace(/\s+/g, " ")
      .trim();
    if (text) s += ` “${text.length > 32 ? `${text.slice(0, 31)}…` : text}”`;
    return s;
  };

  // ---- visibility and clipping ----
  const styles = new Map();
  const style = (e) => {
    let s = styles.get(e);
    if (!s) {
      s = getComputedStyle(e);
      styles.set(e, s);
    }
    return s;
  };

  // Inside a closed <details> only its own <summary> shows (WebKit may still give the
  // hidden content boxes).
  const inClosedDetails = (e) => {
    for (let d = e.closest("details:not([open])"); d; d = d.parentElement?.closest("details:not([open])")) {
      const summary = d.querySelector(":scope > summary");
      if (!summary || !summary.contains(e)) return true;
    }
    return false;
  };

  const hiddenByStyle = (e) => {
    if (inClosedDetails(e)) return true;
    if (e.checkVisibility && !e.checkVisibility({ visibilityProperty: true })) return true;
    let opacity = 1;
    for (let a = e; a; a = a.parentElement) {
      const s = style(a);
      if (s.display === "none") return true;
      opacity *= Number(s.opacity);
      if (s.clip && s.clip !== "auto") return true;
      if (s.clipPath && /inset\(50%/.test(s.clipPath)) return true;
    }
    if (style(e).visibility !== "visible") return true;
    return opacity < 0.05;
  };

  // The rectangle as far as its clipping ancestors show it, or null. A text's own element
  // clips it too (`inside`: a one-line title cut with "…" shows only its box).
  const clipped = (e, rect, inside = false) => {
    let r = { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
    let fixed = false;
    for (let a = e; a && a !== document.documentElement; a = a.parentElement) {
      const s = style(a);
      if (!fixed && (a !== e || inside) && (s.overflowX !== "visible" || s.overflowY !== "visible")) {
        const box = a.getBoundingClientRect();
        const left = box.left + a.clientLeft;
        const top = box.top + a.clientTop;
        const cut = { left, top, right: left + a.clientWidth, bottom: top + a.clientHeight };
        if (s.overflowX !== "visible") {
          r.left = Math.max(r.left, cut.left);
          r.right = Math.min(r.right, cut.right);
        }
        if (s.overflowY !== "visible") {
          r.top = Math.max(r.top, cut.top);
          r.bottom = Math.min(r.bottom, cut.bottom);
        }
      }
      if (s.position === "fixed") fixed = true;
    }
    if (r.right - r.left < 3 || r.bottom - r.top < 3) return null;
    return r;
  };

  // ---- scope: the topmost modal dialog, or the page ----
  const modals = [...document.querySelectorAll("dialog[open]")].filter((d) => {
    try {
      return d.matches(":modal");
    } catch (_) {
      return true;
    }
  });
  let scope = document.body;
  if (modals.length > 0) {
    const onTop = modals.filter((d) => {
      const b = d.getBoundingClientRect();
      const hit = document.elementFromPoint(b.left + b.width / 2, b.top + Math.min(b.height / 2, 20));
      return hit && d.contains(hit);
    });
    scope = onTop.length > 0 ? onTop[onTop.length - 1] : modals[modals.length - 1];
  }
  const inScope = (e) => scope.contains(e) && (scope !== document.body || !e.closest("dialog:not([open])"));

  // ---- layers ----
  const layerOf = (e) => {
    for (let a = e; a && a !== scope; a = a.parentElement) {
      const p = style(a).position;
      if (p === "fixed" || p === "sticky") return a;
    }
    return scope;
  };
  // Bars: data-layout="bar" layers against the window's top or bottom edge, or stacked
  // against such a bar (the toast above a bottom tab bar).
  const attached = new Set();
  {
    const candidates = [...scope.querySelectorAll("[data-layout='bar']")].filter((e) => {
      const p = style(e).position;
      return (p === "fixed" || p === "sticky") && !hiddenByStyle(e);
    });
    const box = new Map(candidates.map((e) => [e, e.getBoundingClientRect()]));
    let grew = true;
    while (grew) {
      grew = false;
      for (const e of candidates) {
        if (attached.has(e)) continue;
        const b = box.get(e);
        const onEdge = b.top <= 1 || b.bottom >= H - 1;
        const onBar = [...attached].some((o) => {
          const ob = box.get(o);
          return Math.abs(b.bottom - ob.top) <= 1 || Math.abs(b.top - ob.bottom) <= 1;
        });
        if (onEdge || onBar) {
          attached.add(e);
          grew = true;
        }
      }
    }
  }
  const isBar = (layer) => attached.has(layer);

  // ---- the things compared ----
  const CONTROL = "button, input:not([type=hidden]), select, textarea, summary, a[href], [role=button], [role=tab]";
  const SKIP = "svg, select, option, optgroup, script, style, template, noscript, datalist";
  const items = []; // {node, element, control, rects, layer}

  for (const e of scope.querySelectorAll(CONTROL)) {
    if (!inScope(e) || e.closest(SKIP) && e.tagName !== "SELECT") continue;
    if (hiddenByStyle(e)) continue;
    const rects = [...e.getClientRects()].map((r) => clipped(e, r)).filter(Boolean);
    if (rects.length) items.push({ node: e, element: e, control: true, rects, layer: layerOf(e) });
  }
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT, {
    acceptNode: (t) => (t.textContent.trim() === "" ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const range = document.createRange();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const e = t.parentElement;
    if (!e || !inScope(e) || e.closest(SKIP) || e.closest(CONTROL)) continue;
    if (hiddenByStyle(e)) continue;
    range.selectNodeContents(t);
    const rects = [...range.getClientRects()].map((r) => clipped(e, r, true)).filter(Boolean);
    if (rects.length) items.push({ node: t, element: e, control: false, rects, layer: layerOf(e) });
  }

  const overlap = (a, b) => {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > SLACK && h > SLACK ? [Math.round(w), Math.round(h)] : null;
  };
  const related = (a, b) =>
    (a.control && a.element !== b.element && a.element.contains(b.node)) ||
    (b.control && b.element !== a.element && b.element.contains(a.node)) ||
    a.element === b.element;

  const seen = new Set();
  const report = (text) => {
    if (!seen.has(text)) {
      seen.add(text);
      problems.push(text);
    }
  };

  // The X-card against everything of another layer: nothing may be under it but what a bar
  // (not its own dock, not the item's own layer) hides there.
  const xcard = items.find((i) => i.control && i.element.id === "xcard") ?? null;
  const inside = (r, b) => r.left >= b.left - SLACK && r.right <= b.right + SLACK && r.top >= b.top - SLACK && r.bottom <= b.bottom + SLACK;
  const underBar = (item, r) =>
    [...attached].some((bar) => bar !== xcard.layer && bar !== item.layer && !bar.contains(item.element) && inside(r, bar.getBoundingClientRect()));
  if (xcard) {
    const x = xcard.rects[0];
    for (const item of items) {
      if (item === xcard || item.layer === xcard.layer) continue;
      for (const r of item.rects) {
        const hit = overlap(x, r);
        if (!hit) continue;
        const region = { left: Math.max(x.left, r.left), right: Math.min(x.right, r.right), top: Math.max(x.top, r.top), bottom: Math.min(x.bottom, r.bottom) };
        if (underBar(item, region)) continue;
        report(`${describe(item.node)} is covered by the X-card ${describe(xcard.node)} by ${hit[0]}×${hit[1]} px`);
        break;
      }
    }
  }

  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i];
      const b = items[j];
      if (related(a, b)) continue;
      if (xcard && (a === xcard || b === xcard) && a.layer !== b.layer) continue;
      let verb = null;
      let first = a;
      let second = b;
      if (a.layer === b.layer) verb = "overlaps";
      else if (a.layer === scope || b.layer === scope) {
        // A fixed or sticky layer is above the page: it may not cover the page's controls,
        // unless it is a bar the page scrolls under.
        const [page, over] = a.layer === scope ? [a, b] : [b, a];
        if (page.control && !isBar(over.layer)) {
          [first, second] = [page, over];
          verb = "is covered (from a layer above) by";
        }
      } else if (a.control || b.control) {
        // Two layers (bars, overlays) over each other: neither may cover the other's controls.
        if (!a.control) [first, second] = [b, a];
        verb = "is covered (from another layer) by";
      }
      if (!verb) continue;
      for (const ra of a.rects) {
        let hit = null;
        for (const rb of b.rects) {
          hit = overlap(ra, rb);
          if (hit) break;
        }
        if (!hit) continue;
        report(`${describe(first.node)} ${verb} ${describe(second.node)} by ${hit[0]}×${hit[1]} px`);
        break;
      }
    }
  }

  // ---- targets big enough for a finger (phones only) ----
  // At a phone's width every enabled control a person taps is at least 44 × 44 px, as the
  // accessibility review measured it: a checkbox or radio with its label (the label is the
  // target), a link inside running text exempt (WCAG 2.5.8's inline exception).
  if (W <= 480) {
    const MIN = 44 - 0.5;
    const reported = new Set();
    for (const item of items) {
      if (!item.control) continue;
      const e = item.element;
      if (e.disabled || e.getAttribute("aria-disabled") === "true") continue;
      if (e.matches("a[href]") && style(e).display === "inline") continue;
      let target = e;
      if (e.matches("input[type=checkbox], input[type=radio]")) {
        target = e.closest("label") || (e.id && scope.querySelector(`label[for="${CSS.escape(e.id)}"]`)) || e;
      }
      if (reported.has(target)) continue;
      const b = target.getBoundingClientRect();
      if (b.width >= MIN && b.height >= MIN) continue;
      reported.add(target);
      problems.push(`${describe(target)} is a ${Math.round(b.width)}×${Math.round(b.height)} px target (under 44×44 at ${W} px)`);
    }
  }

  // ---- sideways overflow ----
  const docWidth = document.documentElement.scrollWidth;
  if (docWidth > W + 1) problems.push(`the page is ${docWidth} px wide in a ${W} px window (it scrolls sideways)`);
  const offenders = [];
  for (const e of scope.querySelectorAll("*")) {
    if (!inScope(e) || e.closest(SKIP)) continue;
    const b = e.getBoundingClientRect();
    if (b.width < 3 || b.height < 3) continue;
    if (b.right <= W + 1 && b.left >= -1) continue;
    if (hiddenByStyle(e)) continue;
    const r = clipped(e, b);
    if (!r || (r.right <= W + 1 && r.left >= -1)) continue;
    if (offenders.some((o) => o.contains(e))) continue;
    offenders.push(e);
  }
  for (const e of offenders.slice(0, 8)) {
    const b = e.getBoundingClientRect();
    problems.push(`${describe(e)} reaches past the window's edge (${Math.round(b.left)} to ${Math.round(b.right)} px of ${W})`);
  }
  if (offenders.length > 8) problems.push(`… and ${offenders.length - 8} more past the edge`);
  return problems.slice(0, 40);
})()
