//! Binding a worker to one version of its version groups.
//!
//! A version group is two registrations of one API in one binary (`version: ("Group", "old")`
//! and `("Group", "new")`). A worker started with [`BIND_ENV`]`=old` (or `new`) offers each
//! group under the group's name, backed by that member, and hides the other member. The same
//! program, written against the group's name, then runs the old version on one worker and the
//! new version on another: the engine's pair of executors (DESIGN.md, "Two revisions are two
//! workers"), the same pair that two builds of a harness at two git revisions make.

use std::collections::{HashMap, HashSet};

use crate::registry::{Registry, TypeDef};
use crate::schema::TypeSchema;

/// The environment variable that binds a worker (`old` or `new`); unset: every member is
/// offered under its own name.
pub const BIND_ENV: &str = "PERFSYN_BIND";

/// The versions a worker can bind.
pub const VERSIONS: &[&str] = &["old", "new"];

/// `registry` with every version group offered under its group's name, backed by its member
/// `version`; the other member is hidden and references to either member name the group.
pub fn bind(registry: &Registry, version: &str) -> Result<Registry, String> {
    if !VERSIONS.contains(&version) {
        return Err(format!(
            "{BIND_ENV} must be `old` or `new`, not `{version}`"
        ));
    }
    let renamed: HashMap<String, String> = registry
        .types
        .iter()
        .filter_map(|t| {
            Some((
                t.schema.name.clone(),
                t.schema.version.as_ref()?.group.clone(),
            ))
        })
        .collect();
    let rename = |ty: &mut String| {
        if let Some(g) = renamed.get(ty.as_str()) {
            ty.clone_from(g);
        }
    };
    let mut types: Vec<TypeDef> = Vec::new();
    let mut names = HashSet::new();
    for t in &registry.types {
        if t.schema
            .version
            .as_ref()
            .is_some_and(|v| v.version != version)
        {
            continue;
        }
        let mut t = t.clone();
        let s: &mut TypeSchema = &mut t.schema;
        if s.version.is_some() && s.rust.is_empty() {
            // The printed program still writes the member's own Rust type.
            s.rust.clone_from(&s.name);
        }
        rename(&mut s.name);
        for p in s.ctors.iter_mut().flat_map(|c| c.params.iter_mut()) {
            rename(&mut p.ty);
        }
        for m in &mut s.methods {
            m.params.iter_mut().for_each(|p| rename(&mut p.ty));
            if let Some(r) = &mut m.ret {
                rename(r);
            }
        }
        s.fields.iter_mut().for_each(|f| rename(&mut f.ty));
        if !names.insert(s.name.clone()) {
            return Err(format!(
                "cannot bind version `{version}`: two types would be named `{}`",
                s.name
            ));
        }
        types.push(t);
    }
    Ok(Registry { types })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::register_type;

    mod v1 {
        #[derive(Debug, Default, Clone)]
        pub struct Counter(pub u64);
        impl Counter {
            pub fn bump(&mut self) {
                self.0 += 1;
            }
        }
    }
    mod v2 {
        #[derive(Debug, Default, Clone)]
        pub struct Counter(pub u64);
        impl Counter {
            pub fn bump(&mut self) {
                self.0 += 2;
            }
        }
    }

    register_type! {
        fn counter_v1() -> v1::Counter {
            name: "OldCounter",
            path: "Counter",
            imports: [],
            version: Some(("Counter", "old")),
            size: [|c| c.0],
            ctors { default() as "v1::Counter::default()" => v1::Counter::default(); }
            methods { bump(mut self); }
            fields {}
        }

        fn counter_v2() -> v2::Counter {
            name: "NewCounter",
            path: "Counter",
            imports: [],
            version: Some(("Counter", "new")),
            size: [|c| c.0],
            ctors { default() as "v2::Counter::default()" => v2::Counter::default(); }
            methods { bump(mut self); }
            fields {}
        }
    }

    fn registry() -> Registry {
        Registry::new(vec![counter_v1(), counter_v2()])
    }

    #[test]
    fn each_binding_offers_its_member_under_the_group_name() {
        for (version, rust) in [("old", "v1::Counter"), ("new", "v2::Counter")] {
            let r = bind(&registry(), version).unwrap();
            let schema = r.schema();
            assert_eq!(schema.types.len(), 1, "the other member is hidden");
            let t = schema.ty("Counter").expect("bound under the group name");
            assert_eq!(t.version.as_ref().unwrap().version, version);
            assert_eq!(t.rust_type(), rust);
            // The code behind the name is the member's: its size function reads its value.
            let value = (r.types[0].ctors[0])(&mut []).unwrap();
            assert_eq!((r.types[0].size.unwrap())(value.as_ref()), 0);
        }
    }

    #[test]
    fn an_unknown_version_is_refused() {
        let e = bind(&registry(), "newest").err().unwrap();
        assert!(e.contains("`old` or `new`"), "{e}");
    }
}
