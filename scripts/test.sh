#!/usr/bin/env bash
# Runs every test of fairy-egt on a fresh machine: installs what the tests need (a Python
# virtual environment with python-chess, pyffish and selenium under <target>/pyenv; XBoard and
# Xvfb from Debian for the GUI test, PolyGlot for the UCI-wrapping test, Chromium and
# chromedriver for the explorer's page, when apt-get is available and they are missing), then
# `cargo test --release`, then the move generator against Fairy-Stockfish's
# (tests/python/movegen_pyffish.py, 200 positions a piece, about a minute and a half), the explorer's page in headless Chromium
# (tests/python/explorer_browser.py), then a short soak
# through real clients (scripts/soak.sh --quick, which installs Fairy-Stockfish itself), then
# Fairy-Stockfish's search on the table's short mates (scripts/fsf_mates.py). <target> is where
# cargo puts its builds: target/, or CARGO_TARGET_DIR, or a cargo configuration's target-dir.
set -euo pipefail
cd "$(dirname "$0")/.."

target=$(python3 scripts/cargo_target.py)
venv=$target/pyenv
# pyffish 0.0.90: the version issue 15 names, whose limits movegen_pyffish.py knows.
pyffish=0.0.90
if ! "$venv/bin/python" -c "import chess, pyffish, selenium; assert pyffish.version() == (${pyffish//./, })" 2>/dev/null; then
    echo "test.sh: installing python-chess, pyffish $pyffish and selenium into $venv" >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    # `python -m pip`, not bin/pip: a copied venv's pip script may point at another venv.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check chess "pyffish==$pyffish" selenium
fi
export FAIRY_EGT_PYTHON="$venv/bin/python"

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
[ -x /usr/games/xboard ] || command -v xboard >/dev/null || need+=(xboard)
command -v xdotool >/dev/null || need+=(xdotool)
command -v xclip >/dev/null || need+=(xclip)
command -v import >/dev/null && import -version 2>/dev/null | grep -q ImageMagick || need+=(imagemagick)
[ -x /usr/games/polyglot ] || command -v polyglot >/dev/null || need+=(polyglot)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
if [ ${#need[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "test.sh: installing ${need[*]} from Debian" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
        echo "test.sh: please install ${need[*]} (the GUI and PolyGlot tests need them)" >&2
        exit 1
    fi
fi
export PATH="$PATH:/usr/games"

cargo test --release "$@"
# Legal moves of every piece against Fairy-Stockfish's generator (pyffish), with the counts.
cargo build --release --quiet
"$venv/bin/python" tests/python/movegen_pyffish.py "$target/release/fairy-egt" --positions 200
# The explorer's page in headless Chromium: set up, best move clicked, taken back (10 s).
"$venv/bin/python" tests/python/explorer_browser.py "$target/release/fairy-egt" "$target/explorer-shots"
# Games through real clients: python-chess (XBoard and UCI) and Fairy-Stockfish, short run.
scripts/soak.sh --quick
# Fairy-Stockfish must find the tables' wins in N <= 5 as `mate N`, also after every defence
# from a loss in N (20-35 s).
"$venv/bin/python" scripts/fsf_mates.py
