"""One test per clause of rules/warships.md, on named positions drawn as small diagrams."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.games.core import EndReason, IllegalActionError, NotationError, Phase, Transition
from bot.games.grid import cell_name
from bot.games.warships import board, moves
from bot.games.warships.rules import WarshipsRules
from bot.games.warships.state import Cause, WarshipsState
from bot.games.warships.units import CLASH, SHIPS, UNITS, Kind, Result
from tests.warships_positions import ENGINE, complete, f, kind_at, position

E = ENGINE
HARDER = WarshipsRules(harder=True)


def act(state: WarshipsState, text: str, seat: int | None = None) -> Transition:
    """``text`` played by ``seat`` (by default whoever is to move)."""
    return E.act(state, (state.turn or 0) if seat is None else seat, text)


def refused(state: WarshipsState, text: str, words: str, seat: int | None = None) -> None:
    """``text`` is refused with a sentence containing ``words``."""
    with pytest.raises(IllegalActionError) as error:
        act(state, text, seat)
    assert words in str(error.value)


# -- §2 board ---------------------------------------------------------------------------------


def test_2_2_ports_have_36_fields_and_are_point_images() -> None:
    south, north = board.PORTS
    assert len(south) == len(north) == 36
    assert f("A1") in south and f("L3") in south and f("K3") in south and f("F3") not in south
    assert north == {board.mirror(cell) for cell in south}
    assert f("H15") in north and f("A16") in north and f("C16") not in north


def test_2_4_twelve_neutral_fields_around_the_island() -> None:
    assert len(board.NEUTRAL) == 12
    assert f("E11") not in board.NEUTRAL and f("H8") not in board.NEUTRAL
    assert not board.is_field(f("F9")) and not board.is_field(f("G10"))


BLOCKED_DIAGONALS = (
    "E3 F2, B4 C3, D4 C3, I2 J1, K2 J1, C4 B3, C4 D3, J2 I1, J2 K1, J2 K3, E5 F4, J3 K4, "
    "E9 F8, E10 F11, G8 H9, G11 H10"
)


@pytest.mark.parametrize("pair", BLOCKED_DIAGONALS.split(", "))
def test_8_6_diagonals_past_wall_ends_are_blocked_in_both_halves(pair: str) -> None:
    a, b = (f(name) for name in pair.split())
    assert not board.step_open(a, b) and not board.step_open(b, a)
    assert not board.step_open(board.mirror(a), board.mirror(b))


@pytest.mark.parametrize(
    ("exit_", "ways"), [("C4", "C3 C5"), ("J2", "J1 J3"), ("J15", "J14 J16"), ("C17", "C16 C18")]
)
def test_8_6_each_exit_has_exactly_two_neighbours(exit_: str, ways: str) -> None:
    assert set(board.open_steps(f(exit_))) == board.fields(ways)


def test_2_3_fortification_walls_block_every_crossing_but_the_exits() -> None:
    crossings = [
        (a, b)
        for a in board.PORTS[0]
        for b in board.open_steps(a)
        if b not in board.PORTS[0]
    ]
    assert sorted(crossings) == sorted([(f("C4"), f("C5")), (f("J2"), f("J3"))])


# -- §4 unit table ------------------------------------------------------------------------------


def test_4_counts_and_ranges_from_the_help_card() -> None:
    assert sum(UNITS[k].count for k in SHIPS) == 26
    ranges = {k.value: UNITS[k].range for k in SHIPS}
    assert ranges == {"BS": 2, "MS": 1, "CR": 2, "DD": 4, "SS": 2, "ES": 3, "MW": 2, "LS": 1}
    assert UNITS[Kind.BATTERY].count == 4 and UNITS[Kind.MINE].count == 6


MATRIX_CELLS = [
    (attacker, defender)
    for attacker in SHIPS
    for defender in Kind
    if defender is not Kind.BATTERY
]


@pytest.mark.parametrize(("attacker", "defender"), MATRIX_CELLS, ids=lambda k: k.value)
def test_4_1_every_cell_of_the_clash_matrix(attacker: Kind, defender: Kind) -> None:
    state = position(
        f"""
           F  G
        6  .  {defender.value.lower()}
        5  {attacker.value}  .
        """,
        spares=True,
    )
    expected = CLASH[(attacker, defender)]
    if expected is Result.FORBIDDEN:
        refused(state, "F5xG6", "never attacks")
        return
    new = act(state, "F5xG6").state
    attacker_left = kind_at(new, "F5") is attacker
    defender_left = kind_at(new, "G6") is defender
    assert (attacker_left, defender_left) == {
        Result.ATTACKER_WINS: (True, False),
        Result.DEFENDER_WINS: (False, True),
        Result.BOTH: (False, False),
    }[expected]


def test_4_1_destroyer_attacking_a_submarine_wins() -> None:
    state = position(
        """
           F  G
        6  .  ss
        5  DD .
        """
    )
    new = act(state, "F5xG6").state
    assert kind_at(new, "F5") is Kind.DESTROYER and kind_at(new, "G6") is None


def test_4_1_submarine_attacking_a_destroyer_wins() -> None:
    state = position(
        """
           F  G
        6  .  dd
        5  SS .
        """
    )
    new = act(state, "F5xG6").state
    assert kind_at(new, "F5") is Kind.SUBMARINE and kind_at(new, "G6") is None


# -- §5 setup -----------------------------------------------------------------------------------


def test_5_2_a_new_game_starts_each_side_in_a_legal_random_setup_in_port() -> None:
    state = E.new_game(E.presets["classic"], 7)
    assert state.phase is Phase.SETUP
    for seat in (0, 1):
        port = board.PORTS[state.shore(seat)]
        own = state.own(seat)
        assert len(own) == 30 and all(p.cell in port for p in own)
        assert state.sides[seat].reserve == 6
        batteries = {p.cell for p in own if p.kind is Kind.BATTERY}
        assert batteries == board.BATTERY_FIELDS[state.shore(seat)]


def test_5_setup_swap_place_and_remove_mine_then_ready() -> None:
    state = E.new_game(E.presets["classic"], 3)
    seat = 0
    port_empty = sorted(board.SETUP_FIELDS[state.shore(seat)] - set(state.at))
    a, b = port_empty[0], next(p.cell for p in state.own(seat) if p.kind is not Kind.BATTERY)
    kind_b = state.at[b].kind
    state = E.act(state, seat, f"swap {cell_name(a)} {cell_name(b)}").state
    assert state.at[a].kind is kind_b and b not in state.at
    state = E.act(state, seat, f"place mine {cell_name(b)}").state
    assert state.at[b].kind is Kind.MINE and state.sides[seat].reserve == 5
    state = E.act(state, seat, f"remove mine {cell_name(b)}").state
    assert b not in state.at and state.sides[seat].reserve == 6
    state = E.act(state, seat, "ready").state
    with pytest.raises(IllegalActionError, match="confirmed"):
        E.act(state, seat, "random")


def test_5_2_setup_outside_the_port_or_on_a_battery_field_is_refused_with_the_rule() -> None:
    state = E.new_game(E.presets["classic"], 3)
    south = state.south
    own = next(p.cell for p in state.own(south) if p.kind is not Kind.BATTERY)
    with pytest.raises(IllegalActionError, match=r"§5\.2"):
        E.act(state, south, f"swap {cell_name(own)} F5")
    with pytest.raises(IllegalActionError, match="shore-battery field"):
        E.act(state, south, f"swap {cell_name(own)} B4")


def test_5_whole_setup_must_hold_every_ship() -> None:
    state = E.new_game(E.presets["classic"], 3)
    with pytest.raises(IllegalActionError, match="exactly 3 × battleship"):
        E.act(state, state.south, "setup BS:A1,B1 MS:C1")


def test_5_saved_setup_text_replays_and_fits_the_other_port() -> None:
    state = E.new_game(E.presets["classic"], 3)
    south, north = state.south, 1 - state.south
    text = E.setup_text(E.view(state, south))
    assert text is not None and str(E.parse_action(state, south, text)) == text
    loaded = E.act(state, north, text).state
    south_layout = {p.cell: p.kind for p in state.own(south) if p.kind is not Kind.BATTERY}
    north_layout = {p.cell: p.kind for p in loaded.own(north) if p.kind is not Kind.BATTERY}
    assert north_layout == {board.mirror(c): k for c, k in south_layout.items()}


def test_5_1_play_starts_when_both_are_ready_and_setups_stay_secret_until_then() -> None:
    state = E.new_game(E.presets["classic"], 3)
    view = E.view(state, 0)
    assert all(t.owner == 0 or t.kind is Kind.BATTERY for t in view.tokens)
    state = E.act(state, 0, "ready").state
    state = E.act(state, 1, "ready").state
    assert state.phase is Phase.PLAY and state.turn in (0, 1)
    assert sum(1 for t in E.view(state, 0).tokens if t.owner == 1 and t.kind is None) == 26


# -- §8 movement --------------------------------------------------------------------------------


def test_8_1_king_steps_up_to_the_range_and_fewer() -> None:
    state = position(
        """
           F  G  H  I  J
        9  .  .  .  .  .
        8  .  .  .  .  .
        7  .  .  .  .  .
        6  .  .  .  .  .
        5  .  .  .  .  ES
        """
    )
    assert act(state, "J5-G8").state.at[f("G8")].kind is Kind.ESCORT
    assert act(state, "J5-I6").state.at[f("I6")].kind is Kind.ESCORT
    refused(state, "J5-J9", "within 3 step")


def test_8_2_c_no_passing_through_tokens() -> None:
    state = position(
        """
           A  B  C
        7  .  .  .
        6  mn MN MN
        5  .  CR .
        """
    )
    refused(state, "B5-B7", "cannot get to B7")


def test_8_2_d_battery_zones_bar_all_but_missile_ships() -> None:
    state2 = position(
        """
           H  I  J
        13 DD MS .
        """
    )
    refused(state2, "H13-H14", "battery's zone")
    assert act(state2, "I13-I14").state.at[f("I14")].kind is Kind.MISSILE_SHIP


def test_11_2_guarded_exit_is_closed_even_to_missile_ships_until_both_batteries_fall() -> None:
    diagram = """
           J
        14 MS
        """
    refused(position(diagram), "J14-J15", "guards")
    refused(position(diagram, without="I15"), "J14-J15", "guards")
    assert kind_at(act(position(diagram, without="I15 K15"), "J14-J15").state, "J15") is (
        Kind.MISSILE_SHIP
    )


def test_11_4_own_units_ignore_own_zones_and_leave_by_their_exit() -> None:
    state = position(
        """
           C
        5  .
        4  DD
        3  .
        """
    )
    assert kind_at(act(state, "C4-C6").state, "C6") is Kind.DESTROYER


def test_8_3_ports_are_left_only_through_exits() -> None:
    state = position(
        """
           E  F
        5  .  .
        4  DD .
        """
    )
    refused(state, "E4-E5", "cannot get to E5")
    refused(state, "E4-F4", "cannot get to F4")


# -- §9 attacks ---------------------------------------------------------------------------------


def test_9_1_fire_passes_over_tokens_but_not_walls() -> None:
    state = position(
        """
           E  F  G  H
        7  .  .  .  .
        6  BS cr cr .
        5  .  .  .  .
        4  .  .  .  .
        """
    )
    assert kind_at(act(state, "E6xG6").state, "G6") is None
    walled = position(
        """
           E
        6  cr
        5  .
        4  BS
        """,
        turn=1,
    )
    refused(walled, "E6xE4", "out of reach", seat=1)


def test_9_1_missile_ships_fire_over_the_wall() -> None:
    state = position(
        """
           E
        5  ms
        4  DD
        """,
        turn=1,
    )
    new = act(state, "E5xE4", seat=1).state
    assert kind_at(new, "E4") is None and kind_at(new, "E5") is Kind.MISSILE_SHIP


def test_9_6_guarded_exits_stop_fire_into_the_port_until_opened() -> None:
    diagram = """
           C
        7  dd
        6  .
        5  .
        4  .
        3  ES
        """
    refused(position(diagram, turn=1), "C7xC3", "out of reach", seat=1)
    opened = position(diagram, turn=1, without="B4 D4")
    assert kind_at(act(opened, "C7xC3", seat=1).state, "C3") is None


def test_9_move_then_attack_keeps_the_survivor_on_its_field() -> None:
    state = position(
        """
           F  G  H  I  J
        6  .  .  .  .  es
        5  DD .  .  .  .
        """
    )
    new = act(state, "F5-G5xJ6").state
    assert kind_at(new, "G5") is Kind.DESTROYER and kind_at(new, "J6") is None
    assert new.last is not None and new.last.emptied == (f("J6"),)


def test_15_1_harder_variant_shortens_reach_by_the_steps_moved() -> None:
    diagram = """
           F  G  H  I  J
        6  DD .  .  .  es
        5  .  .  .  .  .
        4  .  .  .  .  .
        """
    assert kind_at(act(position(diagram), "F6-F4xJ6").state, "J6") is None
    refused(position(diagram, rules=HARDER), "F6-F4xJ6", "out of reach")
    assert kind_at(act(position(diagram, rules=HARDER), "F6-G6xJ6").state, "J6") is None


def test_15_1_harder_counts_the_shortest_path_not_the_drawn_one() -> None:
    state = position(
        """
           F  G  H  I
        7  .  .  .  mw
        6  .  .  .  .
        5  ES .  .  .
        """,
        rules=HARDER,
    )
    new = act(state, "F5-G6xI7").state  # one diagonal step, however it is pictured
    assert kind_at(new, "I7") is None and kind_at(new, "G6") is Kind.ESCORT


def test_15_2_greater_mobility_gives_missile_and_landing_ships_range_two() -> None:
    diagram = """
           F  G  H
        6  .  .  .
        5  MS LS .
        """
    refused(position(diagram), "F5-H5", "")
    fast = WarshipsRules(mobility=True)
    assert kind_at(act(position(diagram, rules=fast), "F5-F7").state, "F7") is Kind.MISSILE_SHIP
    assert kind_at(act(position(diagram, rules=fast), "G5-G7").state, "G7") is Kind.LANDING_SHIP


def test_9_4_both_players_learn_both_types_the_channel_only_the_emptied_field() -> None:
    state = position(
        """
           F  G
        6  .  bs
        5  CR .
        """
    )
    events = act(state, "F5xG6").events
    mine, theirs, public = (
        " ".join(e.text for e in events if e.audience == who) for who in (0, 1, None)
    )
    assert "cruiser" in mine and "battleship" in mine
    assert "cruiser" in theirs and "battleship" in theirs
    assert "F5 emptied" in public
    assert "cruiser" not in public and "battleship" not in public


def test_10_2_the_survivor_stays_identified_and_15_4_forget_hides_it() -> None:
    diagram = """
           F  G
        6  .  bs
        5  CR .
        """
    new = act(position(diagram), "F5xG6").state
    seen = E.view(new, 0).token_at(f("G6"))
    assert seen is not None and seen.kind is Kind.BATTLESHIP
    channel = E.view(new, None).token_at(f("G6"))
    assert channel is not None and channel.kind is None
    forgetful = act(position(diagram, rules=WarshipsRules(forget=True)), "F5xG6").state
    hidden = E.view(forgetful, 0).token_at(f("G6"))
    assert hidden is not None and hidden.kind is None


def test_9_3_only_missile_ships_take_out_batteries_and_the_zone_goes_with_it() -> None:
    diagram = """
           H  I
        13 DD .
        14 .  MS
        """
    refused(position(diagram), "H13xI15", "Only a missile ship")
    new = act(position(diagram), "I14xI15").state
    assert kind_at(new, "I15") is None
    assert f("H14") not in new.zones[1] - board.zone(f("K15"))
    assert any(loss.kind is Kind.BATTERY for loss in new.losses)
    moved = replace(new, turn=0)
    assert kind_at(act(moved, "H13-H14").state, "H14") is Kind.DESTROYER


def reloaded(state: WarshipsState) -> WarshipsState:
    """``state`` stored and read back, as the referee does after a restart."""
    return E.from_json(json.loads(json.dumps(E.to_json(state))))


def test_2_2_a_taken_out_battery_field_takes_own_ships_and_mines_and_reloads() -> None:
    """§2.2, §8.2 c, §11.4, §12.1: once its battery is gone, the field is an ordinary port
    field; an own ship may enter it, an own mine be laid on it, and the game reloads."""
    state = complete(
        position(
            """
               A  B  C
            5  .  .  ms
            4  .  .  .
            3  DD MW .
            """,
            turn=1,
        )
    )
    assert reloaded(state) == state
    taken = act(state, "C5xB4").state
    entered = act(taken, "A3-B4").state
    assert kind_at(entered, "B4") is Kind.DESTROYER
    assert reloaded(entered) == entered
    mined = act(replace(taken, turn=0), "mine B4").state
    assert kind_at(mined, "B4") is Kind.MINE
    assert reloaded(mined) == mined


def test_13_1_no_attack_from_or_onto_neutral_water() -> None:
    state = position(
        """
           E  F
        9  BS .
        8  .  cr
        7  BS .
        """
    )
    refused(state, "E9xF8", "neutral water")
    refused(state, "E7xF8", "neutral water")


# -- §12 mines ----------------------------------------------------------------------------------


def test_12_1_a_mine_is_laid_next_to_an_own_minesweeper_without_ending_the_turn() -> None:
    state = position(
        """
           F  G
        6  .  .
        5  MW .
        """
    )
    new = act(state, "mine G6").state
    assert kind_at(new, "G6") is Kind.MINE and new.turn == 0 and new.sides[0].reserve == 5
    refused(state, "mine H7", "one step from one of your minesweepers")


def test_12_1_no_mines_from_neutral_water_or_in_enemy_zones() -> None:
    refused(
        position(
            """
               E  F
            8  MW .
            7  .  .
            """
        ),
        "mine F7",
        "§12.1",
    )
    refused(
        position(
            """
               H  I
            13 MW .
            12 .  .
            """
        ),
        "mine H14",
        "§12.1",
    )


def test_12_1_mines_after_the_action_and_12_2_they_are_announced() -> None:
    state = position(
        """
           F  G
        6  .  .
        5  MW .
        """
    )
    transition = act(state, "F5-F6 mine G6")
    assert kind_at(transition.state, "G6") is Kind.MINE and transition.state.turn == 1
    opponent = E.view(transition.state, 1).token_at(f("G6"))
    assert opponent is not None and opponent.kind is Kind.MINE
    assert any("laid a mine on G6" in e.text for e in transition.events if e.audience is None)


def test_12_3_a_ship_attacking_a_mine_goes_down_with_it() -> None:
    state = position(
        """
           F  G
        6  .  mn
        5  BS .
        """
    )
    new = act(state, "F5xG6").state
    assert kind_at(new, "F5") is None and kind_at(new, "G6") is None


def test_12_4_defusing_removes_the_mine_and_keeps_the_minesweeper() -> None:
    state = position(
        """
           F  G
        6  .  mn
        5  MW .
        """
    )
    new = act(state, "F5 defuse G6").state
    assert kind_at(new, "F5") is Kind.MINESWEEPER and kind_at(new, "G6") is None


def test_12_4_defusing_a_ship_costs_the_minesweeper() -> None:
    state = position(
        """
           F  G
        6  .  ls
        5  MW .
        """
    )
    new = act(state, "F5 defuse G6").state
    assert kind_at(new, "F5") is None and kind_at(new, "G6") is Kind.LANDING_SHIP


def test_12_4_own_mines_cannot_be_defused_and_only_minesweepers_defuse() -> None:
    state = position(
        """
           F  G
        6  BS MN
        5  MW .
        """
    )
    refused(state, "F5 defuse G6", "no enemy token")
    refused(state, "F6 defuse G6", "Only a minesweeper")


def test_12_5_mines_block_movement() -> None:
    state = position(
        """
           F  G  H
        5  CR mn .
        """
    )
    assert f("G5") not in moves.destinations(state, state.at[f("F5")])


# -- §13 neutral waters -------------------------------------------------------------------------


def test_13_2_a_unit_is_interned_at_the_end_of_its_fourth_turn_on_neutral_water() -> None:
    state = position(
        """
           E  F  G  H  I
        8  BS .  .  .  .
        5  .  .  .  .  cr
        """,
        neutral={"E8": 3},
    )
    new = act(state, "A1-A2").state  # the battleship stays on E8 for a fourth turn
    assert kind_at(new, "E8") is None
    loss = new.losses[-1]
    assert loss.cause is Cause.INTERNED and loss.kind is Kind.BATTLESHIP
    assert E.view(new, 1).losses[-1].kind is None


def test_13_2_the_counter_resets_on_leaving() -> None:
    state = position(
        """
           E
        8  BS
        7  .
        6  .
        """,
        neutral={"E8": 3},
    )
    new = act(state, "E8-E6").state
    assert new.at[f("E6")].neutral == 0


def test_14_2_an_interned_landing_ship_loses_the_game() -> None:
    state = position(
        """
           E
        8  LS
        """,
        neutral={"E8": 3},
    )
    new = act(state, "B1-B2").state
    assert new.outcome is not None and new.outcome.winner == 1


# -- §14 game end -------------------------------------------------------------------------------


def test_14_1_landing_in_the_enemy_port_wins() -> None:
    state = position(
        """
           J
        15 .
        14 LS
        """,
        without="I15 K15",
    )
    new = act(state, "J14-J15").state
    assert new.phase is Phase.FINISHED and new.outcome is not None and new.outcome.winner == 0


def test_14_2_destroying_the_landing_ship_wins() -> None:
    state = position(
        """
           F  G
        6  .  ls
        5  ES .
        """
    )
    new = act(state, "F5xG6").state
    assert new.outcome is not None and new.outcome.winner == 0
    assert new.outcome.reason is EndReason.RULES


def test_14_3_no_missile_ship_while_both_enemy_exits_are_guarded_loses() -> None:
    state = position(
        """
           F  G
        6  .  bs
        5  MS .
        """,
    )
    state = state.with_pieces([p for p in state.pieces if p.cell != f("B1")])
    new = act(state, "F5xG6").state
    assert new.outcome is not None and new.outcome.winner == 1


def test_14_3_both_sides_without_missile_ships_is_a_draw() -> None:
    state = position(
        """
           F  G
        6  .  ms
        5  MS .
        """,
    )
    state = state.with_pieces([p for p in state.pieces if p.cell not in (f("B1"), f("K18"))])
    new = act(state, "F5xG6").state
    assert new.outcome is not None and new.outcome.winner is None


def test_6_3_pass_only_without_a_legal_action_and_two_passes_draw() -> None:
    state = position(
        """
           F
        5  CR
        """
    )
    refused(state, "pass", "only when none")
    stuck = position(
        """
           A  B  C  J  K  L
        18 .  .  .  mn ms ls
        17 .  .  .  mn mn mn
        2  MN MN MN .  .  .
        1  LS MS MN .  .  .
        """
    )
    assert [str(a) for a in E.legal_actions(stuck, 0)] == ["offer draw", "pass"]
    first = act(stuck, "pass").state
    assert first.turn == 1 and first.phase is Phase.PLAY
    second = act(first, "pass", seat=1).state
    assert second.outcome is not None and second.outcome.winner is None


def test_14_4_two_hundred_quiet_turns_draw() -> None:
    state = replace(
        position(
            """
               F  G
            5  CR .
            """
        ),
        quiet=199,
    )
    new = act(state, "F5-G5").state
    assert new.outcome is not None and "200 turns" in new.outcome.detail


# -- §15 optional rules -------------------------------------------------------------------------


def test_15_3_initial_manoeuvres_allow_up_to_twelve_ships_outside() -> None:
    rules = E.configure(None, "manoeuvres")
    state = E.new_game(rules, 4)
    seat = state.south
    ships = [p.cell for p in state.own(seat) if p.kind.is_ship]
    area = sorted(board.MANOEUVRE_AREAS[0])
    for ship, spot in zip(ships[:12], area, strict=False):
        state = E.act(state, seat, f"swap {cell_name(ship)} {cell_name(spot)}").state
    with pytest.raises(IllegalActionError, match="At most 12"):
        E.act(state, seat, f"swap {cell_name(ships[12])} {cell_name(area[12])}")
    plain = E.new_game(E.presets["classic"], 4)
    with pytest.raises(IllegalActionError, match=r"§5\.2"):
        E.act(plain, plain.south, f"swap {cell_name(ships[0])} F5")


def test_15_3_mines_never_start_on_the_manoeuvre_area() -> None:
    state = E.new_game(E.configure(None, "manoeuvres"), 4)
    with pytest.raises(IllegalActionError, match=r"§5\.3"):
        E.act(state, state.south, "place mine F5")


def test_5_5_quick_setup_starts_play_at_once_with_mines_in_reserve() -> None:
    state = E.new_game(E.configure(None, "quick"), 4)
    assert state.phase is Phase.PLAY and state.turn in (0, 1)
    assert state.sides[0].reserve == state.sides[1].reserve == 6


def test_options_are_parsed_named_and_suggested() -> None:
    rules = E.configure("classic", "harder, mobility manoeuvres quick forget")
    assert rules == WarshipsRules(True, True, True, True, True)
    assert E.variant_name(E.configure(None, "harder")) == "classic + harder"
    with pytest.raises(Exception, match="no option `fast`"):
        E.configure(None, "fast")
    assert "harder mobility" in E.option_suggestions(rules, "harder mo")


# -- notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["C5-C7", "C5xD7", "C5-C7xD8", "C5 defuse D7", "C5-C7 defuse D8", "mine E5",
     "C5-C7 mine C8 mine D8", "pass"],
)
def test_play_notation_round_trips(text: str) -> None:
    state = position("A\n 1 .")
    assert str(E.parse_action(state, 0, text)) == text


@pytest.mark.parametrize(
    "text", ["random", "ready", "swap A1 B2", "place mine E3", "remove mine E3"]
)
def test_setup_notation_round_trips(text: str) -> None:
    state = E.new_game(E.presets["classic"], 1)
    assert str(E.parse_action(state, 0, text)) == text


def test_bad_text_is_a_notation_error_with_a_hint() -> None:
    with pytest.raises(NotationError, match="C5-C7"):
        E.parse_action(position("A\n 1 ."), 0, "fire!")


def test_11_1_a_battery_zone_is_its_eight_neighbours_on_both_sides_of_the_wall() -> None:
    assert board.zone(f("B4")) == board.fields("A3 A4 A5 B3 B5 C3 C4 C5")
    assert board.zone(f("K2")) == board.fields("J1 J2 J3 K1 K3 L1 L2 L3")
    state = position(
        """
           A  B
        6  dd .
        """,
        turn=1,
    )
    refused(state, "A6-A5", "battery's zone", seat=1)
    assert kind_at(act(position("A\n 6 dd", turn=1, without="B4"), "A6-A5", seat=1).state, "A5")


def test_14_3_losing_the_last_missile_ship_is_no_loss_once_an_enemy_exit_is_open() -> None:
    state = position(
        """
           F  G
        6  .  bs
        5  MS .
        """,
        without="I15 K15",
    )
    state = state.with_pieces([p for p in state.pieces if p.cell != f("B1")])
    new = act(state, "F5xG6").state
    assert new.phase is Phase.PLAY and new.outcome is None


def test_16_1_refusals_do_not_depend_on_hidden_types() -> None:
    diagram = """
           F  G  H
        6  .  {g} {h}
        5  CR .  .
        """
    state = position(diagram.format(g="bs", h="mn"))
    twin = position(diagram.format(g="mn", h="bs"))
    for text in ("F5-G6", "F5xH8", "F5 defuse G6", "G6-G7", "F5-E5xH6"):
        messages = []
        for board_state in (state, twin):
            with pytest.raises(IllegalActionError) as error:
                act(board_state, text)
            messages.append(str(error.value))
        assert messages[0] == messages[1]


def test_the_rules_summary_follows_the_options_and_fits_a_message() -> None:
    plain, fast = E.describe(E.presets["classic"]), E.describe(E.configure(None, "mobility"))
    assert "missile ship 1" in plain and "missile ship 2" in fast and "landing ship 2" in fast
    assert "DD beats SS" in plain and "SS beats BS" in plain
    assert len(fast) < 2000


def test_setup_autocomplete_offers_legal_setup_moves_either_way_round() -> None:
    state = E.new_game(E.presets["classic"], 5)
    seat = state.south
    view = E.view(state, seat)
    offered = E.suggestions(view, "")
    assert offered[:2] == ["random", "ready"] and offered[2].startswith("place mine")
    own = next(p.cell for p in state.own(seat) if p.kind.is_ship)
    typed = f"swap {cell_name(own)}"
    swaps = E.suggestions(view, typed.lower())
    assert swaps and all(text.startswith(typed) for text in swaps)
    for text in swaps:
        E.act(state, seat, text)  # each one is legal
    assert E.suggestions(E.view(state, None), "") == []


def test_play_autocomplete_lists_only_legal_moves_of_the_mover() -> None:
    state = position(
        """
           F  G
        6  .  bs
        5  MW .
        """
    )
    offered = E.suggestions(E.view(state, 0), "f5")
    assert "F5xG6" in offered and "F5 defuse G6" in offered and "F5-F6" in offered
    assert all(str(E.parse_action(state, 0, text)) == text for text in offered)
    assert E.suggestions(E.view(state, 1), "") == []


def test_setup_words_in_play_are_refused_with_a_hint() -> None:
    with pytest.raises(NotationError, match="setups are done"):
        E.parse_action(position("A\n 1 ."), 0, "setup BS:A1")


def test_14_4_a_draw_by_agreement_is_offered_in_turn_and_accepted_in_the_next() -> None:
    state = position(
        """
           F  G
        5  CR cr
        """
    )
    refused(state, "accept draw", "no draw offer")
    offered = act(state, "offer draw")
    assert offered.state.turn == 0 and offered.state.draw_offer == 0  # the turn goes on
    assert any("offers a draw" in e.text for e in offered.for_audience(1))
    refused(offered.state, "offer draw", "already stands")
    moved = act(offered.state, "F5-F6").state
    assert E.parse_action(moved, 1, "accept draw") in list(E.legal_actions(moved, 1))
    ended = act(moved, "accept draw", seat=1).state
    assert ended.outcome is not None and ended.outcome.winner is None
    assert "agreed" in ended.outcome.detail


def test_14_4_playing_on_declines_the_draw() -> None:
    state = position(
        """
           F  G
        5  CR cr
        7  .  .
        """
    )
    offered = act(act(state, "offer draw").state, "F5-F6").state
    declined = act(offered, "G5-G7", seat=1).state
    assert declined.draw_offer is None
    refused(declined, "accept draw", "no draw offer")


def test_14_4_autocomplete_offers_accepting_a_standing_draw() -> None:
    state = position(
        """
           F  G
        5  CR cr
        """
    )
    offered = act(act(state, "offer draw").state, "F5-F6").state
    assert "accept draw" in E.suggestions(E.view(offered, 1), "acc")
    assert "offer draw" not in E.suggestions(E.view(offered, 1), "")
