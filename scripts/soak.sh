#!/usr/bin/env bash
# The soak through real clients (scripts/soak.py): installs what it needs — python-chess and
# pyffish into the virtual environment <target>/pyenv (as scripts/test.sh does), Debian's
# fairy-stockfish when apt-get is available and it is missing — builds the release engine and
# runs the soak. Arguments go to soak.py: `--quick` for CI (20 + 10 games), nothing for the full
# run (200 + 40). FAIRY_EGT_GAVIOTA=DIR (Gaviota tables with kqkr, krkb, krkn) adds the exact
# DTM oracle; python-chess's source distribution, which soak.py downloads itself into
# <target>/oracle-cache, ships only the 3-man Gaviota files but all 4-man Syzygy ones. <target> is
# where cargo puts its builds (target/, CARGO_TARGET_DIR, a cargo configuration's target-dir):
# soak.py finds the release engine there.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=$(python3 scripts/cargo_target.py)/pyenv
if ! "$venv/bin/python" -c 'import chess, pyffish' 2>/dev/null; then
    echo "soak.sh: installing python-chess and pyffish into $venv" >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    # `python -m pip`, not bin/pip: a copied venv's pip script may point at another venv.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check chess pyffish==0.0.90
fi

export PATH="$PATH:/usr/games"
if ! command -v fairy-stockfish >/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "soak.sh: installing fairy-stockfish from Debian" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fairy-stockfish >/dev/null
    else
        echo "soak.sh: please install fairy-stockfish (Debian package)" >&2
        exit 1
    fi
fi

cargo build --release --quiet
exec "$venv/bin/python" scripts/soak.py "$@"
