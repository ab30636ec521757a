"""A deployment as a careful Luzhanqi player makes one, varied by the game's dice.

The habits of good players, in the order they are applied:

- the flag in one of the two headquarters, with landmines on the stations beside it (all
  three, or two of them and a third elsewhere on the back two ranks to confuse a raider);
- a junior officer frozen in the other headquarters, where nothing ever moves again;
- the bombs in the middle ranks, behind the front, where they can reach an enemy officer
  that breaks through;
- the field marshal and the general near the front on railway stations, the major
  generals in the forward ranks, so the strong pieces fight early;
- the engineers on railway stations behind the front, free to run to a landmine;
- everyone else in the remaining stations at random.

Every such deployment obeys rules 4.1-4.4 (``check_layout`` is applied before it is used).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from bot.games.luzhanqi.board import NEIGHBOURS, RAIL_STATIONS, Colour
from bot.games.luzhanqi.deployment import HQ_SLOTS, SLOT_RANKS, SLOTS, Layout, check_layout
from bot.games.luzhanqi.pieces import ARMY, Kind

_SLOT_OF = {where: slot for slot, where in enumerate(SLOTS)}


def strong_layout(rng: random.Random) -> Layout:
    """A legal, human-like deployment (in layout order, colour-blind)."""
    placed: dict[int, Kind] = {}
    left = list(ARMY)

    def put(kind: Kind, choices: Iterable[int]) -> None:
        free = [slot for slot in choices if slot not in placed]
        if not free:
            free = [slot for slot in range(len(SLOTS)) if slot not in placed]
        slot = rng.choice(free)
        placed[slot] = kind
        left.remove(kind)

    flag_slot, other_hq = rng.sample(sorted(HQ_SLOTS), 2)
    placed[flag_slot] = Kind.FLAG
    left.remove(Kind.FLAG)
    guards = sorted(_SLOT_OF[s] for s in NEIGHBOURS[SLOTS[flag_slot]] if s in _SLOT_OF)
    back = [s for s in range(len(SLOTS)) if SLOT_RANKS[s] <= 2 and s not in HQ_SLOTS]
    mined = guards if rng.random() < 0.5 else rng.sample(guards, 2)
    for slot in mined:
        put(Kind.LANDMINE, [slot])
    while Kind.LANDMINE in left:
        put(Kind.LANDMINE, back)
    put(rng.choice((Kind.LIEUTENANT, Kind.CAPTAIN)), [other_hq])
    middle = [s for s in range(len(SLOTS)) if 3 <= SLOT_RANKS[s] <= 4]
    put(Kind.BOMB, middle)
    put(Kind.BOMB, middle + [s for s in back if s not in HQ_SLOTS])
    forward_rail = [
        s for s in range(len(SLOTS)) if SLOT_RANKS[s] >= 5 and SLOTS[s] in RAIL_STATIONS
    ]
    forward = [s for s in range(len(SLOTS)) if SLOT_RANKS[s] >= 4]
    put(Kind.MARSHAL, forward_rail)
    put(Kind.GENERAL, forward_rail)
    put(Kind.MAJOR_GENERAL, forward)
    put(Kind.MAJOR_GENERAL, forward)
    behind_rail = [
        s for s in range(len(SLOTS)) if 2 <= SLOT_RANKS[s] <= 4 and SLOTS[s] in RAIL_STATIONS
    ]
    for _ in range(3):
        put(Kind.ENGINEER, behind_rail)
    rest = [slot for slot in range(len(SLOTS)) if slot not in placed]
    rng.shuffle(left)
    for slot, kind in zip(rest, left, strict=True):
        placed[slot] = kind
    layout = tuple(placed[slot] for slot in range(len(SLOTS)))
    check_layout(layout, Colour.RED)
    return layout
