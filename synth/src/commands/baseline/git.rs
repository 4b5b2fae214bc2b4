//! The baseline revision of a user's crate, checked out beside the working tree.
//!
//! `--baseline REV` compares the crate at REV with the working tree. The baseline's sources come
//! from a detached `git worktree` under `target/perfsyn/rev/<sha>` (cheap, shares the object
//! store, leaves the user's checkout alone), reused when it already exists for that commit.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// A baseline revision resolved in a crate's repository.
#[derive(Debug, Clone)]
pub struct Baseline {
    /// What the user wrote (`HEAD~1`, `origin/main`).
    pub rev: String,
    /// The commit it names.
    pub sha: String,
    /// The repository's top directory.
    pub repo_root: PathBuf,
    /// The crate's directory relative to the repository's top (empty at the top).
    pub crate_rel: PathBuf,
    /// Whether the working tree has uncommitted changes to tracked files (they are compared
    /// too: the "new" side is the working tree, not HEAD).
    pub dirty: bool,
}

impl Baseline {
    /// Resolves `rev` in the git repository holding `crate_dir`.
    pub fn resolve(crate_dir: &Path, rev: &str) -> Result<Baseline> {
        let top = git(crate_dir, &["rev-parse", "--show-toplevel"]).map_err(|_| {
            anyhow::anyhow!(
                "{} is not inside a git repository; --baseline compares two git revisions (run `git init` and commit, or drop --baseline)",
                crate_dir.display()
            )
        })?;
        let repo_root = PathBuf::from(top.trim());
        let sha = git(crate_dir, &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])
            .map_err(|_| {
                anyhow::anyhow!(
                    "revision `{rev}` is not found in {} (try `git log --oneline` for names, or fetch it first)",
                    repo_root.display()
                )
            })?
            .trim()
            .to_string();
        let crate_abs = crate_dir
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", crate_dir.display()))?;
        let root_abs = repo_root
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", repo_root.display()))?;
        let crate_rel = crate_abs
            .strip_prefix(&root_abs)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let status = git(
            crate_dir,
            &["status", "--porcelain", "--untracked-files=no"],
        )?;
        Ok(Baseline {
            rev: rev.to_string(),
            sha,
            repo_root,
            crate_rel,
            dirty: !status.trim().is_empty(),
        })
    }

    /// One line saying what is compared with what.
    pub fn describe(&self) -> String {
        let short = &self.sha[..self.sha.len().min(10)];
        if self.dirty {
            format!(
                "comparing {} ({short}) with the working tree, uncommitted changes included",
                self.rev
            )
        } else {
            format!("comparing {} ({short}) with the working tree", self.rev)
        }
    }

    /// Checks the baseline out under `target_dir/perfsyn/rev/<sha>` (once) and returns the
    /// crate's directory inside it.
    pub fn checkout(&self, target_dir: &Path) -> Result<PathBuf> {
        let dir = target_dir.join("perfsyn").join("rev").join(&self.sha);
        if !dir.join(".git").exists() {
            if dir.exists() {
                std::fs::remove_dir_all(&dir)
                    .with_context(|| format!("cannot clear {}", dir.display()))?;
            }
            std::fs::create_dir_all(dir.parent().expect("rev dir has a parent"))?;
            // A stale registration (directory deleted by hand) would make `worktree add` fail.
            let _ = git(&self.repo_root, &["worktree", "prune"]);
            let d = dir.to_string_lossy().to_string();
            git(
                &self.repo_root,
                &["worktree", "add", "--detach", "--force", &d, &self.sha],
            )
            .with_context(|| format!("cannot check out {} into {d}", self.rev))?;
        }
        let crate_dir = dir.join(&self.crate_rel);
        if !crate_dir.join("Cargo.toml").exists() {
            bail!(
                "the crate does not exist at {} ({} has no Cargo.toml)",
                self.rev,
                self.crate_rel.display()
            );
        }
        Ok(crate_dir)
    }
}

/// Runs git in `dir` and returns its stdout; a failure carries git's first stderr line.
fn git(dir: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .context("cannot run git (is it installed?)")?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        bail!(
            "git {} failed: {}",
            args.join(" "),
            err.lines().next().unwrap_or("").trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@t")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@t")
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn resolves_checks_out_and_reports_dirty_trees() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        sh(root, &["init", "-q"]);
        std::fs::create_dir_all(root.join("k/src")).unwrap();
        std::fs::write(root.join("k/Cargo.toml"), "[package]\nname = \"k\"\n").unwrap();
        std::fs::write(root.join("k/src/lib.rs"), "pub fn a() {}\n").unwrap();
        sh(root, &["add", "."]);
        sh(root, &["commit", "-qm", "one"]);
        std::fs::write(root.join("k/src/lib.rs"), "pub fn a() { let _x = 1; }\n").unwrap();
        sh(root, &["commit", "-qam", "two"]);

        let b = Baseline::resolve(&root.join("k"), "HEAD~1").unwrap();
        assert!(!b.dirty);
        assert_eq!(b.crate_rel, PathBuf::from("k"));
        let target = root.join("k/target");
        let old = b.checkout(&target).unwrap();
        assert_eq!(
            std::fs::read_to_string(old.join("src/lib.rs")).unwrap(),
            "pub fn a() {}\n"
        );
        // A second checkout reuses the first.
        assert_eq!(b.checkout(&target).unwrap(), old);

        std::fs::write(root.join("k/src/lib.rs"), "pub fn a() { let _y = 2; }\n").unwrap();
        let b = Baseline::resolve(&root.join("k"), "HEAD").unwrap();
        assert!(b.dirty && b.describe().contains("uncommitted"));

        let err = Baseline::resolve(&root.join("k"), "nope").unwrap_err();
        assert!(err.to_string().contains("`nope` is not found"), "{err}");
        let elsewhere = tempfile::tempdir().unwrap();
        let err = Baseline::resolve(elsewhere.path(), "HEAD").unwrap_err();
        assert!(
            err.to_string().contains("not inside a git repository"),
            "{err}"
        );
    }
}
