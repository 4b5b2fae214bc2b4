//! Variants of a registered constructor or method that let a sweep size the input: a
//! constructor consuming a sequence gets a `_filled` twin built from `0..n`, and a method
//! taking a string key gets a `_numbered` twin that writes a program integer out. The model
//! adds them beside the function they call.

use perfsyn_profiler_ipc::Mode;

use super::registrations::{Func, Param, Receiver};
use super::value_traits::MODEL_INTS;

/// The variant of constructor `c` whose sequence of elements (`build(buf: Vec<N>, op)`,
/// `from_slice(&[T])`) is filled with `0..n`, `n` a program value: a tree built only from
/// a vector never grows after, and mutations insert statements after the
/// receiver's definition, so the vector a constructor consumes stayed empty and every sweep
/// stayed at size 0. An integer the sweep scales sizes the input instead (`build_filled(n,
/// op)` calls `build((0..n as u64).collect::<Vec<u64>>(), op)`). `None` when no parameter
/// is such a sequence.
pub(super) fn filled(c: &Func) -> Option<Func> {
    let k = c.params.iter().position(|p| {
        p.more.is_empty()
            && p.cast.is_none()
            && fill_item(&sequence_element(p).unwrap_or_default()).is_some()
    })?;
    let p = &c.params[k];
    let elem = sequence_element(p)?;
    let item = fill_item(&elem)?;
    let map = if elem == "u64" {
        String::new()
    } else {
        format!(".map(|i| {item})")
    };
    let fill = |n: &str| format!("(0..{n} as u64){map}.collect::<Vec<{elem}>>()");
    let (code, shown) = (fill(&p.name), fill(&format!("{{{}}}", p.name)));
    let (code, shown) = match (&p.expr, p.mode) {
        (Some((e, t)), _) => {
            let tail = e.strip_prefix(&p.name)?;
            let shown_tail = t.strip_prefix(&format!("{{{}}}", p.name))?;
            (format!("{code}{tail}"), format!("{shown}{shown_tail}"))
        }
        (None, Mode::Slice) => (format!("&{code}"), format!("&{shown}")),
        (None, _) => (code, shown),
    };
    let mut params = c.params.clone();
    params[k] = Param {
        name: p.name.clone(),
        mode: Mode::Copy,
        ty: "usize".into(),
        cast: None,
        expr: Some((code, shown)),
        dsl: true,
        more: Vec::new(),
    };
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
    let k = f.params.iter().position(|p| {
        p.ty == "String"
            && p.dsl
            && p.expr.is_none()
            && p.cast.is_none()
            && p.more.is_empty()
            && matches!(p.mode, Mode::Val | Mode::Str)
    })?;
    let p = &f.params[k];
    let borrow = if p.mode == Mode::Str { "&" } else { "" };
    let mut params = f.params.clone();
    params[k] = Param {
        name: p.name.clone(),
        mode: Mode::Copy,
        ty: "u64".into(),
        cast: None,
        expr: Some((
            format!("{borrow}{}.to_string()", p.name),
            format!("{borrow}{{{}}}.to_string()", p.name),
        )),
        dsl: true,
        more: Vec::new(),
    };
    Some(Func {
        name: format!("{}_numbered", f.name),
        params,
        call: Some(f.name.clone()),
        ..f.clone()
    })
}

/// The element type of a sequence parameter: `Vec<E>` taken by value, or `&[E]`.
fn sequence_element(p: &Param) -> Option<String> {
    match p.mode {
        Mode::Val => {
            p.ty.strip_prefix("Vec<")
                .and_then(|t| t.strip_suffix('>'))
                .map(str::to_string)
        }
        Mode::Slice => Some(p.ty.clone()),
        _ => None,
    }
}

/// The `i`-th element of a filled sequence of `elem`s (`i` a `u64`), for the elements a
/// program builds.
fn fill_item(elem: &str) -> Option<String> {
    match elem {
        "Key" => Some("Key::new(i)".into()),
        "String" => Some("i.to_string()".into()),
        e if MODEL_INTS.contains(&e) => Some(format!("i as {e}")),
        _ => None,
    }
}
