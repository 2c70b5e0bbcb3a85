"""python-chess drives fairy-egt through chess.engine (popen_xboard or popen_uci): one engine
process plays both sides of KQ vs KR from 8/8/8/8/2r5/8/2k5/K6Q w to checkmate. Checks that
White mates with its 35th move and that every reported score is the right Mate(n) for the side
to move.

usage: python kqkr_game.py xboard|uci ENGINE [ARG ...]   (prints "mate in 35" on success)
"""

import sys

import chess
import chess.engine

FEN = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"
DTM = 35


def main() -> int:
    if len(sys.argv) < 3 or sys.argv[1] not in ("xboard", "uci"):
        print(__doc__, file=sys.stderr)
        return 2
    protocol, command = sys.argv[1], sys.argv[2:]
    if protocol == "xboard":
        engine = chess.engine.SimpleEngine.popen_xboard(command, timeout=60)
        options = {"game": "kqkr"}
    else:
        engine = chess.engine.SimpleEngine.popen_uci(command, timeout=60)
        options = {}
    board = chess.Board(FEN)
    try:
        white_moves = 0
        while not board.is_game_over():
            result = engine.play(
                board, chess.engine.Limit(time=1.0), info=chess.engine.INFO_ALL, **options
            )
            score = result.info.get("score")
            left = DTM - white_moves
            want = chess.engine.Mate(left) if board.turn == chess.WHITE else chess.engine.Mate(-left)
            if score is None or score.relative != want:
                print(f"move {board.fullmove_number} {board.turn}: score {score}, want {want}")
                return 1
            if board.turn == chess.WHITE:
                white_moves += 1
            board.push(result.move)
        outcome = board.outcome()
        if not board.is_checkmate() or outcome.winner != chess.WHITE or white_moves != DTM:
            print(f"game ended {outcome} after {white_moves} White moves: {board.fen()}")
            return 1
        print(f"mate in {white_moves}")
        return 0
    finally:
        engine.quit()


if __name__ == "__main__":
    sys.exit(main())
