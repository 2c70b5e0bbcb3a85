#!/usr/bin/env python3
"""Prints the directory where cargo puts this package's builds: `target/` in the repository,
or wherever `CARGO_TARGET_DIR` or a cargo configuration's `build.target-dir` sends them, as
`cargo metadata` reports it. The scripts find the release binary, the Python environment and
the caches there, so that a user whose builds go elsewhere runs them unchanged.

    python3 scripts/cargo_target.py    # e.g. /home/me/.cache/cargo-target
"""

import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def target_dir():
    """The build directory, absolute. Without a working `cargo metadata`: `CARGO_TARGET_DIR`
    (relative to the repository, as cargo reads it from there), else the repository's
    `target/`."""
    try:
        out = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps"],
            cwd=REPO, capture_output=True, text=True, check=True,
        ).stdout
        return json.loads(out)["target_directory"]
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError):
        env = os.environ.get("CARGO_TARGET_DIR")
        return os.path.join(REPO, env) if env else os.path.join(REPO, "target")


def release_binary():
    """The release build of fairy-egt (`cargo build --release`)."""
    return os.path.join(target_dir(), "release", "fairy-egt")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit(__doc__)
    print(target_dir())
