//! `include_dir!` cannot tell cargo which files it read (that needs nightly), so an
//! edited client file would leave a stale copy in the binary. Naming the directory here
//! makes cargo rebuild this crate whenever anything under web-client/ changes.

fn main() {
    println!("cargo:rerun-if-changed=../../web-client");
    println!("cargo:rerun-if-changed=build.rs");
}
