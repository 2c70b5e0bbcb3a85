#!/usr/bin/env bash
# Plays one engine-against-engine game of fairy-egt in real XBoard on a private Xvfb display
# (PROTOCOL.md, "Headless XBoard for tests"), with legality testing on, and keeps, in OUTDIR: the saved game (game.pgn),
# XBoard's debug log (xboard-debug.log) and a screenshot of the board and the Engine Output
# window at the end of the game (xboard.png).
#
# usage: scripts/xboard-game.sh ENGINE ENDGAME FEN OUTDIR [XBOARD-ARG…]
#   ENGINE   the fairy-egt binary; ENDGAME its start-up endgame (e.g. KC.KR)
#   FEN      the start position; OUTDIR where the files go
#   XBOARD-ARG  more XBoard options, after the others (e.g. -boardWidth 10 -boardHeight 8
#            for a 10x8 board: XBoard then sends `variant 10x8+0_fairy`)
# Needs Xvfb, xboard (/usr/games), xdotool and ImageMagick's import. Exits 0 once the game
# is saved with a result, 1 if no result came within the time limit.
set -euo pipefail
engine=$1 endgame=$2 fen=$3 out=$4
shift 4
limit=${XBOARD_GAME_SECONDS:-120}
export PATH="$PATH:/usr/games"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/game.pgn" "$out/xboard.png" "$out/xboard-debug.log"
echo "$fen" >"$out/start.fen"

. "$(dirname "$0")/xvfb-display.sh" "$out"

# Without -xexit, XBoard stays up at the end with its "final score" message, so the final
# board can be photographed; the engines have been told to quit by then.
start_xboard "$out" "$limit" \
    -fcp "$engine $endgame" -fd "$out" -scp "$engine $endgame" -sd "$out" \
    -lpf "$out/start.fen" -mm -sgf "$out/game.pgn" -tc 5 -inc 0 -ruleMoves 0 \
    -variant fairy -testLegality true -size medium -engineOutputUp true \
    -debug -nameOfDebugFile "$out/xboard-debug.log" \
    -saveSettingsOnExit false -settingsFile "$out/xboard.settings" -soundProgram /bin/true \
    "$@"
# The game goes on without the window beside the board; only the screenshot is poorer.
engine_output_beside 30 || true

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
