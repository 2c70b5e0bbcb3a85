#!/usr/bin/env python3
"""Independent oracle check of fairy-egt's DTZ tables (the 50-move rule) against Syzygy.

Usage: check_dtz.py FAIRY_EGT_BINARY DATA_DIR [--per-endgame=N] [--endgames=kqkr,kpk,...]

DATA_DIR is the data/ folder of python-chess's source distribution (scripts/oracle_data.py):
its Syzygy WDL and DTZ tables of every 3-/4-man endgame, the pawn ones included. For each of
the 24 pawnless and 11 pawn endgames of `check_tables.py`, N random legal positions (either
side to move, either colour holding the first side's men; default 1500) and, with pawns,
positions right after a double step that leave an en-passant capture, are probed by
`fairy-egt probe ENDGAME --metric dtz --fens -` (the runs share a temporary table directory,
so that each table is built once) and compared with python-chess's probes:

  - the class: our `win` / `cursed win` / `draw` / `blessed loss` / `loss` against Syzygy's
    WDL 2 / 1 / 0 / -1 / -2, exactly;
  - the plies to zeroing: ours are exact; Syzygy's DTZ may be one ply short where that
    changes no outcome (python-chess's `probe_dtz`: "a return value -n can mean a losing
    zeroing move in n + 1 plies and a return value +n can mean a winning zeroing move in
    n + 1 plies"), so |ours| must be |Syzygy's| or one more. For a checkmated side only the
    class is compared.

Why it is independent: the reference values come from Syzygy's tables, made by Syzygy's own
generator, probed through python-chess, whose code shares nothing with fairy-egt; the
positions are made here with python-chess. Only the binary's `probe --fens` output is ours.
"""

import os
import random
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_tables import (  # noqa: E402  (tests/oracle/check_tables.py)
    DEFAULT_PER_ENDGAME,
    ENDGAMES,
    PAWN_ENDGAMES,
    SHOW,
    Job,
    after_double_steps,
    finish,
    random_positions,
    shared_tables,
    sides_of,
    start,
    write_pieces,
)

import chess  # noqa: E402
import chess.syzygy  # noqa: E402

ANSWER = re.compile(r"^(win|cursed win|draw|blessed loss|loss)(?: in \d+ \((\d+) pl(?:y|ies)\))?$")
CLASSES = {"loss": -2, "blessed loss": -1, "draw": 0, "cursed win": 1, "win": 2}


def parse(answer):
    """(WDL class, signed plies) of one of our answers, or None."""
    m = ANSWER.match(answer)
    if not m:
        return None
    wdl = CLASSES[m.group(1)]
    plies = int(m.group(2) or 0)
    return wdl, plies if wdl > 0 else -plies


def probe_both(binary, material, boards, workdir, pieces, tables, tb):
    """Our answers (`probe --metric dtz`, with the table directory `tables`) for the boards,
    all of one material, and Syzygy's (WDL, DTZ or None for a mate) for each, probed while the
    binary builds."""
    job = Job(material)
    job.items = [(None, board, None, None) for board in boards]
    started = start(binary, job, workdir, pieces, tables, metric="dtz")
    refs = [(tb.probe_wdl(b), None if b.is_checkmate() else tb.probe_dtz(b)) for b in boards]
    return finish(started, job), refs


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    per_endgame = DEFAULT_PER_ENDGAME
    names = ENDGAMES + PAWN_ENDGAMES
    for a in argv:
        if a.startswith("--per-endgame="):
            per_endgame = int(a.split("=", 1)[1])
        elif a.startswith("--endgames="):
            names = a.split("=", 1)[1].split(",")
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary, data = args
    began = time.monotonic()
    rng = random.Random(20261127)
    stats = {}
    shown = []
    errors = []
    with chess.syzygy.open_tablebase(os.path.join(data, "syzygy", "regular")) as tb, \
            tempfile.TemporaryDirectory(prefix="fairy-egt-dtz-") as workdir:
        pieces = write_pieces(workdir)
        tables = shared_tables(workdir)
        for name in names:
            white, black = sides_of(name)
            # Each colour holding the first side's men: a build each.
            half = per_endgame // 2
            boards, answers, refs = [], [], []
            try:
                for material, count in (((white, black), per_endgame - half), ((black, white), half)):
                    some = random_positions(*material, count, rng)
                    if "P" in white + black:
                        some += after_double_steps(some, count // 10, rng)
                    ours, theirs = probe_both(binary, material, some, workdir, pieces, tables, tb)
                    answers += ours
                    refs += theirs
                    boards += some
            except RuntimeError as e:
                errors.append(str(e))
                continue
            s = stats.setdefault(name, [0, 0, 0, 0, 0])
            for board, ours, (wdl, dtz) in zip(boards, answers, refs):
                got = parse(ours)
                s[0] += 1
                class_bad = got is None or got[0] != wdl
                plies_bad = (
                    not class_bad
                    and dtz is not None
                    and wdl != 0
                    and abs(got[1]) not in (abs(dtz), abs(dtz) + 1)
                )
                s[1] += class_bad
                s[2] += plies_bad
                s[3] += wdl in (1, -1)
                if wdl != 0 and dtz is not None:
                    s[4] += abs(got[1]) != abs(dtz) if got else 0
                if (class_bad or plies_bad) and len(shown) < SHOW:
                    shown.append(f"  {board.fen()}  [{name}]\n    ours: {ours}; Syzygy WDL {wdl}, DTZ {dtz}")
            print(f"{name:6} {s[0]:6} positions, {s[1]} class and {s[2]} DTZ differences, "
                  f"{s[3]} cursed/blessed, {s[4]} one ply past Syzygy's rounding", flush=True)
    total = [sum(s[k] for s in stats.values()) for k in range(5)]
    print(f"total {total[0]} positions: {total[1]} class differences, {total[2]} DTZ "
          f"differences, {total[3]} cursed wins or blessed losses; "
          f"{time.monotonic() - began:.1f} s")
    for line in shown:
        print(line)
    for e in errors:
        print(f"error: {e}")
    return 1 if errors or total[1] or total[2] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
