"""``python -m bot.verify game.json``: check an exported game, trusting nothing but the rules.

The export (``/export``) holds a finished game's rules, seed, players, result, every
action, every announcement each seat and the channel received, and the seals made when
play began with their salts and secrets. This checker, which needs only the standard
library and the bot's rule engines, replays the game from the seed through the engine,
with the same code the referee plays it with, and confirms that

- the game, its title, variant and rules are one of the bot's, and the seed starts it;
- the log runs ply 1, 2, 3, ... without a gap, every move is legal when it was played,
  and every end from outside the rules (resignation, time-out, abort) is the end the
  referee makes of it: a resignation gives the game to the other seat, a time-out is lost
  by a seat the game waited for, an abort comes before the first move;
- the log ends exactly where the game ended, and the export's end reason and winner are
  the ones its log ends it with;
- each seal is the SHA-256 of its salt and secret, and each secret is exactly what the
  game held when play began: each seat's setup, the seed, and the players in their seats
  (the export's ``seats``);
- the seals were made at the move that began play, and announced to everyone then;
- every announcement each audience received is exactly what the rules produce, and
  nothing more was announced.

It prints what it checked and the seals' digests, to compare with the message the channel
received when play began, and exits 0; or it names the problems and exits 1. A file it
cannot read as an export gets one sentence saying why, and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot import fairness
from bot.announcements import AudienceTexts, game_begun
from bot.conclusions import KINDS
from bot.exports import Action, Export, Unreadable, read
from bot.fairness import SEATS, Seal, play_begins
from bot.games import ENGINES
from bot.games.core import Engine, Event, GameError, Outcome
from bot.games.words import with_article
from bot.log_step import EntryError, announced, apply_entry

SHOWN = 20
"""The problems printed at most; the first is usually the cause of the rest."""


@dataclass
class Verdict:
    """What checking an export found: its problems (none: verified), how many of its
    announcements were compared, and what it could not check."""

    problems: list[str] = field(default_factory=list)
    compared: int = 0
    unchecked: list[str] = field(default_factory=list)


def verify(data: object) -> tuple[list[str], int]:
    """The problems found in an exported game (none: it checks out) and how many
    announcements were compared; a malformed export is one problem, saying why."""
    try:
        verdict = check(read(data))
    except Unreadable as error:
        return [str(error)], 0
    return verdict.problems, verdict.compared


def check(export: Export) -> Verdict:
    """Everything ``export`` claims, checked against its replayed log."""
    engine, rules = _game(export)
    replay = Replay(engine, rules, export)
    replay.run()
    verdict = Verdict(replay.problems, len(export.announcements))
    verdict.problems.extend(_end_problems(export, replay))
    for ply in sorted(set(replay.expected) | set(export.announcements)):
        if replay.stopped and ply > replay.last:
            break  # past an action that cannot be replayed, nothing is known
        differ = _differing(replay.expected.get(ply, ()), export.announcements.get(ply, ()))
        if differ:
            verdict.problems.append(
                f"ply {ply}: what {' and '.join(differ)} received is not what the rules produce"
            )
    if export.seals and export.sealed_at is None:
        verdict.problems.append("the seals do not say the ply they were made at")
    if export.seals and not replay.sealed:
        verdict.problems.append("play never began in the log, yet the export holds seals")
    if export.seals and SEATS not in {s.who for s in export.seals}:
        verdict.unchecked.append(
            "the seats were not sealed in this game (it began before they were), so which "
            "player sat in which seat is not checked"
        )
    return verdict


def _game(export: Export) -> tuple[Engine, object]:
    """The export's game and rules, with its title and variant checked against them."""
    engine = ENGINES.get(export.game)
    if engine is None:
        known = ", ".join(f"`{key}`" for key in ENGINES)
        raise Unreadable(f"there is no game called `{export.game[:40]}`; the bot plays {known}.")
    if export.title != engine.title:
        raise Unreadable(f"it calls `{export.game}` {export.title[:40]!r}, not {engine.title}.")
    try:
        rules = engine.rules_from_json(export.rules)
        engine.new_game(rules, export.seed)
    except (GameError, LookupError, TypeError, ValueError) as error:
        said = str(error).rstrip(".")
        raise Unreadable(
            f"its rules and seed cannot start a game of {engine.title}: {said}."
        ) from None
    variant = engine.variant_name(rules)
    if export.variant != variant:
        raise Unreadable(
            f"it names the variant {export.variant[:40]!r}, but its rules are {variant!r}."
        )
    return engine, rules


def _differing(expected: AudienceTexts, told: AudienceTexts) -> list[str]:
    """The audiences whose announcements at one ply are not the expected ones."""
    want, got = dict(expected), dict(told)
    names = {0: "seat0", 1: "seat1", None: "the channel"}
    return [names[a] for a in (0, 1, None) if want.get(a) != got.get(a)]


class Replay:
    """The export's log replayed through the engine: what each audience must have been told
    at each ply, and the problems met on the way (the replay stops at the first action
    that cannot be replayed, since nothing after it can be)."""

    def __init__(self, engine: Engine, rules: object, export: Export) -> None:
        self.engine = engine
        self.export = export
        self.problems: list[str] = []
        self.expected: dict[int, AudienceTexts] = {}
        self.sealed = False
        """Whether play began in the log, and the seals were checked then."""
        self.stopped = False
        """Whether the replay stopped before the end of the log."""
        self.state = engine.new_game(rules, export.seed)
        self.expected[0] = self._told(game_begun(engine, rules, self.state), 0, None)
        self.last = 0
        """The last ply replayed."""

    def run(self) -> None:
        for action in self.export.actions:
            if action.ply != self.last + 1:
                self._stop(_gap(self.last, action.ply))
                return
            if self.engine.outcome(self.state) is not None:
                self._stop(f"ply {action.ply} follows the end of the game at ply {self.last}")
                return
            before = self.state
            try:
                events = self._step(action)
            except Stop as stop:
                self._stop(f"ply {action.ply}: {stop}")
                return
            self.expected[action.ply] = self._told(events, action.ply, before)
            self.last = action.ply

    def _stop(self, problem: str) -> None:
        self.problems.append(problem)
        self.stopped = True

    def _step(self, action: Action) -> tuple[Event, ...]:
        """Play one action on the state as the referee does; the events it announces."""
        try:
            step = apply_entry(
                self.engine,
                self.state,
                action.seat,
                action.kind,
                action.text,
                self.export.computer_seat,
            )
        except EntryError as error:
            raise Stop(str(error)) from None
        except Exception as error:  # any failure of the engine on a move read from a file
            # is a move that cannot be replayed, said as such
            raise Stop(f"`{action.text[:60]}` cannot be replayed: {error}") from None
        self.state = step.state
        logged, outcome = step.logged, step.outcome
        if logged is not None and outcome is not None and outcome != logged:
            self.problems.append(
                f"ply {action.ply}: the log ends the game {_ending(logged)}, but "
                f"{with_article(KINDS[logged.reason])} by seat{action.seat} "
                f"ends it {_ending(outcome)}"
            )
        return step.events

    def _told(self, events: Sequence[Event], ply: int, before: object | None) -> AudienceTexts:
        """What each audience is told of the change to the current state, with the seals
        when it began play and their opening when it ended the game, as the referee does."""
        sealed = self._sealing(ply) if play_begins(self.engine, before, self.state) else ()
        return announced(self.engine, self.state, events, sealed=sealed, opened=self.export.seals)

    def _sealing(self, ply: int) -> tuple[Seal, ...]:
        """The seals announced at the ply that began play, once they are checked against
        the state play began in, the seed and the export's seats."""
        export = self.export
        self.sealed = True
        if export.sealed_at != ply:
            self.problems.append(
                f"play began at ply {ply}, but the seals are dated {export.sealed_at}"
            )
            return ()
        self.problems.extend(
            fairness.check(self.engine, self.state, export.seed, export.seats, export.seals)
        )
        return export.seals


class Stop(Exception):
    """An action the replay cannot go past; its message says why."""


def _end_problems(export: Export, replay: Replay) -> list[str]:
    """Whether the log ends where the game ended, with the export's end reason and winner."""
    ended = replay.engine.outcome(replay.state)
    if replay.stopped:
        return []  # the log's end is unknown, and the cause is named
    if ended is None:
        return [
            f"the log stops at ply {replay.last} with the game still running, yet the export "
            f"says it ended by {export.end}: the end of the log is missing"
        ]
    problems = []
    if export.end != ended.reason.value:
        problems.append(
            f"the export says the game ended by {export.end}, but its log ends it by "
            f"{ended.reason.value}"
        )
    if export.winner != ended.winner:
        problems.append(
            f"the export names {_who(export.winner)} the winner, but its log makes "
            f"{_who(ended.winner)} the winner"
        )
    if ended.unplayed is not None:
        problems.append("the game ended before its first real move: such a game is never exported")
    return problems


def _gap(last: int, ply: int) -> str:
    if ply > last + 1:
        return f"ply {last + 1} is missing from the log: it goes from ply {last} to ply {ply}"
    if ply == last:
        return f"ply {ply} is in the log twice"
    return f"ply {ply} is out of order in the log: it comes after ply {last}"


def _who(seat: int | None) -> str:
    return "no one" if seat is None else f"seat{seat}"


def _ending(outcome: Outcome) -> str:
    return f"with {_who(outcome.winner)} winning ({outcome.reason.value}, {outcome.detail!r})"


def load(path: str) -> object:
    """The JSON in the file at ``path``; raises Unreadable saying why there is none."""
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except FileNotFoundError:
        raise Unreadable("there is no such file.") from None
    except IsADirectoryError:
        raise Unreadable("it is a folder, not an exported game.") from None
    except OSError as error:
        raise Unreadable(f"it cannot be read ({error.strerror or error}).") from None
    except UnicodeDecodeError:
        raise Unreadable("it is not JSON: it is not even UTF-8 text.") from None
    except json.JSONDecodeError as error:
        raise Unreadable(
            f"it is not JSON ({error.msg} at line {error.lineno}, column {error.colno})."
        ) from None
    except (ValueError, RecursionError) as error:
        raise Unreadable(f"it is not JSON this checker can read ({error}).") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.verify", description=__doc__.splitlines()[0]
    )
    parser.add_argument("export", help="a game exported with /export, as JSON")
    path = parser.parse_args(argv).export
    try:
        export = read(load(path))
        verdict = check(export)
    except Unreadable as error:
        print(f"{path}: cannot be checked: {error}", file=sys.stderr)
        return 2
    name = f"{export.title} #{export.id}"
    if verdict.problems:
        print(f"{name}: NOT VERIFIED", file=sys.stderr)
        for problem in verdict.problems[:SHOWN]:
            print(f"- {problem.rstrip('.')}.", file=sys.stderr)
        return 1
    print(_verified(name, export, verdict))
    return 0


def _verified(name: str, export: Export, verdict: Verdict) -> str:
    """What a verified export was checked for, and its seals to compare with the channel's."""
    seals = ", ".join(f"{s.who} `{s.digest}`" for s in sorted(export.seals, key=lambda s: s.who))
    winner = "no winner" if export.winner is None else f"seat{export.winner} winning"
    sealed = "the setups play began with" + (" and the seats" if not verdict.unchecked else "")
    lines = [
        f"{name}: verified. {len(export.actions)} actions replay under the rules to the "
        f"recorded end (by {export.end}, {winner}); {len(export.seals)} seals match their "
        f"salts, {sealed}; {verdict.compared} announcements are exactly what the rules "
        "produce.",
        f"The seals, as the channel was told when play began: {seals}.",
    ]
    lines.extend(f"Not checked: {note}." for note in verdict.unchecked)
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
