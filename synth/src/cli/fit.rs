//! `perfsyn fit`: judge (size, cost) pairs a user already has. With `--expect C` it is a CI
//! gate like `check`: exit 1 when the cost grows significantly faster than C.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

#[derive(Debug, Args)]
pub struct FitArgs {
    /// `size,cost` CSV (optional header) or JSON lines {"size":..,"cost":..}; `-` is stdin.
    #[arg(conflicts_with = "criterion")]
    pub file: Option<PathBuf>,
    /// A criterion benchmark group directory whose parameter is the input size.
    #[arg(long)]
    pub criterion: Option<PathBuf>,
    /// The class the cost should follow, e.g. "O(n log n)": exit 1 when the points grow
    /// significantly faster, 0 when within it (or inconclusive).
    #[arg(long)]
    pub expect: Option<String>,
    /// Print a JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: FitArgs) -> Result<()> {
    use crate::commands::fit;
    let expected = a.expect.as_deref().map(fit::parse_class).transpose()?;
    let (source, points) = match (&a.criterion, &a.file) {
        (Some(d), _) => (d.display().to_string(), fit::read_criterion(d)?),
        (None, Some(f)) if f.as_os_str() != "-" => {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("cannot read {}", f.display()))?;
            let src = f.display().to_string();
            (src.clone(), fit::parse_points(&text, &src)?)
        }
        _ => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .context("cannot read stdin")?;
            ("-".to_string(), fit::parse_points(&text, "stdin")?)
        }
    };
    let r = fit::fit_points(&source, points, expected);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", fit::render(&r));
    }
    if r.above_expected {
        return Err(super::exit::Finding(format!(
            "{}: {} grows faster than the expected {}",
            r.source,
            r.class,
            r.expected.as_deref().unwrap_or("class")
        ))
        .into());
    }
    Ok(())
}
