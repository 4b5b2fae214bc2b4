//! `perfsyn report`: merge partitioned hunts or regenerate a hunt's report.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Hunt directories: the partitions of one hunt (`hunt --partition k/N`), or one hunt.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Write the merged hunt (run files, hunt.json and the reports) into this new directory.
    /// Without it, the one DIR given gets its reports regenerated in place.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the summary as JSON on stdout (the document DIR/summary.json holds: every
    /// method's verdict, class and key figures) instead of the text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: ReportArgs) -> Result<()> {
    use crate::commands::hunt::{merge, report};
    let Some(out) = &a.out else {
        let [dir] = a.dirs.as_slice() else {
            anyhow::bail!(
                "merging {} directories needs --out DIR for the merged hunt",
                a.dirs.len()
            );
        };
        let s = report::regenerate(dir)?;
        return super::outputs::print_summary(&s, dir, a.json);
    };
    let m = merge::merge(&a.dirs, out)?;
    super::outputs::print_summary(&m.summary, out, a.json)?;
    for x in &m.missing {
        eprintln!(
            "warning: partition {} is missing ({}: {}); run it with --partition {} and merge again",
            x.part,
            report::count(x.methods.len(), "method"),
            x.methods.join(", "),
            x.part
        );
    }
    Ok(())
}
