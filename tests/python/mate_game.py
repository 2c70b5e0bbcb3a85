"""python-chess drives fairy-egt through chess.engine (popen_xboard or popen_uci): one engine
process plays both sides from FEN to checkmate. Checks that the first score is a mate for
White, that every later score is the one before less a move (Mate(n) for White, Mate(-n) for
Black, n counting down), and that White mates with the move the first score said.

usage: python mate_game.py xboard|uci FEN ENGINE [ARG ...]
       prints "mate in N" on success, with ", promoted with MOVE" when White promoted
"""

import sys

import chess
import chess.engine

from engines import open_engine


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[1] not in ("xboard", "uci"):
        print(__doc__, file=sys.stderr)
        return 2
    protocol, fen, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    engine, options = open_engine(protocol, command, fen)
    board = chess.Board(fen)
    try:
        dtm = None
        white_moves = 0
        promotion = None
        while not board.is_game_over():
            result = engine.play(
                board, chess.engine.Limit(time=1.0), info=chess.engine.INFO_ALL, **options
            )
            score = result.info.get("score")
            if dtm is None:
                if score is None or score.relative.mate() is None or score.relative.mate() <= 0:
                    print(f"first score {score}: want a mate for White")
                    return 1
                dtm = score.relative.mate()
            left = dtm - white_moves
            want = chess.engine.Mate(left) if board.turn == chess.WHITE else chess.engine.Mate(-left)
            if score is None or score.relative != want:
                print(f"move {board.fullmove_number} {board.turn}: score {score}, want {want}")
                return 1
            if board.turn == chess.WHITE:
                white_moves += 1
                if result.move.promotion is not None:
                    promotion = result.move.uci()
            board.push(result.move)
        outcome = board.outcome()
        if not board.is_checkmate() or outcome.winner != chess.WHITE or white_moves != dtm:
            print(f"game ended {outcome} after {white_moves} White moves: {board.fen()}")
            return 1
        promoted = "" if promotion is None else f", promoted with {promotion}"
        print(f"mate in {white_moves}{promoted}")
        return 0
    finally:
        engine.quit()


if __name__ == "__main__":
    sys.exit(main())
