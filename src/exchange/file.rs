//! Files on disk: a capped read, an atomic write, and the guard that keeps an export off the
//! database.
//!
//! File modes: a new export gets the usual mode of a new file (0666 less the umask, so
//! 0644 with the common umask 022), the same as the database and its backups, which SQLite
//! creates the same way. Replacing a file keeps that file's permission bits. The
//! replacement is a new file renamed over the old name, so hard links to the old file keep
//! the old content, and a symlink at the name is replaced, not followed.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::Problem;

/// The largest file an import reads: 16 MiB.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a whole file of at most [`MAX_FILE_BYTES`]; a larger one is refused unread.
/// Only a regular file (or a symlink to one) is read: a folder, a named pipe (which would
/// wait for a writer forever) or a device is refused, naming the path.
pub fn read_limited(path: &Path) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(not_a_file(path, &meta));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big(path, Some(meta.len())));
    }
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    // Checked again on what was opened, in case the name changed hands in between.
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(not_a_file(path, &meta));
    }
    let mut bytes = Vec::new();
    // Read one byte past the cap so a file that grows while we read is still caught.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(path, None));
    }
    Ok(bytes)
}

fn not_a_file(path: &Path, meta: &std::fs::Metadata) -> Error {
    let what = if meta.is_dir() { "a folder" } else { special_kind(meta).unwrap_or("not a regular file") };
    Error::invalid("FILE", format!("{} is {what}, not a file that can be imported", path.display()))
}

#[cfg(unix)]
fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::Metadata) -> Option<&'static str> {
    None
}

/// The file is over the cap: its size when known (and shown above 16.0), else "more than".
fn too_big(path: &Path, size: Option<u64>) -> Error {
    let mib = size.map(|s| format!("{:.1}", s as f64 / (1024.0 * 1024.0))).filter(|m| m.as_str() != "16.0");
    let size = match mib {
        Some(mib) => format!("{mib} MiB"),
        None => "more than 16 MiB".to_owned(),
    };
    Error::BadFile {
        file: path.to_owned(),
        problems: vec![Problem { path: "$".into(), message: format!("the file is {size}; the limit is 16 MiB") }],
    }
}

/// Writes `bytes` to `path` so that a crash leaves either the old file or the new one:
/// a temporary file in the same folder, flushed to disk, renamed over, then the folder synced.
/// A replaced file keeps its permission bits; a new one gets the umask's (see the module's
/// doc). Errors name `path`, never the temporary file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // The mode of the regular file being replaced (a symlink is replaced, not followed).
    let keep = std::fs::symlink_metadata(path).ok().filter(|m| m.is_file()).map(|m| m.permissions());
    let mut builder = tempfile::Builder::new();
    builder.prefix(".sheetkeeper-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created with 0666 less the umask, as any new file (tempfile's default is 0600).
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let fail = |e: io::Error| Error::io(path, os_error(e));
    let mut tmp = builder.tempfile_in(dir).map_err(fail)?;
    if let Some(permissions) = keep {
        // Set on the open file, so the umask does not narrow them.
        tmp.as_file().set_permissions(permissions).map_err(fail)?;
    }
    tmp.write_all(bytes).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    #[cfg(unix)]
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| Error::io(dir, e))?;
    Ok(())
}

/// The operating system's error inside one of tempfile's, which appends " at path
/// …/.sheetkeeper-XXXX.tmp" — a name the person never chose (the caller names the target).
fn os_error(e: io::Error) -> io::Error {
    let text = e.get_ref().map(|inner| inner.to_string());
    match text.as_deref().and_then(|t| t.rsplit_once(" at path ")) {
        Some((message, _)) => io::Error::new(e.kind(), message.to_owned()),
        None => e,
    }
}

/// Refuses to write an export to the database itself or one of its companion files
/// (`-wal`, `-shm`, `-journal`): that would destroy the database. Paths are compared after
/// resolving symlinks and `..`, and on Unix existing files also by device and inode (a hard
/// link is the same file). A target that does not exist yet is fine.
pub fn refuse_database_target(target: &Path, database: &Path) -> Result<()> {
    // SQLite names the companions after the database's real path when it is a symlink.
    let real = std::fs::canonicalize(database).ok();
    let companions: Vec<PathBuf> = [Some(database), real.as_deref()]
        .into_iter()
        .flatten()
        .flat_map(|db| {
            ["", "-wal", "-shm", "-journal"].map(|suffix| {
                let mut name = db.as_os_str().to_owned();
                name.push(suffix);
                PathBuf::from(name)
            })
        })
        .collect();
    let refuse =
        || Err(Error::invalid("FILE", format!("{} is the database itself; choose another file", target.display())));
    let Some(target_resolved) = resolve(target) else {
        return Ok(());
    };
    for file in &companions {
        if resolve(file).is_some_and(|f| f == target_resolved) || same_file(target, file) {
            return refuse();
        }
    }
    Ok(())
}

/// `path` with symlinks and `..` resolved: the path itself when it exists, else its folder's
/// resolved path and its file name (a file about to be created). None when neither resolves.
fn resolve(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::canonicalize(dir).ok().map(|d| d.join(name))
}

#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &Path, _: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(result: Result<()>) -> String {
        match result {
            Err(e @ Error::Invalid { .. }) => e.to_string(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn an_export_onto_the_database_or_its_companions_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("s.db");
        std::fs::write(&db, b"db").unwrap();
        std::fs::write(dir.path().join("s.db-wal"), b"wal").unwrap();

        let message = refused(refuse_database_target(&db, &db));
        assert!(message.starts_with("FILE: ") && message.ends_with("is the database itself; choose another file"));
        // Through `..` segments, and a relative-looking detour.
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        refused(refuse_database_target(&dir.path().join("sub/../s.db"), &db));
        // The companions, existing (-wal) or not yet (-shm, -journal).
        refused(refuse_database_target(&dir.path().join("s.db-wal"), &db));
        refused(refuse_database_target(&dir.path().join("s.db-shm"), &db));
        refused(refuse_database_target(&dir.path().join("s.db-journal"), &db));
        // The database named through a symlink, on either side.
        #[cfg(unix)]
        {
            let link = dir.path().join("link.json");
            std::os::unix::fs::symlink(&db, &link).unwrap();
            refused(refuse_database_target(&link, &db));
            refused(refuse_database_target(&db, &link));
            refused(refuse_database_target(&dir.path().join("s.db-wal"), &link));
            // A hard link is the same file under another name.
            let hard = dir.path().join("hard.json");
            std::fs::hard_link(&db, &hard).unwrap();
            refused(refuse_database_target(&hard, &db));
        }
    }

    #[test]
    fn any_other_file_is_fine_even_one_not_there_yet() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("s.db");
        std::fs::write(&db, b"db").unwrap();
        let other = dir.path().join("other.json");
        std::fs::write(&other, b"{}").unwrap();
        refuse_database_target(&other, &db).unwrap();
        refuse_database_target(&dir.path().join("new.sheetkeeper.json"), &db).unwrap();
        refuse_database_target(&dir.path().join("s.db.json"), &db).unwrap();
        refuse_database_target(&dir.path().join("no/such/folder/x.json"), &db).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_a_folder_and_a_device_are_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let message = read_limited(&fifo).unwrap_err().to_string();
        assert!(message.contains("pipe.json is a named pipe (FIFO), not a file"), "{message}");
        let message = read_limited(dir.path()).unwrap_err().to_string();
        assert!(message.contains("is a folder, not a file"), "{message}");
        let message = read_limited(Path::new("/dev/zero")).unwrap_err().to_string();
        assert_eq!(message, "FILE: /dev/zero is a device, not a file that can be imported");
    }

    #[test]
    fn over_the_cap_says_more_than_16_mib_when_the_size_is_unknown() {
        let message = |e: Error| match e {
            Error::BadFile { problems, .. } => problems[0].message.clone(),
            e => panic!("{e}"),
        };
        let p = Path::new("x");
        assert_eq!(message(too_big(p, None)), "the file is more than 16 MiB; the limit is 16 MiB");
        assert_eq!(message(too_big(p, Some(MAX_FILE_BYTES + 1))), "the file is more than 16 MiB; the limit is 16 MiB");
        assert_eq!(message(too_big(p, Some(17 * 1024 * 1024))), "the file is 17.0 MiB; the limit is 16 MiB");
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_new_one_gets_the_umask_s() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let old = dir.path().join("old.json");
        std::fs::write(&old, b"old").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o664)).unwrap();
        write_atomic(&old, b"new").unwrap();
        assert_eq!((std::fs::read(&old).unwrap(), mode(&old)), (b"new".to_vec(), 0o664));
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&old, b"newer").unwrap();
        assert_eq!(mode(&old), 0o600, "a private file stays private");

        // A new file: the same mode a plain `File::create` gets under this process's umask.
        let plain = dir.path().join("plain");
        File::create(&plain).unwrap();
        let fresh = dir.path().join("new.json");
        write_atomic(&fresh, b"{}").unwrap();
        assert_eq!(mode(&fresh), mode(&plain));
    }

    #[test]
    fn a_write_into_a_missing_folder_names_the_target_not_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("nodir/out.json");
        let err = write_atomic(&target, b"{}").unwrap_err();
        let message = err.to_string();
        assert!(message.starts_with(&format!("{}: ", target.display())), "{message}");
        assert!(!message.contains(".sheetkeeper-") && !message.contains(" at path "), "{message}");
    }
}
