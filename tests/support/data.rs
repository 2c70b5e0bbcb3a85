//! Test data in files under tests/data (see its README.md): one case a line, fields separated
//! by ` | `, blank lines and `#` comments skipped. Shared by the integration tests (through
//! `support`) and by unit tests in src/ (included by path).

use std::path::Path;

/// The cases of `tests/data/NAME`, each as its fields, trimmed. A missing file is a failed
/// test, not an empty list.
pub fn cases(name: &str) -> Vec<Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the test data {}: {e}", path.display()));
    let cases: Vec<Vec<String>> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(" | ").map(|f| f.trim().to_string()).collect())
        .collect();
    assert!(!cases.is_empty(), "{} holds no case", path.display());
    cases
}
