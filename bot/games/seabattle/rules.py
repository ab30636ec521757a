"""Sea Battle variants as data (Sea Battle rules §2, §4 and §5).

Every preset is a frozen ``SeaBattleRules`` value stored with the game, so a game keeps
its rules even if the presets change later. Optional modules are turned on by option
words typed at ``/play`` (``corners shapes``), checked against the combinations §4.9
allows, so a refused combination is refused with a sentence saying what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from bot.games.core import CorruptStateError, GameError
from bot.games.grid import shorten


class Touching(Enum):
    """How close two ships may lie."""

    NONE = "none"  # §2.3: not even at a corner
    CORNERS = "corners"  # §4.1: at corners, never along sides
    ANY = "any"  # §4.2 Milton Bradley: touching allowed, only overlap is forbidden


class Ruleset(Enum):
    """Which family of rules a game follows: the modules each one accepts differ (§4.9)."""

    CLASSIC = "classic"  # §2, with the 15x15 field of §4.5 too
    MINEFIELD = "minefield"  # §4.7: 16x16 or 18x18 with mines and minesweepers
    MILTON_BRADLEY = "milton-bradley"  # §4.2
    DUTCHMAN = "dutchman"  # §5


@dataclass(frozen=True)
class ShipKind:
    name: str
    length: int


@dataclass(frozen=True)
class SeaBattleRules:
    size: int
    fleet: tuple[ShipKind, ...]
    touching: Touching = Touching.NONE
    extra_shot: bool = True
    """§2.7: a hit or a sinking grants another shot; §4.2 turns it off."""
    ruleset: Ruleset = Ruleset.CLASSIC
    named_hits: bool = False
    """§4.2 sub-option: every hit names the ship it struck, not only a sinking."""
    salvo: bool = False
    """§4.3: each turn names as many cells as the shooter has ships afloat."""
    equal_rounds: bool = False
    """§4.3 sub-option: the second player answers a fleet-sinking salvo with a last one."""
    blind_report: bool = False
    """§4.3 sub-option: a salvo's report says only how many hits each ship took."""
    shapes: bool = False
    """§4.4: three- and four-deck ships may be L-shaped, square or zigzag."""
    mines: int = 0
    """§4.6: mines each player lays (a shot on one forces a disclosure)."""
    free_mines: bool = False
    """§4.6 sub-option: mines and minesweepers may touch ships and each other."""
    sweepers: int = 0
    """§4.7: minesweepers each player lays."""
    submarine: bool = False
    """§4.8: a one-deck submarine joins the fleet (its last entry), with a dying shot."""

    @property
    def submarine_kind(self) -> int | None:
        """The fleet entry that is the §4.8 submarine, if the game has one."""
        return len(self.fleet) - 1 if self.submarine else None

    @property
    def marks_around_sunk(self) -> bool:
        """§2.9 / §4.1 / §4.2: the cells a sunk ship's spacing proves empty, if any."""
        return self.touching is not Touching.ANY and not self.submarine and not self.dutchman

    @property
    def dutchman(self) -> bool:
        """§5: the Flying Dutchman, one ship that moves after every hit."""
        return self.ruleset is Ruleset.DUTCHMAN

    @property
    def free_form(self) -> bool:
        """Whether a ship may be named by all its cells (shaped ships, the Dutchman)."""
        return self.shapes or self.dutchman

    @property
    def marks_corners(self) -> bool:
        return self.touching is Touching.NONE

    @property
    def options(self) -> tuple[str, ...]:
        """The option words turned on, in the order ``/play`` lists them."""
        return tuple(
            word for word, (name, value) in OPTION_WORDS.items() if _has(self, name, value)
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "size": self.size,
            "fleet": [[kind.name, kind.length] for kind in self.fleet],
            "touching": self.touching.value,
            "extra_shot": self.extra_shot,
        }
        # Modules are stored only when they differ from the plain game, so games stored
        # before the modules existed read back unchanged.
        for field in fields(self):
            if field.name in data:
                continue
            value = getattr(self, field.name)
            if value != field.default:
                data[field.name] = value.value if isinstance(value, Enum) else value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeaBattleRules:
        try:
            size = int(data["size"])
            fleet = tuple(ShipKind(str(name), int(length)) for name, length in data["fleet"])
            rules = cls(
                size,
                fleet,
                Touching(data["touching"]),
                bool(data["extra_shot"]),
                ruleset=Ruleset(data.get("ruleset", Ruleset.CLASSIC.value)),
                named_hits=_flag(data, "named_hits"),
                salvo=_flag(data, "salvo"),
                equal_rounds=_flag(data, "equal_rounds"),
                blind_report=_flag(data, "blind_report"),
                shapes=_flag(data, "shapes"),
                mines=_count(data, "mines"),
                free_mines=_flag(data, "free_mines"),
                sweepers=_count(data, "sweepers"),
                submarine=_flag(data, "submarine"),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise CorruptStateError(
                f"The stored Sea Battle rules are unreadable: {error}."
            ) from None
        if rules.submarine and fleet[-1] != SUBMARINE:
            raise CorruptStateError("The stored Sea Battle rules lost their submarine.")
        if not 5 <= size <= 20 or not fleet or any(not 1 <= k.length <= size for k in fleet):
            raise CorruptStateError("The stored Sea Battle rules describe an impossible board.")
        try:
            check_combination(rules)
        except GameError as error:
            raise CorruptStateError(
                f"The stored Sea Battle rules are not allowed: {error}"
            ) from None
        return rules


def _flag(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise ValueError(f"{name} is not true or false")
    return value


def _count(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
        raise ValueError(f"{name} is not a count from 0 to 3")
    return value


def _has(rules: SeaBattleRules, name: str, value: object) -> bool:
    return bool(getattr(rules, name) == value)


def _fleet(*kinds: tuple[str, int, int]) -> tuple[ShipKind, ...]:
    return tuple(ShipKind(name, length) for name, length, count in kinds for _ in range(count))


CLASSIC_FLEET = _fleet(
    ("battleship", 4, 1), ("cruiser", 3, 2), ("destroyer", 2, 3), ("torpedo boat", 1, 4)
)
LARGE_FLEET = _fleet(
    ("aircraft carrier", 5, 1),
    ("battleship", 4, 2),
    ("cruiser", 3, 3),
    ("destroyer", 2, 4),
    ("torpedo boat", 1, 5),
)
DUTCHMAN = "Flying Dutchman"
SUBMARINE = ShipKind("submarine", 1)
"""§4.8: the one-deck submarine added to a classic fleet (not Milton Bradley's three-decker)."""

MILTON_BRADLEY_FLEET = _fleet(
    ("carrier", 5, 1),
    ("battleship", 4, 1),
    ("cruiser", 3, 1),
    ("submarine", 3, 1),
    ("destroyer", 2, 1),
)

PRESETS: dict[str, SeaBattleRules] = {
    "classic": SeaBattleRules(10, CLASSIC_FLEET),
    "corners": SeaBattleRules(10, CLASSIC_FLEET, Touching.CORNERS),
    "large": SeaBattleRules(15, LARGE_FLEET),
    "milton-bradley": SeaBattleRules(
        10, MILTON_BRADLEY_FLEET, Touching.ANY, extra_shot=False, ruleset=Ruleset.MILTON_BRADLEY
    ),
}
PRESETS["16x16"] = SeaBattleRules(16, LARGE_FLEET, ruleset=Ruleset.MINEFIELD, mines=3, sweepers=1)
PRESETS["18x18"] = SeaBattleRules(18, LARGE_FLEET, ruleset=Ruleset.MINEFIELD, mines=3, sweepers=1)
PRESETS["dutchman"] = SeaBattleRules(
    20, (ShipKind(DUTCHMAN, 6),), Touching.ANY, ruleset=Ruleset.DUTCHMAN
)
"""Classic §2 (the default), corner touching §4.1, 15x15 §4.5, Milton Bradley §4.2, and the
16x16 and 18x18 fields of §4.7 with the 15x15 fleet, 3 mines and 1 minesweeper each."""

OPTION_WORDS: dict[str, tuple[str, Any]] = {
    "corners": ("touching", Touching.CORNERS),
    "shapes": ("shapes", True),
    "mines": ("mines", 1),
    "mines2": ("mines", 2),
    "mines3": ("mines", 3),
    "free-mines": ("free_mines", True),
    "submarine": ("submarine", True),
    **{f"decks{n}": ("fleet", (ShipKind(DUTCHMAN, n),)) for n in range(5, 9)},
    "named-hits": ("named_hits", True),
    "salvo": ("salvo", True),
    "equal-rounds": ("equal_rounds", True),
    "blind-report": ("blind_report", True),
}
"""Option words typed at ``/play``, each the rules setting it turns on."""

VARIANT_NOTES: dict[str, str] = {
    "classic": "10×10, ten ships of 4, 3, 3, 2, 2, 2, 1, 1, 1 and 1 decks that may not "
    "touch; a hit shoots again.",
    "corners": "the classic game, but ships may touch at their corners.",
    "large": "15×15 with fifteen ships from 5 decks down to 1 that may not touch.",
    "milton-bradley": "10×10, five ships of 5, 4, 3, 3 and 2 decks that may touch; one shot "
    "a turn, hit or miss.",
    "16x16": "16×16 with the 15×15 fleet, 3 mines and a minesweeper each.",
    "18x18": "18×18 with the 15×15 fleet, 3 mines and a minesweeper each.",
    "dutchman": "the Flying Dutchman on 20×20: one ship of 5 to 8 decks (6 unless an option "
    "says) that may move in secret after each hit.",
}
"""One line on each variant, for ``/rules``."""

OPTION_NOTES: dict[str, str] = {
    "corners": "ships may touch at their corners.",
    "shapes": "three-deckers may be an L, the four-decker an L, a square or a zigzag; place "
    "one by all its cells.",
    "mines": "each side lays 1 mine: a shot on it makes the shooter disclose one of their "
    "ship cells, and the turn passes.",
    "mines2": "as `mines`, with 2 mines each.",
    "mines3": "as `mines`, with 3 mines each.",
    "free-mines": "mines and minesweepers may touch ships and each other (with mines).",
    "submarine": "adds a one-cell submarine that may touch your ships; sunk, it fires a "
    "dying shot back.",
    **{
        f"decks{n}": f"the Flying Dutchman has {n} decks (the `dutchman` variant)."
        for n in range(5, 9)
    },
    "named-hits": "every hit names the ship it struck.",
    "salvo": "each turn fire one shot per ship you have afloat, all in one move.",
    "equal-rounds": "with salvo: the second player answers a fleet-sinking salvo with a last "
    "one, and both fleets sunk is a draw.",
    "blind-report": "with salvo: a salvo is answered only with the hits each ship took, not "
    "which cells.",
}
"""One line on each option word, for ``/rules``."""

ALLOWED: dict[Ruleset, frozenset[str]] = {
    Ruleset.CLASSIC: frozenset(
        {"corners", "shapes", "mines", "mines2", "mines3", "free-mines", "submarine"}
    ),
    Ruleset.MINEFIELD: frozenset({"corners", "shapes", "mines3", "free-mines", "submarine"}),
    Ruleset.MILTON_BRADLEY: frozenset({"named-hits", "salvo", "equal-rounds", "blind-report"}),
    Ruleset.DUTCHMAN: frozenset(f"decks{n}" for n in range(5, 9)),
}
"""§4.9: the modules each kind of game may add."""

_RULESET_NAMES = {
    Ruleset.CLASSIC: "the classic game",
    Ruleset.MINEFIELD: "the 16x16 and 18x18 games",
    Ruleset.MILTON_BRADLEY: "the Milton Bradley game",
    Ruleset.DUTCHMAN: "the Flying Dutchman",
}


def check_combination(rules: SeaBattleRules) -> None:
    """Raise a GameError saying why ``rules``' set of modules may not be played (§4.9)."""
    allowed = ALLOWED[rules.ruleset]
    for word in rules.options:
        if word not in allowed:
            others = ", ".join(f"`{w}`" for w in sorted(allowed)) or "no option"
            raise GameError(
                f"`{word}` cannot be played in {_RULESET_NAMES[rules.ruleset]}, "
                f"which takes {others}."
            )
    if rules.dutchman and (len(rules.fleet) != 1 or not 5 <= rules.fleet[0].length <= 8):
        raise GameError("The Flying Dutchman is one ship of 5 to 8 decks.")
    if rules.ruleset is Ruleset.MINEFIELD and rules.mines != 3:
        raise GameError("The 16x16 and 18x18 games lay 3 mines each.")
    if rules.free_mines and not rules.mines:
        raise GameError("`free-mines` is a way of playing mines: add `mines` too.")
    if (rules.equal_rounds or rules.blind_report) and not rules.salvo:
        word = "equal-rounds" if rules.equal_rounds else "blind-report"
        raise GameError(f"`{word}` is a way of playing Salvo: add `salvo` too.")


def with_options(rules: SeaBattleRules, words: Sequence[str]) -> SeaBattleRules:
    """``rules`` with each option word's module turned on; unknown words and combinations
    §4.9 does not allow are refused with a sentence saying what is allowed."""
    chosen: dict[str, str] = {}
    for word in words:
        key = word.strip().lower()
        setting = OPTION_WORDS.get(key, ("", None))[0]
        if setting in chosen and chosen[setting] != key:
            raise GameError(
                f"The options `{chosen[setting]}` and `{key}` contradict each other; choose one."
            )
        chosen[setting] = key
        if key not in OPTION_WORDS:
            listed = ", ".join(f"`{w}`" for w in OPTION_WORDS)
            raise GameError(
                f"Sea Battle has no option `{shorten(word)}`; the options are {listed}."
            )
        name, value = OPTION_WORDS[key]
        if key == "submarine" and not rules.submarine:
            rules = replace(rules, fleet=(*rules.fleet, SUBMARINE))
        rules = replace(rules, **{name: value})
    check_combination(rules)
    return rules


def option_suggestions(rules: SeaBattleRules, typed: str, limit: int = 25) -> list[str]:
    """Option strings extending what was typed by one word that still makes a legal game."""
    words = typed.lower().replace(",", " ").split()
    ends_word = typed.endswith((" ", ",")) or not words
    done, partial = (words, "") if ends_word else (words[:-1], words[-1])
    choices: list[str] = []
    try:
        with_options(rules, done)
        if done and not partial:
            choices.append(" ".join(done))
    except GameError:
        return []
    base = with_options(rules, done)
    for word in OPTION_WORDS:
        if word in done or not word.startswith(partial):
            continue
        name, value = OPTION_WORDS[word]
        if replace(base, **{name: value}) == base:
            continue  # the variant has it already (the 16x16 field's three mines)
        try:
            with_options(rules, [*done, word])
        except GameError:
            continue
        choices.append(" ".join([*done, word]))
    return choices[:limit]
