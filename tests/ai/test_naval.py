"""The Warships and Seachess computers: what they remember, how they set up, and that they
never read the person's secrets.

Their legality over seeded whole games is part of ``test_players``; here: the Warships
memory agrees with the truth on every token it claims to know, its setup is legal and
careful, its baseline rivals play legal moves, and in Seachess two games that differ only
in where the person's submarine hides give the computer the same decisions.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.ai_duels import Tally, duel
from bot.ai import LEVELS, Seen, dice_seed_for
from bot.ai.baselines import SeachessGreedy, WarshipsGreedy
from bot.ai.generic import RandomPlayer
from bot.ai.warships import STRANDED, WarshipsAdmiral, interned_by
from bot.ai.warships_memory import Memory, beliefs
from bot.ai.warships_setup import planned_setup
from bot.ai.warships_situation import RESTLESS, Situation, daring
from bot.catalog import player
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.warships import board
from bot.games.warships.actions import Move
from bot.games.warships.board import Shore
from bot.games.warships.engine import seen_by
from bot.games.warships.setup import check_layout
from bot.games.warships.state import Piece
from bot.games.warships.units import Kind
from tests.support.warships_positions import position

COMPUTER = 1


def _warships_game(options: str, seed: int, plies: int):  # type: ignore[no-untyped-def]
    """A seeded game between two greedy players (they clash early): every tenth state and
    what seat 1 had been told by then."""
    engine = ENGINES["warships"]
    rules = engine.configure(None, options)
    state = engine.new_game(rules, seed)
    players = {0: WarshipsGreedy(), 1: WarshipsGreedy()}
    heard: list[str] = []
    for ply in range(plies):
        if engine.outcome(state) is not None:
            break
        seat = min(engine.view(state, None).movers)
        text = players[seat].decide(
            Seen(rules, engine.view(state, seat), tuple(heard), dice_seed_for(seed, seat), ply)
        )
        transition = engine.act(state, seat, text)
        state = transition.state
        heard.extend(event.text for event in transition.for_audience(COMPUTER))
        if ply % 10 == 9:
            yield state, tuple(heard)


@pytest.mark.parametrize("options", ["quick", "quick forget"])
def test_the_warships_memory_agrees_with_the_truth(options: str) -> None:
    """Every type it remembers is the token's true type, every token it saw move is a
    ship, and with `forget` it still remembers what the board no longer shows."""
    remembered = 0
    for state, heard in _warships_game(options, seed=5, plies=120):
        memory = Memory.recall(heard, state.shore(COMPUTER))
        for cell, kind in memory.kinds.items():
            piece = state.at.get(cell)
            if piece is not None and piece.owner != COMPUTER:
                assert piece.kind is kind, f"misremembered {cell}"
                remembered += 1
        for cell in memory.moved:
            piece = state.at.get(cell)
            if piece is not None and piece.owner != COMPUTER:
                assert piece.kind.is_ship
        view = ENGINES["warships"].view(state, COMPUTER)
        for cell, belief in beliefs(view, heard).items():
            assert abs(sum(belief.values()) - 1) < 1e-9
            assert belief.get(state.at[cell].kind, 0) > 0, "the truth was ruled out"
    assert remembered > 0, "no clash was remembered"


@pytest.mark.parametrize("shore", list(Shore))
def test_the_warships_setup_is_legal_and_hides_the_landing_ship(shore: Shore) -> None:
    engine = ENGINES["warships"]
    layouts = [planned_setup(shore, random.Random(seed)) for seed in range(4)]
    for layout in layouts:
        check_layout(engine.configure(None), shore, layout, whole=True)
        landing = next(cell for cell, kind in layout.items() if kind is Kind.LANDING_SHIP)
        sea = [n for n in board.king_neighbours(landing) if board.is_field(n)]
        assert all(n in board.PORTS[shore] for n in sea), "a missile ship could fire at it"
        for exit_ in board.EXITS[shore]:
            assert layout[exit_] in (Kind.SUBMARINE, Kind.DESTROYER, Kind.BATTLESHIP)
    assert len({tuple(sorted(layout.items())) for layout in layouts}) > 1, "it never varies"


@pytest.mark.parametrize(
    ("game", "rival"), [("warships", WarshipsGreedy()), ("seachess", SeachessGreedy())]
)
def test_the_greedy_baselines_play_legal_moves(game: str, rival: object) -> None:
    tally = Tally()
    duel(game, None, 1, (rival, RandomPlayer(game)), tally, max_plies=60)  # type: ignore[arg-type]
    assert tally.illegal == 0 and tally.think


def _seachess_games(hide: tuple[str, str]):  # type: ignore[no-untyped-def]
    """Two games in which the person's submarine dives to different squares, all else equal."""
    engine = ENGINES["seachess"]
    rules = engine.configure(None)
    return engine, rules, [engine.new_game(rules, 7) for _ in hide]


@pytest.mark.parametrize("level", LEVELS)
def test_the_seachess_computer_decides_the_same_wherever_the_persons_submarine_hides(
    level: str,
) -> None:
    opening = ["e2-e3", "f2-f3", "g2-g3", "h2-h3", "i2-i3", "j2-j3"]
    secrets = ("dive d1-c3", "dive d1-e3")
    engine, rules, games = _seachess_games(secrets)
    computer = player("seachess", level)
    heard: list[list[str]] = [[], []]
    person_moves = 0
    compared = after_secrets = 0
    dice = random.Random("seachess")
    for ply in range(30):
        views = [engine.view(state, COMPUTER) for state in games]
        if views[0] != views[1] or heard[0] != heard[1] or engine.outcome(games[0]):
            break
        if games[0].turn == COMPUTER:
            decisions = [
                computer.decide(Seen(rules, view, tuple(said), 7, ply))
                for view, said in zip(views, heard, strict=True)
            ]
            assert decisions[0] == decisions[1]
            compared += 1
            after_secrets += person_moves > len(opening)
            texts = decisions
        else:
            if person_moves < len(opening):
                texts = [opening[person_moves]] * 2
            elif person_moves == len(opening):
                texts = list(secrets)
            else:
                options = [set(engine.legal_moves(engine.view(state, 0))) for state in games]
                shared = sorted(m for m in options[0] & options[1] if "draw" not in m)
                if not shared:
                    break
                texts = [dice.choice(shared)] * 2
            person_moves += 1
        transitions = [
            engine.act(state, games[0].turn, text) for state, text in zip(games, texts, strict=True)
        ]
        games = [t.state for t in transitions]
        for said, transition in zip(heard, transitions, strict=True):
            said.extend(e.text for e in transition.for_audience(COMPUTER))
    assert person_moves > len(opening), "the secrets never came into play"
    assert engine.to_json(games[0]) != engine.to_json(games[1])
    assert after_secrets >= 2, "too few decisions compared while the secrets differ"


def test_the_warships_admiral_never_ends_a_fourth_turn_on_neutral_water() -> None:
    """A ship three turns on neutral water is interned if it stays there (§13.2): moving it
    to another neutral field costs the ship, moving it out or waiting with it one turn less
    does not."""
    worn = Piece(board.field("E9"), COMPUTER, Kind.LANDING_SHIP, neutral=3)
    fresh = Piece(board.field("E9"), COMPUTER, Kind.LANDING_SHIP, neutral=2)
    into_neutral = Move(board.field("E9"), board.field("E10"))
    out_to_sea = Move(board.field("E9"), board.field("D9"))
    assert interned_by(worn, into_neutral)
    assert not interned_by(worn, out_to_sea)
    assert not interned_by(fresh, into_neutral)


def test_the_warships_missile_ships_grow_bolder_as_a_quiet_siege_nears_the_draw() -> None:
    """Full caution while things happen; less and less of it once the turns without a loss
    pile up toward the 200-turn draw (§14.4), but never none."""
    assert daring(0) == daring(RESTLESS) == 1.0
    assert 0.1 <= daring(190) < daring(120) < daring(RESTLESS + 1) < 1.0


def _admiral_situation(seed: int) -> Situation:
    """The strong admiral's knowledge at its first move of a seeded game."""
    engine = ENGINES["warships"]
    rules = engine.configure(None)
    state = engine.new_game(rules, seed)
    admiral = player("warships", "strong")
    for ply in range(6):
        seat = min(engine.view(state, None).movers)
        seen = Seen(rules, engine.view(state, seat), (), dice_seed_for(seed, seat), ply)
        if engine.view(state, None).phase is not Phase.SETUP and seat == COMPUTER:
            return Situation(seen, seen.view, seen_by(seen.view, seat))
        state = engine.act(state, seat, admiral.decide(seen)).state
    raise AssertionError("play never began")


def test_the_warships_last_missile_ship_goes_home_and_deep() -> None:
    """Without its last missile ship a side that cannot open an exit loses (§14.3): that
    ship heads home, stays in port and keeps away from the exits, which enemy missile ships
    may open; a siege that drags on sends it out again."""
    situation = _admiral_situation(seed=3)
    shore = situation.state.shore(COMPUTER)
    exit_ = sorted(board.EXITS[shore])[0]
    inside = next(n for n in board.open_steps(exit_) if n in board.PORTS[shore])
    outside = next(n for n in board.open_steps(exit_) if n not in board.PORTS[shore])
    ship = Piece(inside, COMPUTER, Kind.MISSILE_SHIP)
    situation.last_missile, situation.restless = True, False
    assert situation.progress(ship, outside, exit_) > 0, "it does not come home"
    assert situation.progress(ship, inside, exit_) < 0, "it does not stay away from the exit"
    assert situation.progress(ship, exit_, outside) < 0, "it leaves the port"
    situation.restless = True
    assert situation.progress(ship, exit_, outside) > 0, "a long siege does not send it out"


def test_a_token_that_stops_beside_a_standing_battery_is_remembered_as_a_missile_ship() -> None:
    """No other unit may enter a battery's zone (§11.1); once both batteries of the exit
    are taken out, a token stopping there may be anything again."""
    moved_in = ("Your opponent moved C7-C5.",)
    memory = Memory.recall(moved_in, Shore.SOUTH)
    assert memory.kinds == {board.field("C5"): Kind.MISSILE_SHIP}
    assert Memory.recall(moved_in).kinds == {}, "without its shore it cannot know the zones"
    assert Memory.recall(("Your opponent moved C7-C6.",), Shore.SOUTH).kinds == {}
    taken_out = tuple(
        f"Your opponent's missile ship (E6-E5) took out your shore battery on {name}: "
        "your shore battery was lost."
        for name in ("D4", "B4")
    )
    memory = Memory.recall((*taken_out, "Your opponent moved C7-C5."), Shore.SOUTH)
    assert memory.kinds.get(board.field("C5")) is None


def _decide(state, heard: tuple[str, ...] = ()) -> str:  # type: ignore[no-untyped-def]
    engine = ENGINES["warships"]
    return player("warships", "strong").decide(
        Seen(state.rules, engine.view(state, 0), heard, 1, 300)
    )


def test_the_last_missile_ship_is_not_left_stuck_on_its_exit() -> None:
    """An exit is where an enemy that takes out its batteries strikes first: a ship in the
    way of the last missile ship steps aside, and then the missile ship goes in."""
    blocked = position(
        """
           I  J  K
        3  .  .  .
        2  .  MS .
        1  .  CR .
        """
    )
    assert _decide(blocked).startswith("J1-"), "the cruiser stays in the way"
    free = position(
        """
           I  J  K
        3  .  .  .
        2  .  MS .
        1  CR .  .
        """
    )
    assert _decide(free) == "J2-J1"


def test_an_enemy_missile_ship_at_a_battery_is_hunted_and_the_exit_counts_as_open() -> None:
    """A token beside our battery is a missile ship about to open the exit: the admiral
    sees enemy fire through that exit already, and sinking it is worth a battery."""
    state = position(
        """
           B  C  D
        6  .  .  .
        5  .  ms .
        4  .  .  .
        3  .  .  .
        """
    )
    engine = ENGINES["warships"]
    view = engine.view(state, 0)
    seen = Seen(state.rules, view, ("Your opponent moved C7-C5.",), 1, 300)
    situation = Situation(seen, view, seen_by(view, 0))
    assert board.field("C5") in situation.menace
    assert board.field("C4") in situation.enemy_way
    assert situation.clash_value(Kind.BATTLESHIP, board.field("C5"), defuse=False) > 20


def test_a_missile_ship_keeps_off_neutral_water() -> None:
    """Moving one field a turn, a missile ship on neutral water is easily boxed in by the
    island until it is interned (§13.2): a stop there costs a share of its worth."""
    situation = _admiral_situation(seed=3)
    ship = Piece(board.field("D7"), COMPUTER, Kind.MISSILE_SHIP)
    onto_neutral, to_sea = Move(ship.cell, board.field("E8")), Move(ship.cell, board.field("D8"))
    cost = STRANDED * situation.own_value[Kind.MISSILE_SHIP]

    def plain(move: Move) -> float:  # its plan less the danger it steps into
        danger = situation.danger(Kind.MISSILE_SHIP, move.end)
        danger -= situation.danger(Kind.MISSILE_SHIP, ship.cell)
        return situation.progress(ship, ship.cell, move.end) - situation.daring * danger

    weighed = WarshipsAdmiral.weigh(situation, ship, onto_neutral, caution=1.0)
    assert weighed == pytest.approx(plain(onto_neutral) - cost)
    weighed = WarshipsAdmiral.weigh(situation, ship, to_sea, caution=1.0)
    assert weighed == pytest.approx(plain(to_sea))
