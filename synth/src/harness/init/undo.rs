//! Undoes what a failed `perfsyn init` wrote, so that nothing is lost and the next `init`
//! needs no `--force`: a harness directory this init created is removed; in one that existed
//! (`--force`), the files it overwrote get their old bytes back, the files it added are
//! removed, and so are the directories it created if they are left empty. Build output goes
//! to the crate's `target/` (cargo's cache, not init's) and is left alone.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Records each write of an init in progress; dropped without [`Undo::keep`], it undoes them.
#[derive(Debug)]
pub struct Undo {
    root: PathBuf,
    root_existed: bool,
    /// Directories this init created, outermost first.
    dirs: Vec<PathBuf>,
    /// Each file written, with its bytes before the first write (`None`: it did not exist).
    files: Vec<(PathBuf, Option<Vec<u8>>)>,
    kept: bool,
}

impl Undo {
    /// Starts recording writes under `root` (the harness directory).
    pub fn new(root: &Path) -> Self {
        Undo {
            root: root.to_path_buf(),
            root_existed: root.exists(),
            dirs: Vec::new(),
            files: Vec::new(),
            kept: false,
        }
    }

    /// Creates `dir` and its missing parents, remembering which it created.
    pub fn create_dir_all(&mut self, dir: &Path) -> Result<()> {
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|d| !d.exists())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        self.dirs.extend(missing.into_iter().rev());
        Ok(())
    }

    /// Writes `text` to `path`, remembering what was there before the first write.
    pub fn write(&mut self, path: &Path, text: &str) -> Result<()> {
        if !self.files.iter().any(|(p, _)| p == path) {
            let before = std::fs::read(path).ok();
            self.files.push((path.to_path_buf(), before));
        }
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
    }

    /// The init succeeded: keep everything it wrote.
    pub fn keep(mut self) {
        self.kept = true;
    }

    /// Puts back what was there before; best effort (an undo that fails cannot report it
    /// better than the error that caused it).
    fn undo(&self) {
        if !self.root_existed {
            let _ = std::fs::remove_dir_all(&self.root);
            return;
        }
        for (path, before) in self.files.iter().rev() {
            let _ = match before {
                Some(bytes) => std::fs::write(path, bytes),
                None => std::fs::remove_file(path),
            };
        }
        for dir in self.dirs.iter().rev() {
            let _ = std::fs::remove_dir(dir); // only if empty
        }
    }
}

impl Drop for Undo {
    fn drop(&mut self) {
        if !self.kept {
            self.undo();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_directory_is_removed_and_an_old_one_gets_its_files_back() {
        let tmp = tempfile::tempdir().unwrap();
        let fresh = tmp.path().join("fresh");
        {
            let mut u = Undo::new(&fresh);
            u.create_dir_all(&fresh.join("src/bin")).unwrap();
            u.write(&fresh.join("Cargo.toml"), "new").unwrap();
        }
        assert!(
            !fresh.exists(),
            "a directory the failed init created is removed"
        );

        let old = tmp.path().join("old");
        std::fs::create_dir_all(&old).unwrap();
        std::fs::write(old.join("Cargo.toml"), "mine").unwrap();
        std::fs::write(old.join("notes.txt"), "keep me").unwrap();
        {
            let mut u = Undo::new(&old);
            u.create_dir_all(&old.join("src/bin")).unwrap();
            u.write(&old.join("Cargo.toml"), "generated").unwrap();
            u.write(&old.join("Cargo.toml"), "generated twice").unwrap();
            u.write(&old.join("src/lib.rs"), "generated").unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(old.join("Cargo.toml")).unwrap(),
            "mine"
        );
        assert_eq!(
            std::fs::read_to_string(old.join("notes.txt")).unwrap(),
            "keep me"
        );
        assert!(
            !old.join("src").exists(),
            "directories it created are removed"
        );

        let kept = tmp.path().join("kept");
        let mut u = Undo::new(&kept);
        u.create_dir_all(&kept).unwrap();
        u.write(&kept.join("Cargo.toml"), "new").unwrap();
        u.keep();
        assert!(
            kept.join("Cargo.toml").is_file(),
            "a successful init keeps its files"
        );
    }
}
