#!/usr/bin/env python3
"""Independent oracle check of fairy-egt's DTM tables against Gaviota and Syzygy.

Usage: check_tables.py FAIRY_EGT_BINARY DATA_DIR [--gaviota=DIR] [--per-endgame=N]
       [--five-men | --five-men=pawns | --five-men=ENDGAME,...] [--tables=DIR]

DATA_DIR is the data/ folder of python-chess's source distribution (scripts/oracle_data.py
downloads and verifies it): Syzygy tables of every 3-/4-man endgame, Gaviota tables of the
3-man ones, the EPD suites. --gaviota=DIR adds a directory of further Gaviota tables (the
4-man ones, which no package ships; each file is checked against the sdist's MD5 list).

What is checked, for the 24 pawnless 3-/4-man endgames of the Gaviota set (kqk krk ... knkn)
and the 11 3-/4-man pawn endgames whose Syzygy tables the sdist ships (kpk kpkp ... kqpk):

* a fixed-seed sample of random legal positions (python-chess `Board.is_valid()`, no castling
  rights, either side to move, half of them with the colours of the Gaviota name and half
  with the colours swapped, so that Black-strong material is built and probed too);
* every value `fairy-egt probe ENDGAME --fens -` prints for them is compared with
  - the exact Gaviota DTM, where the endgame's Gaviota table is there (`probe_dtm`, plies,
    converted to our moves: `win in N` is 2N-1 plies, `loss in N` is 2N plies, a checkmated
    side is `loss in 0`), and
  - the Syzygy WDL (cursed wins count as wins and blessed losses as losses: our tables have
    no 50-move rule);
* every position of `epd/endgame-dm-4.epd` against its `dm` (mate distance in moves,
  negative: the side to move is mated), en-passant ones included.

With `--five-men`, only the pawnless positions of `epd/endgame-dm-5.epd` are checked against
their `dm` instead: they need eight 5-man builds, about 5 minutes on 2 cores. With
`--five-men=pawns` its 19 positions with pawns are checked instead (17 materials, from
KNN.KP to KPPP.K, one e.p.: hours, as each 5-man pawn table builds its promotion tables
too), and
with `--five-men=KNN.KP,KP.KNN` the positions of the listed endgames (our names, White's men
first), pawns or not. Every material of the file is one the builder can do (5 men); a build
refused for want of memory is reported as an error. The runs of the binary share a table
directory (`--tables DIR`): each table is built once and saved there, and loaded by the later
runs that need it, so endgames that share sub-tables (the pawn endgames' promotion tables, and
most 5-man pawn endgames') build them once. It is a temporary one, unless `--tables=DIR` names
one that outlives the run, so that a run stopped half-way goes on where it stopped.

Pawn positions have no pawn on the first or last rank (python-chess's `is_valid`). In kpkp,
a further sample is of positions right after a double step that leaves a legal en-passant
capture (python-chess plays the step from a random position with the enemy pawn beside the
step's end), so that the value of the right is compared too.

Why it is independent: the reference values come from third-party tables (Gaviota, Syzygy,
python-chess's EPD test suite) probed through python-chess, whose move generator and
tablebase code share nothing with fairy-egt; positions are generated here with python-chess.
The only thing of ours that is exercised is the binary's `probe --fens` output. The binary runs
in an empty temporary directory, so no `engine.ini` there changes its rules; its pieces are
the repository's `piecedef.ini`, with the orthodox pawn `P: fmWfceFifmnD` added where the file
has no P.

Prints a summary per endgame and the first mismatches in full; exits 1 on any mismatch or
error (including a missing oracle directory), 0 otherwise.
"""

import itertools
import os
import random
import subprocess
import sys
import tempfile
import time

try:
    import chess
    import chess.gaviota
    import chess.syzygy
except ImportError as e:  # pragma: no cover - depends on the environment
    sys.exit(f"check_tables.py: python-chess is missing ({e}); run scripts/test.sh")

# The 24 pawnless endgames of the Gaviota set, in the order of its README.
ENDGAMES = (
    "kqk krk kbk knk kbbk kbnk knnk kqkr kqkb kqkn krkb krkn kqkq krkr kqqk krrk "
    "kqrk kqbk kqnk krbk krnk kbkb kbkn knkn"
).split()

# The 3-/4-man pawn endgames of the sdist's Syzygy tables (Gaviota: kpk only).
PAWN_ENDGAMES = "kpk kpkp kqkp krkp kbkp knkp kbpk knpk kppk krpk kqpk".split()

# The orthodox pawn, added to the piece file where it has no P.
PAWN_LINE = "P: fmWfceFifmnD"

# Random positions per endgame (split evenly between the two colour orientations).
DEFAULT_PER_ENDGAME = 1500
# Mismatches shown in full (per source of reference values).
SHOW = 10
PIECE_ORDER = "KQRBNP"

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import oracle_data  # noqa: E402  (scripts/oracle_data.py)


def sides_of(name):
    """'kqkr' -> ('KQ', 'KR'): White's and Black's men of a Gaviota endgame name."""
    second = name.index("k", 1)
    return name[:second].upper(), name[second:].upper()


def canonical(men):
    return "".join(sorted(men, key=PIECE_ORDER.index))


def material_of(board):
    """('KQ', 'KR') for a board's men."""
    sides = []
    for color in (chess.WHITE, chess.BLACK):
        men = [p.symbol().upper() for p in board.piece_map().values() if p.color == color]
        sides.append(canonical(men))
    return tuple(sides)


def covers(build, material):
    """Whether building `build` builds `material` too (it is reachable by captures)."""
    for big, small in zip(build, material):
        rest = list(big)
        for m in small:
            if m not in rest:
                return False
            rest.remove(m)
    return True


def random_positions(white, black, count, rng):
    """`count` random legal positions with these men, either side to move."""
    out = []
    symbols = list(white) + list(black.lower())
    while len(out) < count:
        board = chess.Board(None)
        for symbol, square in zip(symbols, rng.sample(chess.SQUARES, len(symbols))):
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            out.append(board)
    return out


def double_step_starts(rng):
    """Endless random legal K+P against K+P positions whose side to move has its pawn on its
    second rank and the enemy pawn on the rank its double step ends on, a file beside it: a
    random position has that one time in a hundred or so."""
    while True:
        white = rng.random() < 0.5
        own, enemy = (1, 3) if white else (6, 4)
        f = rng.randrange(8)
        g = f + rng.choice((-1, 1))
        if not 0 <= g < 8:
            continue
        board = chess.Board(None)
        board.set_piece_at(chess.square(f, own), chess.Piece(chess.PAWN, white))
        board.set_piece_at(chess.square(g, enemy), chess.Piece(chess.PAWN, not white))
        empty = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
        for color, square in zip((chess.WHITE, chess.BLACK), rng.sample(empty, 2)):
            board.set_piece_at(square, chess.Piece(chess.KING, color))
        board.turn = white
        if board.is_valid():
            yield board


def after_double_steps(boards, count, rng):
    """Up to `count` positions right after a double step, from the boards given, in which the
    side to move can take en passant."""
    out = []
    for board in boards:
        steps = [
            m for m in board.legal_moves
            if board.piece_type_at(m.from_square) == chess.PAWN
            and abs(m.to_square - m.from_square) == 16
        ]
        if not steps:
            continue
        after = board.copy()
        after.push(rng.choice(steps))
        if after.is_valid() and after.has_legal_en_passant():
            out.append(chess.Board(after.fen()))
        if len(out) == count:
            break
    return out


def ours_from_dtm(dtm, wdl):
    """Our answer for a Gaviota DTM (plies) and, when it is 0, Gaviota's WDL."""
    if dtm > 0:
        # A win ends with the winner's move: an odd number of plies.
        return f"win in {(dtm + 1) // 2}" if dtm % 2 else f"(even?) win in {dtm} plies"
    if dtm < 0:
        return f"loss in {-dtm // 2}" if dtm % 2 == 0 else f"(odd?) loss in {-dtm} plies"
    return "loss in 0" if wdl < 0 else "draw"


def outcome(answer):
    """'win' / 'loss' / 'draw' of one of our answers (None for an error line)."""
    for word in ("win", "loss", "draw"):
        if answer.startswith(word):
            return word
    return None


def syzygy_outcome(wdl):
    return "win" if wdl > 0 else "loss" if wdl < 0 else "draw"


def spec(material):
    return f"{material[0]}.{material[1]}"


class Job:
    """One run of the binary: an endgame to build and the positions probed with it."""

    def __init__(self, material):
        self.material = material
        # (group name, board, expected answer or None, extra reference text)
        self.items = []


def plan(positions, epd_items):
    """Groups the positions into as few builds as possible: one job per largest material."""
    materials = {material_of(b) for _, b in positions} | {
        material_of(b) for _, b, _ in epd_items
    }
    builds = []
    # Largest first (then by name, so that runs are reproducible).
    for m in sorted(materials, key=lambda m: (-len(m[0]) - len(m[1]), m)):
        if not any(covers(b, m) for b in builds):
            builds.append(m)
    jobs = {b: Job(b) for b in builds}

    def job_of(board):
        m = material_of(board)
        return next(jobs[b] for b in builds if covers(b, m))

    return jobs, job_of


def write_pieces(workdir):
    """Writes the piece file of the runs into `workdir` (see the module doc); its path."""
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(repo, "piecedef.ini")) as f:
        text = f.read()
    if not any(line.replace(" ", "").startswith("P:") for line in text.splitlines()):
        text += "\n" + PAWN_LINE + "\n"
    path = os.path.join(workdir, "pieces-with-pawn.ini")
    with open(path, "w") as f:
        f.write(text)
    return path


def shared_tables(workdir):
    """A table directory in `workdir` for the runs of the binary to share (see the module
    doc): its path."""
    path = os.path.join(workdir, "tables")
    os.makedirs(path, exist_ok=True)
    return path


def start(binary, job, workdir, pieces, tables, metric="dtm"):
    """Starts `fairy-egt probe --metric METRIC` on the job's positions (with the table
    directory `tables`, if any); returns the process and its stderr."""
    # A file, not a pipe: build progress on stderr must not block the binary while `finish`
    # reads its stdout.
    err = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(
        [binary, "probe", spec(job.material), "--metric", metric, "--pieces", pieces, "--fens", "-"]
        + (["--tables", tables] if tables else []),
        cwd=workdir,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
    )
    try:
        proc.stdin.write("".join(board.fen() + "\n" for _, board, _, _ in job.items))
        proc.stdin.close()
    except BrokenPipeError:
        pass  # The binary stopped early: `finish` reports its exit status and stderr.
    return proc, err


def finish(started, job):
    """The binary's answers, one per position of the job."""
    proc, err_file = started
    out = proc.stdout.read()
    proc.wait()
    err_file.seek(0)
    err = err_file.read()
    err_file.close()
    lines = out.splitlines()
    if proc.returncode != 0 or len(lines) != len(job.items):
        raise RuntimeError(
            f"fairy-egt probe {spec(job.material)} exited with {proc.returncode} and printed "
            f"{len(lines)} lines for {len(job.items)} positions; stderr:\n{err[-3000:]}"
        )
    return [line.strip() for line in lines]


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    # --five-men: every pawnless 5-man EPD position; --five-men=pawns: every one with pawns;
    # --five-men=KRRR.K,KNN.KP: those of the listed endgames only.
    five_men = None
    for a in argv:
        if a == "--five-men":
            five_men = "pawnless"
        elif a == "--five-men=pawns":
            five_men = "pawns"
        elif a.startswith("--five-men="):
            five_men = set(a.split("=", 1)[1].split(","))
    per_endgame = DEFAULT_PER_ENDGAME
    extra_gaviota = None
    tables = None
    for a in argv:
        if a.startswith("--tables="):
            tables = os.path.abspath(a.split("=", 1)[1])
        if a.startswith("--per-endgame="):
            per_endgame = int(a.split("=", 1)[1])
        if a.startswith("--gaviota="):
            extra_gaviota = a.split("=", 1)[1]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary, data = args
    began = time.monotonic()
    for sub in ("gaviota", "syzygy/regular", "endgame-dm-4.epd"):
        if not os.path.exists(os.path.join(data, sub)):
            print(
                f"check_tables.py: oracle data not found: no {os.path.join(data, sub)} (expected "
                "the data/ folder of python-chess's sdist: scripts/oracle_data.py)",
                file=sys.stderr,
            )
            return 1
    gaviota_dirs = [os.path.join(data, "gaviota")]
    if extra_gaviota:
        present = [n for n in ENDGAMES if os.path.exists(os.path.join(extra_gaviota, n + ".gtb.cp4"))]
        try:
            oracle_data.check_gaviota_dir(data, extra_gaviota, present)
        except oracle_data.OracleDataError as e:
            print(f"check_tables.py: --gaviota: {e}", file=sys.stderr)
            return 1
        gaviota_dirs.append(extra_gaviota)
    endgames = ENDGAMES + PAWN_ENDGAMES
    # The endgames whose exact DTM is known here (the others: WDL only).
    with_dtm = {
        n for n in endgames
        if any(os.path.exists(os.path.join(d, n + ".gtb.cp4")) for d in gaviota_dirs)
    }
    gaviota = chess.gaviota.open_tablebase(gaviota_dirs[0])
    for d in gaviota_dirs[1:]:
        gaviota.add_directory(d)
    syzygy = chess.syzygy.open_tablebase(os.path.join(data, "syzygy", "regular"))

    # The positions: (group, board) for random ones, (group, board, dm) for EPD ones.
    positions = []
    for name in [] if five_men is not None else endgames:
        white, black = sides_of(name)
        rng = random.Random(f"fairy-egt oracle {name}")
        half = per_endgame // 2
        positions += [(name, b) for b in random_positions(white, black, per_endgame - half, rng)]
        positions += [(name, b) for b in random_positions(black, white, half, rng)]
        if name == "kpkp":
            # Positions right after a double step that an enemy pawn can take.
            pool = itertools.islice(double_step_starts(rng), 20 * half)
            positions += [(name, b) for b in after_double_steps(pool, half, rng)]
    epd_items = []
    epd_files = ["endgame-dm-5.epd"] if five_men is not None else ["endgame-dm-4.epd"]
    for file in epd_files:
        with open(os.path.join(data, file)) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                board, ops = chess.Board.from_epd(line)
                if five_men == "pawnless" and board.pawns:
                    continue
                if five_men == "pawns" and not board.pawns:
                    continue
                if isinstance(five_men, set) and spec(material_of(board)) not in five_men:
                    continue
                epd_items.append((file, board, int(ops["dm"])))

    jobs, job_of = plan(positions, epd_items)
    for group, board in positions:
        job_of(board).items.append((group, board, None, None))
    for group, board, dm in epd_items:
        if dm > 0:
            expected = f"win in {dm}"
        elif dm < 0:
            expected = f"loss in {-dm}"
        else:
            expected = "loss in 0" if board.is_checkmate() else "draw"
        job_of(board).items.append((group, board, expected, f"dm {dm}"))

    with_ep = sum(
        1 for job in jobs.values() for _, b, _, _ in job.items if b.has_legal_en_passant()
    )
    stats = {}  # group -> [compared, DTM mismatches, WDL mismatches]
    longest = {}  # group -> longest win compared, in moves
    shown = []
    errors = []
    with tempfile.TemporaryDirectory(prefix="fairy-egt-oracle-") as workdir:
        pieces = write_pieces(workdir)
        tables = tables or shared_tables(workdir)
        for job in jobs.values():
            t0 = time.monotonic()
            proc = start(binary, job, workdir, pieces, tables)
            # Probe the references while the binary builds.
            refs = []
            for group, board, expected, note in job.items:
                if expected is not None:
                    refs.append((expected, note, None))
                    continue
                syz = syzygy.probe_wdl(board)
                if group not in with_dtm:
                    refs.append((None, "no Gaviota table", syz))
                    continue
                dtm = gaviota.probe_dtm(board)
                wdl = gaviota.probe_wdl(board) if dtm == 0 else None
                refs.append((ours_from_dtm(dtm, wdl), f"Gaviota dtm {dtm} plies", syz))
            try:
                answers = finish(proc, job)
            except RuntimeError as e:
                errors.append(str(e))
                continue
            for (group, board, _, _), (expected, note, syz), ours in zip(job.items, refs, answers):
                s = stats.setdefault(group, [0, 0, 0])
                s[0] += 1
                if ours.startswith("win in "):
                    longest[group] = max(longest.get(group, 0), int(ours[7:]))
                dtm_bad = expected is not None and ours != expected
                wdl_bad = syz is not None and outcome(ours) != syzygy_outcome(syz)
                s[1] += dtm_bad
                s[2] += wdl_bad
                if (dtm_bad or wdl_bad) and len(shown) < SHOW:
                    syz_text = "" if syz is None else f"; Syzygy WDL {syz}"
                    shown.append(
                        f"  {board.fen()}  [{group}, built as {spec(job.material)}]\n"
                        f"    ours: {ours}; expected: {expected} ({note}){syz_text}"
                    )
            print(
                f"built {spec(job.material):7} {len(job.items):5} positions "
                f"{time.monotonic() - t0:5.1f} s",
                flush=True,
            )

    print()
    header = ("endgame", "compared", "DTM/dm diff", "WDL diff", "longest win")
    print(f"{header[0]:18} {header[1]:>8} {header[2]:>11} {header[3]:>8} {header[4]:>11}")
    total = [0, 0, 0]
    for group in endgames + epd_files:
        if group not in stats:
            continue
        s = stats[group]
        total = [a + b for a, b in zip(total, s)]
        wdl = "-" if group.endswith(".epd") else str(s[2])
        dtm = str(s[1]) if group in with_dtm or group.endswith(".epd") else "-"
        print(f"{group:18} {s[0]:8} {dtm:>11} {wdl:>8} {longest.get(group, 0):11}")
    print(f"{'total':18} {total[0]:8} {total[1]:11} {total[2]:8}")
    print(f"time {time.monotonic() - began:.1f} s, {len(jobs)} builds; exact DTM of "
          f"{len(with_dtm)} of the {len(endgames)} endgames (Gaviota), WDL of all (Syzygy)")
    print(f"{with_ep} positions with an en-passant right compared")
    if shown:
        print(f"\nfirst mismatches (of {total[1] + total[2]} differences):")
        print("\n".join(shown))
    for e in errors:
        print(f"\nerror: {e}")
    if errors or total[1] or total[2]:
        return 1
    if total[0] == 0:
        print("error: nothing was compared")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
