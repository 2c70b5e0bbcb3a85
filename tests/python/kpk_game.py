"""python-chess drives fairy-egt through chess.engine (popen_xboard or popen_uci): one engine
process plays both sides of K+P vs K from 2k5/8/2K5/2P5/8/8/8/8 w to checkmate, through a
promotion. Checks that White promotes and mates, that the first score is a mate for White,
and that every later score is the one before less a move (Mate(n) for White, Mate(-n) for
Black, n counting down).

usage: python kpk_game.py xboard|uci ENGINE [ARG ...]
       (prints "promoted with c7c8q, mate in N" on success)
"""

import sys

import chess
import chess.engine

FEN = "2k5/8/2K5/2P5/8/8/8/8 w - - 0 1"


def main() -> int:
    if len(sys.argv) < 3 or sys.argv[1] not in ("xboard", "uci"):
        print(__doc__, file=sys.stderr)
        return 2
    protocol, command = sys.argv[1], sys.argv[2:]
    if protocol == "xboard":
        engine = chess.engine.SimpleEngine.popen_xboard(command, timeout=60)
        options = {"game": "kpk"}
    else:
        engine = chess.engine.SimpleEngine.popen_uci(command, timeout=60)
        options = {}
    board = chess.Board(FEN)
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
        if promotion is None:
            print(f"mate in {white_moves} without a promotion: {board.move_stack}")
            return 1
        print(f"promoted with {promotion}, mate in {white_moves}")
        return 0
    finally:
        engine.quit()


if __name__ == "__main__":
    sys.exit(main())
