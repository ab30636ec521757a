"""One shot at a time (Sea Battle rules §2.6-2.8, §4.2, §4.6, §4.7): its answer, who
shoots next, the disclosures mines and minesweepers force, and the end of the game.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.core import (
    EndReason,
    Event,
    IllegalActionError,
    Outcome,
    Phase,
    Transition,
    name_of,
    other,
)
from bot.games.grid import Cell, cell_name
from bot.games.seabattle.mines import Pending
from bot.games.seabattle.rules import ShipKind
from bot.games.seabattle.state import SeaBattleState
from bot.games.turns import check_turn, told
from bot.games.words import article, with_article

SHIP, MINE = "ship", "mine"


def shoot(
    state: SeaBattleState,
    seat: int,
    cell: Cell,
    confirmed: bool = False,
    known_empty: bool = False,
) -> Transition:
    """One shot at ``cell``. ``known_empty``: the shooter's own view shows the cell empty
    (beside a sunk ship, §2.9), so the shot is taken only when ``confirmed``, as a shot at
    a disclosed mine is (§4.7): a shot there is most likely a slip."""
    _check_shot(state, seat, cell, confirmed, known_empty)
    target = other(seat)
    name = cell_name(cell)
    new = replace(state, log=(*state.log, (seat, cell)))
    defence = state.sides[target]
    if cell in defence.mines:
        return _struck(new, seat, cell, MINE)
    if cell in defence.sweepers:
        return _struck(new, seat, cell, "minesweeper")
    ship = defence.ship_at(cell)
    if ship is None:
        return Transition(replace(new, turn=target), missed(seat, name))
    if ship.kind == state.rules.submarine_kind:
        return _submarine_sunk(new, seat, cell)
    sunk = new.shots[seat].issuperset(ship.cells)
    news, public = _hit_news(state, seat, cell, state.rules.fleet[ship.kind], sunk)
    if sunk and new.afloat(target) == 0:
        return game_over(new, seat, (*news, public), *fleet_sunk(seat))
    again = state.rules.extra_shot
    new = replace(new, turn=seat if again else target)
    return Transition(
        new,
        told(
            seat,
            news[0] + (" Shoot again." if again else " Your opponent shoots next."),
            news[1] + (" They shoot again." if again else " Your turn."),
            public + (f" {name_of(seat)} shoots again." if again else ""),
        ),
    )


def missed(seat: int, name: str) -> tuple[Event, Event, Event]:
    """A shot at ``name`` that found open water: the opponent shoots next."""
    return told(
        seat,
        f"{name}: miss. Your opponent shoots next.",
        f"Your opponent shot at {name}: miss. Your turn.",
        f"{name_of(seat)} fires at {name}: miss. {name_of(other(seat))} shoots next.",
    )


def fleet_sunk(winner: int) -> tuple[tuple[str, str, str], Outcome]:
    """The last ship of ``winner``'s opponent is sunk: what the winner, the loser and the
    channel are told of the end, and the outcome."""
    ending = (
        "That was their last ship: you win!",
        "That was your last ship: you lose.",
        f"{name_of(winner)} has sunk the whole fleet and wins!",
    )
    return ending, Outcome(winner, EndReason.RULES, "sank the whole fleet")


def game_over(
    state: SeaBattleState,
    seat: int,
    news: tuple[str, str, str],
    ending: tuple[str, ...],
    outcome: Outcome,
) -> Transition:
    """The game ends with ``seat``'s move: ``seat``, the opponent and the channel hear the
    move's ``news`` and then its ``ending``."""
    done = replace(
        state, phase=Phase.FINISHED, turn=None, outcome=outcome, pending=None, last_salvo=False
    )
    mine, theirs, public = (f"{said} {end}" for said, end in zip(news, ending, strict=True))
    return Transition(done, told(seat, mine, theirs, public))


def _check_shot(
    state: SeaBattleState, seat: int, cell: Cell, confirmed: bool, known_empty: bool
) -> None:
    """Refuse a shot that may not be taken now, with the sentence that says why; a shot at
    a cell the shooter knows empty or at a disclosed mine needs ``confirmed`` (§2.9, §4.7)."""
    if state.pending is not None and state.pending.seat == seat:
        raise IllegalActionError(owed_sentence(state))
    check_turn(state, seat, not_started="both fleets must be set first.", waiting_for="shot")
    name = cell_name(cell)
    if cell in state.shots[seat]:
        raise IllegalActionError(f"You have already shot at {name}; pick another cell.")
    if known_empty and not confirmed:
        raise IllegalActionError(
            f"{name} lies beside a sunk ship, so no ship can be there. "
            f"To shoot it anyway, write `{name} confirm`."
        )
    target = other(seat)
    if (target, cell) in state.disclosures and cell in state.sides[target].mines and not confirmed:
        raise IllegalActionError(
            f"{name} is the mine your opponent disclosed to you: shooting it sets it off and you "
            f"must disclose a ship cell. To shoot it anyway, write `{name} confirm`."
        )


def _hit_news(
    state: SeaBattleState, seat: int, cell: Cell, kind: ShipKind, sunk: bool
) -> tuple[tuple[str, str], str]:
    """What the shooter and the target are told of a hit, and what the channel is told; the
    words depend on whether the ship sank and on how the rules answer hits (§2.7, §4.2)."""
    name, shooter = cell_name(cell), name_of(seat)
    if not sunk and state.rules.named_hits:  # §4.2 sub-option: every hit names the ship
        news = (
            f'{name}: hit. "You hit my {kind.name}!"',
            f"Your opponent shot at {name}: hit, on your {kind.name}.",
        )
        public = f"{shooter} fires at {name}: hit, on {article(kind.name)} {kind.name}."
    elif not sunk:
        news = (f"{name}: hit!", f"Your opponent shot at {name} and hit your {kind.name}.")
        public = f"{shooter} fires at {name}: hit."
    elif state.rules.extra_shot:
        size = f"{kind.name} ({kind.length} cell{'s' if kind.length > 1 else ''})"
        news = (
            f"{name}: sunk! You sank {article(kind.name)} {size}.",
            f"Your opponent shot at {name} and sank your {size}.",
        )
        public = f"{shooter} fires at {name}: sunk {article(kind.name)} {size}."
    else:  # §4.2 answers a sinking as a hit, with the ship named
        news = (
            f'{name}: hit. "You sank my {kind.name}!"',
            f"Your opponent shot at {name}: hit, and sank your {kind.name}.",
        )
        public = f"{shooter} fires at {name}: hit, and sank {article(kind.name)} {kind.name}."
    return news, public


def _struck(state: SeaBattleState, seat: int, cell: Cell, what: str) -> Transition:
    """§4.6 / §4.7: the shot hit a mine or a minesweeper, which is spent. The shooter owes a
    disclosure (of a ship cell for a mine, of one of their mines for a minesweeper) and the
    turn then passes to the owner."""
    target = other(seat)
    name = cell_name(cell)
    owed = SHIP if what == MINE else MINE
    shooter, defender = name_of(seat), name_of(target)
    if not disclosable(state, seat, owed):
        new = replace(state, turn=target)
        return Transition(
            new,
            told(
                seat,
                f"{name}: {what}! You have no mine to disclose. Your opponent shoots next.",
                f"Your opponent shot at {name} and struck your {what}; they have "
                "no mine to disclose. Your turn.",
                f"{shooter} fires at {name}: {what}. {defender} shoots next.",
            ),
        )
    new = replace(state, turn=seat, pending=Pending(owed, seat, target))
    thing = "one of their ship cells" if owed == SHIP else "one of their mines"
    return Transition(
        new,
        told(
            seat,
            f"{name}: {what}! {owed_sentence(new)}",
            f"Your opponent shot at {name} and struck your {what}. They now "
            f"disclose {thing} to you; then it is your turn.",
            f"{shooter} fires at {name}: {what}! {shooter} discloses {thing} to {defender}.",
        ),
    )


def disclosable(state: SeaBattleState, seat: int, what: str) -> tuple[Cell, ...]:
    """The cells ``seat`` may disclose now: for a mine, its ship cells not hit; for a
    minesweeper, its mines not set off; in both cases cells not disclosed before, as long
    as any is left (rulings 5 and 6)."""
    side = state.sides[seat]
    fired = state.shots[other(seat)]
    if what == SHIP:
        cells = [cell for ship in side.ships for cell in ship.cells if cell not in fired]
    else:
        cells = [cell for cell in side.mines if cell not in fired]
    fresh = [cell for cell in cells if (seat, cell) not in state.disclosures]
    return tuple(sorted(fresh or cells, key=lambda c: (c[1], c[0])))


def owed_sentence(state: SeaBattleState) -> str:
    """What the seat owing a disclosure must do, with the cells it may name."""
    pending = state.pending
    assert pending is not None
    choices = disclosable(state, pending.seat, pending.what)
    thing = "one of your ship cells" if pending.what == SHIP else "one of your mines"
    listed = ", ".join(cell_name(cell) for cell in choices)
    return (
        f"Disclose {thing} to your opponent: write `reveal {cell_name(choices[0])}`, "
        f"or pick one from `/move`'s suggestions. You may name: {listed}."
    )


def disclose(state: SeaBattleState, seat: int, cell: Cell) -> Transition:
    pending = state.pending
    if pending is None or pending.seat != seat:
        raise IllegalActionError(
            "You owe no disclosure now; `reveal` follows a mine or a minesweeper."
        )
    choices = disclosable(state, seat, pending.what)
    name = cell_name(cell)
    if cell not in choices:
        raise IllegalActionError(f"You cannot disclose {name}. {owed_sentence(state)}")
    new = replace(
        state,
        disclosures=(*state.disclosures, (seat, cell)),
        pending=None,
        turn=pending.then,
    )
    target = other(seat)
    thing = "ship cell" if pending.what == SHIP else "mine"
    mover = name_of(pending.then)
    return Transition(
        new,
        told(
            seat,
            f"You disclosed your {thing} on {name} to your opponent. "
            + ("Your turn." if pending.then == seat else "Your opponent shoots next."),
            f"Your opponent disclosed {with_article(thing)}: {name}. "
            + ("Your turn." if pending.then == target else "They shoot next.")
            + (
                " A shot there will hit."
                if pending.what == SHIP
                else " Shooting it would set it off."
            ),
            f"{name_of(seat)} has disclosed {with_article(thing)} to {name_of(target)}. "
            f"{mover} shoots next.",
        ),
    )


def _submarine_sunk(state: SeaBattleState, seat: int, cell: Cell) -> Transition:
    """§4.8: the submarine sinks and at once fires its dying shot at the same cell of the
    shooter's own field. The shooter then shoots again, unless the dying shot set off one of
    their mines or minesweepers (the submarine's owner first discloses, as §4.6-4.7 say) or
    a fleet is gone (both gone: a draw)."""
    owner = other(seat)
    name = cell_name(cell)
    new, echo = dying_shot(state, owner, cell)
    news = (
        f"{name}: sunk! You sank the submarine. {echo[0]}",
        f"Your opponent shot at {name} and sank your submarine. {echo[1]}",
        f"{name_of(seat)} fires at {name}: sunk the submarine. {echo[2]}",
    )
    theirs_gone, mine_gone = new.afloat(owner) == 0, new.afloat(seat) == 0
    if theirs_gone or mine_gone:
        return game_over(new, seat, news, *_fleets_gone(seat, theirs_gone, mine_gone))
    if new.pending is not None:
        return Transition(
            replace(new, turn=owner),
            told(
                seat,
                f"{news[0]} Your opponent now discloses a cell to you; then you shoot again.",
                f"{news[1]} {owed_sentence(new)}",
                f"{news[2]} {name_of(owner)} discloses a cell to {name_of(seat)}.",
            ),
        )
    return Transition(
        replace(new, turn=seat),
        told(
            seat,
            f"{news[0]} Shoot again.",
            f"{news[1]} They shoot again.",
            f"{news[2]} {name_of(seat)} shoots again.",
        ),
    )


def _fleets_gone(seat: int, theirs_gone: bool, mine_gone: bool) -> tuple[tuple[str, ...], Outcome]:
    """§4.8: when the submarine's sinking and its dying shot leave a fleet (or both) gone,
    the ending told to the shooter, the submarine's owner and the channel, and the outcome."""
    if theirs_gone and mine_gone:
        draw = Outcome(None, EndReason.RULES, "both fleets sunk at once")
        return ("Both fleets are sunk: a draw.",) * 3, draw
    if theirs_gone:
        return fleet_sunk(seat)
    (win, lose, public), outcome = fleet_sunk(other(seat))
    return (lose, win, public), outcome


def dying_shot(
    state: SeaBattleState, firer: int, cell: Cell
) -> tuple[SeaBattleState, tuple[str, str, str]]:
    """§4.8: ``firer``'s sunk submarine fires at ``cell`` of the opponent's field, resolved
    like a shot of ``firer``'s but earning nothing. Returns the state and what the victim,
    the firer and the channel are told."""
    victim = other(firer)
    name = cell_name(cell)
    told = (
        f"Its dying shot strikes {name} on your field: ",
        f"Its dying shot strikes {name} on their field: ",
        f"Its dying shot strikes {name} on {name_of(victim)}'s field: ",
    )
    if cell in state.shots[firer]:
        return state, tuple(t + "a cell already shot, wasted." for t in told)  # type: ignore[return-value]
    new = replace(state, log=(*state.log, (firer, cell)))
    side = new.sides[victim]
    rules = new.rules
    if cell in side.mines or cell in side.sweepers:
        what = MINE if cell in side.mines else "minesweeper"
        owed = SHIP if what == MINE else MINE
        answer = f"{what}!"
        if disclosable(new, firer, owed) and new.afloat(firer):
            new = replace(new, pending=Pending(owed, firer, victim))
        return new, tuple(t + answer for t in told)  # type: ignore[return-value]
    ship = side.ship_at(cell)
    if ship is None:
        return new, tuple(t + "miss." for t in told)  # type: ignore[return-value]
    kind = rules.fleet[ship.kind]
    if not new.shots[firer].issuperset(ship.cells):
        return new, (told[0] + f"hit your {kind.name}.", told[1] + "hit.", told[2] + "hit.")
    if ship.kind != rules.submarine_kind:
        sank = f"sunk {article(kind.name)} {kind.name}."
        return new, (told[0] + f"sunk your {kind.name}.", told[1] + sank, told[2] + sank)
    # It sank the shooter's own submarine, whose dying shot comes straight back.
    new, back = dying_shot(new, victim, cell)
    return new, (
        told[0] + f"sunk your submarine. {back[1]}",
        told[1] + f"sunk their submarine. {back[0]}",
        told[2] + f"sunk the submarine. {back[2]}",
    )
