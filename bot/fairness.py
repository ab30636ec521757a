"""Provable fairness: sealed setups, published when play begins and opened at the end.

The moment both setups are locked in and play begins, before either player has seen
anything of the other, the bot seals what it then holds secret: each seat's setup (that
seat's own view of the board, as its text twin) and the game's random seed. A seal is the
SHA-256 of a random salt and the secret; the seals are told to both players and the
channel. At the end the salts are published, and ``/export`` gives the secrets, so anyone
can check that the setups the game was played with are the ones sealed at the start, and
``python -m bot.verify`` replays the whole game to check every announcement.

Pure functions of the game and the engine (standard library only), so the verifier uses
the very code that sealed the game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.core import Engine, Event, Phase, View

SEALED = "🔒 Sealed before play"
OPENED = "🔓 Seals opened"
"""How the seals' announcements begin: the channel keeps them as messages of their own,
since its live message is edited after every move."""

SEED = "seed"
"""The seal of the game's seed; the others are named after their seat (``seat0``)."""


@dataclass(frozen=True)
class Seal:
    """One sealed secret: who it belongs to, its salt, its digest and the secret itself."""

    who: str
    salt: str
    digest: str
    secret: str

    def to_json(self) -> dict[str, Any]:
        return {"who": self.who, "salt": self.salt, "digest": self.digest, "secret": self.secret}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seal:
        return cls(str(data["who"]), str(data["salt"]), str(data["digest"]), str(data["secret"]))


def digest(salt: str, secret: str) -> str:
    """The seal of ``secret``: SHA-256 of the salt, a newline and the secret, in hex."""
    return hashlib.sha256(f"{salt}\n{secret}".encode()).hexdigest()


def secrets_of(engine: Engine, state: object, seed: int) -> dict[str, str]:
    """What the bot alone knows when play begins: each seat's setup and the seed."""
    return {
        "seat0": engine.view(state, 0).text(),
        "seat1": engine.view(state, 1).text(),
        SEED: str(seed),
    }


def play_begins(
    engine: Engine,
    before: object | None,
    after: object,
    public: Callable[[object], View] | None = None,
) -> bool:
    """Whether this change starts play: setup (or nothing yet) before, play after.

    ``public`` gives a state's public view, for a caller that has it built already.
    """
    public = public or (lambda state: engine.view(state, None))
    if public(after).phase is not Phase.PLAY:
        return False
    return before is None or public(before).phase is Phase.SETUP


def seal(engine: Engine, state: object, seed: int, salt: Callable[[], str]) -> tuple[Seal, ...]:
    """Seal each secret of ``state`` with a fresh salt."""
    seals = []
    for who, secret in secrets_of(engine, state, seed).items():
        salted = salt()
        seals.append(Seal(who, salted, digest(salted, secret), secret))
    return tuple(seals)


def sealed_events(seals: Sequence[Seal]) -> tuple[Event, ...]:
    """The seals told to both players and the channel when play begins (none unsealed)."""
    if not seals:
        return ()
    listed = ", ".join(f"{_label(s.who)} `{s.digest}`" for s in seals)
    text = (
        f"{SEALED} (SHA-256 with a secret salt): {listed}. "
        "The salts are published when the game ends; `/export` then lets anyone check them."
    )
    return (Event(0, text), Event(1, text), Event(None, text))


def opened_events(seals: Sequence[Seal]) -> tuple[Event, ...]:
    """The salts published to the channel at the end, with how to check the seals."""
    listed = ", ".join(f"{_label(s.who)} `{s.salt}`" for s in seals)
    return (
        Event(
            None,
            f"{OPENED}: salts {listed}. `/export` gives the setups and every move; "
            "`python -m bot.verify` checks them.",
        ),
    )


def lasting(text: str) -> bool:
    """Whether a channel text is a seal or its opening, to be kept in a message of its own."""
    return text.startswith((SEALED, OPENED))


def _label(who: str) -> str:
    return {"seat0": "{seat0}'s setup", "seat1": "{seat1}'s setup"}.get(who, "the seed")


def check(engine: Engine, state: object, seed: int, seals: Sequence[Seal]) -> list[str]:
    """What is wrong with ``seals`` for the state in which play began (empty: nothing)."""
    wrong = []
    expected = secrets_of(engine, state, seed)
    if sorted(s.who for s in seals) != sorted(expected):
        wrong.append(f"the seals cover {sorted(s.who for s in seals)}, not {sorted(expected)}")
    for one in seals:
        if digest(one.salt, one.secret) != one.digest:
            wrong.append(f"the seal of {one.who} does not match its salt and secret")
        if one.who in expected and expected[one.who] != one.secret:
            wrong.append(f"the secret of {one.who} is not what the game held when play began")
    return wrong
