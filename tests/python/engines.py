"""What the python-chess game scripts share: fairy-egt opened over XBoard or UCI."""

import chess.engine


def open_engine(protocol: str, command: list, fen: str):
    """The engine of `command` over `protocol` ("xboard" or "uci"), and the options each
    `play` needs: over XBoard the game's start position, which python-chess then sends with
    `setboard`."""
    if protocol == "xboard":
        return chess.engine.SimpleEngine.popen_xboard(command, timeout=60), {"game": fen}
    return chess.engine.SimpleEngine.popen_uci(command, timeout=60), {}
