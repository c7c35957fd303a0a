//! Writes the protocol's JSON Schema to `crates/protocol/schema/protocol.schema.json`
//! (or to the path given as the only argument, `-` for stdout).
//!
//! `cargo run -p dominion-protocol --bin gen-schema`

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let text = dominion_protocol::json_schema_text();
    let target = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/protocol.schema.json")
        });
    if target.as_os_str() == "-" {
        print!("{text}");
        return Ok(());
    }
    std::fs::write(&target, text)?;
    eprintln!("wrote {}", target.display());
    Ok(())
}
