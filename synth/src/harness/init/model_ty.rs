//! The types of the program model as data: what a registration's parameter or kept result
//! is (the probe key, a primitive, a string, a vector or tuple of them, the harness's
//! hasher, or one of the crate's registered types). The resolvers decide on these; they are
//! written as Rust source in one place, [`ModelTy`]'s `Display`.

use std::fmt;

use super::value_traits::MODEL_INTS;

/// A type of the program model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelTy {
    /// The probe key (`perfsyn_profiler_ipc::probe::Key`).
    Key,
    /// An integer of [`MODEL_INTS`], `bool` or `char`.
    Prim(&'static str),
    String,
    /// `Vec<T>` of a model type.
    Vec(Box<ModelTy>),
    /// A tuple of model types, written without spaces (`(usize,u64)`).
    Tuple(Vec<ModelTy>),
    /// The harness's fixed, seedless hasher (`FixedState`).
    Hasher,
    /// One of the crate's registered types, as the registration writes it (`Stack<Key>`,
    /// `demo::DefaultKey`).
    Own(String),
}

impl ModelTy {
    /// The model type an instantiation or registry name written as text names: a primitive,
    /// the key, a string, the hasher, a vector or tuple of them; anything else a registered
    /// type. Written back by `Display`, it is the same text.
    pub fn parse(text: &str) -> ModelTy {
        if let Some(p) = prim(text) {
            return ModelTy::Prim(p);
        }
        match text {
            "Key" => return ModelTy::Key,
            "String" => return ModelTy::String,
            "FixedState" => return ModelTy::Hasher,
            _ => {}
        }
        if let Some(inner) = text.strip_prefix("Vec<").and_then(|t| t.strip_suffix('>')) {
            let elem = ModelTy::parse(inner);
            if reads_back(&elem, inner) && top_level_commas(inner) == 0 {
                return ModelTy::Vec(Box::new(elem));
            }
        }
        if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            let parts = split_top_level(inner);
            let elems: Vec<ModelTy> = parts.iter().map(|p| ModelTy::parse(p)).collect();
            if parts.len() >= 2 && elems.iter().zip(&parts).all(|(e, p)| reads_back(e, p)) {
                return ModelTy::Tuple(elems);
            }
        }
        ModelTy::Own(text.to_string())
    }

    /// An integer of [`MODEL_INTS`].
    pub fn is_int(&self) -> bool {
        matches!(self, ModelTy::Prim(p) if MODEL_INTS.contains(p))
    }

    /// An integer, `bool` or `char`: passed by copy.
    pub fn is_prim(&self) -> bool {
        matches!(self, ModelTy::Prim(_))
    }

    /// The element type of a vector.
    pub fn element(&self) -> Option<&ModelTy> {
        match self {
            ModelTy::Vec(e) => Some(e),
            _ => None,
        }
    }
}

/// The model primitive spelled `text`, if it is one.
fn prim(text: &str) -> Option<&'static str> {
    MODEL_INTS
        .iter()
        .chain(&["bool", "char"])
        .find(|p| **p == text)
        .copied()
}

/// `text` split at its commas outside angle brackets and parentheses.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// Whether `ty` is written as `text`.
fn reads_back(ty: &ModelTy, text: &str) -> bool {
    let written = ty.to_string();
    written == text
}

fn top_level_commas(text: &str) -> usize {
    split_top_level(text).len() - 1
}

impl fmt::Display for ModelTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelTy::Key => f.write_str("Key"),
            ModelTy::Prim(p) => f.write_str(p),
            ModelTy::String => f.write_str("String"),
            ModelTy::Vec(e) => write!(f, "Vec<{e}>"),
            ModelTy::Tuple(es) => {
                let parts: Vec<String> = es.iter().map(ToString::to_string).collect();
                write!(f, "({})", parts.join(","))
            }
            ModelTy::Hasher => f.write_str("FixedState"),
            ModelTy::Own(rust) => f.write_str(rust),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ModelTy;

    /// Every model type reads back as the text it was written from.
    #[test]
    fn model_types_print_as_the_text_they_were_read_from() {
        for text in [
            "Key",
            "u64",
            "bool",
            "String",
            "Vec<(usize,u64)>",
            "Vec<Key>",
            "FixedState",
            "Stack<Key>",
            "demo::DefaultKey",
            "Vec<Interval<u64, Key>>",
            "(Foo<A,B>,u8)",
            "[u8; 4]",
        ] {
            assert_eq!(ModelTy::parse(text).to_string(), text);
        }
        assert_eq!(
            ModelTy::parse("Vec<(usize,u64)>"),
            ModelTy::Vec(Box::new(ModelTy::Tuple(vec![
                ModelTy::Prim("usize"),
                ModelTy::Prim("u64")
            ])))
        );
        assert_eq!(
            ModelTy::parse("Stack<Key>"),
            ModelTy::Own("Stack<Key>".into())
        );
    }
}
