# Sourced by the XBoard scripts: starts a private Xvfb display and exports DISPLAY, with a
# trap that ends every process whose pid the script adds to `pids` (Xvfb's included): each is
# sent TERM, and whatever still runs 3 s later KILL (an XBoard whose display went away was
# once seen to outlive TERM by 12 minutes).
# usage: . scripts/xvfb-display.sh OUTDIR   (Xvfb writes its display number to OUTDIR/display)
# `new_display OUTDIR` starts another one, for a script whose client lost the first.
# `start_xboard OUTDIR LIMIT XBOARD-ARG…` starts XBoard on it; `engine_output_beside SECONDS`
# waits for XBoard's Engine Output window and puts it beside the board.
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

# Starts XBoard with the given arguments under `timeout LIMIT` (KILL 5 s after TERM), its
# output in OUTDIR/xboard.out (xboard_out), and sets xboard_pid. An XBoard that cannot open the display
# (seen once in CI, right after Xvfb had answered) is started again on a new one, up to three
# times.
start_xboard() {
    local dir=$1 limit=$2
    shift 2
    xboard_out=$dir/xboard.out
    for attempt in 1 2 3; do
        timeout -k 5 "$limit" xboard "$@" >"$xboard_out" 2>&1 &
        xboard_pid=$!
        pids+=($xboard_pid)
        sleep 1
        if kill -0 "$xboard_pid" 2>/dev/null || ! grep -q "cannot open display" "$xboard_out"; then
            return 0
        fi
        echo "$(basename "$0"): XBoard could not open $DISPLAY (attempt $attempt)" >&2
        new_display "$dir"
    done
}

# Waits up to SECONDS for XBoard's Engine Output window and puts it beside the board (there is
# no window manager to do it). Fails, saying why, if XBoard ended or the window never came; on
# a fresh machine XBoard's first start (fonts) once took more than 10 s.
engine_output_beside() {
    for _ in $(seq $(($1 * 10))); do
        if xdotool search --name "Engine Output" windowmove 530 0 windowsize 720 400 >/dev/null 2>&1; then
            return 0
        fi
        if ! kill -0 "$xboard_pid" 2>/dev/null; then
            echo "$(basename "$0"): XBoard ended before its Engine Output window came:" >&2
            cat "$xboard_out" >&2 2>/dev/null || true
            return 1
        fi
        sleep 0.1
    done
    echo "$(basename "$0"): no Engine Output window within $1 s" >&2
    return 1
}
