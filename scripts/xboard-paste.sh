#!/usr/bin/env bash
# Starts real XBoard (-variant fairy, legality testing on) on a private Xvfb display with
# fairy-egt as its engine, waits until the engine has told XBoard its letters and moves
# (`setup`, `piece`), pastes a FEN as a user does (the FEN in the clipboard, then
# Edit → Paste Position, Ctrl+Shift+V) and lets the engine play White (Mode → Machine White,
# Ctrl+W). Keeps, in OUTDIR: XBoard's debug log (xboard-debug.log), its output (xboard.out)
# and a screenshot after the engine's first move (pasted.png).
#
# usage: scripts/xboard-paste.sh ENGINE ENDGAME FEN OUTDIR
#   ENGINE   the fairy-egt binary; ENDGAME its start-up endgame; FEN White to move
# Needs Xvfb, xboard (/usr/games), xdotool, xclip and ImageMagick's import. Exits 1 if the
# engine's move did not come within 30 s of the paste.
set -euo pipefail
engine=$1 endgame=$2 fen=$3 out=$4
export PATH="$PATH:/usr/games"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/pasted.png" "$out/xboard-debug.log"

. "$(dirname "$0")/xvfb-display.sh" "$out"

start_xboard "$out" 300 -fcp "$engine $endgame" -fd "$out" -variant fairy -testLegality true \
    -size medium -debug -nameOfDebugFile "$out/xboard-debug.log" \
    -saveSettingsOnExit false -settingsFile "$out/xboard.settings" -soundProgram /bin/true

# The engine's reply to `variant fairy` ends with its `piece` lines.
told=0
for _ in $(seq 600); do
    if grep -q '<first : piece ' "$out/xboard-debug.log" 2>/dev/null; then
        told=1
        break
    fi
    sleep 0.1
done
[ "$told" = 1 ] || { echo "xboard-paste.sh: the engine never described its pieces" >&2; exit 1; }
sleep 0.5

# xclip serves the clipboard until another program takes it, or the display ends.
printf '%s' "$fen" | xclip -selection clipboard &
pids+=($!)
sleep 0.5
# Without a window manager the keyboard goes to the window under the pointer.
xdotool mousemove 250 300
xdotool key ctrl+shift+v
sleep 1
xdotool key ctrl+w

moved=1
for _ in $(seq 300); do
    if grep -q '<first : move ' "$out/xboard-debug.log"; then
        moved=0
        break
    fi
    sleep 0.1
done
sleep 1
import -window root -crop 525x625+0+0 "$out/pasted.png" || true
exit $moved
