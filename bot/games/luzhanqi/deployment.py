"""Secret deployment (rules 4.1-4.5): checking a layout and dealing a legal random one.

A layout is one side's 25 kinds in the order of ``board.half``: from the player's back
row forward, files a to e, camps skipped. Counting ranks from one's own back row makes a
layout colour-blind, so a deployment saved as Red loads unchanged as Blue.
"""

from __future__ import annotations

import random
from collections import Counter

from bot.games.core import IllegalActionError
from bot.games.luzhanqi.board import HQS, Colour, half, name, relative_rank
from bot.games.luzhanqi.pieces import ARMY, Kind

Layout = tuple[Kind, ...]
SLOTS = half(Colour.RED)
"""Red's stations in layout order; any colour's slot ``i`` has the same relative rank."""
HQ_SLOTS = frozenset(i for i, s in enumerate(SLOTS) if s in HQS)
SLOT_RANKS = tuple(relative_rank(s, Colour.RED) for s in SLOTS)


def check_layout(layout: Layout, colour: Colour) -> None:
    """Raise IllegalActionError naming the first of rules 4.1-4.4 the layout breaks."""
    if len(layout) != len(SLOTS) or Counter(layout) != Counter(ARMY):
        raise IllegalActionError(
            "A deployment must place exactly your 25 pieces, one on every post and HQ of "
            "your half."
        )
    stations = half(colour)
    for slot, kind in enumerate(layout):
        check_piece(kind, slot, stations[slot])


def check_piece(kind: Kind, slot: int, where: int) -> None:
    """Raise IllegalActionError if ``kind`` may not be deployed on layout slot ``slot``."""
    if kind is Kind.FLAG and slot not in HQ_SLOTS:
        raise IllegalActionError(
            f"Your flag cannot stand on {name(where)}: it must stand on one of your two "
            "HQs."
        )
    if kind is Kind.LANDMINE and SLOT_RANKS[slot] > 2:
        raise IllegalActionError(
            f"A landmine cannot stand on {name(where)}: landmines go only on your last two "
            "ranks."
        )
    if kind is Kind.BOMB and SLOT_RANKS[slot] == 6:
        raise IllegalActionError(
            f"A bomb cannot stand on {name(where)}: bombs may not stand on your front rank."
        )


def random_layout(rng: random.Random) -> Layout:
    """A legal layout: the flag on an HQ, landmines behind, bombs off the front, rest shuffled."""
    free = list(range(len(SLOTS)))
    placed: dict[int, Kind] = {}

    def put(kind: Kind, choices: list[int]) -> None:
        slot = rng.choice(choices)
        placed[slot] = kind
        free.remove(slot)

    put(Kind.FLAG, sorted(HQ_SLOTS))
    for _ in range(3):
        put(Kind.LANDMINE, [s for s in free if SLOT_RANKS[s] <= 2])
    for _ in range(2):
        put(Kind.BOMB, [s for s in free if SLOT_RANKS[s] != 6])
    rest = [k for k in ARMY if k not in (Kind.FLAG, Kind.LANDMINE, Kind.BOMB)]
    rng.shuffle(rest)
    for slot, kind in zip(free, rest, strict=True):
        placed[slot] = kind
    return tuple(placed[slot] for slot in range(len(SLOTS)))


def layout_text(layout: Layout) -> str:
    """The canonical ``deploy`` text: codes rank by rank from the back, ranks split by ``/``."""
    groups: list[str] = []
    for slot, kind in enumerate(layout):
        if slot == 0 or SLOT_RANKS[slot] != SLOT_RANKS[slot - 1]:
            groups.append("")
        groups[-1] += kind.value
    return "deploy " + "/".join(groups)


def parse_layout_codes(codes: str) -> Layout:
    """Read the codes of a ``deploy`` text (slashes optional); raises ValueError if unreadable."""
    compact = codes.replace("/", "").replace(" ", "").upper()
    return tuple(Kind(code) for code in compact)
