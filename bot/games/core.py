"""The engine contract every game implements.

A game is a pure rule engine: immutable states, actions with one text notation, and
transitions that carry events addressed to an audience. The referee drives any game
through this contract alone, so adding a game never touches the referee, storage or cogs.

Audiences follow one convention everywhere: a seat number (0 or 1) is that player, and
``None`` is the channel, i.e. the public. ``view(state, None)`` is the public view and an
``Event`` with ``audience=None`` is said in the channel.
"""

from __future__ import annotations

import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

SEATS: tuple[int, int] = (0, 1)


def other(seat: int) -> int:
    """The opponent's seat."""
    return 1 - seat


def visible(text: str) -> str:
    """``text`` without invisible format and control characters, newlines kept.

    A player's text echoed back must not carry a right-to-left override or a zero-width
    character that would turn the sentence around it backwards or hide part of it.
    """
    return "".join(c for c in text if c == "\n" or unicodedata.category(c) not in ("Cf", "Cc"))


def shorten(text: str, limit: int = 24) -> str:
    """Echo a player's input back safely: short, one line, no code-span breakers.

    Invisible format and control characters (right-to-left overrides, zero-width spaces)
    are dropped, so an echo cannot turn the sentence around it backwards.
    """
    flat = " ".join(visible(text).split()).replace("`", "'")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def name_of(seat: int) -> str:
    """The placeholder for a player's name in channel texts, filled in by the referee."""
    return f"{{seat{seat}}}"


class Phase(Enum):
    """Where a game stands. In SETUP both seats act at once and in secret."""

    SETUP = "setup"
    PLAY = "play"
    FINISHED = "finished"


class EndReason(Enum):
    """Why a game ended. Only ABORTED games carry no result."""

    RULES = "rules"  # the game's own end condition (a fleet sunk, a flag taken, a draw rule)
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    ABORTED = "aborted"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: a winner seat, or ``None`` for a draw or an aborted game."""

    winner: int | None
    reason: EndReason
    detail: str = ""
    unplayed: Phase | None = None
    """For a game ended before its first real move (``Engine.has_started``): the phase it
    was in. Such an end reveals nothing that was hidden (see ``secrecy``)."""

    @property
    def has_result(self) -> bool:
        """Aborted games end without a result; every other end counts."""
        return self.reason is not EndReason.ABORTED

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "winner": self.winner,
            "reason": self.reason.value,
            "detail": self.detail,
        }
        if self.unplayed is not None:
            data["unplayed"] = self.unplayed.value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        winner = data["winner"]
        if winner not in (None, *SEATS):
            raise CorruptStateError(f"winner {winner!r} is not a seat")
        unplayed = data.get("unplayed")
        if unplayed not in (None, Phase.SETUP.value, Phase.PLAY.value):
            raise CorruptStateError(f"an unplayed game cannot have ended in {unplayed!r}")
        return cls(
            winner=winner,
            reason=EndReason(data["reason"]),
            detail=str(data["detail"]),
            unplayed=None if unplayed is None else Phase(unplayed),
        )


def secrecy(phase: Phase, outcome: Outcome | None) -> Phase:
    """The phase whose secrets a view keeps: every game's ``view`` decides by this.

    A finished game shows everyone the whole board, except one that ended before its first
    real move (an abort, or a resignation or time-out during setup): that keeps the secrets
    of the phase it ended in, so ending a game unplayed, which costs no rating, is never a
    way to scout an opponent's setup.
    """
    if outcome is not None and outcome.unplayed is not None:
        return outcome.unplayed
    return phase


@dataclass(frozen=True)
class Event:
    """One thing the referee says to one audience (a seat, or ``None`` for the channel).

    Texts to a seat speak to that player ("your cruiser at C4 was sunk"). Texts to the
    channel name players through the placeholders ``{seat0}`` and ``{seat1}``, which the
    referee fills with display names, so the engine never handles user data.
    """

    audience: int | None
    text: str


@dataclass(frozen=True)
class Transition:
    """The result of applying an action: the new state and what each audience learns."""

    state: Any
    events: tuple[Event, ...] = field(default_factory=tuple)

    def for_audience(self, audience: int | None) -> tuple[Event, ...]:
        return tuple(event for event in self.events if event.audience == audience)


class GameError(Exception):
    """A refusal. Its message is a plain sentence for the player who erred.

    Messages never reveal anything that player may not know: they name only the rule the
    input breaks and the player's own input.
    """


class NotationError(GameError):
    """The text is not a move in this game's notation."""


class IllegalActionError(GameError):
    """The move is well formed but the rules do not allow it now."""


class NotYourTurnError(IllegalActionError):
    """The player acted while it is the opponent's turn."""


class CorruptStateError(GameError):
    """Stored data failed validation on load."""


class View(Protocol):
    """What one audience may know of a game. Renderers and messages see only this."""

    @property
    def seat(self) -> int | None:
        """Whose view this is: a seat, or ``None`` for the public."""
        ...

    @property
    def phase(self) -> Phase: ...

    @property
    def movers(self) -> frozenset[int]:
        """Seats that may act now (public knowledge in every game)."""
        ...

    def text(self) -> str:
        """A text twin of the board, for screen readers and for tests."""
        ...


class Rules(Protocol):
    """A game's variant settings: frozen data, stored with the game."""

    def to_json(self) -> dict[str, Any]: ...


S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V", bound=View)
R = TypeVar("R", bound=Rules)


class RulesEngine(ABC, Generic[R, S, A, V]):
    """The rules core: states, moves and their consequences. Every method is pure: no I/O,
    no clock, no globals. The referee, replays and the verifier need only this part.

    Randomness comes only from the seed given to ``new_game`` and recorded in the state,
    so replaying the same actions always reproduces the same state.
    """

    key: str
    """Stable identifier stored with each game, e.g. ``"seabattle"``."""
    title: str
    """The name players see, e.g. ``"Sea Battle"``."""
    state_version: int = 1
    agreed_draws: bool = False
    """Whether the rules let players agree a draw: the engine then reads ``offer draw`` and
    ``accept draw`` as moves, and the referee offers them by word and by button."""

    @abstractmethod
    def new_game(self, rules: R, seed: int) -> S: ...

    @abstractmethod
    def to_move(self, state: S) -> frozenset[int]:
        """Seats that may act now: both during setup, one in play, none when finished."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Iterable[A]: ...

    @abstractmethod
    def parse_action(self, state: S, seat: int, text: str) -> A:
        """Read a move. Raises NotationError for text that is not a move at all."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> Transition:
        """Apply a move. Raises a GameError and changes nothing when it is not allowed."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """Everything ``seat`` may know (``None``: the public).

        Finished games reveal all, unless their outcome says they ended unplayed: what is
        hidden follows ``secrecy(phase, outcome)``, never the phase alone.
        """

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def conclude(self, state: S, outcome: Outcome) -> S:
        """End the game from outside the rules (resignation, timeout, abort).

        The referee marks ``outcome.unplayed`` when the game had not started.
        """

    def epilogue(self, state: S) -> tuple[Event, ...]:
        """What the referee adds when ``state`` was ended from outside the rules
        (resignation, time, abort): a game whose hidden history is published at its end
        (Seachess's move list) says it here. Most games have nothing to add."""
        return ()

    @abstractmethod
    def has_started(self, state: S) -> bool:
        """Whether the first real move (past setup) was made: abort is allowed only before."""

    @abstractmethod
    def rules_from_json(self, data: Mapping[str, Any]) -> R: ...

    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]:
        """Lossless and versioned."""

    @abstractmethod
    def from_json(self, data: Mapping[str, Any]) -> S:
        """Inverse of ``to_json``; re-validates and raises CorruptStateError on bad data."""

    def act(self, state: S, seat: int, text: str) -> Transition:
        """Parse and apply in one step: the referee's path for every move."""
        return self.apply(state, seat, self.parse_action(state, seat, text))


class LegalMoves(ABC, Generic[V]):
    """Legal moves from a view: what a computer player chooses among.

    Computed from what the viewer may know, never a state, so a player choosing from this
    list cannot use a hidden fact.
    """

    @abstractmethod
    def legal_moves(self, view: V) -> list[str]:
        """Every move the view's seat may make now, in the game's notation (none when it
        is not that seat's turn, or for the public view)."""


class Notation(ABC, Generic[R, S, V]):
    """How a game speaks to a person: autocomplete, buttons, the rules text, the setup
    texts. None of it changes what is legal; the rules core decides that."""

    @abstractmethod
    def suggestions(self, view: V, typed: str, limit: int = 25) -> list[str]:
        """Moves matching what a player typed, for autocomplete; computed from a view only."""

    def quick_moves(self, view: V) -> tuple[tuple[str, str], ...]:
        """Moves worth a button for this viewer now, as (label, move text) pairs."""
        return ()

    @abstractmethod
    def describe(self, rules: R) -> str:
        """The rules summary and move notation, for ``/rules``."""

    def setup_instructions(self, rules: R) -> str:
        """What a player is told when the game starts; games with a setup say it briefly."""
        return self.describe(rules)

    def side_sentence(self, state: S, seat: int) -> str:
        """The side ``seat`` plays, told to that player alone when the game starts, so no
        one has to work it out from whose move it is. Games without sides say nothing."""
        return ""

    def setup_text(self, view: V) -> str | None:
        """One move that recreates the viewer's setup as their view shows it, or ``None``.

        ``save <name>`` stores this text and ``load <name>`` plays it as a move in a later
        game, so a saved setup is checked by the rules like any other move and the log
        stays replayable. ``None`` means there is nothing to save now (or the game has no
        setup worth saving).
        """
        return None


class Variants(ABC, Generic[R]):
    """A game's presets and option words: how ``/play`` turns a variant name and options
    into rules, and how ``/rules`` lists them."""

    title: str
    presets: Mapping[str, R]
    """Named variants; the first one is the default."""
    variant_notes: Mapping[str, str] = MappingProxyType({})
    """One line on each preset, by its name, for ``/rules``."""
    all_option_words: tuple[str, ...] = ()
    """Every option word ``with_options`` reads, as the game declares its options."""
    option_notes: Mapping[str, str] = MappingProxyType({})
    """One line on each of ``all_option_words``, for ``/rules``."""

    @property
    def default_variant(self) -> str:
        return next(iter(self.presets))

    def choices_text(self) -> str:
        """Every variant and every option word with its line, for ``/rules``: the lists
        come from the game's own declarations, so a word ``/play`` reads cannot be left out."""
        lines = ["**Variants** (the `variant` of `/play`):"]
        lines += [f"• `{name}`: {self.variant_notes.get(name, '')}" for name in self.presets]
        if self.all_option_words:
            lines.append("**Options** (words in the `options` of `/play`):")
            notes = self.option_notes
            lines += [f"• `{word}`: {notes.get(word, '')}" for word in self.all_option_words]
        return "\n".join(lines)

    @abstractmethod
    def variant_name(self, rules: R) -> str:
        """A short name for a rules value, e.g. ``"classic"``, with its options if any."""

    def configure(self, variant: str | None, options: str = "") -> R:
        """The rules for a ``/play``: a preset by name, then the option words typed after it.

        Raises a GameError naming the unknown variant or the option that does not fit.
        """
        name = (variant or self.default_variant).strip().lower()
        if name not in self.presets:
            listed = ", ".join(f"`{preset}`" for preset in self.presets)
            raise GameError(f"{self.title} has no variant `{shorten(name)}`; choose {listed}.")
        rules = self.presets[name]
        words = options.lower().replace(",", " ").split()
        return self.with_options(rules, words) if words else rules

    def with_options(self, rules: R, words: Sequence[str]) -> R:
        """``rules`` changed by option words such as ``m2`` or ``mobility``.

        Games with options override this; the default refuses any word.
        """
        raise GameError(f"{self.title} has no options; leave `options` empty.")

    def option_suggestions(self, rules: R, typed: str, limit: int = 25) -> list[str]:
        """Option strings matching what was typed, for ``/play``'s autocomplete."""
        return []


class Engine(RulesEngine[R, S, A, V], LegalMoves[V], Notation[R, S, V], Variants[R]):
    """A whole game: the rules core, legal moves from a view, the notation a person reads
    and writes, and the variants. Each caller can ask for the part it needs (the computer
    players for ``LegalMoves``, ``/play`` for ``Variants``); a game implements all four."""
