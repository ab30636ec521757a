"""How a clash ends (Warships rules §4.1, §9.4, §11.3, §12.3, §12.4)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.warships.units import Kind, Result, clash


@dataclass(frozen=True)
class Clash:
    attacker_lost: bool
    defender_lost: bool


def resolve(attacker: Kind, defender: Kind, *, defuse: bool = False) -> Clash:
    """Who is removed when ``attacker`` targets ``defender``.

    A defusing minesweeper removes a mine and survives; aimed at anything else it is lost and
    the target stays (ruling 9). Every other clash follows the printed matrix, where a mine
    takes its attacker with it (§12.3).
    """
    if defuse:
        return Clash(attacker_lost=defender is not Kind.MINE, defender_lost=defender is Kind.MINE)
    result = clash(attacker, defender)
    if result is Result.FORBIDDEN:
        raise ValueError(f"{attacker.value} may not attack {defender.value}")
    return Clash(
        attacker_lost=result in (Result.DEFENDER_WINS, Result.BOTH),
        defender_lost=result in (Result.ATTACKER_WINS, Result.BOTH),
    )
