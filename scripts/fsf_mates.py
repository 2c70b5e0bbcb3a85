#!/usr/bin/env python3
"""Fairy-Stockfish as a search referee of fairy-egt's short mates (issue 15, item 4).

For several endgames whose pieces Fairy-Stockfish knows (Queen, Rook, Archbishop, Chancellor,
Xiangqi Cannon, Commoner, Fers, Wazir), random positions are valued by fairy-egt's own table
(`fairy-egt probe --fens`); of those it calls a win in N (DTM, side to move wins) with
N <= 5, a few per N are given to Debian's `fairy-stockfish` (UCI; the variant of
scripts/soak-variants.ini through VariantPath/UCI_Variant) with `go mate N`. Checked, each a
failure:
  * Fairy-Stockfish reports `score mate N`: exactly N, neither a shorter mate (fairy-egt's
    table would be wrong) nor a longer one or none within --time seconds (a win fairy-egt
    claims and a search cannot find);
  * its best move leaves a position fairy-egt's table calls a loss in N-1 for the opponent
    (a move that keeps the mate in N, by the table's own account; pyffish, Fairy-Stockfish's
    move generator, plays the move).
Prints how many positions were checked per N and endgame, and `N passed, M failed`; exit
status 0 when nothing failed, 1 otherwise, 2 for a setup error. Needs what scripts/soak.sh
installs (pyffish in target/pyenv, the fairy-stockfish package) and the release engine.

usage: fsf_mates.py [--per-n K] [--max-n N] [--seed S] [--time S] [--engine PATH] [--fsf PATH]
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
from soak import VARIANT, RawUci, die, log, random_fen  # noqa: E402  (the soak's helpers)

# Letters of piecedef.ini: A Archbishop, C Chancellor, O Cannon (mRcpR), M Man (Commoner),
# F Fers, W Wazir; soak-variants.ini gives Fairy-Stockfish the same letters.
ENDGAMES = ("KQ.KR", "KA.KR", "KC.KR", "KQ.KO", "KMO.K", "KFO.K", "KOW.K")


def probe(engine, endgame, fens, cwd):
    """fairy-egt's value of each FEN (`win in 3`, `draw`, `error: ...`)."""
    out = subprocess.run([engine, "probe", endgame, "--fens", "-", "--pieces",
                          os.path.join(REPO, "piecedef.ini"), "--report", "-"],
                         input="\n".join(fens) + "\n", cwd=cwd, capture_output=True, text=True,
                         timeout=600)
    values = out.stdout.splitlines()
    if out.returncode != 0 or len(values) != len(fens):
        die(f"fsf_mates: probe {endgame} printed {len(values)} values for {len(fens)} FENs "
            f"(exit {out.returncode}):\n{out.stderr[-2000:]}")
    return values


def short_wins(rng, engine, endgame, cwd, per_n, max_n):
    """{N: [FEN, ...]}: `per_n` random positions fairy-egt calls a win in N, 1 <= N <= max_n."""
    white, black = endgame.split(".")
    picked = {n: [] for n in range(1, max_n + 1)}
    for _ in range(40):
        fens = [random_fen(rng, white, black) for _ in range(5000)]
        for fen, value in zip(fens, probe(engine, endgame, fens, cwd)):
            words = value.split()
            if words[:2] == ["win", "in"] and int(words[2]) in picked:
                if len(picked[int(words[2])]) < per_n:
                    picked[int(words[2])].append(fen)
        if all(len(v) == per_n for v in picked.values()):
            return picked
    die(f"fsf_mates: too few short wins of {endgame} among 200,000 random positions: "
        + ", ".join(f"{len(v)} in {n}" for n, v in picked.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-n", type=int, default=4, help="positions per N and endgame")
    parser.add_argument("--max-n", type=int, default=5)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--time", type=float, default=20.0,
                        help="seconds Fairy-Stockfish may search one position")
    parser.add_argument("--engine", default=os.path.join(REPO, "target", "release", "fairy-egt"))
    parser.add_argument("--fsf", default=shutil.which("fairy-stockfish")
                        or "/usr/games/fairy-stockfish")
    args = parser.parse_args()
    args.engine = os.path.abspath(args.engine)
    if not os.access(args.engine, os.X_OK):
        die(f"fsf_mates: {args.engine} is not an executable (cargo build --release)")
    if not os.access(args.fsf, os.X_OK):
        die(f"fsf_mates: {args.fsf} not found (scripts/soak.sh installs it)")
    try:
        import pyffish as sf
    except ImportError as e:
        die(f"fsf_mates: pyffish is missing ({e}); scripts/soak.sh installs it")
    ini = os.path.join(REPO, "scripts", "soak-variants.ini")
    with open(ini) as f:
        sf.load_variant_config(f.read())

    t0 = time.monotonic()
    rng = random.Random(args.seed)
    cwd = tempfile.mkdtemp(prefix="fsf-mates-")
    fsf = RawUci("fairy-stockfish", [args.fsf])
    fsf.handshake([("VariantPath", ini), ("UCI_Variant", VARIANT), ("Threads", 1),
                   ("Hash", 16)], 30)
    checked = {}  # (endgame, N) -> positions
    failures = []
    slowest = 0.0  # seconds of the longest search
    try:
        for endgame in ENDGAMES:
            wins = short_wins(rng, args.engine, endgame, cwd, args.per_n, args.max_n)
            after = []  # (FEN, N, FEN after Fairy-Stockfish's move)
            for n, fens in wins.items():
                for fen in fens:
                    fsf.send("ucinewgame")
                    try:
                        move, score, took, _ = fsf.go(
                            f"position fen {fen}",
                            f"go mate {n} movetime {int(args.time * 1000)}", args.time + 30)
                    except (TimeoutError, EOFError) as e:
                        die(f"fsf_mates: {e} ({endgame} {fen})")
                    checked[endgame, n] = checked.get((endgame, n), 0) + 1
                    slowest = max(slowest, took)
                    if score != ("mate", n):
                        found = f"{score[0]} {score[1]}" if score else "no score"
                        failures.append(f"{endgame} {fen}: fairy-egt win in {n}, Fairy-Stockfish "
                                        f"{found} after {took:.1f} s (best move {move})")
                    elif move not in sf.legal_moves(VARIANT, fen, []):
                        failures.append(f"{endgame} {fen}: Fairy-Stockfish's move {move} is "
                                        f"illegal for pyffish")
                    else:
                        after.append((fen, n, move, sf.get_fen(VARIANT, fen, [move])))
            values = probe(args.engine, endgame, [a for *_, a in after], cwd)
            for (fen, n, move, _), value in zip(after, values):
                if value != f"loss in {n - 1}":
                    failures.append(f"{endgame} {fen}: Fairy-Stockfish's mate-in-{n} move {move} "
                                    f"leaves, for fairy-egt, {value} for the opponent")
            log(f"fsf_mates: {endgame}: " + ", ".join(
                f"{checked.get((endgame, n), 0)} in {n}" for n in range(1, args.max_n + 1)))
    finally:
        fsf.quit()
        shutil.rmtree(cwd, ignore_errors=True)

    total = sum(checked.values())
    per_n = ", ".join(f"mate in {n}: {sum(v for (_, k), v in checked.items() if k == n)}"
                      for n in range(1, args.max_n + 1))
    print(f"fsf_mates: {total} positions fairy-egt calls a win in N <= {args.max_n} "
          f"({', '.join(ENDGAMES)}) searched by Fairy-Stockfish in {time.monotonic() - t0:.0f} s; "
          f"per N: {per_n}; the slowest search {slowest:.1f} s")
    for failure in failures:
        print(f"fsf_mates: FAILED {failure}")
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
