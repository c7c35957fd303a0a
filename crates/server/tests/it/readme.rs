//! `.ci/run` runs exactly the README's full test command: the README's promise to a
//! newcomer ("what CI runs") cannot drift from what CI does.

#[test]
fn ci_runs_exactly_the_readmes_full_test_command() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let ci = std::fs::read_to_string(format!("{root}/.ci/run")).expect(".ci/run");
    let full: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("DOMINION_REQUIRE_SERVICES=1 cargo test"))
        .collect();
    assert_eq!(
        full.len(),
        1,
        "one full test command in README.md: {full:?}"
    );
    let command = full[0].trim();
    assert!(
        ci.lines()
            .any(|l| l.trim() == format!("if ! ({command}); then")),
        ".ci/run does not run `{command}` as its test step"
    );
    assert!(
        readme.contains("\ncargo test --workspace\n"),
        "README.md gives the fast command `cargo test --workspace` on a line of its own"
    );
}
