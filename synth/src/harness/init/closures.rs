//! Closure parameters the harness builds from program values, so that `retain`, `sort_by`,
//! `binary_search_by`, `sort_by_key` and `or_insert_with` register without the harness knowing
//! what the user's code does with them. Each shape is a small family chosen by one program
//! value, so the search varies how the closure behaves:
//!
//! - a predicate (`-> bool`): keep all, none, or drop every `k`-th call (a `u8`);
//! - a comparator of two equal halves (`FnMut(&K, &V, &K, &V) -> Ordering`): ascending or
//!   descending by the first half's first argument, all equal, or ascending by its last (a `u8`);
//! - a probe (`FnMut(&K, &V) -> Ordering`, what `binary_search_by` takes): the first argument
//!   compared with a target the program chooses;
//! - a key (`-> T` with `T` a generic parameter of the function): the first argument, cloned;
//!   `T` is instantiated with that argument's type;
//! - a value (`-> V` with `V` a type the model builds): a value the program chooses, cloned;
//!   when `V` is an integer type and the first input is one too (`Fn(u64) -> u64`, a key),
//!   the identity, its reverse (`!x`), eight distinct keys (`x % 8`) or `0` (a `u8`);
//! - nothing (`-> ()`): does nothing and takes no value.

use std::collections::HashSet;

use quote::ToTokens;
use syn::{ReturnType, Type, TypeParamBound};

use perfsyn_profiler_ipc::Mode;

use super::model_ty::ModelTy;
use super::registrations::{Code, Param, ParamKind, Value};

/// The inputs and output of the `Fn`/`FnMut`/`FnOnce(..) -> R` bound among `bounds`, if any.
pub fn closure_bound(bounds: &[TypeParamBound]) -> Option<(Vec<Type>, ReturnType)> {
    bounds.iter().find_map(|b| {
        let TypeParamBound::Trait(tb) = b else {
            return None;
        };
        let seg = tb.path.segments.last()?;
        if !["Fn", "FnMut", "FnOnce"].contains(&seg.ident.to_string().as_str()) {
            return None;
        }
        let syn::PathArguments::Parenthesized(a) = &seg.arguments else {
            return None;
        };
        Some((
            a.inputs.iter().map(|i| i.ty.clone()).collect(),
            a.output.clone(),
        ))
    })
}

/// What a closure returns, as far as the harness builds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Returns {
    Unit,
    Bool,
    /// `Ordering`: a comparator when the inputs are two equal halves, else a probe.
    Ordering,
    /// A generic parameter of the function, instantiated as the first input's type.
    Key,
    /// A model type (`Key`, `u64`, ...) the program supplies.
    Value(String),
    /// `Result<V, E>`, `Option<V>` or `Option<&str>` (see
    /// [`wrapped_returns`](super::wrapped_returns)).
    Wrapped(super::wrapped_returns::Wrapped),
}

/// One closure input: whether it is a reference, and its model type when it has one.
#[derive(Clone, Debug)]
pub struct Input {
    pub by_ref: bool,
    pub ty: Option<String>,
}

/// A closure parameter the harness can build.
#[derive(Clone, Debug)]
pub struct Shape {
    pub inputs: Vec<Input>,
    pub returns: Returns,
}

/// Model types with a total order and `Clone` (what comparators and keys need).
pub fn orderable(ty: &str) -> bool {
    [
        "Key", "u8", "u32", "u64", "usize", "i32", "i64", "bool", "char", "String",
    ]
    .contains(&ty)
}

/// A comparator's input: an orderable model type, or a tuple of them (`(Key,Key)`, ordered
/// lexicographically as Rust orders tuples).
fn orderable_input(ty: &str) -> bool {
    match ty.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(elems) => elems.split(',').all(orderable),
        None => orderable(ty),
    }
}

/// The shape of a closure with `inputs` and `output`; `resolve` gives the model type of a
/// (dereferenced) input or return type, and `fn_generics` names the function's own type
/// parameters (a return type among them is a key).
pub fn shape(
    inputs: &[Type],
    output: &ReturnType,
    resolve: &dyn Fn(&Type) -> Option<String>,
    fn_generics: &HashSet<String>,
    unbounded: &HashSet<String>,
) -> Result<Shape, String> {
    // A tuple of orderable values (vecmap-rs's `sort_by(FnMut((&K, &V), (&K, &V)) ->
    // Ordering)`), its elements by reference or not: `(Key,Key)`, which a comparator orders
    // as a whole (see `orderable_input`).
    let tuple = |t: &Type| -> Option<String> {
        let Type::Tuple(tt) = t else { return None };
        let elems: Option<Vec<String>> = tt
            .elems
            .iter()
            .map(|e| match e {
                Type::Reference(r) => resolve(&r.elem),
                e => resolve(e),
            })
            .map(|e| e.filter(|e| orderable(e)))
            .collect();
        elems
            .filter(|e| e.len() >= 2)
            .map(|e| format!("({})", e.join(",")))
    };
    let written = inputs;
    let inputs: Vec<Input> = inputs
        .iter()
        .map(|t| match t {
            Type::Reference(r) => Input {
                by_ref: true,
                ty: resolve(&r.elem).or_else(|| tuple(&r.elem)),
            },
            t => Input {
                by_ref: false,
                ty: resolve(t).or_else(|| tuple(t)),
            },
        })
        .collect();
    let shown = |t: &Type| t.to_token_stream().to_string().replace(' ', "");
    let returns = match output {
        ReturnType::Default => Returns::Unit,
        ReturnType::Type(_, t) => {
            let last = match &**t {
                Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                _ => None,
            };
            let single = match &**t {
                Type::Path(p) => p.path.get_ident().map(|i| i.to_string()),
                _ => None,
            };
            if last.as_deref() == Some("bool") {
                Returns::Bool
            } else if last.as_deref() == Some("Ordering") {
                // Tuples only as the two halves of a comparator: a probe's target is one
                // program value, of a type the model builds.
                let tuples = inputs
                    .iter()
                    .any(|i| i.ty.as_deref().is_some_and(|t| t.starts_with('(')));
                if !inputs
                    .iter()
                    .all(|i| i.ty.as_deref().is_some_and(orderable_input))
                    || (tuples && !halves(&inputs))
                {
                    return Err(format!(
                        "a closure returning `Ordering` over inputs the harness cannot order ({})",
                        describe(&inputs, written)
                    ));
                }
                Returns::Ordering
            } else if single.as_ref().is_some_and(|s| unbounded.contains(s))
                && !inputs
                    .first()
                    .and_then(|i| i.ty.as_deref())
                    .is_some_and(orderable)
            {
                // A result the function only passes back (`mutate_vec<F, O>(&mut
                // self, f: F) -> O where F: FnOnce(&mut Vec<T>) -> O`), of a parameter with
                // no bound, over inputs the harness cannot build: nothing, `O = ()`.
                Returns::Unit
            } else if single.as_ref().is_some_and(|s| fn_generics.contains(s)) {
                if !inputs
                    .first()
                    .and_then(|i| i.ty.as_deref())
                    .is_some_and(orderable)
                {
                    // A parameter of the function given `()` (`C: ControlFlow`, see
                    // `fn_generics`): the closure returns nothing.
                    if resolve(t).as_deref() == Some("()") {
                        return Ok(Shape {
                            inputs,
                            returns: Returns::Unit,
                        });
                    }
                    // A parameter of the function already given an integer (`F:
                    // FnMut(G::EdgeRef) -> K` with `K: Measure + Copy`, see
                    // `primitive_bounds`): a value of it the program chooses, whatever the
                    // inputs (an edge cost).
                    if let Some(v) =
                        resolve(t).filter(|v| super::value_traits::MODEL_INTS.contains(&v.as_str()))
                    {
                        return Ok(Shape {
                            inputs,
                            returns: Returns::Value(v),
                        });
                    }
                    return Err(format!(
                        "a closure returning `{}` computed from inputs the harness cannot clone and order ({})",
                        shown(t),
                        describe(&inputs, written)
                    ));
                }
                Returns::Key
            } else if let Some(v) = resolve(t) {
                Returns::Value(v)
            } else if let Some(w) = super::wrapped_returns::wrapped(t, resolve, unbounded) {
                Returns::Wrapped(w)
            } else {
                return Err(format!(
                    "a closure returning `{}`, a type the program model does not build",
                    shown(t)
                ));
            }
        }
    };
    Ok(Shape { inputs, returns })
}

/// The closure's inputs as the model types them, an input it has no type for as written
/// (`FnOnce(&mut Vec<T>)` read "(?)"), marked as outside the model.
fn describe(inputs: &[Input], written: &[Type]) -> String {
    inputs
        .iter()
        .zip(written)
        .map(|(i, w)| {
            i.ty.clone().unwrap_or_else(|| {
                format!("`{}`, not in the program model", super::syntax::readable(w))
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a comparator's inputs are two halves of equal types (`&K, &V, &K, &V`).
fn halves(inputs: &[Input]) -> bool {
    let n = inputs.len();
    n >= 2
        && n % 2 == 0
        && inputs[..n / 2]
            .iter()
            .zip(&inputs[n / 2..])
            .all(|(a, b)| a.ty == b.ty && a.by_ref == b.by_ref)
}

/// The closure argument named `name` of shape `shape`: a parameter whose program value
/// chooses the closure (see the module doc).
pub fn closure(name: &str, shape: &Shape) -> Param {
    let n = shape.inputs.len();
    let args: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
    let pats = |used: &[usize]| {
        (0..n)
            .map(|i| {
                if used.contains(&i) {
                    args[i].clone()
                } else {
                    "_".into()
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    // (model type, passing mode, code in terms of the value `k`)
    let (ty, mode, code): (String, Mode, Box<dyn Fn(&str) -> String>) = match &shape.returns {
        Returns::Unit => {
            let p = pats(&[]);
            (
                "u8".into(),
                Mode::Copy,
                Box::new(move |_: &str| format!("|{p}| {{}}")),
            )
        }
        Returns::Bool => {
            let p = pats(&[]);
            (
                "u8".into(),
                Mode::Copy,
                Box::new(move |k: &str| {
                    format!(
                        "{{ let calls = std::cell::Cell::new(0u64); move |{p}| {{ calls.set(calls.get() + 1); {k} == 0 || ({k} > 1 && calls.get() % {k} as u64 != 0) }} }}"
                    )
                }),
            )
        }
        Returns::Ordering if halves(&shape.inputs) => {
            let m = n / 2;
            let p = pats(&(0..n).collect::<Vec<_>>());
            let (first, last) = (0, m - 1);
            (
                "u8".into(),
                Mode::Copy,
                Box::new(move |k: &str| {
                    format!(
                        "move |{p}| match {k} % 4 {{ 0 => std::cmp::Ord::cmp(&a{first}, &a{}), 1 => std::cmp::Ord::cmp(&a{}, &a{first}), 2 => std::cmp::Ordering::Equal, _ => std::cmp::Ord::cmp(&a{last}, &a{}) }}",
                        first + m,
                        first + m,
                        last + m
                    )
                }),
            )
        }
        Returns::Ordering => {
            let p = pats(&[0]);
            let a0 = if shape.inputs[0].by_ref { "a0" } else { "&a0" };
            let ty = shape.inputs[0].ty.clone().unwrap_or_default();
            let mode = value_mode(&ty);
            (
                ty,
                mode,
                Box::new(move |k: &str| format!("move |{p}| std::cmp::Ord::cmp({a0}, &{k})")),
            )
        }
        Returns::Key => {
            let p = pats(&[0]);
            let ty = "u8".to_string();
            (
                ty,
                Mode::Copy,
                Box::new(move |_: &str| format!("|{p}| a0.clone()")),
            )
        }
        Returns::Value(v) if maps_an_integer(shape) => {
            // A map over integers (`Fn(u64) -> u64`, a sort or hash key): a constant key
            // hides every order-dependent path (a planted bubble sort by key was judged
            // O(1): with equal keys nothing swaps and LLVM removed the loop). The family
            // keeps the constant and adds the identity, its reverse and few distinct keys.
            let p = pats(&[0]);
            let x = if shape.inputs[0].by_ref { "*a0" } else { "a0" };
            let v = v.clone();
            (
                "u8".into(),
                Mode::Copy,
                Box::new(move |k: &str| {
                    format!(
                        "move |{p}| {{ let x: {v} = {x}; match {k} % 4 {{ 0 => x, 1 => !x, 2 => x % 8, _ => 0 }} }}"
                    )
                }),
            )
        }
        Returns::Wrapped(w) => {
            let p = pats(&[]);
            let ty = w.value().to_string();
            let mode = value_mode(&ty);
            let w = w.clone();
            (
                ty,
                mode,
                Box::new(move |k: &str| super::wrapped_returns::body(&w, &p, k)),
            )
        }
        Returns::Value(v) => {
            let p = pats(&[]);
            let mode = value_mode(v);
            (
                v.clone(),
                mode,
                Box::new(move |k: &str| format!("move |{p}| {k}.clone()")),
            )
        }
    };
    let takes_value = !matches!(shape.returns, Returns::Unit | Returns::Key);
    let mode = if mode == Mode::Copy {
        Mode::Copy
    } else {
        Mode::Val
    };
    Param::new(
        name,
        ParamKind::Closure {
            value: takes_value.then(|| Value::new(mode, ModelTy::parse(&ty))),
            code: Code {
                rust: code(name),
                shown: code(&format!("{{{name}}}")),
            },
        },
    )
}

/// Whether a closure returning a value maps an integer to the same integer type (its first
/// input), so that the identity and its reverse can be its keys.
fn maps_an_integer(shape: &Shape) -> bool {
    let Returns::Value(v) = &shape.returns else {
        return false;
    };
    super::value_traits::MODEL_INTS.contains(&v.as_str())
        && shape.inputs.first().and_then(|i| i.ty.as_deref()) == Some(v.as_str())
}

fn value_mode(ty: &str) -> Mode {
    if ["u8", "u32", "u64", "usize", "i32", "i64", "bool", "char"].contains(&ty) {
        Mode::Copy
    } else {
        Mode::Val
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_shape(input: &str, by_ref: bool, ret: &str) -> Shape {
        Shape {
            inputs: vec![Input {
                by_ref,
                ty: Some(input.into()),
            }],
            returns: Returns::Value(ret.into()),
        }
    }

    /// A key over integers is the identity, its reverse, few keys or a constant, chosen by a
    /// `u8`; a value closure over other inputs stays the program's value.
    #[test]
    fn an_integer_key_closure_orders_its_inputs() {
        let p = parts(&closure("key", &value_shape("u64", false, "u64")));
        assert_eq!((p.0.as_str(), p.1.keyword()), ("u8", "copy"));
        let code = p.2.clone();
        assert_eq!(
            code,
            "move |a0| { let x: u64 = a0; match key % 4 { 0 => x, 1 => !x, 2 => x % 8, _ => 0 } }"
        );
        assert!(p.3);
        let code = parts(&closure("key", &value_shape("u32", true, "u32"))).2;
        assert!(code.contains("let x: u32 = *a0;"), "{code}");
        let other = parts(&closure("make", &value_shape("Key", true, "u64")));
        assert_eq!(other.0, "u64");
        assert_eq!(other.2, "move |_| make.clone()");
    }

    /// A closure parameter's model type, mode, code in Rust, and whether it takes a value.
    fn parts(p: &Param) -> (String, Mode, String, bool) {
        let ParamKind::Closure { value, code } = &p.kind else {
            panic!("not a closure: {p:?}")
        };
        let (ty, mode) = value
            .as_ref()
            .map_or((String::new(), Mode::Val), |v| (v.ty.to_string(), v.mode));
        (ty, mode, code.rust.clone(), value.is_some())
    }
}
