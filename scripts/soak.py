#!/usr/bin/env python3
"""Soak fairy-egt through real clients (issue 13, item 8).

Part 1, python-chess: engine-vs-engine games from random won and drawn positions of KQ.KR,
KR.KB and KR.KN, and of the pawn endgames KP.KP, KPP.K, KQ.KP and KR.KP (either colour
strong, either side to move; a quarter of KP.KP's starting with an en-passant right;
promotions and double steps arise in play, and are counted with the en-passant captures). Both
sides are `fairy-egt ENDGAME`, one driven by `chess.engine.popen_xboard`, the other by
`popen_uci`, swapped every game; each endgame starts one engine per protocol and reuses it
for all of its games. Positions come from a seeded RNG and are classified by oracles nobody
here wrote: Syzygy WDL from python-chess's source distribution (always), and Gaviota DTM for
the pawnless three when a directory of their 4-man Gaviota tables is given (`--gaviota DIR`;
checked against the MD5 list in the same distribution, which ships only the 3-man Gaviota
files). Cursed wins and blessed losses (Syzygy WDL ±1) are not picked: the engines play by the
50-move rule, which draws them. Checked and counted as failures:
  * a won game must end in checkmate by the winner after exactly N moves of the winner, where
    N is Gaviota's DTM (without Gaviota: the winner's first announced mate), and every score
    either engine reports on the way must be the right Mate(n) for the side to move;
  * a drawn game must stay drawn (Syzygy WDL after every move, every score 0) for 100 moves,
    or until a capture leaves a drawn smaller endgame, stalemate, insufficient material, or
    the 50-move rule (which the engines play by; a won game must not reach it);
  * no false result claim (the XBoard engine's `1-0 {...}` etc. against board.outcome(), the
    50-move rule's draw included), and
    a claim after every mate or stalemate the XBoard engine gives;
  * no illegal move, no engine error, no move slower than --move-time (default 10 s); an
    engine's first move may take --build-time more (default 60 s), as it waits for the
    start-up build (KP.KP builds 21 tables, the promotions' included).

Part 2, Fairy-Stockfish: games in KA.KR and KC.KR (A Archbishop, C Chancellor), and with
pawns on 10×8 in KA.KP and KP.K, between fairy-egt and Debian's `fairy-stockfish` (UCI; on 8×8
the variant of scripts/soak-variants.ini loaded through VariantPath/UCI_Variant, on 10×8 its
own `capablanca`, whose pawns promote to Q R B N A C as fairy-egt's do there); and in KP.K with
Berolina pawns (tests/data/berolina.ini), against random legal moves, as Debian's
Fairy-Stockfish 11.1 has no Berolina chess. The promotions played are counted. pyffish
(Fairy-Stockfish's move generator, PyPI, which has `berolina`) tracks the position and judges
legality and mate. Half the games fairy-egt attacks (positions its own
table, `fairy-egt probe --fens`, calls won for its side), half it defends (drawn and lost).
Checked and counted as failures: fairy-egt never needs more moves than it announced (it mates
within its first `score mate N`, and no later announcement exceeds the previous one less one);
it is never mated from a drawn position within 100 moves, nor faster than its announced
`mate -N` from a lost one; every move it plays is legal for pyffish; it accepts every position
Fairy-Stockfish's moves lead to; no timeout. Fairy-Stockfish's results are reported for
information.

Exit status 0 when nothing failed, 1 otherwise (2 for a usage or setup error). Prints one
summary line per part and then `N passed, M failed` (games).

usage: soak.py [--quick] [--games N] [--fsf-games N] [--seed S] [--engine PATH]
               [--gaviota DIR] [--fsf PATH] [--move-time S] [--build-time S]
               [--fsf-movetime MS] [--cache DIR]
"""

import argparse
import collections
import logging
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

try:
    import chess
    import chess.engine
    import chess.gaviota
    import chess.syzygy
except ImportError as e:  # pragma: no cover - depends on the environment
    print(f"soak.py: python-chess is missing ({e}); run scripts/soak.sh", file=sys.stderr)
    sys.exit(2)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import oracle_data  # noqa: E402  (scripts/oracle_data.py: python-chess's sdist, verified)
from cargo_target import release_binary, target_dir  # noqa: E402  (where cargo builds)


PART1_ENDGAMES = ("KQ.KR", "KR.KB", "KR.KN", "KP.KP", "KPP.K", "KQ.KP", "KR.KP")
# Fairy-Stockfish's 8×8 variant with fairy-egt's letters (scripts/soak-variants.ini).
VARIANT = "egtsoak"
# Part 2's endgames: the board, pyffish's variant, fairy-egt's piece file, and the opponent:
# Fairy-Stockfish, or random legal moves where Debian's Fairy-Stockfish (11.1) lacks the
# variant. On 10×8 Fairy-Stockfish's own Capablanca chess, whose pawns promote to Q R B N A C
# as fairy-egt's do there; Berolina pawns from the example piece file.
Part2 = collections.namedtuple("Part2", "endgame board variant pieces opponent")
PIECES = os.path.join(REPO, "piecedef.ini")
PART2_ENDGAMES = (Part2("KA.KR", "8x8", VARIANT, PIECES, "fsf"),
                  Part2("KC.KR", "8x8", VARIANT, PIECES, "fsf"),
                  Part2("KA.KP", "10x8", "capablanca", PIECES, "fsf"),
                  Part2("KP.K", "10x8", "capablanca", PIECES, "fsf"),
                  Part2("KP.K", "8x8", "berolina",
                        os.path.join(REPO, "tests", "data", "berolina.ini"), "random"))
GAVIOTA_NAMES = {"KQ.KR": "kqkr", "KR.KB": "krkb", "KR.KN": "krkn"}
ROLES = ("attack", "drawn", "attack", "lost")  # fairy-egt's roles against Fairy-Stockfish
DRAWN_MOVES = 100  # moves of each side a drawn game is played for
SHOW = 12  # failures shown in full


def shares(games, kinds):
    """`games` split over `kinds` endgames as evenly as it goes, the first ones taking one more."""
    return [games // kinds + (1 if i < games % kinds else 0) for i in range(kinds)]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def die(msg):
    """A usage or setup error: exit status 2."""
    log(msg)
    sys.exit(2)


# --------------------------------------------------------------------------------------------
# Oracle data (the tables themselves: scripts/oracle_data.py)


class Oracle:
    """Syzygy WDL (sdist) for every position; Gaviota DTM for the 4-man start positions when
    a verified Gaviota directory is given."""

    def __init__(self, data, gaviota_dir):
        self.syzygy = chess.syzygy.open_tablebase(os.path.join(data, "syzygy", "regular"))
        self.gaviota = None
        if gaviota_dir:
            try:
                oracle_data.check_gaviota_dir(data, gaviota_dir, GAVIOTA_NAMES.values())
            except oracle_data.OracleDataError as e:
                die(f"soak: --gaviota: {e}")
            self.gaviota = chess.gaviota.open_tablebase(gaviota_dir)

    def wdl(self, board):
        """+1 the side to move wins, -1 it loses, 0 draw (cursed/blessed count as won/lost)."""
        if board.is_checkmate():
            return -1
        if board.occupied == board.kings or board.is_stalemate():
            return 0
        w = self.syzygy.probe_wdl(board)
        return (w > 0) - (w < 0)

    def cursed(self, board):
        """Whether the position is a cursed win or a blessed loss: won, or lost, only without
        the 50-move rule."""
        return abs(self.syzygy.probe_wdl(board)) == 1

    def dtm(self, board):
        """Gaviota DTM in our moves: +N the side to move mates with its N-th move, -N it is
        mated with the opponent's N-th move, 0 a draw; None without Gaviota."""
        if self.gaviota is None:
            return None
        plies = self.gaviota.probe_dtm(board)
        if plies > 0:
            return (plies + 1) // 2
        return -((-plies) // 2)

    def close(self):
        self.syzygy.close()
        if self.gaviota is not None:
            self.gaviota.close()


# --------------------------------------------------------------------------------------------
# Results


class Tally:
    def __init__(self):
        self.games = 0
        self.failures = []  # (game label, what, details)
        self.counts = {}

    def count(self, key, n=1):
        self.counts[key] = self.counts.get(key, 0) + n

    def fail(self, label, what, details):
        self.failures.append((label, what, details))
        log(f"soak: FAIL {label}: {what}: {details}")


# --------------------------------------------------------------------------------------------
# Part 1: python-chess, XBoard and UCI


def random_position(rng, white, black):
    """A random legal position (python-chess's is_valid) with these men, not already over."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        for letter, sq in zip(white, squares):
            board.set_piece_at(sq, chess.Piece.from_symbol(letter.upper()))
        for letter, sq in zip(black, squares[len(white):]):
            board.set_piece_at(sq, chess.Piece.from_symbol(letter.lower()))
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        if board.is_valid() and not board.is_game_over():
            return board


def with_en_passant(rng, board):
    """`board` with one pawn of each side moved so that the side to move may take en passant
    (the other side's pawn just made its double step), or None where the men do not allow it
    (a side without a pawn, or the squares needed taken)."""
    mover = board.turn
    takers = list(board.pieces(chess.PAWN, mover))
    steppers = list(board.pieces(chess.PAWN, not mover))
    if not takers or not steppers:
        return None
    taker, stepper = rng.choice(takers), rng.choice(steppers)
    rank = 3 if mover == chess.BLACK else 4  # the double step's end: rank 4 or 5
    file = rng.randrange(8)
    side = rng.choice([f for f in (file - 1, file + 1) if 0 <= f < 8])
    board = board.copy()
    board.remove_piece_at(taker)
    board.remove_piece_at(stepper)
    ahead = -1 if mover == chess.BLACK else 1  # from the stepper's end back to its start
    to, at = chess.square(file, rank), chess.square(side, rank)
    passed, start = chess.square(file, rank + ahead), chess.square(file, rank + 2 * ahead)
    if any(board.piece_at(sq) for sq in (to, at, passed, start)):
        return None
    board.set_piece_at(to, chess.Piece(chess.PAWN, not mover))
    board.set_piece_at(at, chess.Piece(chess.PAWN, mover))
    board.ep_square = passed
    if board.is_valid() and board.has_legal_en_passant() and not board.is_game_over():
        return board
    return None


def part1_positions(rng, oracle, endgame, won, drawn):
    """`won` positions won for one side and `drawn` drawn ones of `endgame`, either colour
    strong. Each: (fen, winner or None, N). Where both sides have a pawn, a quarter of them
    start with an en-passant right."""
    strong, weak = endgame.split(".")
    picked_won, picked_drawn = [], []
    tries = 0
    while len(picked_won) < won or len(picked_drawn) < drawn:
        tries += 1
        if tries > 200000:
            die(f"soak: could not find enough positions of {endgame}")
        swap = rng.random() < 0.5
        board = random_position(rng, *((weak, strong) if swap else (strong, weak)))
        if "P" in strong and "P" in weak and rng.random() < 0.25:
            board = with_en_passant(rng, board)
            if board is None:
                continue
        if oracle.cursed(board):
            continue
        wdl = oracle.wdl(board)
        dtm = oracle.dtm(board) if endgame in GAVIOTA_NAMES else None
        if dtm is not None and (dtm > 0) - (dtm < 0) != wdl:
            die(f"soak: oracles disagree on {board.fen()}: Syzygy WDL {wdl}, "
                             f"Gaviota DTM {dtm}")
        if wdl == 0 and len(picked_drawn) < drawn:
            picked_drawn.append((board.fen(), None, 0))
        elif wdl != 0 and len(picked_won) < won:
            winner = board.turn if wdl > 0 else not board.turn
            picked_won.append((board.fen(), winner, abs(dtm) if dtm is not None else None))
    games = picked_won + picked_drawn
    rng.shuffle(games)
    return games


class ClaimLog(logging.Handler):
    """Collects the lines each engine process sends (python-chess logs them at DEBUG)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = {}

    def emit(self, record):
        if record.msg == "%s: >> %s" and len(record.args) == 2:
            self.lines.setdefault(id(record.args[0]), []).append(record.args[1])


class Part1Engines:
    """One XBoard and one UCI fairy-egt process for one endgame, restarted after a failure.
    `fresh` names the processes that have not moved yet: their first move waits for the
    build they start with."""

    def __init__(self, engine, endgame, cwd, move_time, build_time):
        self.cmd = [engine, endgame, "--report", "-"]
        self.cwd = cwd
        self.timeout = move_time + build_time + 20
        self.xboard = self.uci = None
        self.fresh = set()
        self.start()

    def start(self):
        if self.xboard is None:
            self.xboard = chess.engine.SimpleEngine.popen_xboard(
                self.cmd, cwd=self.cwd, timeout=self.timeout)
            self.fresh.add("xboard")
        if self.uci is None:
            self.uci = chess.engine.SimpleEngine.popen_uci(
                self.cmd, cwd=self.cwd, timeout=self.timeout)
            self.fresh.add("uci")

    def restart(self, which):
        eng = getattr(self, which)
        try:
            eng.close()
        except Exception:
            pass
        setattr(self, which, None)
        self.start()

    def close(self):
        for eng in (self.xboard, self.uci):
            if eng is not None:
                try:
                    eng.quit()
                except Exception:
                    eng.close()


def expected_score(winner, n, board, winner_moves):
    if winner is None:
        return chess.engine.Cp(0)
    left = n - winner_moves
    return chess.engine.Mate(left) if board.turn == winner else chess.engine.Mate(-left)


def play_part1_game(label, engines, claims, oracle, fen, winner, n, xboard_side, times, tally):
    """Plays one game; records failures in `tally`; returns 'mated', 'held' or 'failed'.
    `times` is (seconds a move may take, and more for an engine's first: its build)."""
    move_time, build_time = times
    board = chess.Board(fen)
    start_men = chess.popcount(board.occupied)
    game = object()
    protocol = {xboard_side: "xboard", not xboard_side: "uci"}
    winner_moves = 0
    announced = n  # the winner's first Mate(n) when no Gaviota DTM is given
    max_plies = 2 * DRAWN_MOVES if winner is None else 2 * (n or 60) + 2
    moves = []

    def fail(what, details):
        tally.fail(label, what, f"{details}; start {fen}, moves {' '.join(moves) or '-'}")
        return "failed"

    while len(moves) < max_plies:
        if board.is_fifty_moves():
            # The engines play by the 50-move rule: the XBoard one claims it (no move), the
            # UCI one answers 0000. A won position picked (no cursed win) is won within the rule.
            if winner is not None:
                return fail("won game drawn by the 50-move rule", board.fen())
            return "held"
        side = board.turn
        which = protocol[side]
        eng = getattr(engines, which)
        claims.lines.pop(id(eng.protocol), None)
        t0 = time.monotonic()
        try:
            result = eng.play(board, chess.engine.Limit(time=move_time),
                              info=chess.engine.INFO_SCORE, game=game)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError,
                TimeoutError, OSError) as e:  # an illegal move shows here as EngineError
            engines.restart(which)
            kind = "timeout" if isinstance(e, TimeoutError) else "engine error"
            return fail(kind, f"{which} at {board.fen()}: {type(e).__name__}: {e}")
        took = time.monotonic() - t0
        tally.count("moves")
        tally.count(f"moves_{which}")
        allowed = move_time + (build_time if which in engines.fresh else 0)
        engines.fresh.discard(which)
        if took > allowed:
            return fail("timeout", f"{which} took {took:.1f} s at {board.fen()}")
        move = result.move
        if move is None or move not in board.legal_moves:
            return fail("illegal move", f"{which} played {move} at {board.fen()}")
        score = result.info.get("score")
        if winner is not None and announced is None:
            # No DTM oracle: the winner's first announcement is the number to meet.
            rel = score.relative if score is not None else None
            if side == winner and rel is not None and rel.is_mate() and rel.mate() > 0:
                announced = rel.mate()
                max_plies = 2 * announced + 2
            elif side != winner and rel is not None and rel.is_mate() and rel.mate() < 0:
                announced = -rel.mate()
                max_plies = 2 * announced + 2
            else:
                return fail("score", f"{which} scored {score} at {board.fen()}, "
                                     f"but {'White' if winner else 'Black'} wins")
        want = expected_score(winner, announced, board, winner_moves)
        if score is None or score.relative != want:
            return fail("score", f"{which} scored {score and score.relative} at "
                                 f"{board.fen()}, want {want}")
        wdl_before = oracle.wdl(board)
        fen_before = board.fen()
        if move.promotion:
            tally.count("promotions")
        if board.is_en_passant(move):
            tally.count("en passant")
        elif board.piece_type_at(move.from_square) == chess.PAWN and abs(
                move.to_square - move.from_square) == 16:
            tally.count("double steps")
        board.push(move)
        moves.append(move.uci())
        if side == winner:
            winner_moves += 1
        outcome = board.outcome()
        # Result claims of the XBoard engine (UCI has none).
        if which == "xboard":
            said = [ln for ln in claims.lines.get(id(eng.protocol), [])
                    if ln.split()[:1] and ln.split()[0] in ("1-0", "0-1", "1/2-1/2")]
            claimable = board.outcome(claim_draw=True)  # the 50-move rule's draw too
            for ln in said:
                if claimable is None or claimable.result() != ln.split()[0]:
                    return fail("false claim", f"xboard said {ln!r} after {move.uci()}, "
                                               f"board says {outcome}")
            if outcome is not None and outcome.termination in (
                    chess.Termination.CHECKMATE, chess.Termination.STALEMATE) and not said:
                return fail("missing claim", f"xboard gave {outcome.termination.name} "
                                             f"with {move.uci()} and claimed nothing")
        # Did the move keep the value? (A perfect move keeps it: -wdl for the opponent.)
        wdl_after = oracle.wdl(board)
        if wdl_after != -wdl_before:
            return fail("value lost", f"{which} played {move.uci()} at {fen_before}: "
                                      f"Syzygy WDL {wdl_before} -> {-wdl_after}")
        if board.is_checkmate():
            if winner is None or board.turn == winner:
                return fail("drawn game lost" if winner is None else "won game lost",
                            f"mate after {len(moves)} plies")
            if winner_moves != announced:
                return fail("mate length", f"mated after {winner_moves} moves, "
                                           f"announced {announced}")
            return "mated"
        if outcome is not None and outcome.termination in (
                chess.Termination.STALEMATE, chess.Termination.INSUFFICIENT_MATERIAL):
            if winner is not None:
                return fail("win not converted", f"{outcome.termination.name}")
            return "held"
        if winner is None and chess.popcount(board.occupied) < start_men and wdl_after == 0:
            return "held"  # a capture left a drawn smaller endgame
    if winner is None:
        return "held"
    return fail("mate length", f"no mate after {winner_moves} moves, announced {announced}")


def part1(args, rng, oracle, tally):
    games_per = shares(args.games, len(PART1_ENDGAMES))
    claims = ClaimLog()
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(claims)
    logger.propagate = False
    stats = {"won": 0, "mated": 0, "drawn": 0, "held": 0, "xboard_white": 0, "uci_white": 0}
    cwd = tempfile.mkdtemp(prefix="soak-engine-")  # no engine.ini there: standard rules
    index = 0
    for endgame, count in zip(PART1_ENDGAMES, games_per):
        if count == 0:
            continue
        won = (count + 1) // 2
        positions = part1_positions(rng, oracle, endgame, won, count - won)
        t0 = time.monotonic()
        engines = Part1Engines(args.engine, endgame, cwd, args.move_time, args.build_time)
        try:
            for i, (fen, winner, n) in enumerate(positions):
                xboard_side = chess.WHITE if index % 2 == 0 else chess.BLACK
                stats["xboard_white" if xboard_side == chess.WHITE else "uci_white"] += 1
                kind = "won" if winner is not None else "drawn"
                label = f"python-chess #{index + 1} {endgame} {kind}" + (
                    f" ({'White' if winner else 'Black'} " + (f"in {n})" if n else "wins)")
                    if winner is not None else "")
                outcome = play_part1_game(label, engines, claims, oracle, fen, winner, n,
                                          xboard_side, (args.move_time, args.build_time),
                                          tally)
                if args.verbose:
                    log(f"soak: {label}, White via "
                        f"{'xboard' if xboard_side == chess.WHITE else 'uci'}: {outcome}")
                tally.games += 1
                stats[kind] += 1
                if outcome in ("mated", "held"):
                    stats[outcome] += 1
                else:
                    tally.count("part1_failed")
                index += 1
        finally:
            engines.close()
        log(f"soak: {endgame}: {count} games in {time.monotonic() - t0:.1f} s")
    shutil.rmtree(cwd, ignore_errors=True)
    logger.removeHandler(claims)
    failed = tally.counts.get("part1_failed", 0)
    dtm = ("Gaviota DTM (pawns: announced)" if oracle.gaviota
           else "announced (no Gaviota DTM given)")
    pawns = ", ".join(f"{tally.counts.get(k, 0)} {k}"
                      for k in ("promotions", "double steps", "en passant"))
    print(f"soak: python-chess {index} games (White via xboard {stats['xboard_white']}, via uci "
          f"{stats['uci_white']}; {tally.counts.get('moves', 0)} moves, {pawns}): "
          f"won {stats['won']}, {stats['mated']} mated in the {dtm} number; "
          f"drawn {stats['drawn']}, {stats['held']} held; {failed} failed", flush=True)
    return index, failed


# --------------------------------------------------------------------------------------------
# Part 2: Fairy-Stockfish


class RawUci:
    """A UCI engine over pipes, every wait bounded."""

    def __init__(self, name, cmd, cwd=None):
        self.name = name
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix, timeout):
        """Lines up to and including the first that starts with `prefix`."""
        got = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no '{prefix}' within {timeout} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EOFError(f"{self.name} exited")
            got.append(line)
            if line.startswith(prefix):
                return got

    def handshake(self, options, timeout):
        self.send("uci")
        self.wait_for("uciok", timeout)
        self.configure(options, timeout)

    def configure(self, options, timeout):
        """Sets `options` ((name, value) pairs) and waits until the engine is ready."""
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok", timeout)

    def go(self, position, go, timeout):
        """(bestmove, last score as ('mate'|'cp', int) or None, seconds)."""
        t0 = time.monotonic()
        self.send(position)
        self.send(go)
        lines = self.wait_for("bestmove", timeout)
        took = time.monotonic() - t0
        score = None
        info = []
        for line in lines:
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                k = words.index("score")
                if k + 2 < len(words) and words[k + 1] in ("mate", "cp"):
                    score = (words[k + 1], int(words[k + 2]))
            if line.startswith("info string"):
                info.append(line)
        move = lines[-1].split()[1] if len(lines[-1].split()) > 1 else None
        return move, score, took, info

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
            self.proc.wait()


class RandomMover:
    """An opponent that plays a random legal move (pyffish's), for variants Debian's
    Fairy-Stockfish lacks: what `RawUci.go` returns, without a score."""

    def __init__(self, rng, variant):
        self.rng = rng
        self.variant = variant

    def send(self, line):
        pass

    def go(self, position, go, timeout):
        import pyffish as sf
        fen, _, moves = position.removeprefix("position fen ").partition(" moves ")
        move = self.rng.choice(sf.legal_moves(self.variant, fen, moves.split()))
        return move, None, 0.0, []


def random_fen(rng, white, black, files=8, ranks=8):
    """A FEN with these men (letters of the piece file) on random squares of a board of `files`
    × `ranks`, either side to move."""
    squares = rng.sample(range(files * ranks), len(white) + len(black))
    grid = [["1"] * files for _ in range(ranks)]
    for letter, sq in zip(white, squares):
        grid[ranks - 1 - sq // files][sq % files] = letter.upper()
    for letter, sq in zip(black, squares[len(white):]):
        grid[ranks - 1 - sq // files][sq % files] = letter.lower()
    rows = []
    for row in grid:
        text, run = "", 0
        for c in row:
            if c == "1":
                run += 1
            else:
                text += (str(run) if run else "") + c
                run = 0
        rows.append(text + (str(run) if run else ""))
    return "/".join(rows) + " " + rng.choice("wb") + " - - 0 1"


def part2_positions(rng, engine, spec, cwd, attack, drawn, lost):
    """Random legal positions of `spec`'s endgame on its board (either colour strong, either
    side to move) valued by fairy-egt's own table: `attack` won for one side, `drawn` drawn and
    `lost` won for one side too (there fairy-egt takes the losing side). Each: (fen, role, egt
    side, value)."""
    import pyffish as sf
    endgame, board, variant, pieces = spec.endgame, spec.board, spec.variant, spec.pieces
    files, ranks = (int(n) for n in board.split("x"))
    strong, weak = endgame.split(".")
    want = {"attack": attack, "drawn": drawn, "lost": lost}
    picked = {k: [] for k in want}
    for _ in range(50):
        fens, values = [], []
        for swap in (False, True):
            white, black = (weak, strong) if swap else (strong, weak)
            batch = [random_fen(rng, white, black, files, ranks) for _ in range(200)]
            # The table of this colour assignment (probe covers only its own and smaller ones).
            out = subprocess.run([engine, "probe", f"{white}.{black}", "--fens", "-", "--pieces",
                                  pieces, "--board", board, "--report", "-"],
                                 input="\n".join(batch) + "\n",
                                 cwd=cwd, capture_output=True, text=True, timeout=600)
            got = out.stdout.splitlines()
            if len(got) != len(batch):
                die(f"soak: probe printed {len(got)} values for {len(batch)} FENs:"
                                 f"\n{out.stderr[-2000:]}")
            fens += batch
            values += got
        candidates = list(zip(fens, values))
        rng.shuffle(candidates)
        for fen, value in candidates:
            if value.startswith("error") or not sf.legal_moves(variant, fen, []):
                continue
            stm = fen.split()[1]
            other = "b" if stm == "w" else "w"
            words = value.split()
            if value == "draw":
                # fairy-egt takes the weaker side (the Rook's, the lone king): the one
                # Fairy-Stockfish attacks.
                side = "b" if strong[1] in fen.split()[0] else "w"
                role = "drawn"
            elif words[:2] == ["win", "in"]:
                role, winner = None, stm
            elif words[:2] == ["loss", "in"] and int(words[2]) > 0:
                role, winner = None, other
            else:
                continue
            if role is None and value == "win in 1":
                continue  # fairy-egt would not move in a lost one
            if role is None:
                # Split won positions between fairy-egt attacking and defending.
                if len(picked["attack"]) < attack and (
                        len(picked["lost"]) >= lost or rng.random() < 0.5):
                    role, side = "attack", winner
                else:
                    role, side = "lost", ("b" if winner == "w" else "w")
            if len(picked[role]) < want[role]:
                picked[role].append((fen, role, side, value))
        if all(len(picked[k]) >= want[k] for k in want):
            break
    else:
        die(f"soak: could not find enough positions of {endgame}")
    games = picked["attack"] + picked["drawn"] + picked["lost"]
    rng.shuffle(games)
    return games


def play_part2_game(label, egt, fsf, fen, variant, role, egt_side, args, tally, trace):
    """Plays one game of fairy-egt (`egt`) against `fsf` (a RawUci Fairy-Stockfish or a
    RandomMover) from `fen` in pyffish's `variant`; returns how it ended, 'failed' if it
    failed (recorded in `tally`)."""
    import pyffish as sf
    moves = []
    egt_moves = 0
    bound = None  # fairy-egt's announced mate: it must mate within this many of its moves
    resist = None  # fairy-egt's announced loss: it must not be mated sooner
    max_plies = 2 * DRAWN_MOVES
    egt.send("ucinewgame")
    fsf.send("ucinewgame")

    def fail(what, details):
        tally.fail(label, what, f"{details}; start {fen}, moves {' '.join(moves) or '-'}")
        return "failed"

    while len(moves) < max_plies:
        trace.update(announced=bound, resist=resist, egt_moves=egt_moves, plies=len(moves))
        fields = sf.get_fen(variant, fen, moves).split()
        if len(fields) > 4 and int(fields[4]) >= 100:
            # The 50-move rule: fairy-egt plays by it (a cursed win is no announced mate).
            if bound is not None:
                return fail("win not converted", "50-move rule")
            return "50-move rule"
        legal = sf.legal_moves(variant, fen, moves)
        stm = "w" if (fen.split()[1] == "w") == (len(moves) % 2 == 0) else "b"
        if not legal:
            mated = sf.gives_check(variant, fen, moves)
            if not mated:
                if bound is not None:
                    return fail("win not converted", "stalemate")
                return "stalemate"
            if stm == egt_side:
                if role in ("attack", "drawn") and resist is None:
                    return fail("lost", f"fairy-egt mated after {egt_moves} moves")
                if resist is not None and egt_moves < resist:
                    return fail("mated too soon", f"fairy-egt mated after {egt_moves} moves of "
                                                  f"its own, announced mate -{resist}")
                if resist is not None and egt_moves == resist:
                    tally.count("fsf_shortest")
                return "egt mated"
            if bound is not None and egt_moves > bound:
                return fail("mate too late", f"mated with move {egt_moves}, announced {bound}")
            if bound is not None and egt_moves == bound:
                tally.count("egt_exact")
            return "egt mates"
        if sum(c.isalpha() for c in sf.get_fen(variant, fen, moves).split()[0]) == 2:
            if bound is not None:
                return fail("win not converted", "bare kings")
            return "bare kings"
        position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
        if stm == egt_side:
            try:
                move, score, took, info = egt.go(position, "go movetime 100",
                                                 args.move_time + 20)
            except (TimeoutError, EOFError) as e:
                return fail("timeout" if isinstance(e, TimeoutError) else "engine error", str(e))
            tally.count("egt_moves")
            if took > args.move_time:
                return fail("timeout", f"fairy-egt took {took:.1f} s")
            if move not in legal:
                return fail("illegal move", f"fairy-egt played {move} ({' | '.join(info)}), "
                                            f"legal for pyffish: {' '.join(legal)}")
            if score is None:
                return fail("score", "fairy-egt gave no score")
            kind, n = score
            if kind == "mate" and n > 0:
                if bound is not None and n > bound - egt_moves:
                    return fail("announced more", f"fairy-egt announced mate {n} after "
                                                  f"{egt_moves} moves of a mate in {bound}")
                if bound is None:
                    bound = egt_moves + n
                    # A win found late in a drawn game (Fairy-Stockfish erred) is played out.
                    max_plies = max(max_plies, len(moves) + 2 * n)
                resist = None
            elif kind == "mate" and n < 0:
                if role in ("attack", "drawn") and bound is None and resist is None:
                    return fail("value lost", f"fairy-egt sees mate {n} in a {role} game")
                if resist is None:
                    resist = egt_moves - n
            elif bound is not None:
                return fail("win lost", f"fairy-egt scored {kind} {n} after announcing a mate")
            egt_moves += 1
        else:
            try:
                move, score, took, info = fsf.go(position, f"go movetime {args.fsf_movetime}",
                                                 args.move_time + 20)
            except (TimeoutError, EOFError) as e:
                return fail("fairy-stockfish", str(e))
            tally.count("fsf_moves")
            if move not in legal:
                return fail("fairy-stockfish illegal", f"{move}, legal: {' '.join(legal)}")
        if move[-1].isalpha():
            tally.count(f"part2 promotion to {move[-1].upper()}")
        moves.append(move)
    trace.update(announced=bound, resist=resist, egt_moves=egt_moves, plies=len(moves))
    if bound is not None:
        return fail("mate too late", f"no mate after {egt_moves} moves, announced {bound}")
    return "100 moves"


def part2(args, rng, tally):
    import pyffish as sf
    ini = os.path.join(REPO, "scripts", "soak-variants.ini")
    with open(ini) as f:
        sf.load_variant_config(f.read())
    cwd = tempfile.mkdtemp(prefix="soak-engine-")
    per = shares(args.fsf_games, len(PART2_ENDGAMES))
    fsf = RawUci("fairy-stockfish", [args.fsf])
    fsf.handshake([("VariantPath", ini), ("Threads", 1), ("Hash", 16)], 30)
    stats = {}
    total = failed = 0

    def start_egt(endgame, board, pieces):
        egt = RawUci("fairy-egt", [args.engine, endgame, "--pieces", pieces, "--board", board,
                                   "--report", "-"], cwd=cwd)
        egt.handshake([], 60)  # readyok waits for the build
        return egt

    try:
        for spec, count in zip(PART2_ENDGAMES, per):
            if count == 0:
                continue
            endgame, board, variant, pieces = spec.endgame, spec.board, spec.variant, spec.pieces
            if spec.opponent == "fsf":
                fsf.configure([("UCI_Variant", variant)], 30)
                opponent = fsf
            else:
                opponent = RandomMover(rng, variant)
            # Roles cycle over all games: attack, drawn, attack, lost, ...
            roles = [ROLES[(total + j) % len(ROLES)] for j in range(count)]
            attack, drawn, lost = (roles.count(r) for r in ("attack", "drawn", "lost"))
            positions = part2_positions(rng, args.engine, spec, cwd, attack, drawn, lost)
            t0 = time.monotonic()
            egt = start_egt(endgame, board, pieces)
            try:
                for fen, role, side, value in positions:
                    total += 1
                    label = (f"fairy-stockfish #{total} {endgame} {variant} fairy-egt "
                             f"{'White' if side == 'w' else 'Black'}, {role} ({value})")
                    trace = {}
                    result = play_part2_game(label, egt, opponent, fen, variant, role, side,
                                             args, tally, trace)
                    if args.verbose:
                        log(f"soak: {label}: {result} {trace}")
                    tally.games += 1
                    key = (role, result)
                    stats[key] = stats.get(key, 0) + 1
                    if result == "failed":
                        failed += 1
                        egt.quit()
                        egt = start_egt(endgame, board, pieces)
            finally:
                egt.quit()
            against = "Fairy-Stockfish" if spec.opponent == "fsf" else "random moves"
            log(f"soak: {endgame} on {board} ({variant}): {count} games against {against} in "
                f"{time.monotonic() - t0:.1f} s")
    finally:
        fsf.quit()
        shutil.rmtree(cwd, ignore_errors=True)

    def n(role, *results):
        return sum(stats.get((role, r), 0) for r in results)

    attack = sum(v for (r, _), v in stats.items() if r == "attack")
    drawn = sum(v for (r, _), v in stats.items() if r == "drawn")
    lost = sum(v for (r, _), v in stats.items() if r == "lost")
    held = n("drawn", "100 moves", "50-move rule", "stalemate", "bare kings", "egt mates")
    unconverted = n("lost", "100 moves", "50-move rule", "stalemate", "bare kings", "egt mates")
    names = ", ".join(f"{e.endgame} {e.variant}" + (" (random moves)" if e.opponent != "fsf"
                                                   else "") for e in PART2_ENDGAMES)
    to = {k[-1]: v for k, v in tally.counts.items() if k.startswith("part2 promotion to ")}
    promotions = f"{sum(to.values())} promotions" + (
        " (" + ", ".join(f"{p} {to[p]}" for p in sorted(to)) + ")" if to else "")
    print(f"soak: fairy-stockfish {total} games ({names}; "
          f"{tally.counts.get('egt_moves', 0)} fairy-egt moves, "
          f"{promotions}): fairy-egt attacking {attack}, "
          f"{n('attack', 'egt mates')} mated within the announced number "
          f"({tally.counts.get('egt_exact', 0)} in exactly it, the others sooner after "
          f"Fairy-Stockfish's errors); defending drawn {drawn}, {held} held; defending lost "
          f"{lost}, {n('lost', 'egt mated')} mated no sooner than announced "
          f"({tally.counts.get('fsf_shortest', 0)} in exactly it), {unconverted} not converted "
          f"by Fairy-Stockfish in 100 moves; {failed} failed", flush=True)
    return total, failed


# --------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 + 10 games (CI)")
    parser.add_argument("--games", type=int, help="python-chess games (default 200)")
    parser.add_argument("--fsf-games", type=int, help="Fairy-Stockfish games (default 40)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--engine", default=None,
                        help="the fairy-egt binary (default: the release build, where cargo put it)")
    parser.add_argument("--gaviota", default=os.environ.get("FAIRY_EGT_GAVIOTA") or None,
                        help="directory of Gaviota tables with kqkr, krkb, krkn "
                             "(env FAIRY_EGT_GAVIOTA)")
    parser.add_argument("--fsf", default=shutil.which("fairy-stockfish")
                        or "/usr/games/fairy-stockfish")
    parser.add_argument("--move-time", type=float, default=10.0,
                        help="seconds a fairy-egt move may take (else: timeout failure)")
    parser.add_argument("--build-time", type=float, default=60.0,
                        help="more seconds an engine's first move may take (its build)")
    parser.add_argument("--fsf-movetime", type=int, default=150, help="Fairy-Stockfish ms/move")
    parser.add_argument("--verbose", action="store_true", help="one line per game")
    parser.add_argument("--cache", default=None,
                        help="python-chess's source distribution (default: <cargo target>/oracle-cache)")
    args = parser.parse_args()
    if args.engine is None:
        args.engine = release_binary()
    if args.cache is None:
        args.cache = os.path.join(target_dir(), "oracle-cache")
    if args.games is None:
        args.games = 20 if args.quick else 200
    if args.fsf_games is None:
        args.fsf_games = 10 if args.quick else 40
    if args.quick and "--fsf-movetime" not in sys.argv:
        args.fsf_movetime = 100
    if os.sep in args.engine:
        args.engine = os.path.abspath(args.engine)  # the engines run in a temporary directory
    if not os.access(args.engine, os.X_OK):
        die(f"soak: {args.engine} is not an executable (cargo build --release)")
    if args.fsf_games and not os.access(args.fsf, os.X_OK):
        die(f"soak: {args.fsf} not found (apt-get install fairy-stockfish)")

    t0 = time.monotonic()
    rng = random.Random(args.seed)
    tally = Tally()
    try:
        data = oracle_data.sdist_data(args.cache)
    except oracle_data.OracleDataError as e:
        die(f"soak: {e}")
    oracle = Oracle(data, args.gaviota)
    if oracle.gaviota is None:
        log("soak: no Gaviota 4-man tables given (--gaviota DIR): won positions are classified "
            "by Syzygy WDL and the announced mate lengths are checked by play only")
    try:
        games1, failed1 = part1(args, rng, oracle, tally) if args.games else (0, 0)
    finally:
        oracle.close()
    games2, failed2 = part2(args, rng, tally) if args.fsf_games else (0, 0)
    for label, what, details in tally.failures[:SHOW]:
        print(f"soak: FAILED {label}: {what}: {details}")
    failed = failed1 + failed2
    games = games1 + games2
    log(f"soak: {games} games in {time.monotonic() - t0:.0f} s")
    print(f"{games - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
