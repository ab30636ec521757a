"""Provable fairness: sealed setups, published when play begins and opened at the end.

The moment both setups are locked in and play begins, before either player has seen
anything of the other, the bot seals what it then holds secret: each seat's setup (that
seat's own view of the board, as its text twin) and the game's random seed, and with them
who sits in which seat, so an export cannot later swap the players. A seal is the SHA-256
of a random salt and the secret; the seals are told to both players and the channel. At
the end the salts are published, and ``/export`` gives the secrets, so anyone can check
that the setups the game was played with are the ones sealed at the start, and
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
"""The seal of the game's seed; the setups' are named after their seat (``seat0``)."""
SEATS = "seats"
"""The seal of who plays each seat: their Discord ids (``seats_secret``). Games sealed
before it was added have none, and their exports cannot show who sat where."""


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


def seats_secret(seats: Sequence[int | str]) -> str:
    """Who plays each seat, as sealed: ``seat0 <id>`` and ``seat1 <id>`` on two lines."""
    return "\n".join(f"seat{seat} {user_id}" for seat, user_id in enumerate(seats))


def secrets_of(
    engine: Engine, state: object, seed: int, seats: Sequence[int | str]
) -> dict[str, str]:
    """What is sealed when play begins: each seat's setup and the seed, which the bot alone
    knows then, and the players in their seats, fixed for good from then on."""
    return {
        "seat0": engine.view(state, 0).text(),
        "seat1": engine.view(state, 1).text(),
        SEATS: seats_secret(seats),
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


def seal(
    engine: Engine,
    state: object,
    seed: int,
    seats: Sequence[int | str],
    salt: Callable[[], str],
) -> tuple[Seal, ...]:
    """Seal each secret of ``state`` with a fresh salt."""
    seals = []
    for who, secret in secrets_of(engine, state, seed, seats).items():
        salted = salt()
        seals.append(Seal(who, salted, digest(salted, secret), secret))
    return tuple(seals)


def sealed_events(seals: Sequence[Seal]) -> tuple[Event, ...]:
    """The seals told to both players and the channel when play begins (none unsealed)."""
    if not seals:
        return ()
    listed = ", ".join(f"{_label(s.who)} `{s.digest}`" for s in _in_order(seals))
    text = (
        f"{SEALED} (SHA-256 with a secret salt): {listed}. "
        "The salts are published when the game ends; `/export` then lets anyone check them."
    )
    return (Event(0, text), Event(1, text), Event(None, text))


def opened_events(seals: Sequence[Seal]) -> tuple[Event, ...]:
    """The salts published to the channel at the end, with how to check the seals."""
    listed = ", ".join(f"{_label(s.who)} `{s.salt}`" for s in _in_order(seals))
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


Kept = list[tuple[int, str]]
"""Channel texts kept as messages of their own, each with its place among a batch's texts."""


def kept_apart(told: Sequence[Sequence[str]]) -> tuple[Kept, Kept]:
    """The texts the channel keeps as messages of their own among several notices' texts
    (oldest first): those of the notices before the newest, and those of the newest.

    Each comes with its place among all the texts, which notices added after it leave
    unchanged, so a message sent again under it is the same message.
    """
    earlier: Kept = []
    newest: Kept = []
    place = 0
    for number, texts in enumerate(told):
        kept = newest if number == len(told) - 1 else earlier
        for text in texts:
            if lasting(text):
                kept.append((place, text))
            place += 1
    return earlier, newest


def _label(who: str) -> str:
    labels = {"seat0": "{seat0}'s setup", "seat1": "{seat1}'s setup", SEATS: "the seats"}
    return labels.get(who, "the seed")


def _in_order(seals: Sequence[Seal]) -> list[Seal]:
    """Seals in one order by name, however they were kept: the announcements list them so."""
    return sorted(seals, key=lambda one: one.who)


def check(
    engine: Engine, state: object, seed: int, seats: Sequence[int | str], seals: Sequence[Seal]
) -> list[str]:
    """What is wrong with ``seals`` for the state in which play began and the players in
    ``seats`` (empty: nothing). Seals made before the seats were sealed lack theirs; that
    alone is not wrong, and the verifier says what it could not check."""
    wrong = []
    expected = secrets_of(engine, state, seed, seats)
    covered = sorted(s.who for s in seals)
    if SEATS not in covered:
        del expected[SEATS]
    if covered != sorted(expected):
        wrong.append(f"the seals cover {covered}, not {sorted(expected)}")
    for one in seals:
        if digest(one.salt, one.secret) != one.digest:
            wrong.append(f"the seal of {one.who} does not match its salt and secret")
        if one.who == SEATS and expected[SEATS] != one.secret:
            wrong.append(
                "the export's seats are not the players sealed in them when play began "
                f"({one.secret.replace(chr(10), ', ')})"
            )
        elif one.who in expected and expected[one.who] != one.secret:
            wrong.append(f"the secret of {one.who} is not what the game held when play began")
    return wrong
