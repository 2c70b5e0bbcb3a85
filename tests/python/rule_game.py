"""python-chess drives fairy-egt through chess.engine (popen_xboard or popen_uci): one engine
process plays both sides from a FEN whose half-move clock is near the 50-move rule's end.

"win": White's win still comes within the rule from the clock. The first score must be a
mate for White, every later score the one before less a move, and White must mate with the
clock never at 100 plies before (python-chess's own count: no won position lost to the rule),
the engine claiming nothing on the way.

"draw": the clock makes White's win a cursed one. Every score must be +1 centipawn for White
and -1 for Black (a draw that leans), no mate may come, and the game must reach the rule's
100 plies; over XBoard the engine must then claim the draw (no move, a `1/2-1/2` result) and
not before (no false claim).

usage: python rule_game.py xboard|uci win|draw FEN ENGINE [ARG ...]
       prints "mate in N after M plies" or "draw by the rule after M plies" on success
"""

import sys

import chess
import chess.engine

from engines import open_engine


def main() -> int:
    if len(sys.argv) < 5 or sys.argv[1] not in ("xboard", "uci") or sys.argv[2] not in (
        "win",
        "draw",
    ):
        print(__doc__, file=sys.stderr)
        return 2
    protocol, expect, fen, command = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    engine, options = open_engine(protocol, command, fen)
    board = chess.Board(fen)
    plies = 0
    try:
        dtm = None
        while not board.is_checkmate():
            fifty = board.is_fifty_moves()
            if fifty and protocol == "uci":
                break
            result = engine.play(
                board, chess.engine.Limit(time=1.0), info=chess.engine.INFO_ALL, **options
            )
            if result.move is None:
                # XBoard: the engine claimed the game's end instead of moving.
                if not fifty:
                    print(f"a claim at clock {board.halfmove_clock}: {board.fen()}")
                    return 1
                break
            if fifty:
                print(f"no claim at clock {board.halfmove_clock}: {board.fen()}")
                return 1
            score = result.info.get("score")
            if score is None:
                print(f"ply {plies}: no score")
                return 1
            score = score.pov(chess.WHITE)
            if expect == "win":
                if dtm is None:
                    if score.mate() is None or score.mate() <= 0:
                        print(f"first score {score}: want a mate for White")
                        return 1
                    dtm = score.mate()
                left = dtm - (plies + 1) // 2
                if score != chess.engine.Mate(left):
                    print(f"ply {plies}: score {score}, want mate in {left} for White")
                    return 1
            elif score != chess.engine.Cp(1):
                print(f"ply {plies}: score {score} for White, want +1 centipawn")
                return 1
            board.push(result.move)
            plies += 1
        if expect == "win":
            if not board.is_checkmate() or board.turn != chess.BLACK:
                print(f"no mate by White after {plies} plies: {board.fen()}")
                return 1
            moves = (plies + 1) // 2
            if moves != dtm:
                print(f"mate in {moves}, but the first score said {dtm}")
                return 1
            print(f"mate in {moves} after {plies} plies")
        else:
            if board.is_checkmate() or board.halfmove_clock != 100:
                print(f"ended at clock {board.halfmove_clock}: {board.fen()}")
                return 1
            print(f"draw by the rule after {plies} plies")
        return 0
    finally:
        engine.quit()


if __name__ == "__main__":
    sys.exit(main())
