"""Rule tests for the Milton Bradley modules: named hits (§4.2) and Salvo (§4.3), and the
option words that choose them (§4.9), on named positions typed in the engine's notation."""

from __future__ import annotations

import pytest

from bot.games.core import (
    CorruptStateError,
    GameError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    Phase,
    name_of,
)
from bot.games.seabattle import actions as act
from bot.games.seabattle.rules import SeaBattleRules
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from tests.support.seabattle_positions import (
    ENGINE,
    MB_FLEET,
    refused,
    shoot,
    start_game,
    texts_for,
)

E = ENGINE

ROUNDS = ("A1 B1 C1 D1 A2", "B2 C2 A3 B3 A4", "B4 A5 J10 J9 J8")
"""Three salvos that leave every ship of ``MB_FLEET`` one cell short of sinking:
E1 (carrier), D2 (battleship), C3 (cruiser), C4 (submarine) and B5 (destroyer)."""
LAST_CELLS = "E1 D2 C3 C4 B5"


def mirrored(mode: str) -> SeaBattleState:
    """Both players fire ``ROUNDS`` at each other's identical fleet: every ship is one cell
    from sinking on both sides, and seat 0 (the first shooter) is to fire."""
    state = start_game(mode, MB_FLEET, MB_FLEET, first=0)
    for salvo in ROUNDS:
        state = shoot(state, 0, salvo)
        state = shoot(state, 1, salvo)
    assert state.turn == 0 and state.afloat(0) == state.afloat(1) == 5
    return state


# -- options (§4.9) ---------------------------------------------------------------------------


def test_4_9_option_words_add_modules_and_name_the_variant() -> None:
    rules = E.configure("milton-bradley", "salvo equal-rounds")
    assert rules.salvo and rules.equal_rounds and not rules.blind_report
    assert E.variant_name(rules) == "milton-bradley salvo equal-rounds"
    assert E.variant_name(E.configure("milton-bradley", "named-hits")) == (
        "milton-bradley named-hits"
    )
    assert E.variant_name(E.configure("classic", "corners")) == "corners"


@pytest.mark.parametrize(
    ("variant", "options", "words"),
    [
        ("classic", "salvo", ["`salvo`", "classic game", "which takes `corners`"]),
        ("large", "named-hits", ["`named-hits`", "cannot be played"]),
        ("milton-bradley", "corners", ["`corners`", "Milton Bradley", "which takes"]),
        ("milton-bradley", "equal-rounds", ["add `salvo`", "a way of playing Salvo"]),
        ("milton-bradley", "blind-report", ["add `salvo`", "a way of playing Salvo"]),
        ("classic", "torpedoes", ["no option `torpedoes`"]),
    ],
)
def test_4_9_combinations_not_allowed_are_refused_naming_the_rule(
    variant: str, options: str, words: list[str]
) -> None:
    with pytest.raises(GameError) as caught:
        E.configure(variant, options)
    for word in words:
        assert word in str(caught.value)


def test_4_9_option_autocomplete_offers_only_allowed_words() -> None:
    classic, mb = E.presets["classic"], E.presets["milton-bradley"]
    assert "salvo" not in E.option_suggestions(classic, "")
    assert "corners" in E.option_suggestions(classic, "")
    assert E.option_suggestions(mb, "sa") == ["salvo"]
    assert "salvo blind-report" in E.option_suggestions(mb, "salvo ")
    assert E.option_suggestions(mb, "equal") == []  # only after `salvo`
    assert E.option_suggestions(mb, "bogus ") == []


def test_rules_stored_before_the_modules_read_back_unchanged() -> None:
    classic = E.presets["classic"]
    assert set(classic.to_json()) == {"size", "fleet", "touching", "extra_shot"}
    assert SeaBattleRules.from_json(classic.to_json()) == classic
    salvo = E.configure("milton-bradley", "salvo blind-report")
    assert SeaBattleRules.from_json(salvo.to_json()) == salvo
    forged = {**classic.to_json(), "salvo": True}  # Salvo is for Milton Bradley only
    with pytest.raises(CorruptStateError):
        SeaBattleRules.from_json(forged)


# -- §4.2 named hits --------------------------------------------------------------------------


def test_4_2_named_hits_name_the_ship_on_every_hit() -> None:
    state = start_game("named-hits", MB_FLEET, MB_FLEET, first=0)
    events = E.act(state, 0, "A2").events  # the battleship, not sunk
    assert texts_for(events, 0) == ['A2: hit. "You hit my battleship!" Your opponent shoots next.']
    assert "battleship" in texts_for(events, 1)[0]
    assert texts_for(events, None) == [f"{name_of(0)} fires at A2: hit, on a battleship."]


def test_4_2_without_named_hits_only_a_sinking_names_the_ship() -> None:
    state = start_game("milton-bradley", MB_FLEET, MB_FLEET, first=0)
    events = E.act(state, 0, "A2").events
    assert "battleship" not in texts_for(events, 0)[0]
    assert "battleship" not in texts_for(events, None)[0]


# -- §4.3 Salvo -------------------------------------------------------------------------------


def test_4_3_a_salvo_names_as_many_cells_as_ships_afloat() -> None:
    state = start_game("salvo", MB_FLEET, MB_FLEET, first=0)
    assert "exactly 5 cells" in refused(state, 0, "A1 B1 C1 D1", IllegalActionError)
    assert "exactly 5 cells" in refused(state, 0, "A1", IllegalActionError)
    sank = E.act(state, 0, "A5 B5 J1 J2 J3")  # sinks the destroyer
    state = sank.state
    assert state.turn == 1  # no extra turn, even for hits
    assert "exactly 4 cells" in refused(state, 1, "J1 J2 J3 J4 J5", IllegalActionError)
    assert texts_for(sank.events, 1)[0].endswith("Your salvo: name 4 cells.")
    assert E.view(state, None).salvo_size == 4
    state = shoot(state, 1, "J1 J2 J3 J4")
    assert E.view(state, 1).salvo_size == 5  # seat 0 lost nothing


def test_4_3_every_cell_is_answered_and_each_sunk_ship_named() -> None:
    state = start_game("salvo", MB_FLEET, MB_FLEET, first=0)
    events = E.act(state, 0, "A5 B5 A1 J2 J3").events
    answer = 'A5 hit, B5 hit, A1 hit, J2 miss, J3 miss. "You sank my destroyer!"'
    assert texts_for(events, 0) == [
        f"Your salvo at A5 B5 A1 J2 J3: {answer} Your opponent fires next."
    ]
    assert texts_for(events, None) == [
        f"{name_of(0)} fires a salvo at A5 B5 A1 J2 J3: {answer} {name_of(1)} fires next."
    ]


def test_4_3_a_bad_salvo_is_refused_and_changes_nothing() -> None:
    state = start_game("salvo", MB_FLEET, MB_FLEET, first=0)
    assert "twice" in refused(state, 0, "A1 A1 B1 C1 D1", IllegalActionError)
    refused(state, 1, "A1 B1 C1 D1 E1", NotYourTurnError)
    refused(state, 0, "A1 B1 C1 D1 hello", NotationError)
    state = shoot(state, 0, "J1 J2 J3 J4 J5")
    state = shoot(state, 1, "J1 J2 J3 J4 J5")
    assert "already shot at J1" in refused(state, 0, "J1 A1 B1 C1 D1", IllegalActionError)


def test_4_3_the_game_ends_as_soon_as_one_fleet_is_sunk() -> None:
    state = mirrored("salvo")
    final = E.act(state, 0, LAST_CELLS)
    assert final.state.phase is Phase.FINISHED
    outcome = E.outcome(final.state)
    assert outcome is not None and outcome.winner == 0


def test_4_3_equal_rounds_give_the_second_player_a_last_salvo_and_a_draw() -> None:
    state = E.act(mirrored("salvo-equal"), 0, LAST_CELLS).state
    assert state.phase is Phase.PLAY and state.turn == 1 and state.last_salvo
    assert E.view(state, 1).salvo_size == 5  # the ships afloat when the round began
    final = E.act(state, 1, LAST_CELLS)
    outcome = E.outcome(final.state)
    assert outcome is not None and outcome.winner is None
    assert "draw" in texts_for(final.events, None)[0]


def test_4_3_equal_rounds_the_first_player_wins_if_the_last_salvo_falls_short() -> None:
    state = E.act(mirrored("salvo-equal"), 0, LAST_CELLS).state
    final = E.act(state, 1, "E1 D2 C3 C4 J7")
    outcome = E.outcome(final.state)
    assert outcome is not None and outcome.winner == 0
    assert texts_for(final.events, 0)[0].endswith("you win!")


def test_4_3_blind_report_says_how_many_hits_each_ship_took_not_where() -> None:
    state = start_game("salvo-blind", MB_FLEET, MB_FLEET, first=0)
    transition = E.act(state, 0, "A1 B1 A2 J2 J3")
    report = "3 hits: 1 on the battleship, 2 on the carrier."
    assert texts_for(transition.events, 0)[0] == (
        f"Your salvo at A1 B1 A2 J2 J3: {report} Your opponent fires next."
    )
    state = transition.state
    shooter, channel, defender = (E.view(state, seat) for seat in (0, None, 1))
    for view in (shooter, channel):
        marks = {view.fields[1].mark(cell) for cell in ((0, 0), (1, 0), (0, 1), (9, 1))}
        assert marks == {Mark.SHOT}  # hits and misses look alike
        assert view.fields[1].reports == ((("battleship", 1), ("carrier", 2)),)
        assert dict(view.fields[1].salvo_numbers)[(0, 0)] == 1
    assert defender.fields[1].mark((0, 0)) is Mark.HIT
    assert defender.fields[1].mark((9, 1)) is Mark.MISS
    assert "Salvo 1: 3 hits: 1 on the battleship, 2 on the carrier." in shooter.text()


def test_4_3_a_salvo_sinking_in_blind_report_is_named_but_not_drawn() -> None:
    state = start_game("salvo-blind", MB_FLEET, MB_FLEET, first=0)
    state = shoot(state, 0, "A5 B5 J1 J2 J3")
    view = E.view(state, 0)
    assert view.fields[1].afloat == 4
    assert view.fields[1].ships == ()  # which cells sank stays unknown


def test_4_3_salvo_notation_round_trips() -> None:
    state = start_game("salvo", MB_FLEET, MB_FLEET, first=0)
    action = E.parse_action(state, 0, "a1  b2,c3 D4 e5")
    assert action == act.Salvo(((0, 0), (1, 1), (2, 2), (3, 3), (4, 4)))
    assert str(action) == "A1 B2 C3 D4 E5"
    assert E.parse_action(state, 0, str(action)) == action


def test_4_3_autocomplete_builds_a_salvo_cell_by_cell() -> None:
    state = start_game("salvo", MB_FLEET, MB_FLEET, first=0)
    view = E.view(state, 0)
    assert E.suggestions(view, "")[:2] == ["A1", "B1"]
    assert E.suggestions(view, "a1 b")[:2] == ["A1 B1", "A1 B2"]
    assert E.suggestions(view, "a1 a1") == ["A1 A10"]  # A1 is named already
    assert E.suggestions(view, "A1 B1 C1 D1 E1") == ["A1 B1 C1 D1 E1", "A1 B1 C1 D1 E10"]
    assert E.suggestions(view, "A1 B1 C1 D1 E1 ") == ["A1 B1 C1 D1 E1"]  # five named
    assert E.suggestions(E.view(state, 1), "") == []  # not their turn
