//! Complexity classes: what a method's documentation promises, what a fit measures, and what
//! every report names. At the bottom because `init` reads them from doc comments and the
//! judges fit them.

use serde::{Deserialize, Serialize};

/// Complexity classes in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Class {
    Constant,
    Log,
    Linear,
    Linearithmic,
    Quadratic,
    Cubic,
    Exponential,
}

impl Class {
    /// Every class, lowest first.
    pub const ALL: [Class; 7] = [
        Class::Constant,
        Class::Log,
        Class::Linear,
        Class::Linearithmic,
        Class::Quadratic,
        Class::Cubic,
        Class::Exponential,
    ];

    /// The usual notation, e.g. `O(n log n)`.
    pub fn label(self) -> &'static str {
        match self {
            Class::Constant => "O(1)",
            Class::Log => "O(log n)",
            Class::Linear => "O(n)",
            Class::Linearithmic => "O(n log n)",
            Class::Quadratic => "O(n^2)",
            Class::Cubic => "O(n^3)",
            Class::Exponential => "O(2^n)",
        }
    }

    /// Parses `O(1)`, `O(log n)`, `O(n)`, `O(n log n)`, `O(n^2)`, `O(n²)`, `O(n^3)`, `O(2^n)`
    /// (spaces and a trailing qualifier like "amortized" are ignored).
    pub fn parse(s: &str) -> Option<Class> {
        let t: String = s
            .split_whitespace()
            .filter(|w| !matches!(*w, "amortized" | "expected" | "worst-case"))
            .collect::<Vec<_>>()
            .join("")
            .replace('²', "^2")
            .replace('³', "^3")
            .replace('*', "");
        Some(match t.as_str() {
            "O(1)" => Class::Constant,
            "O(logn)" | "O(log(n))" => Class::Log,
            "O(n)" => Class::Linear,
            "O(nlogn)" | "O(nlog(n))" => Class::Linearithmic,
            "O(n^2)" => Class::Quadratic,
            "O(n^3)" => Class::Cubic,
            "O(2^n)" => Class::Exponential,
            _ => return None,
        })
    }

    /// The class's growth function at size `n` (n >= 0).
    pub fn g(self, n: f64) -> f64 {
        let n = n.max(0.0);
        match self {
            Class::Constant => 1.0,
            Class::Log => (n + 1.0).log2(),
            Class::Linear => n,
            Class::Linearithmic => n * (n + 1.0).log2(),
            Class::Quadratic => n * n,
            Class::Cubic => n * n * n,
            Class::Exponential => 2f64.powf(n.min(1000.0)),
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Serde for an `Option<Class>` written as its label (`"O(n log n)"`, `null` for none), with
/// `#[serde(default, with = "crate::report::class::label")]`: how reports and run files name
/// a class for people and scripts. `Class` itself serializes as its variant name
/// (`Linearithmic`), which the fit's evidence keeps.
pub mod label {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Class;

    pub fn serialize<S: Serializer>(c: &Option<Class>, s: S) -> Result<S::Ok, S::Error> {
        c.map(Class::label).serialize(s)
    }

    /// Reads what [`Class::parse`] reads: a label, or the spellings documentation uses.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Class>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| {
                Class::parse(&t)
                    .ok_or_else(|| D::Error::custom(format!("not a complexity class: `{t}`")))
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Labelled {
        #[serde(default, with = "label")]
        class: Option<Class>,
    }

    /// Every class is written as its label and read back; null and a missing field are none.
    #[test]
    fn a_class_field_round_trips_as_its_label() {
        for c in Class::ALL {
            let v = serde_json::to_value(Labelled { class: Some(c) }).unwrap();
            assert_eq!(v["class"], c.label());
            assert_eq!(
                serde_json::from_value::<Labelled>(v).unwrap().class,
                Some(c)
            );
        }
        let none = serde_json::to_value(Labelled { class: None }).unwrap();
        assert_eq!(none, serde_json::json!({"class": null}));
        assert_eq!(serde_json::from_str::<Labelled>("{}").unwrap().class, None);
        assert!(serde_json::from_str::<Labelled>(r#"{"class": "fast"}"#).is_err());
    }
}
