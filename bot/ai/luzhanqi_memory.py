"""What the Luzhanqi computer believes about the enemy's hidden pieces, from what it was told.

In the referee game a player sees the enemy only as blank tokens, but remembers every move
and every clash the referee announced to them. This module replays those texts to follow
each enemy piece from its deployment station, and narrows the kinds it may be:

- the deployment rules: the flag stands in a headquarters, landmines on the last two
  ranks, bombs off the front rank (4.2-4.4);
- a piece that ever moved is neither a landmine nor the flag (5.2), and one that ran a
  turning railway route is an engineer (5.5);
- every clash: the attacker's and defender's kinds must give the removal announced, by the
  very clash rules of the game (so the landmine options and variant C are read correctly);
- a fallen field marshal, and a flag shown when its marshal fell (section 7).

From these sets and the count of each kind in an army it estimates, for every enemy piece,
how likely each kind is (by iterative proportional fitting: each piece is one piece, each
kind has its count). If the texts ever disagree with the board (they should not), it falls
back to what the board alone shows, so it never believes something impossible.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.luzhanqi.board import (
    HQS,
    NEIGHBOURS,
    Colour,
    Station,
    half,
    lines_through,
    parse_station,
    relative_rank,
)
from bot.games.luzhanqi.clash import Removal, resolve
from bot.games.luzhanqi.pieces import ARMY, COUNTS, TITLES, Kind
from bot.games.luzhanqi.rules import LuzhanqiRules
from bot.games.luzhanqi.view import LuzhanqiView

Belief = dict[Kind, float]
"""How likely each kind is for one enemy piece; the chances add up to one."""

_KIND_OF_TITLE = {title: kind for kind, title in TITLES.items()}
_TITLE = "|".join(sorted(map(re.escape, TITLES.values()), key=len, reverse=True))
_STEP = r"([a-e]\d{1,2})-([a-e]\d{1,2})"
_REMOVAL = "|".join(removal.value for removal in Removal)
_THEY_MOVED = re.compile(rf"^Your opponent moved {_STEP}\.")
_THEY_ATTACKED = re.compile(rf"^Your opponent attacks your ({_TITLE}) {_STEP}: ({_REMOVAL})\.")
_WE_MOVED = re.compile(rf"^You moved your ({_TITLE}) {_STEP}\.")
_WE_ATTACKED = re.compile(rf"^Your ({_TITLE}) attacks {_STEP}: ({_REMOVAL})\.")

FITTING_ROUNDS = 40
"""Rounds of proportional fitting: the chances settle well within this on 25 x 12 values."""


@dataclass
class EnemyPiece:
    """One enemy piece followed from its deployment station."""

    at: Station | None
    """Where it stands now; ``None`` once it was removed."""
    kinds: set[Kind]
    """The kinds it may still be, given everything seen."""


def deployment_kinds(where: Station, colour: Colour) -> set[Kind]:
    """The kinds that may stand on ``where`` in ``colour``'s deployment (rules 4.2-4.4)."""
    depth = relative_rank(where, colour)
    kinds = set(COUNTS)
    if where not in HQS:
        kinds.discard(Kind.FLAG)
    if depth > 2:
        kinds.discard(Kind.LANDMINE)
    if depth == 6:
        kinds.discard(Kind.BOMB)
    return kinds


def remembered(view: LuzhanqiView, heard: Sequence[str]) -> list[EnemyPiece]:
    """Every enemy piece (standing or removed) with the kinds it may be."""
    mine = view.colour
    assert mine is not None
    enemy = mine.opponent
    rules = view.rules
    pieces = [EnemyPiece(where, deployment_kinds(where, enemy)) for where in half(enemy)]
    standing = {piece.at: piece for piece in pieces}
    try:
        for text in heard:
            _replay(text, standing, rules)
    except (KeyError, ValueError):
        standing = {}
    shown = {
        where
        for where, piece in enumerate(view.pieces)
        if piece is not None and piece.colour is enemy
    }
    if set(standing) != shown:  # the texts and the board disagree: trust the board alone
        pieces = [EnemyPiece(where, set(COUNTS)) for where in sorted(shown)]
        for piece in pieces:
            assert piece.at is not None
            if piece.at not in HQS:
                piece.kinds.discard(Kind.FLAG)
            if relative_rank(piece.at, enemy) > 2:
                piece.kinds.discard(Kind.LANDMINE)
    for piece in pieces:
        if piece.at is None:
            continue
        shown_kind = view.pieces[piece.at]
        if shown_kind is not None and shown_kind.kind is not None:
            piece.kinds = {shown_kind.kind}  # a flag shown after its marshal fell (section 7)
        if Kind.MARSHAL in _known_losses(view, enemy):
            piece.kinds.discard(Kind.MARSHAL)
        if not piece.kinds:  # never believe the impossible: start afresh for this piece
            piece.kinds = set(COUNTS)
    return pieces


def _known_losses(view: LuzhanqiView, colour: Colour) -> tuple[Kind, ...]:
    for losses in view.losses:
        if losses.colour is colour:
            return losses.known
    return ()


def _replay(text: str, standing: dict[Station | None, EnemyPiece], rules: LuzhanqiRules) -> None:
    """Follow one announced move or clash (raises KeyError if it names no known piece)."""
    if moved := _THEY_MOVED.match(text):
        start, target = parse_station(moved.group(1)), parse_station(moved.group(2))
        piece = standing.pop(start)
        piece.kinds &= {k for k in piece.kinds if k.movable}
        if target not in NEIGHBOURS[start] and not any(
            target in line for line in lines_through(start)
        ):
            piece.kinds &= {Kind.ENGINEER}  # 5.5: only an engineer turns on the railway
        piece.at = target
        standing[target] = piece
    elif attacked := _THEY_ATTACKED.match(text):
        ours = _KIND_OF_TITLE[attacked.group(1)]
        start, target = parse_station(attacked.group(2)), parse_station(attacked.group(3))
        removal = Removal(attacked.group(4))
        piece = standing.pop(start)
        piece.kinds = {
            k for k in piece.kinds if k.movable and resolve(k, ours, rules).removal is removal
        }
        if removal is Removal.DEFENDER:
            piece.at = target
            standing[target] = piece
        else:
            piece.at = None
    elif attacking := _WE_ATTACKED.match(text):
        ours = _KIND_OF_TITLE[attacking.group(1)]
        target = parse_station(attacking.group(3))
        removal = Removal(attacking.group(4))
        piece = standing[target]
        piece.kinds = {
            k
            for k in piece.kinds
            if k is not Kind.FLAG and resolve(ours, k, rules).removal is removal
        }
        if removal is not Removal.ATTACKER:
            del standing[target]
            piece.at = None
    elif _WE_MOVED.match(text):
        return  # our own moves change nothing we believe about the enemy


def beliefs(pieces: Sequence[EnemyPiece]) -> list[Belief]:
    """Each piece's chances per kind: every piece is exactly one kind, and the whole army
    has each kind's count (removed pieces included), fitted proportionally."""
    kinds = list(COUNTS)
    table = [[1.0 if kind in piece.kinds else 0.0 for kind in kinds] for piece in pieces]
    totals = [float(COUNTS[kind]) * len(pieces) / len(ARMY) for kind in kinds]
    for _ in range(FITTING_ROUNDS):
        for column, total in enumerate(totals):
            mass = sum(row[column] for row in table)
            if mass > 0:
                scale = total / mass
                for row in table:
                    row[column] *= scale
        for row in table:
            mass = sum(row)
            if mass > 0:
                for column in range(len(row)):
                    row[column] /= mass
    return [
        {kind: row[column] for column, kind in enumerate(kinds) if row[column] > 0} for row in table
    ]


def enemy_beliefs(view: LuzhanqiView, heard: Sequence[str]) -> dict[Station, Belief]:
    """The chances per kind of every standing enemy piece, by the station it stands on."""
    pieces = remembered(view, heard)
    return {
        piece.at: belief
        for piece, belief in zip(pieces, beliefs(pieces), strict=True)
        if piece.at is not None
    }
