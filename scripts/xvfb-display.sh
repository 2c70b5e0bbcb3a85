# Sourced by the XBoard scripts: starts a private Xvfb display and exports DISPLAY, with a
# trap that ends every process whose pid the script adds to `pids` (Xvfb's included).
# usage: . scripts/xvfb-display.sh OUTDIR   (Xvfb writes its display number to OUTDIR/display)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

rm -f "$1/display"
# Xvfb picks a free display and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$1/display" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [ -s "$1/display" ] && break; sleep 0.1; done
[ -s "$1/display" ] || { echo "$(basename "$0"): Xvfb did not start" >&2; exit 1; }
export DISPLAY=":$(head -n1 "$1/display")"
