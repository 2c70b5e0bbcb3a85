"""fairy-egt's move generator against one nobody here wrote: Fairy-Stockfish's, through the
PyPI package pyffish (issue 15, "Correctness it must show").

For every piece of the shipped piecedef.ini but the pawn P, and for a few pieces it does not ship (a
nightrider written in Betza, the Shogi gold and silver generals), the script makes seeded
random legal positions — both kings, the piece of either colour, 1 to 3 other men of either
side, either side to move, the side not to move not in check — and asks both programs for the
legal moves: pyffish.legal_moves on a variant loaded with pyffish.load_variant_config, and
`fairy-egt moves`. The sets must be equal. Prints per piece the positions and moves compared
and every mismatch with its FEN; exits 1 on any mismatch, or when a piece of piecedef.ini has
no Fairy-Stockfish translation here.

Pawns are compared the same way on Fairy-Stockfish's own variants (PAWN_VARIANTS: chess,
capablanca on 10x8, berolina), with the variant's pawn line in the piece file instead of the
shipped one: random
positions of both kings, 1 to 4 pawns (half of them on the rank before promotion) and 0 to 2
of the variant's pieces, no e.p. right; and positions right after a double step, so that
en passant is compared: a pawn on its second rank, 1 to 3 enemy pawns on the rank its double
steps end on (the capturers), often the capturers' king and an enemy rook or queen on that
rank too (the rank pin), other pawns and pieces at random. Fairy-Stockfish's moves there are
pyffish.legal_moves after the double step played; fairy-egt gets the FEN with the e.p. field
set to the square passed, whether or not a pawn can take (fairy-egt drops the right then, as
pyffish's get_fen does for orthodox pawns; pyffish writes a Berolina right as two squares,
e5d6, which is why the square is not taken from its FEN).

The translation to Fairy-Stockfish is written here by hand (STEP_BETZA, from the definitions of
piecedef.ini), not taken from fairy-egt. Fairy-Stockfish has riders only on W, F and N lines
(it drops any other rider silently: CC, a camel rider, gets no moves at all); a piece with
such a rider is skipped with that reason printed.

usage: python movegen_pyffish.py FAIRY_EGT [--positions N] [--seed S] [--jobs N] [--pieces FILE]
"""

import argparse
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import pyffish

VARIANT = "egtmoves"

# The step-notation definitions of piecedef.ini in Betza notation, as Fairy-Stockfish reads it.
STEP_BETZA = {
    "1,0,* 1,1,*": "K",
    "1,0,s* 1,1,s*": "Q",
    "1,0,s*": "R",
    "1,1,s*": "B",
    "1,2,*": "N",
    "1,1,s* 1,2,*": "BN",
    "1,0,s* 1,2,*": "RN",
    "1,1,*": "F",
    "2,2,*": "A",
    "1,0,*": "W",
    "1,2,s*": "NN",
    "1,1,s* 1,0,*": "BW",
    "1,0,s* 1,1,*": "RF",
    "2,0,*": "D",
    "1,3,*": "C",
    "2,3,*": "Z",
    "1,0,s* 1,1,s* 1,2,*": "QN",
}

# Pieces piecedef.ini does not ship, on letters it leaves free: (letter, Betza, name).
EXTRA = [
    ("L", "NN", "nightrider, in Betza"),
    ("S", "WfF", "gold general"),
    ("V", "FfW", "silver general"),
]

# The other men of a position: besides the piece compared, these and the piece itself.
MIX = "RBNWF"

# Betza atoms on whose lines Fairy-Stockfish has riders.
FSF_RIDER_ATOMS = "WFNRBQ"

# Fairy-Stockfish's variants with pawns: (variant, board files, pawn line of the piece file,
# the variant's other pieces).
PAWN_VARIANTS = [
    ("chess", 8, "fmWfceFifmnD", "QRBN"),
    ("capablanca", 10, "fmWfceFifmnD", "QRBNAC"),
    ("berolina", 8, "fmFfceWifmnA", "QRBN"),
]

# Mismatches printed per piece; the rest are only counted.
SHOWN = 10


def shipped_pieces(path):
    """(letter, definition, name) of each piece of a piecedef.ini, in file order."""
    pieces = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"([A-Za-z]):\s*([^#;]*?)\s*(?:[#;]\s*(.*))?$", line.rstrip("\n"))
            if m:
                pieces.append((m.group(1).upper(), m.group(2), m.group(3) or ""))
    return pieces


def betza_of(definition):
    """The Fairy-Stockfish Betza of a piecedef.ini definition, or None if this script has none."""
    if definition[:1].isalpha():
        return definition
    return STEP_BETZA.get(" ".join(definition.split()))


def fsf_cannot(betza):
    """Why Fairy-Stockfish cannot play a Betza description (None when it can): a rider on a
    line other than W, F or N (a doubled atom, or a range other than 1)."""
    for atom, rest in re.findall(r"([A-Z])(\1?\d*)", betza):
        if rest not in ("", "1") and atom not in FSF_RIDER_ATOMS:
            return (
                f"Fairy-Stockfish has riders only on W, F and N lines, not {atom}{rest} "
                "(it drops them silently)"
            )
    return None


def variant_config(betzas):
    """A variants.ini section: an 8x8 board with no castling, the royal king k, and one custom
    piece per other letter (letter → Betza)."""
    lines = [f"[{VARIANT}:chess]"]
    lines += [f"{p} = -" for p in ("pawn", "knight", "bishop", "rook", "queen")]
    lines += ["king = k", "castling = false"]
    for n, (letter, betza) in enumerate(sorted(betzas.items()), 1):
        lines.append(f"customPiece{n} = {letter.lower()}:{betza}")
    return "\n".join(lines) + "\n"


def fen_of(board, white_to_move, files=8):
    """The FEN of {square: letter} (squares 0 = a1 … files·8−1; upper case White)."""
    ranks = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(files):
            man = board.get(rank * files + file)
            if man is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + man
                empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks) + (" w" if white_to_move else " b") + " - - 0 1"


def near(square, direction, rng):
    """A random square at most two files and ranks from `square`, or on its line in
    `direction` (a rank, file or diagonal)."""
    f, r = square % 8, square // 8
    dx, dy = direction
    line = [(f + k * dx, r + k * dy) for k in range(-7, 8) if k]
    line = [y * 8 + x for x, y in line if 0 <= x < 8 and 0 <= y < 8]
    if line and rng.random() < 0.5:
        return rng.choice(line)
    return min(7, max(0, r + rng.randint(-2, 2))) * 8 + min(7, max(0, f + rng.randint(-2, 2)))


def random_position(letter, rng):
    """A FEN with both kings, `letter` (unless it is K) of a random colour and 1 to 3 men of
    MIX or `letter`, of random colours; two thirds of the others stand near the piece or on
    one line through it, so that legs, screens, hurdles and pins are common. The side not to
    move may be in check: the caller filters."""
    board = {}

    def put(man, square=None):
        while square is None or square in board:
            square = rng.randrange(64)
        board[square] = man
        return square

    put("K")
    put("k")
    home = rng.randrange(64)
    direction = rng.choice([(1, 0), (0, 1), (1, 1), (1, -1)])
    if letter != "K":
        home = put(rng.choice((letter, letter.lower())))
    for _ in range(rng.randint(1, 3)):
        man = rng.choice(MIX + ("" if letter == "K" else letter))
        square = near(home, direction, rng) if rng.random() < 2 / 3 else None
        put(rng.choice((man, man.lower())), square if square not in board else None)
    return fen_of(board, rng.random() < 0.5)


def legal(fen):
    """Whether the side not to move is not in check (asked of Fairy-Stockfish)."""
    board, side, rest = fen.split(" ", 2)
    other = f"{board} {'b' if side == 'w' else 'w'} {rest}"
    return not pyffish.gives_check(VARIANT, other, [])


def pyffish_side(job):
    """For one piece (job: letter, positions, seed): that many random legal positions and
    Fairy-Stockfish's legal moves in each, sorted: [(fen, moves)]. Runs in a worker process,
    which inherits the loaded variant; each call of pyffish costs about a millisecond."""
    letter, positions, seed = job
    rng = random.Random(f"{seed}-{letter}")
    out = []
    while len(out) < positions:
        fen = random_position(letter, rng)
        if legal(fen):
            out.append((fen, sorted(pyffish.legal_moves(VARIANT, fen, []))))
    return out


def random_pawn_position(files, others, rng):
    """A FEN on a files×8 board: both kings, 1 to 4 pawns of random colours on ranks 2 to 7
    (half of them a step from promotion), 0 to 2 men of `others`, either side to move."""
    board = {}

    def put(man, squares):
        square = rng.choice([s for s in squares if s not in board])
        board[square] = man

    every = range(files * 8)
    put("K", every)
    put("k", every)
    for _ in range(rng.randint(1, 4)):
        pawn = rng.choice("Pp")
        ranks = [6 if pawn == "P" else 1] if rng.random() < 0.5 else range(1, 7)
        put(pawn, [r * files + f for r in ranks for f in range(files)])
    for _ in range(rng.randint(0, 2)):
        man = rng.choice(others)
        put(rng.choice((man, man.lower())), every)
    return fen_of(board, rng.random() < 0.5, files)


def pyffish_pawns(job):
    """For one pawn variant (job: index in PAWN_VARIANTS, positions, seed): that many random
    legal positions and Fairy-Stockfish's legal moves in each, sorted."""
    index, positions, seed = job
    variant, files, _, others = PAWN_VARIANTS[index]
    rng = random.Random(f"{seed}-{variant}")
    out = []
    while len(out) < positions:
        fen = random_pawn_position(files, others, rng)
        if not royal_capturable(variant, fen):
            out.append((fen, sorted(pyffish.legal_moves(variant, fen, []))))
    return out


def royal_capturable(variant, fen):
    """Whether the side to move in `fen` could capture the enemy royal (an illegal position):
    whether the other side, were it to move, would be in check."""
    board, side, rest = fen.split(" ", 2)
    other = f"{board} {'b' if side == 'w' else 'w'} {rest}"
    return pyffish.gives_check(variant, other, [])


def random_double_step_position(files, others, rng):
    """A FEN on a files×8 board before a double step: the side to move has a pawn on its
    second rank (and maybe a second one), the other side 1 to 3 pawns on the rank the double
    steps end on (mostly on the files next to the first pawn's), often its king and an enemy rook or queen on that rank, 0 to 3 other pawns
    and 0 to 2 of `others`."""
    board = {}
    white = rng.random() < 0.5
    second, end = (1, 3) if white else (6, 4)

    def put(man, squares):
        free = [s for s in squares if s not in board]
        if free:
            board[rng.choice(free)] = man

    def rank(r):
        return [r * files + f for f in range(files)]

    every = range(files * 8)
    own, their = ("P", "p") if white else ("p", "P")
    own_king, their_king = ("K", "k") if white else ("k", "K")
    file = rng.randrange(files)
    board[second * files + file] = own
    if rng.random() < 0.3:
        put(own, rank(second))
    # The capturers: mostly on the files next to the pawn's, where both pawns' captures start.
    near = [end * files + f for f in (file - 1, file + 1) if 0 <= f < files]
    for _ in range(rng.randint(1, 3)):
        put(their, near if rng.random() < 0.8 else rank(end))
    put(their_king, rank(end) if rng.random() < 0.5 else every)
    if rng.random() < 0.5:
        put(rng.choice("RQ") if white else rng.choice("rq"), rank(end))
    put(own_king, every)
    for _ in range(rng.randint(0, 3)):
        pawn = rng.choice("Pp")
        put(pawn, [s for r in range(1, 7) for s in rank(r)])
    for _ in range(rng.randint(0, 2)):
        man = rng.choice(others)
        put(rng.choice((man, man.lower())), every)
    return fen_of(board, white, files)


def square_name(file, rank):
    return f"{chr(97 + file)}{rank + 1}"


def parse_square(name):
    return ord(name[0]) - 97, int(name[1:]) - 1


def pyffish_double_steps(job):
    """For one pawn variant (job: index in PAWN_VARIANTS, positions, seed): that many
    positions right after a double step, each as (FEN with the e.p. field set to the square
    passed, Fairy-Stockfish's legal moves after the double step, sorted, the square passed)."""
    index, positions, seed = job
    variant, files, _, others = PAWN_VARIANTS[index]
    rng = random.Random(f"{seed}-{variant}-ep")
    out = []
    while len(out) < positions:
        fen = random_double_step_position(files, others, rng)
        if royal_capturable(variant, fen):
            continue
        men = men_of(fen)
        doubles = [m for m in pyffish.legal_moves(variant, fen, [])
                   if men.get(parse_square(m[:2]), "").upper() == "P"
                   and abs(parse_square(m[2:4])[1] - parse_square(m[:2])[1]) == 2]
        if not doubles:
            continue
        mv = rng.choice(doubles)
        (f0, r0), (f1, r1) = parse_square(mv[:2]), parse_square(mv[2:4])
        passed = square_name((f0 + f1) // 2, (r0 + r1) // 2)
        # Berolina: a pawn of the mover already where the other double step over the same
        # square ends, from an empty square, makes the FEN's square ambiguous (fairy-egt
        # refuses it): leave such positions out.
        if f0 != f1 and men.get((f0, r1)) == men[(f0, r0)] and (f1, r0) not in men:
            continue
        fields = pyffish.get_fen(variant, fen, [mv]).split(" ")
        fields[3] = passed
        out.append((" ".join(fields), sorted(pyffish.legal_moves(variant, fen, [mv])), passed))
    return out


def en_passant_moves(variant, fen, moves, passed):
    """The e.p. captures among `moves` (a pawn of the side to move onto the square passed by
    its capture step: diagonal for orthodox pawns, straight for Berolina's), and whether a
    pawn of the side to move stands where such a capture starts."""
    men = men_of(fen)
    white = fen.split(" ")[1] == "w"
    pf, pr = parse_square(passed)
    straight = variant == "berolina"
    pawn = "P" if white else "p"
    back = -1 if white else 1
    starts = [(pf, pr + back)] if straight else [(pf - 1, pr + back), (pf + 1, pr + back)]
    captures = [m for m in moves if m[2:4] == passed and men.get(parse_square(m[:2])) == pawn
                and (parse_square(m[:2])[0] == pf) == straight]
    return captures, any(men.get(s) == pawn for s in starts)


def compare_double_steps(binary, pieces, positions, seed, pool):
    """Compares the pawn variants' legal moves right after a double step; prints a line per
    variant and returns (e.p. moves compared, mismatching positions)."""
    jobs = [(i, positions, seed) for i in range(len(PAWN_VARIANTS))]
    theirs = pool.map(pyffish_double_steps, jobs, chunksize=1)
    print("en passant: variant; positions after a double step; legal moves in them; e.p. "
          "captures; positions where a pawn stands to take but may not (pin, check); "
          "mismatches")
    ep_total = mismatches = 0
    for (variant, files, pawn, _), found in zip(PAWN_VARIANTS, theirs):
        pieces_file = with_pawn(pieces, pawn)
        try:
            ours = fairy_egt_moves(binary, pieces_file, [fen for fen, _, _ in found],
                                   ["--board", f"{files}x8"])
        finally:
            os.unlink(pieces_file)
        moves = ep = refused = bad = 0
        for (fen, their_moves, passed), our_moves in zip(found, ours):
            moves += len(their_moves)
            captures, placed = en_passant_moves(variant, fen, their_moves, passed)
            ep += len(captures)
            refused += placed and not captures
            if our_moves is None or sorted(our_moves) != their_moves:
                bad += 1
                if bad <= SHOWN:
                    print(f"  {variant}  {fen}: only pyffish "
                          f"{sorted(set(their_moves) - set(our_moves or []))}, only fairy-egt "
                          f"{sorted(set(our_moves or []) - set(their_moves))}"
                          + (" (fairy-egt refuses the FEN)" if our_moves is None else ""))
        ep_total += ep
        mismatches += bad
        print(f"{variant:<12}{len(found):>10}{moves:>8}{ep:>8}{refused:>8}{bad:>8}  P: {pawn}")
    return ep_total, mismatches


def compare_pawns(binary, pieces, positions, seed, pool):
    """Compares the pawn variants' legal moves; prints a line per variant and returns the
    number of mismatching positions."""
    jobs = [(i, positions, seed) for i in range(len(PAWN_VARIANTS))]
    theirs = pool.map(pyffish_pawns, jobs, chunksize=1)
    print("pawns: variant; positions; legal moves in them; pawn moves, promotions, double "
          "steps; mismatches")
    mismatches = 0
    for (variant, files, pawn, _), found in zip(PAWN_VARIANTS, theirs):
        pieces_file = with_pawn(pieces, pawn)
        try:
            ours = fairy_egt_moves(binary, pieces_file, [fen for fen, _ in found],
                                   ["--board", f"{files}x8"])
        finally:
            os.unlink(pieces_file)
        moves = pawn_moves = promotions = doubles = bad = 0
        for (fen, their_moves), our_moves in zip(found, ours):
            moves += len(their_moves)
            men = men_of(fen)
            names = {f"{chr(97 + f)}{r + 1}": m for (f, r), m in men.items()}
            mine = [m for m in their_moves if names.get(m[:2], "").upper() == "P"]
            pawn_moves += len(mine)
            promotions += sum(len(m) == 5 for m in mine)
            doubles += sum(abs(int(m[3:4]) - int(m[1:2])) == 2 for m in mine)
            if our_moves is None or sorted(our_moves) != their_moves:
                bad += 1
                if bad <= SHOWN:
                    print(f"  {variant}  {fen}: only pyffish "
                          f"{sorted(set(their_moves) - set(our_moves or []))}, only fairy-egt "
                          f"{sorted(set(our_moves or []) - set(their_moves))}")
        mismatches += bad
        print(f"{variant:<12}{len(found):>10}{moves:>8}{pawn_moves:>8}{promotions:>8}"
              f"{doubles:>8}{bad:>8}  P: {pawn}")
    return mismatches


def with_pawn(pieces, pawn):
    """A temporary copy of the piece file `pieces` whose pawn is `pawn` (Betza): its own P line
    left out, `P: pawn` appended. The caller removes it."""
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        with open(pieces, encoding="utf-8") as shipped_file:
            for line in shipped_file:
                if not re.match(r"[Pp]\s*:", line):
                    f.write(line)
        f.write(f"\nP: {pawn}\n")
        return f.name


def fairy_egt_moves(binary, pieces_file, fens, options=()):
    """`fairy-egt moves` for the FENs: one list of moves per FEN (None where it refused)."""
    with tempfile.TemporaryDirectory() as cwd:
        out = subprocess.run(
            [os.path.abspath(binary), "moves", "K.K", "--pieces", pieces_file, "--fens", "-",
             *options],
            input="\n".join(fens) + "\n",
            capture_output=True,
            text=True,
            cwd=cwd,  # no engine.ini of the working directory
            check=False,
        )
    lines = out.stdout.split("\n")[: len(fens)]
    if out.returncode not in (0, 2) or len(lines) != len(fens):
        sys.exit(f"fairy-egt moves failed ({out.returncode}, {len(lines)} lines for "
                 f"{len(fens)} FENs):\n{out.stderr}")
    return [None if line == "error" else line.split() for line in lines]


def men_of(fen):
    """{(file, rank): letter} of a FEN's men, files and ranks from 0."""
    men = {}
    for rank, row in enumerate(reversed(fen.split(" ")[0].split("/"))):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                men[(file, rank)] = ch
                file += 1
    return men


def lame_legs(betza):
    """The leaps of a lame Xiangqi piece with the squares they pass ((dx, dy), (lx, ly)),
    for counting blocked legs: nN the horse (blocked next to it orthogonally, on the long
    side), nA the elephant (blocked next to it diagonally); none for other pieces."""
    sign = lambda v: (v > 0) - (v < 0)
    if betza == "nN":
        return [((dx, dy), (sign(dx), 0) if abs(dx) == 2 else (0, sign(dy)))
                for dx in (-2, -1, 1, 2) for dy in (-2, -1, 1, 2) if abs(dx) != abs(dy)]
    if betza == "nA":
        return [((dx, dy), (dx // 2, dy // 2)) for dx in (-2, 2) for dy in (-2, 2)]
    return []


def coverage(fen, letter, betza, moves):
    """What the position exercises of the piece: (its moves, its captures, its leaps on the
    board blocked by a man on the leg) for the men of `letter` of the side to move."""
    men = men_of(fen)
    white = fen.split(" ")[1] == "w"
    own = letter if white else letter.lower()
    name = lambda sq: f"{'abcdefgh'[sq[0]]}{sq[1] + 1}"
    squares = [sq for sq, man in men.items() if man == own]
    names = {name(sq) for sq in squares}
    occupied = {name(sq) for sq in men}
    mine = [m for m in moves if m[:2] in names]
    blocked = sum(
        (f + lx, r + ly) in men
        for f, r in squares
        for (dx, dy), (lx, ly) in lame_legs(betza)
        if 0 <= f + dx < 8 and 0 <= r + dy < 8
    )
    return len(mine), sum(m[2:4] in occupied for m in mine), blocked


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fairy_egt", help="the fairy-egt binary")
    ap.add_argument("--positions", type=int, default=400, help="positions per piece")
    ap.add_argument("--seed", type=int, default=15, help="random seed")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                    help="worker processes asking pyffish")
    ap.add_argument(
        "--pieces",
        default=os.path.join(here, "..", "..", "piecedef.ini"),
        help="the shipped piece file (default: the repository's piecedef.ini)",
    )
    args = ap.parse_args()
    start = time.monotonic()

    shipped = shipped_pieces(args.pieces)
    kinds, untranslated = [], []
    for letter, definition, name in shipped:
        if letter == "P":
            continue  # the pawn: compared on Fairy-Stockfish's own variants (PAWN_VARIANTS)
        betza = betza_of(definition)
        if betza is None:
            untranslated.append(f"{letter}: {definition}")
        else:
            kinds.append((letter, betza, name or definition))
    if untranslated:
        print("no Fairy-Stockfish translation in this script (add it to STEP_BETZA) for: "
              + "; ".join(untranslated))
    used = {letter for letter, _, _ in shipped}
    for letter, betza, name in EXTRA:
        if letter in used:
            sys.exit(f"{args.pieces} now defines {letter}: give the extra {name} another letter")
        kinds.append((letter, betza, name))
    if dict((l, b) for l, b, _ in kinds).get("K") != "K":
        sys.exit(f"{args.pieces}: K must be the King (Fairy-Stockfish's royal king)")

    compared, skipped = [], []
    for letter, betza, name in kinds:
        reason = fsf_cannot(betza)
        if reason:
            skipped.append(letter)
            print(f"skipped {letter} {betza} ({name}): {reason}")
        else:
            compared.append((letter, betza, name))
    config = variant_config({l: b for l, b, _ in compared if l != "K"})
    pyffish.load_variant_config(config)
    if VARIANT not in pyffish.variants():
        sys.exit("pyffish did not load the variant:\n" + config)

    jobs = [(letter, args.positions, args.seed) for letter, _, _ in compared]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        theirs = dict(zip((j[0] for j in jobs), pool.map(pyffish_side, jobs, chunksize=1)))
        pawn_mismatches = compare_pawns(args.fairy_egt, args.pieces, args.positions * 5,
                                        args.seed, pool)
        ep_moves, ep_mismatches = compare_double_steps(args.fairy_egt, args.pieces,
                                                       args.positions * 5, args.seed, pool)

    # The piece file fairy-egt reads: the shipped one, the extra pieces appended.
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        with open(args.pieces, encoding="utf-8") as shipped_file:
            f.write(shipped_file.read())
        f.write("\n".join(f"{l}: {b}" for l, b, _ in EXTRA) + "\n")
        pieces_file = f.name
    try:
        all_fens = [fen for letter, _, _ in compared for fen, _ in theirs[letter]]
        ours = iter(fairy_egt_moves(args.fairy_egt, pieces_file, all_fens))
    finally:
        os.unlink(pieces_file)

    print(f"pyffish {'.'.join(map(str, pyffish.version()))}, seed {args.seed}, "
          f"{args.positions} positions per piece")
    print("per piece: positions; legal moves in them; the piece's own moves, captures and leaps")
    print("blocked on the leg (lame pieces); positions without a move; mismatches")
    print(f"{'piece':<6}{'betza':<7}{'positions':>10}{'moves':>8}{'its moves':>11}"
          f"{'captures':>10}{'blocked':>9}{'no move':>9}{'mismatches':>12}  name")
    mismatches = 0
    for letter, betza, name in compared:
        moves = its = taken = blocked = stuck = bad = 0
        for fen, their_moves in theirs[letter]:
            our_moves = next(ours)
            moves += len(their_moves)
            exercised = coverage(fen, letter, betza, their_moves)
            its, taken, blocked = its + exercised[0], taken + exercised[1], blocked + exercised[2]
            stuck += not their_moves
            if our_moves is None or sorted(our_moves) != their_moves:
                bad += 1
                if bad > SHOWN:
                    continue
                if our_moves is None:
                    print(f"  {letter}  {fen}: fairy-egt refuses the position")
                else:
                    print(f"  {letter}  {fen}: only pyffish "
                          f"{sorted(set(their_moves) - set(our_moves))}, only fairy-egt "
                          f"{sorted(set(our_moves) - set(their_moves))}")
        mismatches += bad
        print(f"{letter:<6}{betza:<7}{len(theirs[letter]):>10}{moves:>8}{its:>11}{taken:>10}"
              f"{blocked if lame_legs(betza) else '-':>9}{stuck:>9}{bad:>12}  {name}")
    total = sum(len(v) for v in theirs.values())
    print(f"{len(compared)} pieces, {total} positions, {mismatches} mismatches, "
          f"{len(skipped)} skipped; {pawn_mismatches} pawn mismatches; {ep_moves} e.p. "
          f"captures compared, {ep_mismatches} e.p. mismatches; "
          f"{time.monotonic() - start:.1f} s")
    return 1 if mismatches or pawn_mismatches or ep_mismatches or untranslated else 0


if __name__ == "__main__":
    sys.exit(main())
