//! Print and PDF: for each of the four systems, a character's sheet and a blank sheet saved
//! as PDF from the sheet's "Print / PDF" and "Blank sheet" (and, at 360 px, the same buttons
//! under the sheet opening the print dialog) (the real save dialog, answered
//! with xdotool; the real print of the window to GTK's file printer), then read back with
//! poppler-utils: one or two pages, the character's name and the sheet's headings in the
//! text, the pages rendered to PNG next to the screenshots (`print-*.png`, with the PDFs) to
//! look at. The No Stone Unturned sheet printed is also read in the page built for it: each
//! mood track's overload threshold bar after box die / 2 (4, 3, 2 for d8, d6, d4), its legend,
//! and the recovery points in the harm details' block (audit D2, D5, D6).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde_json::json;
use sheetkeeper::services::{self, ImportOptions};
use sheetkeeper::Store;

use crate::webdriver::{screenshot_dir, Session};
use crate::{back_home, begin, choose_file_in_native_dialog, in_dark, open, open_game, shot, SAVE_TITLE};

/// One system's sheet to print: its fixture, the game's name there, the character, the
/// frame's name (the ids of its buttons) and the headings its printed sheet has.
struct Case {
    system: &'static str,
    fixture: &'static str,
    game: &'static str,
    character: &'static str,
    character_id: &'static str,
    frame: &'static str,
    headings: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        system: "nsu",
        fixture: "nsu-game",
        game: "Lanterns over Brackwater",
        character: "Wren Ashdown",
        character_id: "0b7e9a2c-1d3f-4a5b-8c6d-7e8f9a0b1c2d",
        frame: "nsu",
        // With the overload threshold's legend and the recovery points beside the harm (audit
        // D2, D6).
        headings: &[
            "No Stone Unturned",
            "Aspects",
            "Moods",
            "overload threshold",
            "Skills",
            "Harm details",
            "Recovery points",
            "Other details",
            "Sentiments",
        ],
    },
    Case {
        system: "penny",
        fixture: "penny-ante-game",
        game: "The Riverboat",
        character: "Ada Quill",
        character_id: "a1d2e3f4-0516-4a27-8b38-c94d5e6f7081",
        frame: "penny",
        headings: &["Penny Ante", "Pennies", "Characteristics", "Debts", "Loans", "Challenges played", "Notes"],
    },
    Case {
        system: "mezzo",
        fixture: "mezzo-game",
        game: "The Drowned Cove",
        character: "Mira Vell",
        character_id: "4e5f6071-8293-4da4-9eb5-cf3a4b5c6d73",
        frame: "mezzo",
        headings: &["Mezzo", "Resources", "Plot protection and awards", "Edges", "Flaws", "Modifiers", "Extras"],
    },
    Case {
        system: "scattershot",
        fixture: "scattershot-game",
        game: "Rust Belt Run",
        character: "Gizmo Vance",
        character_id: "00000000-0000-0000-0000-000000005c01",
        frame: "scattershot",
        headings: &["Mechanix", "Statistics", "Resources", "Free skills", "Skills", "Special abilities"],
    },
];

/// Runs a poppler-utils tool; a missing one fails the test with how to get it.
fn poppler(tool: &str, args: &[&str]) -> String {
    let output = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("could not run {tool} ({e}); install Debian's `poppler-utils`"));
    assert!(output.status.success(), "{tool} {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Checks the PDF at `file`: one or two pages, `words` in its text; renders its pages as
/// `print-{name}-N.png` with the screenshots. Returns the page count.
fn check_pdf(file: &Path, name: &str, words: &[&str], paper: &str) -> usize {
    let info = poppler("pdfinfo", &[file.to_str().unwrap()]);
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("pdfinfo gives the page count: {info}"));
    assert!((1..=2).contains(&pages), "{name}: one or two pages, not {pages}");
    let size = info.lines().find(|l| l.starts_with("Page size:")).unwrap_or_default().to_lowercase();
    assert!(size.contains(paper), "{name}: printed on {paper}: {size:?}");
    let text = poppler("pdftotext", &["-layout", file.to_str().unwrap(), "-"]).to_lowercase();
    for word in words {
        assert!(text.contains(&word.to_lowercase()), "{name}: the PDF's text has {word:?}:\n{text}");
    }
    let prefix = screenshot_dir().join(format!("print-{name}"));
    std::fs::create_dir_all(screenshot_dir()).expect("the screenshot folder");
    poppler("pdftoppm", &["-r", "60", "-png", file.to_str().unwrap(), prefix.to_str().unwrap()]);
    std::fs::copy(file, prefix.with_extension("pdf")).expect("keep the PDF with the screenshots");
    pages
}

/// Presses `button`, saves the PDF as `file` through the save dialog and waits for the toast.
fn save_pdf(session: &Session, button: &str, file: &Path, paper: &str) -> std::time::Duration {
    session.wait_settled();
    // Tapped again until the dialog shows, a second apart, should a tap meet a redraw.
    session.wait_until("the print dialog", || {
        if session.find("#print-dialog[open]").is_err() {
            let _ = session.find(button).ok()?.try_click();
            std::thread::sleep(std::time::Duration::from_millis(1000));
        }
        session.find("#print-dialog[open] #print-save-pdf").ok().filter(|b| b.is_displayed())
    });
    session.click(&format!("#print-paper option[value='{paper}']"));
    session.check_layout("the print dialog");
    shot(session, &format!("print-dialog{}", if button.ends_with("blank") { "-blank" } else { "" }));
    session.click("#print-dialog[open] #print-save-pdf");
    choose_file_in_native_dialog(SAVE_TITLE, file, true);
    // From the save dialog's close (the typing is xdotool's) to the toast: the print itself.
    let started = Instant::now();
    session.wait_until("the PDF saved", || file.is_file().then_some(()));
    let toast = session.wait_for("#toast").text();
    let took = started.elapsed();
    assert!(toast.contains("Saved the sheet as"), "the toast says it was saved: {toast:?}");
    assert!(session.find("#print-dialog[open]").is_err(), "the dialog closed");
    took
}

/// The printed NSU sheet in `#print-root`: each mood track's boxes, the boxes before its
/// threshold bar and its label; the moods' legend; the value of the "Recovery points" box
/// found in the "Harm details" section (null when it is not there).
fn nsu_printed_marks(session: &Session) -> serde_json::Value {
    session.execute(
        r#"const root = document.getElementById('print-root');
        const tracks = [...root.querySelectorAll('.ps-mood .ps-track')].map((t) => {
          const kids = [...t.children];
          return {
            boxes: kids.filter((k) => k.tagName.toLowerCase() === 'svg').length,
            before: kids.findIndex((k) => k.classList.contains('ps-threshold')),
            label: t.getAttribute('aria-label'),
          };
        });
        const moods = [...root.querySelectorAll('.ps-section')].find((s) => s.querySelector('.ps-heading')?.textContent === 'Moods');
        const harm = [...root.querySelectorAll('.ps-section')].find((s) => s.querySelector('.ps-heading')?.textContent === 'Harm details');
        const box = harm && [...harm.querySelectorAll('.ps-number')].find((n) => n.querySelector('.ps-label')?.textContent === 'Recovery points');
        return {
          tracks,
          legend: moods?.querySelector('.ps-legend')?.textContent ?? null,
          recovery: box ? box.querySelector('.ps-number-box').textContent : null,
        };"#,
        json!([]),
    )
}

/// The NSU sheet's moods as printed (audit D2, D5, D6): two d8, two d6 and two d4 mood lines,
/// each one box per level (die + 1) with the overload threshold's bar after box die / 2 (4,
/// 3, 2), the levels `levels` marked; the legend says where the bar is; the recovery points
/// (`recovery`, "" on a blank sheet) sit in the harm details' block.
fn check_nsu_marks(session: &Session, levels: [u32; 6], recovery: &str) {
    let marks = nsu_printed_marks(session);
    let dice = [("d8", 8), ("d8", 8), ("d6", 6), ("d6", 6), ("d4", 4), ("d4", 4)];
    let tracks = marks["tracks"].as_array().expect("the mood tracks");
    assert_eq!(tracks.len(), 6, "six mood lines: {marks}");
    for (i, ((die, sides), level)) in dice.iter().zip(levels).enumerate() {
        let t = &tracks[i];
        assert_eq!(t["boxes"], json!(sides + 1), "mood line {i} ({die}): one box per level, 0 to {sides}: {t}");
        assert_eq!(t["before"], json!(sides / 2), "mood line {i} ({die}): the bar after box {}: {t}", sides / 2);
        let label = format!("{die} mood level: {level} of {}, threshold after box {}", sides + 1, sides / 2);
        assert_eq!(t["label"], json!(label), "mood line {i}");
    }
    let legend = marks["legend"].as_str().unwrap_or_default();
    assert!(legend.contains("overload threshold (die / 2)"), "the legend says where the bar is: {legend:?}");
    assert_eq!(marks["recovery"], json!(recovery), "the recovery points in the harm details' block: {marks}");
}

/// Each system's sheet of a character and its blank sheet save as PDF, one or two pages each,
/// with the character's name and the sheet's headings in them.
#[test]
fn each_systems_sheet_and_blank_sheet_save_as_pdf() {
    let (_window, scratch, db) = begin("print");
    {
        let mut store = Store::open(&db).expect("a new database");
        for case in CASES {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("../tests/fixtures/{}.sheetkeeper.json", case.fixture));
            services::import(&mut store, &path, ImportOptions { as_copy: false, replace_conflicts: false })
                .unwrap_or_else(|e| panic!("import the {} fixture: {e}", case.fixture));
        }
    }

    let session = open(&db);
    for case in CASES {
        open_game(&session, case.game);
        session.click(&format!(".character-row[data-character-id='{}'] .character-open", case.character_id));
        session.wait_for(&format!("body.frame-open #{}-print", case.frame));
        session.wait_settled();
        // The print buttons sit in the frame's bar without crowding it; a phone's bar stays
        // as it was (they are under the sheet there).
        session.check_layout(&format!("the {} sheet with its print buttons", case.system));
        shot(&session, &format!("print-{}-bar-1280", case.system));
        crate::phone_width(&session);
        session.wait_settled();
        session.check_layout(&format!("the {} sheet, 360 px", case.system));
        let shown = session.find(&format!("#{}-print", case.frame)).map(|b| b.is_displayed()).unwrap_or(false);
        assert!(!shown, "no print buttons in a phone's bar");
        shot(&session, &format!("print-{}-bar-360", case.system));
        // On a phone they sit under the sheet, and open the same dialog.
        let foot = format!("#{}-print-foot", case.frame);
        session.to_middle(&foot);
        assert!(session.find(&foot).unwrap().is_displayed(), "a phone has Print / PDF under the sheet");
        assert!(session.find(&format!("#{}-print-blank-foot", case.frame)).unwrap().is_displayed(), "and Blank sheet");
        // Scrolled down, the sheet's own sticky strip lies over rows above (as it should): the
        // check here is the print buttons' own.
        let problems: Vec<String> = session.layout_problems().into_iter().filter(|p| p.contains("print")).collect();
        assert_eq!(problems, Vec::<String>::new(), "the {} print buttons under the sheet are clean", case.system);
        session.screenshot_unchecked(&screenshot_dir().join(format!("print-{}-foot-360.png", case.system)));
        in_dark(&session, || {
            session.screenshot_unchecked(&screenshot_dir().join(format!("print-{}-foot-dark-360.png", case.system)))
        });
        session.click(&foot);
        session.wait_for("#print-dialog[open] #print-save-pdf");
        session.wait_settled();
        session.check_layout(&format!("the {} print dialog, 360 px", case.system));
        shot(&session, &format!("print-{}-dialog-360", case.system));
        session.click("#print-close");
        session.wait_gone("#print-dialog[open]");
        crate::desktop_width(&session);
        let sheet = scratch.path(&format!("{} sheet.pdf", case.character));
        let took = save_pdf(&session, &format!("#{}-print", case.frame), &sheet, "a4");
        let mut words = vec![case.character];
        words.extend(case.headings);
        let pages = check_pdf(&sheet, &format!("{}-character", case.system), &words, "a4");
        if case.system == "nsu" {
            // Wren's moods: Curious 3 (d8), Wary 5 (d6, overloaded), Content 1 (d4); 2 recovery points.
            check_nsu_marks(&session, [3, 0, 5, 0, 1, 0], "2");
        }
        let bytes = std::fs::metadata(&sheet).map(|m| m.len()).unwrap_or(0);
        eprintln!(
            "print {}: {} ({pages} pages, {bytes} bytes, printed in {took:?} after the save dialog closed)",
            case.system, case.character
        );

        let blank = scratch.path(&format!("blank {} sheet.pdf", case.system));
        crate::dismiss_toast(&session);
        // Blank sheets on Letter paper, the other size offered.
        let took = save_pdf(&session, &format!("#{}-print-blank", case.frame), &blank, "letter");
        let pages = check_pdf(&blank, &format!("{}-blank", case.system), case.headings, "letter");
        if case.system == "nsu" {
            check_nsu_marks(&session, [0; 6], "");
        }
        let bytes = std::fs::metadata(&blank).map(|m| m.len()).unwrap_or(0);
        let text = poppler("pdftotext", &[blank.to_str().unwrap(), "-"]);
        assert!(!text.contains(case.character), "a blank sheet names no one");
        eprintln!("print {} blank: {pages} pages, {bytes} bytes, printed in {took:?}", case.system);
        let shown = session.execute("return document.getElementById('print-root').dataset.system;", json!([]));
        assert_eq!(shown, json!(if case.system == "penny" { "penny_ante" } else { case.system }));
        back_home(&session);
        // "Saved … blank sheet.pdf" stays with its screen: the next game's screen opens without it.
        assert!(!session.find("#toast").is_ok_and(|t| t.is_displayed()), "leaving the screen clears its toast");
    }
}
