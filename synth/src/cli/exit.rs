//! The exit status policy of every subcommand, in one place so that they agree:
//!
//! - 0: the command did its job and reports nothing that fails it;
//! - 1: a finding the command reports as failure (`check`: a confirmed regression; `fit
//!   --expect C`: a class significantly above C; `replay`: a measurement that did not
//!   reproduce), for a CI gate to act on;
//! - 2: an error: bad input (clap's own usage errors are 2 as well) or a run that could not
//!   be completed. The message is printed as one `error:` line.
//!
//! A command signals a finding by returning a [`Finding`] error; any other error is 2.

/// A result a command reports as failure with exit status 1, not an error.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Finding(pub String);

/// Exit status for a finding.
pub const FINDING: i32 = 1;
/// Exit status for an error (bad input, or a run that could not be completed).
pub const ERROR: i32 = 2;

/// The exit status of a command that ended with `err`.
pub fn code(err: &anyhow::Error) -> i32 {
    if err.downcast_ref::<Finding>().is_some() {
        FINDING
    } else {
        ERROR
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_is_1_and_any_other_error_2() {
        assert_eq!(code(&Finding("slower".into()).into()), 1);
        assert_eq!(code(&anyhow::anyhow!("no such method")), 2);
        let wrapped = anyhow::Error::from(Finding("x".into())).context("run.json");
        assert_eq!(code(&wrapped), 1, "context keeps the finding");
    }
}
