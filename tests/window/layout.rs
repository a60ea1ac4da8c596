//! The layout check itself (`layout_check.js`, run with every screenshot): it names two
//! overlapping buttons, a text under a button, a page wider than the window, and a toast
//! over a control; it leaves alone what is clipped by a scroll container, visually hidden,
//! or inside a dialog's top layer while the page behind is inert.

use serde_json::json;

use super::{begin_with, open};

/// Puts `html` into a test area at the top of the page, the rest of the page hidden.
/// The page's CSP drops `style` attributes, so the markup says `data-style` and the script
/// copies it into each element's style.
fn inject(session: &super::Session, html: &str) {
    session.execute(
        "document.getElementById('layout-probe')?.remove();
         const host = document.createElement('div');
         host.id = 'layout-probe';
         host.style.cssText = 'position:absolute;left:0;top:0;width:300px;background:Canvas;z-index:5';
         host.innerHTML = arguments[0];
         for (const e of host.querySelectorAll('[data-style]')) e.style.cssText = e.dataset.style;
         for (const c of document.body.children) c.style.visibility = 'hidden';
         host.style.visibility = 'visible';
         document.body.append(host);",
        json!([html]),
    );
}

fn clear(session: &super::Session) {
    session.execute(
        "document.getElementById('layout-probe')?.remove();
         for (const c of document.body.children) c.style.visibility = '';",
        json!([]),
    );
}

#[test]
fn layout_check_names_overlaps_and_overflow() {
    let (_window, _scratch, _db_path, session) = begin_with("layout-check", open);
    crate::phone_width(&session);
    session.wait_settled();
    assert_eq!(session.layout_problems(), Vec::<String>::new(), "the empty home is clean at 360 px");

    // Two buttons on top of each other.
    inject(
        &session,
        "<div data-style='position:relative;height:60px'>
           <button id='probe-a' data-style='position:absolute;left:0;top:0;width:120px;height:44px'>First</button>
           <button id='probe-b' data-style='position:absolute;left:60px;top:10px;width:120px;height:44px'>Second</button>
         </div>",
    );
    let problems = session.layout_problems();
    assert!(
        problems.iter().any(|p| p.contains("button#probe-a") && p.contains("button#probe-b") && p.contains("overlaps")),
        "the two buttons are named: {problems:?}"
    );

    // A button over the next row's text (the NSU harm row at 360 px).
    inject(
        &session,
        "<div data-style='height:20px'><span>Smoke in the lungs</span>
           <button id='probe-remove' data-style='height:44px;width:90px'>Remove</button></div>
         <p id='probe-next'>Cut palm and a long line of words</p>",
    );
    let problems = session.layout_problems();
    assert!(
        problems.iter().any(|p| p.contains("button#probe-remove") && p.contains("Cut palm")),
        "a button over the next row's text: {problems:?}"
    );

    // Sideways: an element wider than the window.
    inject(&session, "<div id='probe-wide' data-style='width:600px;height:20px'>wide</div>");
    let problems = session.layout_problems();
    assert!(
        problems.iter().any(|p| p.contains("div#probe-wide") && p.contains("past the window")),
        "the wide element is named: {problems:?}"
    );

    // Allowed: inside a scroll container (only what it shows counts), visually hidden,
    // side by side with a gap, and a label wrapping its input.
    inject(
        &session,
        "<div data-style='overflow-x:auto;width:300px'><div data-style='width:900px;display:flex;gap:8px'>
           <button>One</button><button>Two</button><button>Three</button></div></div>
         <span data-style='position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)'>hidden words</span>
         <label>Name <input type='text'></label>
         <p>One paragraph</p><p>Another paragraph</p>",
    );
    assert_eq!(session.layout_problems(), Vec::<String>::new(), "intended layouts pass");

    // A non-bar overlay (fixed, not against an edge) over a page control.
    inject(
        &session,
        "<button id='probe-under' data-style='margin-top:300px;height:44px'>Under</button>
         <div data-style='position:fixed;left:0;top:290px;width:300px;background:Canvas'>
           <span id='probe-over'>A message floating over the page</span></div>",
    );
    let problems = session.layout_problems();
    assert!(problems.iter().any(|p| p.contains("probe-under")), "an overlay may not cover a control: {problems:?}");
    clear(&session);

    // A modal dialog: only it is checked; a problem inside it is found.
    session.execute(
        "const d = document.createElement('dialog');
         d.id = 'probe-dialog';
         d.innerHTML = \"<div data-style='position:relative;height:60px;width:200px'>\
           <button id='probe-c' data-style='position:absolute;left:0;top:0;width:100px;height:44px'>C</button>\
           <button id='probe-d' data-style='position:absolute;left:50px;top:0;width:100px;height:44px'>D</button></div>\";
         for (const e of d.querySelectorAll('[data-style]')) e.style.cssText = e.dataset.style;
         document.body.append(d);
         d.showModal();",
        json!([]),
    );
    let problems = session.layout_problems();
    assert!(
        problems.iter().any(|p| p.contains("probe-c") && p.contains("probe-d")),
        "the dialog's overlap is named: {problems:?}"
    );
    session.execute("const d = document.getElementById('probe-dialog'); d.close(); d.remove();", json!([]));
    assert_eq!(session.layout_problems(), Vec::<String>::new(), "clean again");
}
