//! Variants of a registered constructor or method that let a sweep size the input: a
//! constructor consuming a sequence gets a `_filled` twin built from `0..n`, and a method
//! taking a string key gets a `_numbered` twin that writes a program integer out. The model
//! adds them beside the function they call.

use perfsyn_profiler_ipc::Mode;

use super::model_ty::ModelTy;
use super::registrations::{fill_item, Func, Param, ParamKind, Passed, Receiver, Value};

/// The variant of constructor `c` whose sequence of elements (`build(buf: Vec<N>, op)`,
/// `from_slice(&[T])`) is filled with `0..n`, `n` a program value: a tree built only from
/// a vector never grows after, and mutations insert statements after the
/// receiver's definition, so the vector a constructor consumes stayed empty and every sweep
/// stayed at size 0. An integer the sweep scales sizes the input instead (`build_filled(n,
/// op)` calls `build((0..n as u64).collect::<Vec<u64>>(), op)`). `None` when no parameter
/// is such a sequence.
pub(super) fn filled(c: &Func) -> Option<Func> {
    let (k, elem, passed) = c.params.iter().enumerate().find_map(|(k, p)| {
        let (elem, passed) = sequence_element(p)?;
        fill_item(&elem).map(|_| (k, elem, passed))
    })?;
    let mut params = c.params.clone();
    params[k] = Param::new(&c.params[k].name, ParamKind::Filled { elem, passed });
    Some(Func {
        name: format!("{}_filled", c.name),
        params,
        call: Some(c.call.clone().unwrap_or_else(|| c.name.clone())),
        ..c.clone()
    })
}

/// The variant of method `f` whose first string parameter is a program integer written out
/// (`insert_numbered(key: u64, ..)` calls `insert(key.to_string(), ..)`), when `f` takes
/// `&mut self` and a string. A loop repeats a string literal, and only the loop index
/// varies: maps keyed by strings held at most four keys in every program
/// (sizes 0..3, no class measured for `len`, `iter`, `clear`), where a loop of the variant
/// inserts a distinct key per iteration. Both stay registered: the string itself grows by
/// appending (see `gen`'s `String` registration), which measures a key's length.
pub(super) fn numbered(f: &Func) -> Option<Func> {
    if f.receiver != Some(Receiver::By(Mode::Mut)) || f.chain.is_some() || f.call.is_some() {
        return None;
    }
    let (k, borrow) = f
        .params
        .iter()
        .enumerate()
        .find_map(|(k, p)| match &p.kind {
            ParamKind::Plain {
                value:
                    Value {
                        mode: mode @ (Mode::Val | Mode::Str),
                        ty: ModelTy::String,
                    },
                cast: None,
            } => Some((k, *mode == Mode::Str)),
            _ => None,
        })?;
    let mut params = f.params.clone();
    params[k] = Param::new(&f.params[k].name, ParamKind::Numbered { borrow });
    Some(Func {
        name: format!("{}_numbered", f.name),
        params,
        call: Some(f.name.clone()),
        ..f.clone()
    })
}

/// The element type of a sequence parameter and how it is passed: `Vec<E>` taken by value
/// (or as its `into_iter()`), or `&[E]`.
fn sequence_element(p: &Param) -> Option<(ModelTy, Passed)> {
    match &p.kind {
        ParamKind::Plain {
            value: Value { mode, ty },
            cast: None,
        } => match mode {
            Mode::Val => Some((ty.element()?.clone(), Passed::Vec)),
            Mode::Slice => Some((ty.clone(), Passed::Slice)),
            _ => None,
        },
        ParamKind::Sequence { elem, iterator } => Some((
            elem.clone(),
            if *iterator { Passed::Iter } else { Passed::Vec },
        )),
        _ => None,
    }
}
