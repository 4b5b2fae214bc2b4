//! Why an item of a crate's API is not registered, as data. The model records a
//! [`SkipReason`] for every type, constructor, method or free function it leaves out, named
//! after the Rust construct that stopped it; its `Display` is the sentence users read (in the
//! `// skipped:` lines of the generated file, and from `explore` and `check` when they are
//! asked about the item). `init` writes the list beside the generated file
//! ([`SKIPPED_FILE`]), and commands read it back from there: nothing parses the comments.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The file beside the harness's `Cargo.toml` that lists what `init` skipped.
pub const SKIPPED_FILE: &str = "skipped.json";

/// Why one item is not registered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SkipReason {
    /// A type with a lifetime parameter: it borrows, and program values are owned.
    LifetimeParameter,
    /// A type with a lifetime parameter whose methods, `reached` of its `methods`, are
    /// registered as chains through the methods handing it out (see
    /// [`handed_out`](super::handed_out)).
    HandedOut { reached: usize, methods: usize },
    /// A type parameter whose bounds neither the probe key nor an integer meets.
    GenericBoundNotMet { param: String, needs: Vec<String> },
    /// A type parameter with a default the harness cannot name, followed by parameters that
    /// must be given (so it cannot be left out).
    UnnameableDefault { param: String },
    /// A type with no constructor the model can call; `unreachable` of its methods no
    /// program reaches, `reached` of them are reached through the methods returning it.
    NoConstructor { unreachable: usize, reached: usize },
    /// An owning iterator whose only constructor is `Default` (always empty).
    EmptyIterator,
    /// A type without a constructor whose methods are registered on the types that deref
    /// to it.
    DerefTarget { derefers: Vec<String> },
    /// `Default` implemented only at an instantiation other than the harness's.
    DefaultElsewhere { shown: String, rust: String },
    /// An `async fn`.
    AsyncFunction,
    /// An `unsafe fn` without a receiver (an associated or free function).
    UnsafeFunction,
    /// An `unsafe fn` taking `self`: a public method, counted as one (`bench init` judges
    /// its goal on the methods that are not these).
    UnsafeMethod,
    /// A receiver of a type other than `self`, `&self`, `&mut self` (`self: Rc<Self>`).
    TypedReceiver,
    /// A `self: Box<Self>` receiver.
    BoxedReceiver,
    /// An associated function (no `self`) that returns nothing.
    AssociatedFunctionReturningNothing,
    /// An associated function whose result is not the type (`ty`), with what it returns.
    AssociatedFunctionNotReturningSelf { ty: String, returns: String },
    /// A function's generic parameter bounded by a closure the model cannot build, with the
    /// sentence saying why.
    UnsupportedClosure { why: String },
    /// A function's generic parameter that a closure returns (the key, `key`), bounded by a
    /// trait the key does not implement.
    ClosureKeyBoundNotMet {
        param: String,
        bound: String,
        key: String,
    },
    /// A function's generic parameter that is neither the probe key nor a closure the model
    /// builds, with its bounds.
    UnbuildableGenericParameter { param: String, bounds: Vec<String> },
    /// A function's generic parameter bounded by `AsRef<Path>`: it names a file to read or
    /// write, which programs do not create (their costs would be the file system's).
    FilePath { param: String },
    /// A where-clause bound on an associated type (`G::EdgeWeight: FloatMeasure`) that the
    /// type the associated type is instantiated with (`Key`) does not meet.
    AssocTypeBoundNotMet {
        assoc: String,
        ty: String,
        bound: String,
    },
    /// A parameter whose type the model cannot supply, with the sentence saying why.
    UnsupportedParameter { name: String, why: String },
    /// A borrowing type's method reached through a method whose result does not allow the
    /// receiver it needs.
    ReceiverNotAllowed { through: String, receiver: String },
    /// A borrowing type's method reached through `through`, skipped for `why`.
    ReachedThrough {
        through: String,
        why: Box<SkipReason>,
    },
    /// A method or constructor of an impl block that fixes a parameter to `shown`, which the
    /// harness instantiates otherwise (`rust`).
    ImplForOtherInstantiation { shown: String, rust: String },
    /// A registration the compiler rejected when the harness was built, with its message.
    RejectedByCompiler { message: String },
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::LifetimeParameter => f.write_str(
                "it borrows (a lifetime parameter): values the program model builds are owned",
            ),
            SkipReason::HandedOut { reached, methods } => write!(
                f,
                "it borrows (a lifetime parameter), so no program holds one: {reached} of its {methods} methods are registered through the methods handing it out (`perfsyn list` shows their calls)"
            ),
            SkipReason::GenericBoundNotMet { param, needs } => write!(
                f,
                "its parameter {param} needs {} which neither the probe key nor an integer implements (the crate implements it for no integer the harness builds)",
                needs.join(" + ")
            ),
            SkipReason::UnnameableDefault { param } => write!(
                f,
                "its parameter {param} has a default the harness cannot name, and parameters after it must be given"
            ),
            SkipReason::NoConstructor {
                unreachable,
                reached,
            } => {
                f.write_str("no public constructor the program model can call (new, with_capacity, Default, or a function returning Self with buildable parameters)")?;
                if *unreachable > 0 {
                    write!(f, "; its {unreachable} methods are unreachable")?;
                }
                if *reached > 0 {
                    write!(
                        f,
                        "; {reached} of its methods are reached through the methods returning it"
                    )?;
                }
                Ok(())
            }
            SkipReason::EmptyIterator => f.write_str(
                "an iterator whose only constructor (Default) yields an empty one; methods returning it consume it or chain to its methods",
            ),
            SkipReason::DerefTarget { derefers } => write!(
                f,
                "no public constructor; its methods are registered on {}, which deref to it",
                derefers.join(", ")
            ),
            SkipReason::DefaultElsewhere { shown, rust } => write!(
                f,
                "`Default` is implemented only for `{shown}` (it fixes a parameter, e.g. a default hasher, that the harness instantiates otherwise: `{rust}`)"
            ),
            SkipReason::AsyncFunction => f.write_str("async function"),
            SkipReason::UnsafeFunction => f.write_str("unsafe function"),
            SkipReason::UnsafeMethod => f.write_str("unsafe method"),
            SkipReason::TypedReceiver => {
                f.write_str("typed receiver (self: Rc<Self>, Pin<&mut Self>, ...)")
            }
            SkipReason::BoxedReceiver => f.write_str(
                "a `self: Box<Self>` receiver: program variables hold values, not boxes (methods returning a Box reach it)",
            ),
            SkipReason::AssociatedFunctionReturningNothing => {
                f.write_str("associated function returning nothing")
            }
            SkipReason::AssociatedFunctionNotReturningSelf { ty, returns } => write!(
                f,
                "associated function that does not return {ty} (returns `{returns}`)"
            ),
            SkipReason::UnsupportedClosure { why } => f.write_str(why),
            SkipReason::ClosureKeyBoundNotMet { param, bound, key } => write!(
                f,
                "generic parameter {param}: {bound}, which the key a closure returns ({key}) does not implement"
            ),
            SkipReason::UnbuildableGenericParameter { param, bounds } => write!(
                f,
                "generic parameter {param}: {} (neither the probe key nor a closure the model builds)",
                bounds.join(" + ")
            ),
            SkipReason::FilePath { param } => write!(
                f,
                "generic parameter {param}: AsRef<Path> names a file, and programs build values in memory, not files (its costs would be the file system's); the functions taking the file's contents register instead"
            ),
            SkipReason::AssocTypeBoundNotMet { assoc, ty, bound } => write!(
                f,
                "where-clause `{assoc}: {bound}` not met: `{assoc}` is `{ty}` here, which does not implement `{bound}`"
            ),
            SkipReason::UnsupportedParameter { name, why } => {
                write!(f, "parameter `{name}`: {why}")
            }
            SkipReason::ReceiverNotAllowed { through, receiver } => write!(
                f,
                "reached through {through}, whose result does not allow a `{receiver}` receiver"
            ),
            SkipReason::ReachedThrough { through, why } => {
                write!(f, "reached through {through}, but {why}")
            }
            SkipReason::ImplForOtherInstantiation { shown, rust } => write!(
                f,
                "defined only for `{shown}` (its impl block fixes a parameter, e.g. a default hasher, that the harness instantiates otherwise: `{rust}`)"
            ),
            SkipReason::RejectedByCompiler { message } => write!(
                f,
                "rejected by the compiler in the harness: {message}"
            ),
        }
    }
}

impl SkipReason {
    /// The kind of reason in a few words, for the summary's most common reasons: the
    /// construct that stopped the item, whatever its details.
    pub fn kind(&self) -> &'static str {
        match self {
            SkipReason::LifetimeParameter => "types that borrow (a lifetime parameter)",
            SkipReason::HandedOut { .. } => {
                "types that borrow, reached through what hands them out"
            }
            SkipReason::GenericBoundNotMet { .. }
            | SkipReason::UnnameableDefault { .. }
            | SkipReason::ClosureKeyBoundNotMet { .. }
            | SkipReason::AssocTypeBoundNotMet { .. }
            | SkipReason::UnbuildableGenericParameter { .. } => {
                "generic parameters the harness cannot fill"
            }
            SkipReason::NoConstructor { .. }
            | SkipReason::EmptyIterator
            | SkipReason::DerefTarget { .. }
            | SkipReason::DefaultElsewhere { .. } => {
                "types without a constructor the harness can call"
            }
            SkipReason::AsyncFunction | SkipReason::UnsafeFunction | SkipReason::UnsafeMethod => {
                "async or unsafe functions"
            }
            SkipReason::TypedReceiver
            | SkipReason::BoxedReceiver
            | SkipReason::ReceiverNotAllowed { .. } => "receivers the harness cannot pass",
            SkipReason::AssociatedFunctionReturningNothing
            | SkipReason::AssociatedFunctionNotReturningSelf { .. } => {
                "associated functions that do not build the type"
            }
            SkipReason::UnsupportedClosure { .. } => "closures the harness cannot build",
            SkipReason::UnsupportedParameter { .. } => "parameter types the harness cannot supply",
            SkipReason::FilePath { .. } => "file paths (input from the file system)",
            SkipReason::ReachedThrough { why, .. } => why.kind(),
            SkipReason::ImplForOtherInstantiation { .. } => "impls for another instantiation",
            SkipReason::RejectedByCompiler { .. } => "rejected by the compiler",
        }
    }
}

/// The three most common kinds of reason among `skipped`, each with how many items it
/// stopped, most first (ties by kind).
pub fn top_reasons(skipped: &[Skipped]) -> Vec<(&'static str, usize)> {
    let mut counts: std::collections::BTreeMap<&'static str, usize> = Default::default();
    for s in skipped {
        *counts.entry(s.reason.kind()).or_default() += 1;
    }
    let mut top: Vec<(&'static str, usize)> = counts.into_iter().collect();
    top.sort_by_key(|(k, n)| (std::cmp::Reverse(*n), *k));
    top.truncate(3);
    top
}

/// One item `init` did not register: its spec (`Type`, `Type::method`, `module::f`) and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub item: String,
    pub reason: SkipReason,
}

/// What [`SKIPPED_FILE`] holds: the library's name (the prefix users may write before a
/// free function's path) and the skipped items, in the order of the generated file's
/// `// skipped:` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    pub lib: String,
    pub skipped: Vec<Skipped>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list reads back as the same data, and a reason nested in another (a chained
    /// method's) says both, as the generated file's comment does.
    #[test]
    fn the_skip_list_reads_back_as_written() {
        let file = SkippedFile {
            lib: "demo".into(),
            skipped: vec![
                Skipped {
                    item: "Iter".into(),
                    reason: SkipReason::LifetimeParameter,
                },
                Skipped {
                    item: "Entry::insert".into(),
                    reason: SkipReason::ReachedThrough {
                        through: "`entry`".into(),
                        why: Box::new(SkipReason::UnsafeFunction),
                    },
                },
            ],
        };
        let json = serde_json::to_string(&file).unwrap();
        let back: SkippedFile = serde_json::from_str(&json).unwrap();
        assert_eq!(back, file);
        assert_eq!(
            back.skipped[1].reason.to_string(),
            "reached through `entry`, but unsafe function"
        );
    }
}
