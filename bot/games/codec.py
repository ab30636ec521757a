"""A declarative codec for a game's stored state: JSON in, JSON out, validated on load.

Each game declares its state as data: its fields, how each is read from JSON and written
back, and the rules a loaded state must satisfy, each with the sentence that refuses it.
This module does the reading, the writing and the refusing for every game, so a game's
state module says what its stored form is instead of walking it by hand, and a rule is one
line with its sentence instead of a branch in a long function. A stored game is played on,
so anything play cannot reach is refused on load: the rules that need more than a line
(Sea Battle's fleets, Seachess's hidden pieces) stay small named checks the codec calls.

Shapes (``Plain``, ``Ruled``, ``ListOf``, ``Maybe``, ``Row``, ``Record``) read a JSON value
with the game's rules at hand, since some values (Sea Battle's cells) depend on them, and
write it back exactly as the game always has: stored games must keep loading and a state
written again must be byte for byte what it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from itertools import repeat
from operator import attrgetter, call
from typing import Any, Generic, TypeVar

from bot.games.core import SEATS, CorruptStateError, GameError, Outcome, Phase

S = TypeVar("S")

REQUIRED: Any = object()
"""A field's ``missing`` when the key must be there."""

UNREADABLE = (KeyError, TypeError, ValueError, IndexError, GameError)
"""What reading malformed JSON raises: each is refused as unreadable, never let through."""


def _same(value: Any) -> Any:
    return value


class Shape:
    """How one value is stored: ``read(raw, rules)`` takes it from JSON (some values, such
    as Sea Battle's cells, depend on the rules) and ``write(value)`` gives it back. A shape
    builds both once, when a game declares it, and lists and rows map them in C, so loading
    or saving a state on every move costs about what the hand-written loops did."""

    read: Callable[[Any, Any], Any]
    write: Callable[[Any], Any]
    parse: Callable[[Any], Any] | None = None
    """The reader, for a shape that needs no rules: a list of them calls it directly."""


class Plain(Shape):
    """A value read by one function and written by another (both unchanged by default)."""

    def __init__(self, parse: Callable[[Any], Any] = _same, form: Callable[[Any], Any] = _same):
        self.parse = parse
        self.read = lambda raw, rules: parse(raw)
        self.write = form


class Ruled(Shape):
    """A value whose reading depends on the game's rules (a cell on a field of their size)."""

    def __init__(self, parse: Callable[[Any, Any], Any], form: Callable[[Any], Any] = _same):
        self.read = parse
        self.write = form


class ListOf(Shape):
    """A tuple stored as a JSON list, each item in ``item``'s shape."""

    def __init__(self, item: Shape) -> None:
        read, parse, write = item.read, item.parse, item.write
        if parse is None:
            self.read = lambda raw, rules: tuple(map(read, raw, repeat(rules)))
        else:
            self.read = lambda raw, rules: tuple(map(parse, raw))
        self.write = list if write is _same else lambda value: list(map(write, value))


class Maybe(Shape):
    """``None``, or a value in ``item``'s shape."""

    def __init__(self, item: Shape) -> None:
        read, write = item.read, item.write
        self.read = lambda raw, rules: None if raw is None else read(raw, rules)
        self.write = lambda value: None if value is None else write(value)


def unpack(raw: Any, count: int) -> Sequence[Any]:
    """``raw``'s items, refused as Python refuses unpacking them into ``count`` names."""
    if type(raw) is list and len(raw) == count:
        return raw
    try:
        values = tuple(raw)
    except TypeError:
        raise TypeError(f"cannot unpack non-iterable {type(raw).__name__} object") from None
    if len(values) < count:
        raise ValueError(f"not enough values to unpack (expected {count}, got {len(values)})")
    if len(values) > count:
        raise ValueError(f"too many values to unpack (expected {count})")
    return values


class Row(Shape):
    """A record stored as a JSON list, one column a field in order. ``make`` builds it from
    the values read and ``split`` takes it apart (a dataclass's fields by default). A row
    that is not ``exact`` reads its columns by index and passes over any items after them,
    as some games always have; an exact one refuses a list of another length."""

    def __init__(
        self,
        make: Callable[..., Any],
        *columns: Shape,
        split: Callable[[Any], Sequence[Any]] | None = None,
        exact: bool = True,
    ) -> None:
        readers = tuple(column.read for column in columns)
        writers = tuple(column.write for column in columns)
        if split is None:
            names = [each.name for each in fields(make)]  # type: ignore[arg-type]
            getter = attrgetter(*names)
            split = getter if len(names) > 1 else lambda value: (getter(value),)
        parts = split

        def read_exact(raw: Any, rules: Any) -> Any:
            return make(*map(call, readers, unpack(raw, len(readers)), repeat(rules)))

        def read_loose(raw: Any, rules: Any) -> Any:
            return make(*[read(raw[i], rules) for i, read in enumerate(readers)])

        self.read = read_exact if exact else read_loose
        changed = tuple((i, write) for i, write in enumerate(writers) if write is not _same)

        def write(value: Any) -> list[Any]:
            row = list(parts(value))
            for i, form in changed:
                row[i] = form(row[i])
            return row

        self.write = write


class Field:
    """One key of a JSON object: its shape, the attribute it fills (``attr``, the key by
    default), the attribute written (``source``, ``attr`` by default), the raw value taken
    when the key is absent (keys added later), and when the key is written at all."""

    def __init__(
        self,
        key: str,
        shape: Shape | None = None,
        attr: str = "",
        source: str = "",
        missing: Any = REQUIRED,
        written: Callable[[Any], bool] | None = None,
    ) -> None:
        self.key = key
        self.shape = shape or Plain()
        self.attr = attr or key
        self.source = source or self.attr
        self.missing = missing
        self.written = written


class Record(Shape):
    """A record stored as a JSON object, one key a field, built by ``make`` from keywords."""

    def __init__(self, make: Callable[..., Any], *keys: Field) -> None:
        self.make = make
        readers = tuple((f.key, f.attr, f.missing, f.shape.read) for f in keys)
        writers = tuple(
            (
                f.key,
                attrgetter(f.source),
                None if f.shape.write is _same else f.shape.write,
                f.written,
            )
            for f in keys
        )

        def values(raw: Any, rules: Any) -> dict[str, Any]:
            return {
                attr: read(raw[key] if missing is REQUIRED else raw.get(key, missing), rules)
                for key, attr, missing, read in readers
            }

        self.values = values
        self.read = lambda raw, rules: make(**values(raw, rules))
        self.write = lambda value: {
            key: get(value) if write is None else write(get(value))
            for key, get, write, written in writers
            if written is None or written(value)
        }


Check = Callable[[S], "str | None"]
"""A named check: the sentence refusing a state, or ``None`` when the state passes."""


@dataclass(frozen=True)
class Rule:
    """A stored state is refused with ``sentence`` when ``broken(state)`` is true. The rules
    of a game are lambdas over its state, read as declarations, hence ``Any``."""

    sentence: str
    broken: Callable[[Any], Any]

    def __call__(self, state: Any) -> str | None:
        return self.sentence if self.broken(state) else None


class Codec(Generic[S]):
    """One game's stored state: its version, its rules, its other fields (``state``, whose
    ``make`` builds the state) and the checks a loaded state passes.

    ``name`` is how refusals speak of a stored game ("Seachess game", "Marine Game");
    ``unknown`` is the refusal of a version not read (``{version!r}`` may name it);
    ``impossible`` wraps each check's sentence ("{}" keeps it as it is).
    """

    def __init__(
        self,
        name: str,
        rules: Callable[[Any], Any],
        state: Record,
        checks: Sequence[Check[S]],
        version: int = 1,
        readable: tuple[int, ...] = (),
        unknown: str = "",
        impossible: str = "{}",
    ) -> None:
        self.name = name
        self.read_rules = rules
        self.state = state
        self.checks = tuple(checks)
        self.version = version
        self.readable = readable or (version,)
        self.unknown = unknown or f"Unknown {name.removesuffix(' game')} state version."
        self.impossible = impossible

    def dump(self, state: S) -> dict[str, Any]:
        """The stored form: the version, the rules, then the fields in their order."""
        rules = state.rules.to_json()  # type: ignore[attr-defined]
        return {"version": self.version, "rules": rules, **self.state.write(state)}

    def load(self, data: Mapping[str, Any]) -> S:
        """The state stored as ``data``, refused with ``CorruptStateError`` when it is not
        one this game wrote or not one play could reach."""
        found = data.get("version") if isinstance(data, Mapping) else None
        if found not in self.readable:
            raise CorruptStateError(self.unknown.format(version=found))
        try:
            rules = self.read_rules(data["rules"])
            state: S = self.state.make(rules=rules, **self.state.values(data, rules))
        except UNREADABLE as error:
            raise CorruptStateError(f"The stored {self.name} is unreadable: {error}") from None
        self.validate(state)
        return state

    def validate(self, state: S) -> None:
        """Refuse ``state`` with the sentence of the first check it fails."""
        for check in self.checks:
            why = check(state)
            if why is not None:
                raise CorruptStateError(self.impossible.format(why))


# -- what every game stores and checks alike ---------------------------------------------


SEED = Field("seed", Plain(int))


def enum(kind: type[Enum]) -> Plain:
    """A member of an enumeration, stored as its value."""
    return Plain(kind, attrgetter("value"))


PHASE = Field("phase", enum(Phase))
OUTCOME = Field(
    "outcome",
    Plain(
        lambda raw: Outcome.from_json(raw) if raw else None,
        lambda outcome: outcome.to_json() if outcome else None,
    ),
)


def is_seat(value: Any, optional: bool = False) -> bool:
    """Whether ``value`` names a seat (or is ``None``, when ``optional``)."""
    return value in SEATS or (optional and value is None)


def outcome_when_finished(sentence: str) -> Rule:
    """Only a finished game has an outcome, and a finished game has one."""
    return Rule(sentence, lambda s: (s.phase is Phase.FINISHED) != (s.outcome is not None))


def ready_to_play(sentence: str) -> Rule:
    """A game in play has both sides ready and a seat to move."""
    return Rule(
        sentence,
        lambda s: s.phase is Phase.PLAY and (not all(x.ready for x in s.sides) or s.turn is None),
    )


def no_setup(sentence: str) -> Rule:
    """For the games that begin in play: a stored game is never in setup."""
    return Rule(sentence, lambda s: s.phase is Phase.SETUP)


def seat(value: Any) -> int:
    """A seat read strictly: 0 or 1, never ``True`` or ``"1"``."""
    if value not in SEATS or isinstance(value, bool):
        raise ValueError(f"{value!r} is not a seat")
    return int(value)


def flag(value: Any) -> bool:
    """A flag read strictly: ``true`` or ``false``, never 1 or ``"yes"``."""
    if not isinstance(value, bool):
        raise ValueError(f"{value!r} is not true or false")
    return value


def ascending(keys: Sequence[Any]) -> bool:
    """Whether ``keys`` are in order with none twice (pieces by square, mines by square)."""
    return list(keys) == sorted(set(keys))


def pair(first: Any, second: Any) -> tuple[Any, Any]:
    """A row stored for a plain pair, such as a mine's square and owner."""
    return first, second


BOOL = Plain(bool)
SEAT = Plain(seat)
FLAG = Plain(flag)
INT = Plain(int)
TEXT = Plain(str)
