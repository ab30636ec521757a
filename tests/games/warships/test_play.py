"""Warships in play (Warships rules §8, §9, §11): moving, attacking and batteries, one test
per clause on named positions drawn as small diagrams. Mines (§12) are in
``test_mines``.
"""

from __future__ import annotations

import json
from dataclasses import replace

from bot.games.warships import board
from bot.games.warships.rules import WarshipsRules
from bot.games.warships.state import WarshipsState
from bot.games.warships.units import Kind
from tests.support.warships_positions import ENGINE as E
from tests.support.warships_positions import (
    act,
    complete,
    f,
    kind_at,
    position,
    refused,
    two_tokens,
)

HARDER = WarshipsRules(harder=True)

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
    refused(state, "J5-J9", "cannot get to J9: too far; an escort moves at most 3 steps.")


def test_8_2_c_no_passing_through_tokens() -> None:
    state = position(
        """
           A  B  C
        7  .  .  .
        6  mn MN MN
        5  .  CR .
        """
    )
    refused(
        state,
        "B5-B7",
        "cannot get to B7: blocked by your mine on B6, your mine on C6 and an enemy token on A6.",
    )


def test_a_refused_move_names_the_battery_zones_and_the_guarded_exit_in_its_way() -> None:
    state = position(
        """
           I
        13 DD
        """
    )
    refused(
        state,
        "I13-I17",
        "blocked by the zones of the enemy batteries on I15 and K15 and the guarded "
        "enemy exit J15.",
    )


def test_a_refused_move_names_tokens_and_zones_when_only_both_together_block_it() -> None:
    state = position(
        """
           I  J
        16 .  ES
        13 DD .
        """
    )
    refused(
        state,
        "I13-I17",
        "blocked by your escort on J16; and by the zones of the enemy batteries on "
        "I15 and K15 and the guarded enemy exit J15.",
    )


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
    refused(
        state,
        "E4-E5",
        "cannot get to E5: walls are in the way: round them it takes 6 steps, and a destroyer "
        "moves at most 4 steps.",
    )
    refused(state, "E4-F4", "cannot get to F4: walls are in the way")


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
    state = two_tokens("CR", "bs")
    events = act(state, "F5xG6").events
    mine, theirs, public = (
        " ".join(e.text for e in events if e.audience == who) for who in (0, 1, None)
    )
    assert "cruiser" in mine and "battleship" in mine
    assert "cruiser" in theirs and "battleship" in theirs
    assert "F5 emptied" in public
    assert "cruiser" not in public and "battleship" not in public


def test_10_2_the_survivor_stays_identified_and_15_4_forget_hides_it() -> None:
    new = act(two_tokens("CR", "bs"), "F5xG6").state
    seen = E.view(new, 0).token_at(f("G6"))
    assert seen is not None and seen.kind is Kind.BATTLESHIP
    channel = E.view(new, None).token_at(f("G6"))
    assert channel is not None and channel.kind is None
    forgetful = act(two_tokens("CR", "bs", rules=WarshipsRules(forget=True)), "F5xG6").state
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
