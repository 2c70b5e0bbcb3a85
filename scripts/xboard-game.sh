#!/usr/bin/env bash
# Plays one engine-against-engine game of fairy-egt in real XBoard on a private Xvfb display
# (PROTOCOL.md, "Headless XBoard for tests") and keeps, in OUTDIR: the saved game (game.pgn),
# XBoard's debug log (xboard-debug.log) and a screenshot of the board and the Engine Output
# window at the end of the game (xboard.png).
#
# usage: scripts/xboard-game.sh ENGINE ENDGAME FEN OUTDIR
#   ENGINE   the fairy-egt binary; ENDGAME its start-up endgame (e.g. KC.KR)
#   FEN      the start position; OUTDIR where the files go
# Needs Xvfb, xboard (/usr/games), xdotool and ImageMagick's import. Exits 0 once the game
# is saved with a result, 1 if no result came within the time limit.
set -euo pipefail
engine=$1 endgame=$2 fen=$3 out=$4
limit=${XBOARD_GAME_SECONDS:-120}
export PATH="$PATH:/usr/games"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/game.pgn" "$out/xboard.png" "$out/xboard-debug.log" "$out/display"
echo "$fen" >"$out/start.fen"

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

# Xvfb picks a free display and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$out/display" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [ -s "$out/display" ] && break; sleep 0.1; done
[ -s "$out/display" ] || { echo "xboard-game.sh: Xvfb did not start" >&2; exit 1; }
export DISPLAY=":$(head -n1 "$out/display")"

# Without -xexit, XBoard stays up at the end with its "final score" message, so the final
# board can be photographed; the engines have been told to quit by then.
timeout "$limit" xboard \
    -fcp "$engine $endgame" -fd "$out" -scp "$engine $endgame" -sd "$out" \
    -lpf "$out/start.fen" -mm -sgf "$out/game.pgn" -tc 5 -inc 0 -ruleMoves 0 \
    -variant fairy -size medium -engineOutputUp true \
    -debug -nameOfDebugFile "$out/xboard-debug.log" \
    -saveSettingsOnExit false -settingsFile "$out/xboard.settings" -soundProgram /bin/true \
    >"$out/xboard.out" 2>&1 &
pids+=($!)
xboard_pid=$!

# Put the Engine Output window beside the board (there is no window manager to do it).
for _ in $(seq 100); do
    if xdotool search --name "Engine Output" windowmove 530 0 windowsize 720 400 2>/dev/null; then
        break
    fi
    sleep 0.1
done

result=1
for _ in $(seq $((limit * 5))); do
    if grep -qE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$out/game.pgn" 2>/dev/null; then
        result=0
        break
    fi
    kill -0 "$xboard_pid" 2>/dev/null || break
    sleep 0.2
done
sleep 1
xdotool search --name "Exiting" windowmove 0 640 2>/dev/null || true
import -window root -crop 1260x720+0+0 "$out/xboard.png" || true
exit $result
