#!/usr/bin/env python3
"""Fairy-Stockfish as a search referee of fairy-egt's short mates (issue 15, item 4).

For several endgames whose pieces Fairy-Stockfish knows (Queen, Rook, Archbishop, Chancellor,
Xiangqi Cannon, Commoner, Fers, Wazir), random positions are valued by fairy-egt's own table
(`fairy-egt probe --fens`). Of those it calls a win in N (DTM, side to move wins) or a loss in
N, N <= 5, a few per N go to Debian's `fairy-stockfish` (UCI; the variant of
scripts/soak-variants.ini through VariantPath/UCI_Variant) as `go mate N` with a node limit
(not a time limit, so the outcome does not depend on the machine's load). Checked, each a
failure:
  * a win in N: Fairy-Stockfish reports `score mate N`, exactly N: neither a shorter mate
    (fairy-egt's table would be wrong) nor a longer one or none within the node limit (a win
    the table claims and a search cannot find); and its best move leaves a position the
    table calls a loss in N-1 for the opponent (pyffish, Fairy-Stockfish's move generator,
    plays the move);
  * a loss in N: every move pyffish allows leaves a position the table calls a win in k,
    1 <= k <= N, with k = N after the best defence, and Fairy-Stockfish finds each of those
    wins as exactly `mate k`.
Prints how many positions were checked per N, the failures, and `M failed`; exit status 0
when nothing failed, 1 otherwise, 2 for a setup error. Needs what scripts/soak.sh installs
(pyffish in <target>/pyenv, the fairy-stockfish package) and the release engine.

usage: fsf_mates.py [--wins K] [--losses K] [--max-n N] [--seed S] [--nodes N]
                    [--engine PATH] [--fsf PATH]
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
from cargo_target import release_binary  # noqa: E402  (where cargo builds)

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


def sample(rng, engine, endgame, cwd, wins_per_n, losses_per_n, max_n):
    """Random positions of `endgame` valued by fairy-egt's table: {N: [FEN, ...]} of
    `wins_per_n` wins in N and {N: [FEN, ...]} of `losses_per_n` losses in N, 1 <= N <= max_n."""
    white, black = endgame.split(".")
    picked = {("win", n): [] for n in range(1, max_n + 1)}
    picked.update({("loss", n): [] for n in range(1, max_n + 1)})
    want = {"win": wins_per_n, "loss": losses_per_n}
    for _ in range(10):  # each probe builds the table: few large batches
        fens = [random_fen(rng, white, black) for _ in range(20000)]
        for fen, value in zip(fens, probe(engine, endgame, fens, cwd)):
            words = value.split()
            key = (words[0], int(words[2])) if words[1:2] == ["in"] else None
            if key in picked and len(picked[key]) < want[key[0]]:
                picked[key].append(fen)
        if all(len(v) == want[kind] for (kind, _), v in picked.items()):
            return ({n: v for (kind, n), v in picked.items() if kind == "win"},
                    {n: v for (kind, n), v in picked.items() if kind == "loss"})
    die(f"fsf_mates: too few short wins and losses of {endgame} among 200,000 random "
        "positions: " + ", ".join(f"{len(v)} {kind}s in {n}" for (kind, n), v in picked.items()))


class Referee:
    """Fairy-Stockfish's mate searches, tallied."""

    def __init__(self, fsf, nodes):
        self.fsf = fsf
        self.nodes = nodes
        self.searches = 0
        self.slowest = 0.0

    def mate(self, fen, n):
        """Fairy-Stockfish's answer to `go mate n`: (best move, score, seconds)."""
        self.fsf.send("ucinewgame")
        try:
            move, score, took, _ = self.fsf.go(f"position fen {fen}",
                                               f"go mate {n} nodes {self.nodes}", 600)
        except (TimeoutError, EOFError) as e:
            die(f"fsf_mates: {e} ({fen})")
        self.searches += 1
        self.slowest = max(self.slowest, took)
        return move, score, took


def shown(score):
    return f"{score[0]} {score[1]}" if score else "no score"


def check_wins(referee, sf, engine, endgame, cwd, wins):
    """Fairy-Stockfish must find each win in N as `mate N` with a move that leaves, by the
    table, a loss in N-1. Returns the failures."""
    failures, after = [], []  # after: (FEN, N, move, FEN after the move)
    for n, fens in wins.items():
        for fen in fens:
            move, score, took = referee.mate(fen, n)
            if score != ("mate", n):
                failures.append(f"{endgame} {fen}: fairy-egt win in {n}, Fairy-Stockfish "
                                f"{shown(score)} after {took:.1f} s (best move {move})")
            elif move not in sf.legal_moves(VARIANT, fen, []):
                failures.append(f"{endgame} {fen}: Fairy-Stockfish's move {move} is illegal for "
                                f"pyffish")
            else:
                after.append((fen, n, move, sf.get_fen(VARIANT, fen, [move])))
    values = probe(engine, endgame, [a for *_, a in after], cwd) if after else []
    for (fen, n, move, _), value in zip(after, values):
        if value != f"loss in {n - 1}":
            failures.append(f"{endgame} {fen}: Fairy-Stockfish's mate-in-{n} move {move} leaves, "
                            f"for fairy-egt, {value} for the opponent")
    return failures


def check_losses(referee, sf, engine, endgame, cwd, losses):
    """For each loss in N, every move pyffish allows must leave, by the table, a win in at
    most N (exactly N after the best defence), and Fairy-Stockfish must find each of those
    wins as exactly that mate. Returns the failures and the number of moves checked."""
    failures, replies = [], []  # replies: (FEN, N, move, FEN after the move)
    for n, fens in losses.items():
        for fen in fens:
            replies += [(fen, n, m, sf.get_fen(VARIANT, fen, [m]))
                        for m in sf.legal_moves(VARIANT, fen, [])]
    values = probe(engine, endgame, [r for *_, r in replies], cwd) if replies else []
    longest = {}  # FEN -> the longest win a move leaves
    for (fen, n, move, reply), value in zip(replies, values):
        words = value.split()
        if words[:2] != ["win", "in"] or not 1 <= int(words[2]) <= n:
            failures.append(f"{endgame} {fen}: fairy-egt loss in {n}, but the move {move} "
                            f"leaves {value}")
            continue
        k = int(words[2])
        longest[fen] = max(longest.get(fen, 0), k)
        _, score, took = referee.mate(reply, k)
        if score != ("mate", k):
            failures.append(f"{endgame} {fen}: after {move} fairy-egt win in {k}, "
                            f"Fairy-Stockfish {shown(score)} after {took:.1f} s")
    for n, fens in losses.items():
        for fen in fens:
            if not sf.legal_moves(VARIANT, fen, []):
                failures.append(f"{endgame} {fen}: fairy-egt loss in {n}, but pyffish finds "
                                f"no legal move")
            elif fen in longest and longest[fen] != n:
                failures.append(f"{endgame} {fen}: fairy-egt loss in {n}, but its longest "
                                f"defence leaves a win in {longest[fen]}")
    return failures, len(replies)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wins", type=int, default=3, help="wins per N and endgame")
    parser.add_argument("--losses", type=int, default=1, help="losses per N and endgame")
    parser.add_argument("--max-n", type=int, default=5)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--nodes", type=int, default=50_000_000,
                        help="nodes Fairy-Stockfish may search for one mate (a node limit, "
                             "not a time limit: the outcome does not depend on the machine's "
                             "load)")
    parser.add_argument("--engine", default=None,
                        help="the fairy-egt binary (default: the release build, where cargo put it)")
    parser.add_argument("--fsf", default=shutil.which("fairy-stockfish")
                        or "/usr/games/fairy-stockfish")
    args = parser.parse_args()
    args.engine = os.path.abspath(args.engine or release_binary())
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
    referee = Referee(fsf, args.nodes)
    failures = []
    replies = 0
    try:
        for endgame in ENDGAMES:
            wins, losses = sample(rng, args.engine, endgame, cwd, args.wins, args.losses,
                                  args.max_n)
            failures += check_wins(referee, sf, args.engine, endgame, cwd, wins)
            lost, moves = check_losses(referee, sf, args.engine, endgame, cwd, losses)
            failures += lost
            replies += moves
            log(f"fsf_mates: {endgame}: for each N = 1..{args.max_n}, wins {args.wins}, losses "
                f"{args.losses} ({moves} moves from the losses)")
    finally:
        fsf.quit()
        shutil.rmtree(cwd, ignore_errors=True)

    print(f"fsf_mates: {', '.join(ENDGAMES)}: for each N = 1..{args.max_n}, "
          f"{args.wins * len(ENDGAMES)} positions fairy-egt calls a win in N and "
          f"{args.losses * len(ENDGAMES)} a loss in N ({replies} moves from the losses); "
          f"{referee.searches} searches by Fairy-Stockfish (the slowest "
          f"{referee.slowest:.1f} s) in {time.monotonic() - t0:.0f} s")
    for failure in failures:
        print(f"fsf_mates: FAILED {failure}")
    print(f"{len(failures)} failed" if failures else "0 failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
