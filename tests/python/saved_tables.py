"""python-chess sets the engine's table directory, as its users would, and the engine saves
its tables there: over XBoard through the option python-chess makes of `feature egt`
(`egtpath fairy-egt`), over UCI through the string option TablePath.

usage: saved_tables.py xboard|uci DIR ENGINE [ARGS...]; prints the move and the saved files.
"""

import os
import sys

import chess
import chess.engine

protocol, directory, command = sys.argv[1], sys.argv[2], sys.argv[3:]
if protocol == "xboard":
    engine = chess.engine.SimpleEngine.popen_xboard(command)
    option = "egtpath fairy-egt"
else:
    engine = chess.engine.SimpleEngine.popen_uci(command)
    option = "TablePath"
assert option in engine.options, sorted(engine.options)
engine.configure({option: directory})
board = chess.Board("8/8/8/3n4/8/2k5/8/K6R w - - 0 1")
result = engine.play(board, chess.engine.Limit(time=1))
engine.quit()
print(result.move)
print(" ".join(sorted(os.listdir(directory))))
