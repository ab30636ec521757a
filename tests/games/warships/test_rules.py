"""One test per clause of the Warships rules, on named positions drawn as small diagrams:
the board, the unit table, setup, the optional rules, notation and the texts. Movement,
attacks and mines are in ``test_play``, how a game ends in ``test_endings``.
"""

from __future__ import annotations

import pytest

from bot.games.core import IllegalActionError, NotationError, Phase
from bot.games.grid import cell_name
from bot.games.warships import board
from bot.games.warships.rules import WarshipsRules
from bot.games.warships.units import CLASH, SHIPS, UNITS, Kind, Result
from tests.support.warships_positions import ENGINE as E
from tests.support.warships_positions import act, f, kind_at, position, refused, two_tokens

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
        (a, b) for a in board.PORTS[0] for b in board.open_steps(a) if b not in board.PORTS[0]
    ]
    assert sorted(crossings) == sorted([(f("C4"), f("C5")), (f("J2"), f("J3"))])


# -- §4 unit table ------------------------------------------------------------------------------


def test_4_counts_and_ranges_from_the_help_card() -> None:
    assert sum(UNITS[k].count for k in SHIPS) == 26
    ranges = {k.value: UNITS[k].range for k in SHIPS}
    assert ranges == {"BS": 2, "MS": 1, "CR": 2, "DD": 4, "SS": 2, "ES": 3, "MW": 2, "LS": 1}
    assert UNITS[Kind.BATTERY].count == 4 and UNITS[Kind.MINE].count == 6


MATRIX_CELLS = [
    (attacker, defender) for attacker in SHIPS for defender in Kind if defender is not Kind.BATTERY
]


@pytest.mark.parametrize(("attacker", "defender"), MATRIX_CELLS, ids=lambda k: k.value)
def test_4_1_every_cell_of_the_clash_matrix(attacker: Kind, defender: Kind) -> None:
    state = two_tokens(attacker.value, defender.value.lower(), spares=True)
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


@pytest.mark.parametrize(
    ("attacker", "defender", "winner"),
    [
        pytest.param("DD", "ss", Kind.DESTROYER, id="destroyer_attacking_a_submarine"),
        pytest.param("SS", "dd", Kind.SUBMARINE, id="submarine_attacking_a_destroyer"),
    ],
)
def test_4_1_destroyer_and_submarine_each_win_when_they_attack(
    attacker: str, defender: str, winner: Kind
) -> None:
    new = act(two_tokens(attacker, defender), "F5xG6").state
    assert kind_at(new, "F5") is winner and kind_at(new, "G6") is None


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
    with pytest.raises(IllegalActionError, match=r"not in your port"):
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
    with pytest.raises(IllegalActionError, match=r"not in your port"):
        E.act(plain, plain.south, f"swap {cell_name(ships[0])} F5")


def test_15_3_mines_never_start_on_the_manoeuvre_area() -> None:
    state = E.new_game(E.configure(None, "manoeuvres"), 4)
    with pytest.raises(IllegalActionError, match=r"mines start in the port"):
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
    [
        "C5-C7",
        "C5xD7",
        "C5-C7xD8",
        "C5 defuse D7",
        "C5-C7 defuse D8",
        "mine E5",
        "C5-C7 mine C8 mine D8",
        "pass",
    ],
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
    state = two_tokens("MW", "bs")
    offered = E.suggestions(E.view(state, 0), "f5")
    assert "F5xG6" in offered and "F5 defuse G6" in offered and "F5-F6" in offered
    assert all(str(E.parse_action(state, 0, text)) == text for text in offered)
    assert E.suggestions(E.view(state, 1), "") == []


def test_setup_words_in_play_are_refused_with_a_hint() -> None:
    with pytest.raises(NotationError, match="setups are done"):
        E.parse_action(position("A\n 1 ."), 0, "setup BS:A1")
