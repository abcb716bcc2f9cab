//! The file watch's waker: a thread that reads the watched files' modification times
//! now and then and asks for a frame only when one changed. An idle editor draws no
//! frames: it asked for one every 0.75 s to look at the files itself, 5–16% of a core
//! under a software renderer whatever the tab (thirteenth player F1, F14).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// The files the thread watches (with the times it last saw) and whether one changed
/// since the editor last looked.
#[derive(Debug, Default)]
struct Shared {
    files: Mutex<Vec<(PathBuf, Option<SystemTime>)>>,
    changed: AtomicBool,
}

/// The editor's end of the watching thread (started once, by the window's first frame).
#[derive(Debug, Default)]
pub(super) struct Waker {
    shared: Arc<Shared>,
    started: bool,
}

impl Waker {
    /// Watches `files` from now on, each with the time the editor last read it at.
    pub(super) fn watch(&self, files: Vec<(PathBuf, Option<SystemTime>)>) {
        if let Ok(mut f) = self.shared.files.lock() {
            *f = files;
        }
    }

    /// True once after a watched file's time changed.
    pub(super) fn take_changed(&self) -> bool {
        self.shared.changed.swap(false, Ordering::Relaxed)
    }

    /// Starts the thread (once): every `every` it reads the files' times and, when one
    /// changed, wakes `ctx`. It ends with the editor.
    pub(super) fn start(&mut self, ctx: &egui::Context, every: Duration) {
        if self.started {
            return;
        }
        self.started = true;
        let shared = Arc::downgrade(&self.shared);
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("file watch".to_owned())
            .spawn(move || {
                loop {
                    std::thread::sleep(every);
                    let Some(shared) = shared.upgrade() else {
                        return;
                    };
                    let mut woke = false;
                    if let Ok(mut files) = shared.files.lock() {
                        for (p, m) in files.iter_mut() {
                            let now = modified(p);
                            if now != *m {
                                *m = now;
                                woke = true;
                            }
                        }
                    }
                    if woke {
                        shared.changed.store(true, Ordering::Relaxed);
                        ctx.request_repaint();
                    }
                }
            });
        // Without the thread the editor still looks at the files in each frame it draws.
        if spawned.is_err() {
            self.started = false;
        }
    }
}

/// A file's modification time (`None` when it cannot be read).
fn modified(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}
