"""The layout of an exported game (``/export``), read back strictly for the verifier.

An export is a JSON object; ``read`` turns one into an ``Export`` or says in one sentence
what is wrong with its shape (a missing field, a seal without a salt, a ply that is not a
number), so that ``python -m bot.verify`` checks only well-formed claims and never shows a
traceback. Whether the claims are true is for ``bot.verify`` to say.

Format 2 added ``computer_seat`` (the seat the computer played, which is never late on
time). Format 1 exports are still read, as games between people.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.fairness import Seal

FORMAT = 2
"""The version of the export's layout that ``/export`` writes."""
READABLE = (1, 2)
"""The versions the verifier reads."""
KINDS = ("move", "end")
"""The kinds of log entry: a player's move, or an end from outside the rules."""

Told = tuple[tuple[int | None, tuple[str, ...]], ...]
"""What each audience was told of one change, as ``bot.announcements.AudienceTexts``."""


class Unreadable(ValueError):
    """An export that cannot be checked at all; its message is one sentence saying why."""


@dataclass(frozen=True)
class Action:
    """One entry of the game's log."""

    ply: int
    seat: int
    kind: str
    text: str


@dataclass(frozen=True)
class Export:
    """Everything an export claims, well-formed but not yet checked."""

    format: int
    game: str
    title: str
    id: int
    variant: str
    rules: Mapping[str, Any]
    seed: int
    seats: tuple[str, str]
    winner: int | None
    end: str
    computer_seat: int | None
    actions: tuple[Action, ...]
    announcements: dict[int, Told]
    sealed_at: int | None
    seals: tuple[Seal, ...]


def read(data: object) -> Export:
    """The export ``data`` (parsed JSON) claims to be; raises Unreadable if malformed."""
    if not isinstance(data, dict):
        raise Unreadable("the file is not an exported game (a JSON object).")
    version = data.get("format")
    if type(version) is not int or version not in READABLE:
        raise Unreadable(
            f"it is in export format {_shown(version)}, and this checker reads formats "
            f"{', '.join(map(str, READABLE))}."
        )
    seals = _field(data, "seals", dict, "an object")
    computer = data.get("computer_seat") if version >= 2 else None
    if computer is not None and not _is_seat(computer):
        raise Unreadable(f"its `computer_seat` is {_shown(computer)}, not 0, 1 or null.")
    return Export(
        format=version,
        game=_field(data, "game", str, "a text"),
        title=_field(data, "title", str, "a text"),
        id=_number(data, "id", "the export"),
        variant=_field(data, "variant", str, "a text"),
        rules=_field(data, "rules", dict, "an object"),
        seed=_number(data, "seed", "the export"),
        seats=_seats(data),
        winner=_seat(data, "winner", "the export", optional=True),
        end=_field(data, "end", str, "a text"),
        computer_seat=computer,
        actions=tuple(_action(entry) for entry in _list(data, "actions", "the export")),
        announcements=_announcements(_list(data, "announcements", "the export")),
        sealed_at=None if seals.get("ply") is None else _number(seals, "ply", "the seals"),
        seals=tuple(_seal(entry) for entry in _list(seals, "entries", "the seals")),
    )


def _field(data: Mapping[str, Any], name: str, kind: type, what: str, where: str = "") -> Any:
    if name not in data:
        raise Unreadable(f"{where or 'the export'} has no `{name}`.")
    value = data[name]
    if not isinstance(value, kind):
        raise Unreadable(f"the `{name}` of {where or 'the export'} is {_shown(value)}, not {what}.")
    return value


def _number(data: Mapping[str, Any], name: str, where: str) -> int:
    value = _field(data, name, int, "a whole number", where)
    if isinstance(value, bool):
        raise Unreadable(f"the `{name}` of {where} is {_shown(value)}, not a whole number.")
    return int(value)


def _seat(data: Mapping[str, Any], name: str, where: str, *, optional: bool = False) -> int | None:
    if name not in data:
        raise Unreadable(f"{where} has no `{name}`.")
    value = data[name]
    if value is None and optional:
        return None
    if _is_seat(value):
        return int(value)
    allowed = "0, 1 or null" if optional else "0 or 1"
    raise Unreadable(f"the `{name}` of {where} is {_shown(value)}, not {allowed}.")


def _is_seat(value: object) -> bool:
    """Whether ``value`` is a seat number as JSON writes one: 0 or 1, not 0.0 or true."""
    return type(value) is int and value in (0, 1)


def _list(data: Mapping[str, Any], name: str, where: str) -> list[Any]:
    return _field(data, name, list, "a list", where)


def _seats(data: Mapping[str, Any]) -> tuple[str, str]:
    seats = _list(data, "seats", "the export")
    if len(seats) != 2 or not all(isinstance(s, (str, int)) and str(s).isdigit() for s in seats):
        raise Unreadable(f"its `seats` are {_shown(seats)}, not the two players' user ids.")
    return str(seats[0]), str(seats[1])


def _action(entry: object) -> Action:
    if not isinstance(entry, dict):
        raise Unreadable(f"an action is {_shown(entry)}, not an object.")
    ply = _number(entry, "ply", "an action")
    where = f"the action at ply {ply}"
    kind = _field(entry, "kind", str, "a text", where)
    if kind not in KINDS:
        raise Unreadable(f"{where} is of kind {_shown(kind)}, neither `move` nor `end`.")
    seat = _seat(entry, "seat", where)
    assert seat is not None
    return Action(ply, seat, kind, _field(entry, "text", str, "a text", where))


def _announcements(entries: list[Any]) -> dict[int, Told]:
    told: dict[int, Told] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            raise Unreadable(f"an announcement is {_shown(entry)}, not an object.")
        ply = _number(entry, "ply", "an announcement")
        if ply in told:
            raise Unreadable(f"the announcements of ply {ply} are given twice.")
        told[ply] = tuple(
            _audience_texts(ply, item) for item in _list(entry, "tidings", f"ply {ply}")
        )
    return told


def _audience_texts(ply: int, item: object) -> tuple[int | None, tuple[str, ...]]:
    if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], list)):
        raise Unreadable(f"an announcement of ply {ply} is {_shown(item)}, not [audience, texts].")
    audience, texts = item
    if audience is not None and not _is_seat(audience):
        raise Unreadable(
            f"an announcement of ply {ply} is for the audience {_shown(audience)}, "
            "not 0, 1 or null (the channel)."
        )
    if not all(isinstance(text, str) for text in texts):
        raise Unreadable(f"an announcement of ply {ply} holds something other than texts.")
    return audience, tuple(texts)


def _seal(entry: object) -> Seal:
    if not isinstance(entry, dict):
        raise Unreadable(f"a seal is {_shown(entry)}, not an object.")
    who = _field(entry, "who", str, "a text", "a seal")
    where = f"the seal of {who[:20]}"
    parts = (_field(entry, name, str, "a text", where) for name in ("salt", "digest", "secret"))
    return Seal(who, *parts)


def _shown(value: object) -> str:
    """A value as the file writes it, cut short: the file may hold anything."""
    text = json.dumps(value, ensure_ascii=False)
    return f"`{text if len(text) <= 40 else text[:37] + '...'}`"
