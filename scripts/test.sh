#!/usr/bin/env bash
# Runs every test of fairy-egt on a fresh machine: installs what the tests need (a Python
# virtual environment with python-chess under target/pyenv; XBoard and Xvfb from Debian for
# the GUI test and PolyGlot for the UCI-wrapping test, when apt-get is available and they are
# missing), then `cargo test --release`, then a short soak through real clients
# (scripts/soak.sh --quick, which installs Fairy-Stockfish and pyffish itself), then
# Fairy-Stockfish's search on the table's short mates (scripts/fsf_mates.py).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/pyenv
if ! "$venv/bin/python" -c 'import chess' 2>/dev/null; then
    echo "test.sh: installing python-chess into $venv" >&2
    python3 -m venv "$venv"
    # `python -m pip`, not bin/pip: a copied venv's pip script may point at another venv.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check chess
fi
export FAIRY_EGT_PYTHON="$PWD/$venv/bin/python"

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
[ -x /usr/games/xboard ] || command -v xboard >/dev/null || need+=(xboard)
command -v xdotool >/dev/null || need+=(xdotool)
command -v import >/dev/null && import -version 2>/dev/null | grep -q ImageMagick || need+=(imagemagick)
[ -x /usr/games/polyglot ] || command -v polyglot >/dev/null || need+=(polyglot)
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
# Games through real clients: python-chess (XBoard and UCI) and Fairy-Stockfish, short run.
scripts/soak.sh --quick
# Fairy-Stockfish must find the tables' wins in N <= 5 as `mate N`, also after every defence
# from a loss in N (20-35 s).
"$venv/bin/python" scripts/fsf_mates.py
