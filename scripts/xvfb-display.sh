# Sourced by the XBoard scripts: starts a private Xvfb display and exports DISPLAY, with a
# trap that ends every process whose pid the script adds to `pids` (Xvfb's included): each is
# sent TERM, and whatever still runs 3 s later KILL (an XBoard whose display went away was
# once seen to outlive TERM by 12 minutes).
# usage: . scripts/xvfb-display.sh OUTDIR   (Xvfb writes its display number to OUTDIR/display)
# `new_display OUTDIR` starts another one, for a script whose client lost the first.
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for _ in $(seq 30); do
        alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

# Xvfb picks a free display and writes its number to fd 3 once it listens. The display is
# then asked to answer (xdotool) before it is used: a CI run once had XBoard fail with
# "cannot open display" right after Xvfb gave its number, so a server that does not answer
# within 5 s is ended and another one started, up to three times.
new_display() {
    for attempt in 1 2 3; do
        rm -f "$1/display"
        Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$1/display" >/dev/null 2>&1 &
        xvfb=$!
        pids+=($xvfb)
        for _ in $(seq 100); do [ -s "$1/display" ] && break; sleep 0.1; done
        if [ -s "$1/display" ]; then
            export DISPLAY=":$(head -n1 "$1/display")"
            for _ in $(seq 50); do
                xdotool getdisplaygeometry >/dev/null 2>&1 && return 0
                sleep 0.1
            done
        fi
        echo "$(basename "$0"): Xvfb did not answer (attempt $attempt)" >&2
        kill "$xvfb" 2>/dev/null || true
    done
    echo "$(basename "$0"): Xvfb did not start" >&2
    exit 1
}
new_display "$1"
