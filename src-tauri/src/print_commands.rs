//! Save as PDF: the page shows the sheet it prints (its print stylesheet hides the rest), then
//! this command asks where to save through the dialog plugin (as an export does, so the page
//! never names a path) and prints the webview to that file.
//!
//! On Linux the print is WebKitGTK's own `PrintOperation`, without its dialog, to GTK's
//! "Print to File" printer (the file backend that comes with GTK 3) with the output file, the
//! PDF format and the paper set in its settings; the command waits for the print's `finished`
//! or `failed` signal. Elsewhere it answers `print_dialog`: the page then opens the system's
//! print dialog (`window.print()`), which offers PDF itself.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tauri::{Runtime, Webview};
use tauri_plugin_dialog::DialogExt;

use crate::error::AppError;
use crate::transfer_commands::chosen;

type Reply<T> = Result<T, AppError>;

/// What Save as PDF led to.
#[derive(Debug, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Printed {
    /// The PDF was written: its file name and size in bytes.
    Saved { file_name: String, bytes: u64 },
    /// The person closed the save dialog.
    Cancelled,
    /// The print failed: `error` names it (WebKit's print error, or `timeout`), `message`
    /// says it in words.
    Failed { error: String, message: String },
    /// This platform prints through the system's print dialog: the page calls `window.print()`.
    PrintDialog,
}

/// The paper a sheet prints on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    /// The paper's name in the Printing Working Group's list, as GTK takes it.
    fn pwg_name(self) -> &'static str {
        match self {
            Paper::A4 => "iso_a4",
            Paper::Letter => "na_letter",
        }
    }
}

/// The margin of every printed page, in millimetres (the sheets are laid out inside it).
const MARGIN_MM: f64 = 10.0;

/// How long a print may take before the command gives up waiting.
#[cfg(target_os = "linux")]
const PRINT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// GTK's file printer (its name in the file print backend, the same in every locale).
const FILE_PRINTER: &str = "Print to File";

/// The print settings that send a print to `uri` as a PDF on `paper`, as GTK's keys.
fn print_settings(uri: &str, paper: Paper) -> Vec<(&'static str, String)> {
    vec![
        ("printer", FILE_PRINTER.to_owned()),
        ("output-uri", uri.to_owned()),
        ("output-file-format", "pdf".to_owned()),
        ("paper-format", paper.pwg_name().to_owned()),
        ("n-copies", "1".to_owned()),
        ("print-pages", "all".to_owned()),
    ]
}

/// The suggested name as a bare PDF file name (no folders, no control characters).
fn suggested_pdf_name(file_name: &str) -> String {
    let name = Path::new(file_name).file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let name: String = name.chars().filter(|c| !c.is_control()).take(120).collect();
    let name = name.trim();
    if name.is_empty() {
        "Character sheet.pdf".to_owned()
    } else if name.to_ascii_lowercase().ends_with(".pdf") {
        name.to_owned()
    } else {
        format!("{name}.pdf")
    }
}

/// Asks where to save the sheet shown in the page and prints it there as a PDF.
#[tauri::command]
pub async fn save_sheet_pdf<R: Runtime>(webview: Webview<R>, file_name: String, paper: Paper) -> Reply<Printed> {
    if !cfg!(target_os = "linux") {
        return Ok(Printed::PrintDialog);
    }
    tauri::async_runtime::spawn_blocking(move || {
        let Some(path) = save_dialog(&webview, &file_name)? else { return Ok(Printed::Cancelled) };
        print_to(&webview, &path, paper)
    })
    .await
    .unwrap_or_else(|_| {
        Err(AppError::internal("Sheetkeeper failed while doing this (an internal error). Please try again."))
    })
}

fn save_dialog<R: Runtime>(webview: &Webview<R>, file_name: &str) -> Reply<Option<PathBuf>> {
    let dialog = webview.dialog().file().add_filter("PDF", &["pdf"]).set_file_name(suggested_pdf_name(file_name));
    #[cfg(desktop)]
    let dialog = dialog.set_parent(&webview.window());
    chosen(dialog.blocking_save_file())
}

#[cfg(not(target_os = "linux"))]
fn print_to<R: Runtime>(_webview: &Webview<R>, _path: &Path, _paper: Paper) -> Reply<Printed> {
    Ok(Printed::PrintDialog)
}

/// Prints the webview to `path` with WebKitGTK (on the window's main thread) and waits here,
/// on a blocking thread, for the print to finish or fail.
#[cfg(target_os = "linux")]
fn print_to<R: Runtime>(webview: &Webview<R>, path: &Path, paper: Paper) -> Reply<Printed> {
    use std::sync::mpsc;

    use crate::transfer_commands::display_name;

    let uri = gtk::glib::filename_to_uri(path, None)
        .map_err(|e| AppError::invalid(&format!("That file cannot be used here: {e}")))?
        .to_string();
    // An older file of that name goes first (the save dialog asked to replace it), so the
    // size read after the print is the new PDF's.
    let _ = std::fs::remove_file(path);
    let (done, outcome) = mpsc::channel::<Result<(), (String, String)>>();
    webview
        .with_webview(move |platform| linux::print(&platform.inner(), &uri, paper, done))
        .map_err(|e| AppError::internal(&format!("The window could not print: {e}")))?;
    match outcome.recv_timeout(PRINT_TIMEOUT) {
        Ok(Ok(())) => {
            let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            if bytes == 0 {
                return Ok(Printed::Failed {
                    error: "empty".into(),
                    message: "The print finished but wrote no PDF.".into(),
                });
            }
            Ok(Printed::Saved { file_name: display_name(path), bytes })
        }
        Ok(Err((error, message))) => Ok(Printed::Failed { error, message }),
        Err(_) => Ok(Printed::Failed {
            error: "timeout".into(),
            message: format!("The print did not finish within {} s.", PRINT_TIMEOUT.as_secs()),
        }),
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::sync::mpsc::Sender;

    use gtk::{PageSetup, PaperSize, PrintSettings, Unit};
    use webkit2gtk::{PrintError, PrintOperation, PrintOperationExt, WebView};

    use super::{print_settings, Paper, MARGIN_MM};

    /// Starts printing `webview` to `uri` without a dialog; `done` gets the outcome once, from
    /// the `finished` or `failed` signal (WebKit sends `finished` after `failed` too).
    pub(super) fn print(webview: &WebView, uri: &str, paper: Paper, done: Sender<Result<(), (String, String)>>) {
        let settings = PrintSettings::new();
        for (key, value) in print_settings(uri, paper) {
            settings.set(key, Some(&value));
        }
        let size = PaperSize::new(Some(paper.pwg_name()));
        settings.set_paper_size(&size);
        let setup = PageSetup::new();
        setup.set_paper_size(&size);
        setup.set_top_margin(MARGIN_MM, Unit::Mm);
        setup.set_bottom_margin(MARGIN_MM, Unit::Mm);
        setup.set_left_margin(MARGIN_MM, Unit::Mm);
        setup.set_right_margin(MARGIN_MM, Unit::Mm);

        let operation = PrintOperation::new(webview);
        operation.set_print_settings(&settings);
        operation.set_page_setup(&setup);
        // The operation is kept until it ends: the signal handlers hold it, and the first
        // outcome lets it go (which breaks the cycle).
        let keep = Rc::new(RefCell::new(Some(operation.clone())));
        let done = Rc::new(RefCell::new(Some(done)));
        {
            let (keep, done) = (keep.clone(), done.clone());
            operation.connect_failed(move |_, error| {
                let name = match error.kind::<PrintError>() {
                    Some(PrintError::General) => "general",
                    Some(PrintError::PrinterNotFound) => "printer_not_found",
                    Some(PrintError::InvalidPageRange) => "invalid_page_range",
                    _ => "unknown",
                };
                if let Some(done) = done.borrow_mut().take() {
                    let _ = done.send(Err((name.to_owned(), error.message().to_owned())));
                }
                keep.borrow_mut().take();
            });
        }
        operation.connect_finished(move |_| {
            if let Some(done) = done.borrow_mut().take() {
                let _ = done.send(Ok(()));
            }
            keep.borrow_mut().take();
        });
        operation.print();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_print_to_the_file_as_pdf_on_the_paper() {
        let settings = print_settings("file:///sheets/Wren%20sheet.pdf", Paper::Letter);
        let get = |key: &str| settings.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
        assert_eq!(get("printer"), Some("Print to File"));
        assert_eq!(get("output-uri"), Some("file:///sheets/Wren%20sheet.pdf"));
        assert_eq!(get("output-file-format"), Some("pdf"));
        assert_eq!(get("paper-format"), Some("na_letter"));
        assert_eq!(
            print_settings("file:///a.pdf", Paper::A4).iter().find(|(k, _)| *k == "paper-format").unwrap().1,
            "iso_a4"
        );
    }

    #[test]
    fn a_suggested_pdf_name_is_a_bare_pdf_file_name() {
        assert_eq!(suggested_pdf_name("Wren.pdf"), "Wren.pdf");
        assert_eq!(suggested_pdf_name("Wren"), "Wren.pdf");
        assert_eq!(suggested_pdf_name("../../etc/x"), "x.pdf");
        assert_eq!(suggested_pdf_name(""), "Character sheet.pdf");
        assert_eq!(suggested_pdf_name("a\u{7}b.PDF"), "ab.PDF");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_path_becomes_an_escaped_file_uri() {
        let uri = gtk::glib::filename_to_uri("/sheets/Wren sheet #1.pdf", None).unwrap();
        assert_eq!(uri.as_str(), "file:///sheets/Wren%20sheet%20%231.pdf");
    }

    #[test]
    fn outcomes_are_tagged_for_the_page() {
        let saved = Printed::Saved { file_name: "a.pdf".into(), bytes: 3 };
        assert_eq!(
            serde_json::to_value(saved).unwrap(),
            serde_json::json!({"outcome": "saved", "file_name": "a.pdf", "bytes": 3})
        );
        assert_eq!(serde_json::to_value(Printed::PrintDialog).unwrap(), serde_json::json!({"outcome": "print_dialog"}));
        assert_eq!(serde_json::from_value::<Paper>(serde_json::json!("letter")).unwrap(), Paper::Letter);
    }
}
