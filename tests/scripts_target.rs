//! The scripts find cargo's builds where cargo put them: `scripts/cargo_target.py` (which
//! scripts/test.sh, scripts/soak.sh, soak.py and fsf_mates.py use) reports `CARGO_TARGET_DIR`
//! when it is set, and no script names `target/` itself (scripts/test.sh once handed
//! `target/release/fairy-egt` to the move generator comparison whatever the user's
//! `CARGO_TARGET_DIR`, and failed in a fresh clone).

mod support;

use std::path::Path;
use std::process::Command;

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// What `python3 -c CODE` prints in the scripts directory, with `CARGO_TARGET_DIR` set to
/// `dir` (or unset).
fn python_says(code: &str, dir: Option<&Path>) -> String {
    let mut cmd = Command::new("python3");
    cmd.args(["-c", code])
        .current_dir(Path::new(REPO).join("scripts"))
        .env("PYTHONDONTWRITEBYTECODE", "1");
    match dir {
        Some(d) => cmd.env("CARGO_TARGET_DIR", d),
        None => cmd.env_remove("CARGO_TARGET_DIR"),
    };
    let out = cmd.output().expect("python3 runs");
    assert!(
        out.status.success(),
        "{code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn the_scripts_find_the_binary_where_cargo_target_dir_puts_it() {
    let dir = support::scratch("cargo-target");
    let target = python_says(
        "import cargo_target; print(cargo_target.target_dir())",
        Some(&dir),
    );
    assert_eq!(Path::new(&target), &*dir);
    let binary = python_says(
        "import cargo_target; print(cargo_target.release_binary())",
        Some(&dir),
    );
    assert_eq!(Path::new(&binary), dir.join("release").join("fairy-egt"));
    // Unset, the repository's own target/ (unless a cargo configuration says otherwise, as
    // none here does).
    let target = python_says(
        "import cargo_target; print(cargo_target.target_dir())",
        None,
    );
    assert_eq!(Path::new(&target), Path::new(REPO).join("target"));
}

#[test]
fn no_script_names_the_target_directory_itself() {
    for entry in std::fs::read_dir(Path::new(REPO).join("scripts")).unwrap() {
        let path = entry.unwrap().path();
        if path.ends_with("cargo_target.py") {
            continue; // the one place that knows cargo's default
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split('#').next().unwrap_or("");
            // `target/` as a path of its own, not `$target/` or `<target>/`.
            let fixed = [
                " target/",
                "\"target/",
                "'target/",
                "=target/",
                "(target/",
                "\"target\"",
            ];
            for fixed in fixed {
                assert!(
                    !code.contains(fixed),
                    "{}:{}: {line}: use scripts/cargo_target.py",
                    path.display(),
                    n + 1
                );
            }
        }
    }
}
