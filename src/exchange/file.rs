//! Files on disk: a capped read and an atomic write.

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

use crate::error::{Error, Result};
use crate::Problem;

/// The largest file an import reads: 16 MiB.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a whole file of at most [`MAX_FILE_BYTES`]; a larger one is refused unread.
pub fn read_limited(path: &Path) -> Result<Vec<u8>> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    // Read one byte past the cap so a file that grows while we read is still caught.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(bytes.len() as u64);
        return Err(Error::BadFile {
            file: path.to_owned(),
            problems: vec![Problem {
                path: "$".into(),
                message: format!("the file is {:.1} MiB; the limit is 16 MiB", size as f64 / (1024.0 * 1024.0)),
            }],
        });
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` so that a crash leaves either the old file or the new one:
/// a temporary file in the same folder, flushed to disk, renamed over, then the folder synced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".sheetkeeper-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(tmp.path(), e))?;
    tmp.as_file().sync_all().map_err(|e| Error::io(tmp.path(), e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    #[cfg(unix)]
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| Error::io(dir, e))?;
    Ok(())
}
