"""Clash resolution (rules section 6, C3/C4, A6 and the landmine options of 10.4)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.games.luzhanqi.pieces import Kind
from bot.games.luzhanqi.rules import LuzhanqiRules, MineRule


class Removal(Enum):
    """What a clash makes visible on the board (9.3); the value is its public wording."""

    DEFENDER = "defender removed"
    ATTACKER = "attacker removed"
    BOTH = "both removed"


@dataclass(frozen=True)
class Clash:
    removal: Removal
    flag_taken: bool = False


def resolve(attacker: Kind, defender: Kind, rules: LuzhanqiRules) -> Clash:
    """The first matching line of section 6 for ``attacker`` moving onto ``defender``."""
    if defender is Kind.FLAG:  # 6.1; C4: a bomb takes the flag and is removed with it
        return Clash(Removal.BOTH if attacker is Kind.BOMB else Removal.DEFENDER, flag_taken=True)
    if Kind.BOMB in (attacker, defender):  # 6.2, A6
        return Clash(Removal.BOTH)
    if defender is Kind.LANDMINE:  # 6.3 with the landmine option of 10.4
        if attacker is Kind.ENGINEER and rules.mines is not MineRule.M3:
            return Clash(Removal.DEFENDER)
        return Clash(Removal.ATTACKER if rules.mines is MineRule.M1 else Removal.BOTH)
    attack_rank, defence_rank = attacker.rank, defender.rank
    assert attack_rank is not None and defence_rank is not None
    if attack_rank > defence_rank:  # 6.4
        return Clash(Removal.DEFENDER)
    if attack_rank < defence_rank:
        return Clash(Removal.ATTACKER)
    return Clash(Removal.BOTH)
