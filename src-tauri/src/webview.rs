//! How the window's web view draws.

use tauri::{App, Manager, Runtime};

/// WebKitGTK composites every page through OpenGL unless told otherwise. Our screens are
/// forms, lists and a few short transitions, which its software drawing handles at once,
/// while setting up the GL compositor held the first paint about 150 ms at every start on a
/// machine with software GL (measured under Xvfb with Mesa; the same holds in VMs and on
/// machines without a GPU driver). GL drivers are also the usual cause of a blank WebKitGTK
/// window. So the window draws without it. Other platforms' web views decide for themselves.
pub fn draw_without_gl<R: Runtime>(app: &App<R>) {
    #[cfg(target_os = "linux")]
    for window in app.webview_windows().into_values() {
        let _ = window.with_webview(|platform| {
            use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
            if let Some(settings) = WebViewExt::settings(&platform.inner()) {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            }
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = app;
}
