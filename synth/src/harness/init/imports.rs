//! Names a module brings in with `use`: a signature in `stable_graph` that names
//! `EdgeIndex` means the `EdgeIndex` its `use crate::graph::EdgeIndex` imports, even when
//! another module defines a type of the same name. Two types of one name register under
//! module-qualified names, and a parameter naming one was refused outside the module that
//! defines it ("registered under a module-qualified name").

use std::collections::HashMap;

use super::resolve::RegsIn;
use super::scan::Import;

/// How many `use`s a name is followed through (`use crate::graph::EdgeIndex`, where `graph`
/// re-exports `graph_impl::EdgeIndex`).
const MAX_HOPS: usize = 8;

/// Adds to `regs_in` every (module, name) a `use` makes name a registered type.
pub fn extend_through_imports(regs_in: &mut RegsIn, imports: &[Import]) {
    let mut by_module: HashMap<&[String], Vec<&Import>> = HashMap::new();
    for i in imports {
        by_module.entry(i.module.as_slice()).or_default().push(i);
    }
    let mut added = Vec::new();
    for i in imports.iter().filter(|i| i.local.is_none()) {
        // A glob brings every name of its module that is not defined here.
        for ((m, id), v) in regs_in.iter() {
            let key = (i.module.clone(), id.clone());
            if *m == i.target.0 && !regs_in.contains_key(&key) {
                added.push((key, v.clone()));
            }
        }
    }
    for i in imports {
        let Some(local) = &i.local else { continue };
        let key = (i.module.clone(), local.clone());
        if regs_in.contains_key(&key) {
            continue;
        }
        if let Some(v) = follow(regs_in, &by_module, &i.target.0, i.target.1.as_deref(), 0) {
            added.push((key, v));
        }
    }
    // A name defined or imported by name wins over one a glob brings (added first, so
    // overwritten).
    regs_in.extend(added);
}

/// The registration `name` in `module` stands for, following `use`s and globs.
fn follow(
    regs_in: &RegsIn,
    by_module: &HashMap<&[String], Vec<&Import>>,
    module: &[String],
    name: Option<&str>,
    hops: usize,
) -> Option<(String, String)> {
    let name = name?;
    if let Some(v) = regs_in.get(&(module.to_vec(), name.to_string())) {
        return Some(v.clone());
    }
    if hops >= MAX_HOPS {
        return None;
    }
    let uses = by_module.get(module)?;
    // A named import first, then globs.
    uses.iter()
        .filter(|u| u.local.as_deref() == Some(name))
        .chain(uses.iter().filter(|u| u.local.is_none()))
        .find_map(|u| {
            let target_name = u.target.1.as_deref().unwrap_or(name);
            follow(regs_in, by_module, &u.target.0, Some(target_name), hops + 1)
        })
}
