//! How the window's web view draws.

/// WebKitGTK composites every page through OpenGL unless told otherwise. Our screens are
/// forms, lists and a few short transitions, which its software drawing handles at once,
/// while setting up the GL compositor held the first paint about 150 ms at every start on a
/// machine with software GL (measured under Xvfb with Mesa; the same holds in VMs and on
/// machines without a GPU driver). GL drivers are also the usual cause of a blank WebKitGTK
/// window. So the window draws without it, unless the person set the variable themselves.
///
/// Set before anything starts a thread or the web process (which reads it): first thing in
/// `run`. (Changing the web view's setting once the page loads instead left WebDriver's
/// screenshots hanging now and then.) Other platforms' web views decide for themselves.
pub fn draw_without_gl() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() {
        std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1");
    }
}
