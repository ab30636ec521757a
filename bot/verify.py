"""``python -m bot.verify game.json``: check an exported game, trusting nothing but the rules.

The export (``/export``) holds a finished game's rules, seed, every action, every
announcement each seat and the channel received, and the seals made when play began with
their salts and secrets. This checker, which needs only the standard library and the
bot's rule engines, replays the game from the seed through the engine and confirms that

- each seal is the SHA-256 of its salt and secret, and each secret is exactly what the
  game held when play began (each seat's setup as that seat saw it, and the seed);
- the seals were made at the move that began play, and announced to everyone then;
- every announcement each audience received is exactly what the rules produce.

It prints what it checked and exits 0, or names the first problems and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from bot.announcements import Tidings, conclusion_events, game_begun, tidings
from bot.fairness import Seal, check, opened_events, play_begins, sealed_events
from bot.games import ENGINES
from bot.games.core import Event, GameError, Outcome

FORMAT = 1
"""The version of the export's layout."""


def _normal(told: Sequence[Sequence[Any]]) -> list[tuple[int | None, tuple[str, ...]]]:
    return [(audience, tuple(texts)) for audience, texts in told]


def verify(record: Mapping[str, Any]) -> tuple[list[str], int]:
    """The problems found in an exported game (none: it checks out) and how many
    announcements were compared."""
    if record.get("format") != FORMAT:
        return [f"this checker reads export format {FORMAT}, not {record.get('format')!r}"], 0
    engine = ENGINES.get(str(record.get("game")))
    if engine is None:
        return [f"unknown game {record.get('game')!r}"], 0
    try:
        rules = engine.rules_from_json(record["rules"])
        seed = int(record["seed"])
        state = engine.new_game(rules, seed)
    except (GameError, KeyError, TypeError, ValueError) as error:
        return [f"the rules or seed cannot start a game: {error}"], 0
    seals = tuple(Seal.from_json(s) for s in record.get("seals", {}).get("entries", []))
    sealed_at = record.get("seals", {}).get("ply")
    told: dict[int, list[tuple[int | None, tuple[str, ...]]]] = {
        int(a["ply"]): _normal(a["tidings"]) for a in record.get("announcements", [])
    }
    problems: list[str] = []
    expected: dict[int, Tidings] = {}

    def sealing(ply: int, before: object | None, after: object) -> tuple[Event, ...]:
        if not play_begins(engine, before, after):
            return ()
        if sealed_at != ply:
            problems.append(f"play began at ply {ply}, but the seals are dated {sealed_at}")
            return ()
        problems.extend(check(engine, after, seed, seals))
        return sealed_events(seals)

    events = game_begun(engine, rules, state) + sealing(0, None, state)
    expected[0] = tidings(engine, state, events)
    for entry in record.get("actions", []):
        ply, seat, kind, text = entry["ply"], entry["seat"], entry["kind"], entry["text"]
        before = state
        try:
            if kind == "move":
                transition = engine.act(state, seat, text)
                state, events = transition.state, transition.events
            else:
                outcome = Outcome.from_json(json.loads(text))
                late = sorted(engine.view(state, None).movers)
                state = engine.conclude(state, outcome)
                events = conclusion_events(outcome, seat, late) + engine.epilogue(state)
        except (GameError, ValueError, KeyError) as error:
            problems.append(f"ply {ply}: `{text}` cannot be replayed: {error}")
            break
        events = tuple(events) + sealing(ply, before, state)
        if engine.outcome(state) is not None and seals:
            events = events + opened_events(seals)
        expected[ply] = tidings(engine, state, events)
    for ply in sorted(set(expected) | set(told)):
        want = _normal(expected.get(ply, ()))
        got = told.get(ply, [])
        if want != got:
            problems.append(f"ply {ply}: the announcements differ from what the rules produce")
    if seals and sealed_at is None:
        problems.append("seals without the ply they were made at")
    return problems, len(told)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.verify", description=__doc__.splitlines()[0]
    )
    parser.add_argument("export", help="a game exported with /export, as JSON")
    options = parser.parse_args(argv)
    with open(options.export, encoding="utf-8") as file:
        record = json.load(file)
    problems, checked = verify(record)
    name = f"{record.get('game')} #{record.get('id')}"
    if problems:
        print(f"{name}: NOT VERIFIED", file=sys.stderr)
        for problem in problems[:20]:
            print(f"- {problem}", file=sys.stderr)
        return 1
    sealed = len(record.get("seals", {}).get("entries", []))
    print(
        f"{name}: verified. {sealed} seals match their salts and the setups play began "
        f"with; {len(record.get('actions', []))} actions replay under the rules; "
        f"{checked} announcements are exactly what the rules produce."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
