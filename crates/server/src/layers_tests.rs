//! The server's layering, checked: which module may name which (ARCHITECTURE.md, "Code
//! map"). Read from the sources, so a `use` that crosses a layer the wrong way, or closes
//! a cycle between modules, fails here instead of waiting for a reviewer.
//!
//! A module is a file or folder right under a layer (`rooms::hub`, `rooms::room`,
//! `gamelog::durable`, …) or a leaf at the top (`config`, `metrics`, …); a folder's own
//! files are one module (a room's `join.rs` and its `mod.rs` belong together).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first, and the leaves every layer may use. A layer may name its
/// own modules, the leaves and the layers below it; `cluster` plugs into `rooms` from
/// the side (nothing names it but `lib.rs`, which wires the layers together).
const LEAVES: &[&str] = &["budget", "config", "metrics", "presence", "random", "token"];
const ALLOWED: &[(&str, &[&str])] = &[
    ("convert", &[]),
    ("matchmaking", &[]),
    ("gamelog", &["convert"]),
    ("rooms", &["gamelog", "convert"]),
    ("accounts", &["convert"]),
    ("cluster", &["rooms", "gamelog", "convert", "matchmaking"]),
    ("analysis", &["rooms", "gamelog", "convert"]),
    (
        "net",
        &[
            "rooms",
            "gamelog",
            "convert",
            "accounts",
            "matchmaking",
            "analysis",
        ],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a source file belongs to: `rooms::room` for src/rooms/room/join.rs.
fn module_of(file: &Path) -> String {
    let rel = file.strip_prefix(src()).expect("under src");
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    match parts
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [one] => one.to_string(),
        [layer, "mod"] => layer.to_string(),
        [layer, module, ..] => format!("{layer}::{module}"),
        [] => unreachable!("a file has a name"),
    }
}

/// Every `crate::a::b` a file names outside comments, as the module it names; `super::`
/// paths are read as the `crate::` paths they stand for (`parent` is the file's parent
/// module path: `rooms` for src/rooms/hub.rs).
fn named_modules(text: &str, parent: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        let code = code.replace("super::", &format!("crate::{parent}::"));
        let code = code.replace("crate::::", "crate::");
        let mut rest: &str = &code;
        while let Some(at) = rest.find("crate::") {
            let path: String = rest[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let mut segments = path.split("::").filter(|s| !s.is_empty());
            if let Some(first) = segments.next() {
                let two = segments.next().map(|second| format!("{first}::{second}"));
                match two {
                    Some(two) if modules.contains(&two) => named.insert(two),
                    _ if modules.contains(first) => named.insert(first.to_string()),
                    _ => false, // an item of lib.rs (`crate::Config`, `crate::serve`)
                };
            }
            rest = &rest[at + 7..];
        }
    }
    named
}

fn layer(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

/// Who names whom, by module, without lib.rs and main.rs (the wiring).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("read a source file");
        let rel = file.strip_prefix(src()).expect("under src");
        let mut parent: Vec<String> = rel
            .parent()
            .into_iter()
            .flat_map(|p| p.iter())
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if rel.file_name().is_some_and(|n| n == "mod.rs") {
            parent.pop();
        }
        let names = named_modules(&text, &parent.join("::"), &modules);
        let entry = graph.entry(module.clone()).or_default();
        entry.extend(names.into_iter().filter(|n| *n != module));
    }
    graph
}

#[test]
fn each_layer_names_only_itself_the_leaves_and_the_layers_below() {
    let mut wrong = Vec::new();
    for (module, names) in graph() {
        let from = layer(&module);
        for name in names {
            let to = layer(&name);
            let allowed = if LEAVES.contains(&from) {
                false // leaves stand alone
            } else {
                let below = ALLOWED
                    .iter()
                    .find(|(l, _)| *l == from)
                    .unwrap_or_else(|| panic!("{module}: a module in no layer"))
                    .1;
                to == from || LEAVES.contains(&to) || below.contains(&to)
            };
            if !allowed {
                wrong.push(format!("{module} names {name}"));
            }
        }
    }
    assert!(wrong.is_empty(), "layering broken: {wrong:#?}");
}

#[test]
fn no_two_modules_name_each_other_even_through_others() {
    let graph = graph();
    // Depth-first search for a back edge; the path found is printed.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, &graph, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", cycle.join(" -> "));
        }
    }
    // The check sees the modules it should: a change of layout must update it.
    for module in [
        "rooms::hub",
        "rooms::room",
        "gamelog::durable",
        "net::connection",
    ] {
        assert!(graph.contains_key(module), "{module} not found");
    }
}
