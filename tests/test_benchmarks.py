"""The benchmarks are programs people run by hand: they must end, and say why, when a game fails.

Nothing here measures speed (timings vary with the machine); only the benchmarks' behaviour.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BROKEN_RULES = """
import sys
from bot.games import ENGINES

def broken(state, seat, action):
    raise RuntimeError("a bug in the rules")

ENGINES["seabattle"].apply = broken
sys.argv = ["moves", "--games", "1"]
from benchmarks import moves
moves.main()
"""


def test_the_moves_benchmark_exits_with_the_error_when_a_game_raises() -> None:
    """A failing move used to leave aiosqlite's thread running: the process never ended."""
    try:
        finished = subprocess.run(
            [sys.executable, "-c", BROKEN_RULES],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,  # far beyond the second it takes; only a hang gets here
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("the benchmark hung after the game raised") from None
    assert finished.returncode == 1, finished.stderr
    assert "GameFault" in finished.stderr and "a bug in the rules" in finished.stderr
