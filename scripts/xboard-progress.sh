#!/usr/bin/env bash
# Starts real XBoard on a private Xvfb display with fairy-egt as its engine, in EditPosition
# mode with the Engine Output window open (as a user sets up a position while the start-up
# build runs), and takes a screenshot while the build is under way. Keeps, in OUTDIR:
# progress.png, XBoard's debug log (xboard-debug.log) and what the Engine Output window was
# sent (the engine lines of the log).
#
# usage: scripts/xboard-progress.sh ENGINE ENDGAME OUTDIR [SECONDS]
#   ENGINE   the fairy-egt binary; ENDGAME its start-up endgame (a 5-man one, e.g. KBN.KN,
#            builds long enough to be seen); the screenshot is taken once XBoard has been sent
#            a progress line with the time left (the engine shows it from a fifth of the build
#            on, so when depends on the machine's speed), or SECONDS after XBoard starts if
#            none comes by then (default 20).
# Needs Xvfb, xboard (/usr/games), xdotool and ImageMagick's import. Exits 1 if XBoard did
# not come up.
set -euo pipefail
engine=$1 endgame=$2 out=$3 wait=${4:-20}
export PATH="$PATH:/usr/games"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/progress.png" "$out/xboard-debug.log"

. "$(dirname "$0")/xvfb-display.sh" "$out"

start_xboard "$out" 300 -fcp "$engine $endgame" -fd "$out" -initialMode EditPosition \
    -variant fairy -size medium -engineOutputUp true -showThinking true -ruleMoves 0 \
    -debug -nameOfDebugFile "$out/xboard-debug.log" \
    -saveSettingsOnExit false -settingsFile "$out/xboard.settings" -soundProgram /bin/true
engine_output_beside 60 || exit 1
for _ in $(seq $((wait * 10))); do
    if grep -qE "<first *: 0 0 .*% $endgame, ~" "$out/xboard-debug.log" 2>/dev/null; then
        sleep 0.3   # let the Engine Output window draw it
        break
    fi
    sleep 0.1
done
import -window root -crop 1260x560+0+0 "$out/progress.png"
grep -E '^[0-9]+ <first *: ' "$out/xboard-debug.log" >"$out/engine-lines.txt" || true
