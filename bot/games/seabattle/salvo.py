"""Salvo (Sea Battle rules §4.3): a turn is k shots named at once, answered together.

k is the number of the shooter's ships afloat at the start of the turn. With *equal
rounds* a fleet sunk by the first player's salvo is answered by the second player's last
salvo (a draw if it sinks the first fleet too); with *blind report* the answer says only
how many hits each ship took, never which cells hit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from bot.games.core import EndReason, IllegalActionError, Outcome, Transition, name_of, other
from bot.games.grid import Cell, cell_name
from bot.games.seabattle.fleet import Ship
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.turns import fleet_sunk, game_over
from bot.games.seabattle.view import Report, report_text
from bot.games.turns import check_turn, told


def open_cells(state: SeaBattleState, seat: int) -> list[Cell]:
    """The cells of the opponent's field ``seat`` has not shot at, in reading order."""
    fired = state.shots[seat]
    size = state.rules.size
    return [(c, r) for r in range(size) for c in range(size) if (c, r) not in fired]


def salvo_size(state: SeaBattleState, seat: int) -> int:
    """How many cells ``seat``'s next salvo names: their ships afloat at the start of the
    turn, or, for the last salvo of equal rounds, those afloat when the round began."""
    afloat = state.afloat(seat)
    if state.last_salvo and state.volleys:
        before = replace(state, log=state.log[: -state.volleys[-1]])
        afloat = before.afloat(seat)
    return min(afloat, len(open_cells(state, seat)))


def sample_salvos(state: SeaBattleState, seat: int) -> Iterator[tuple[Cell, ...]]:
    """A bounded set of legal salvos: every run of k consecutive open cells in reading
    order. All k-cell sets would be astronomically many; any set of k open cells is legal."""
    cells = open_cells(state, seat)
    k = salvo_size(state, seat)
    for start in range(len(cells) - k + 1):
        yield tuple(cells[start : start + k])


def fire(state: SeaBattleState, seat: int, cells: tuple[Cell, ...]) -> Transition:
    """Resolve one salvo: check it, record it, answer every cell, pass the turn."""
    _check_salvo(state, seat, cells)
    target = other(seat)
    sunk_before = set(state.sunk(target))
    new = replace(
        state,
        log=(*state.log, *((seat, cell) for cell in cells)),
        volleys=(*state.volleys, len(cells)),
    )
    hits = [(cell, state.sides[target].ship_at(cell)) for cell in cells]
    sunk_now = [ship for ship in new.sunk(target) if ship not in sunk_before]
    texts = _answer(state, hits, sunk_now)
    fleet_gone = new.afloat(target) == 0
    salvo = " ".join(cell_name(c) for c in cells)
    news = (
        f"Your salvo at {salvo}: {texts}",
        f"Your opponent's salvo at {salvo}: {texts}",
        f"{name_of(seat)} fires a salvo at {salvo}: {texts}",
    )
    if state.last_salvo:
        return game_over(new, seat, news, *_last_round_end(target, fleet_gone))
    if fleet_gone and state.rules.equal_rounds and seat == state.first_shooter:
        return _last_salvo_owed(new, seat, news)
    if fleet_gone:
        return game_over(new, seat, news, *fleet_sunk(seat))
    new = replace(new, turn=target)
    after = salvo_size(new, target)
    mine, theirs, public = news
    return Transition(
        new,
        told(
            seat,
            f"{mine} Your opponent fires next.",
            f"{theirs} Your salvo: name {after} cell{'s' if after != 1 else ''}.",
            f"{public} {name_of(target)} fires next.",
        ),
    )


def _last_round_end(target: int, fleet_gone: bool) -> tuple[tuple[str, ...], Outcome]:
    """Equal rounds: the last salvo, fired at the fleet that sank ``target``'s, ends the
    game: a draw if it sinks that fleet too, else ``target`` loses. The ending told to the
    shooter of the last salvo, ``target`` and the channel, and the outcome."""
    if fleet_gone:
        draw = Outcome(None, EndReason.RULES, "both fleets sunk in one round")
        return ("Both fleets are sunk in the same round: a draw.",) * 3, draw
    defender = name_of(target)
    ending = (
        "Their fleet survives your last salvo: you lose.",
        "Your fleet survives their last salvo: you win!",
        f"{defender}'s fleet survives the last salvo: {defender} wins!",
    )
    return ending, Outcome(target, EndReason.RULES, "sank the whole fleet")


def _check_salvo(state: SeaBattleState, seat: int, cells: tuple[Cell, ...]) -> None:
    """Refuse a salvo that may not be fired now: out of turn, a cell named twice, the wrong
    number of cells for the ships afloat, or a cell already shot."""
    check_turn(state, seat, not_started="both fleets must be set first.", waiting_for="salvo")
    k = salvo_size(state, seat)
    if len(set(cells)) != len(cells):
        twice = next(cell_name(c) for c in cells if cells.count(c) > 1)
        raise IllegalActionError(f"You named {twice} twice: a salvo names different cells.")
    if len(cells) != k:
        raise IllegalActionError(
            f"Your salvo must name exactly {k} cell{'s' if k != 1 else ''}, one for each ship "
            f"you have afloat; you named {len(cells)}."
        )
    repeated = [cell_name(c) for c in cells if c in state.shots[seat]]
    if repeated:
        raise IllegalActionError(
            f"You have already shot at {', '.join(repeated)}; pick cells not shot before."
        )


def _last_salvo_owed(new: SeaBattleState, seat: int, news: tuple[str, str, str]) -> Transition:
    """Equal rounds: the first shooter sank the fleet, so the target fires one last salvo
    before the game ends. ``news`` is what the shooter, the target and the channel hear of
    the salvo itself."""
    mine, theirs, public = news
    target = other(seat)
    shooter, defender = name_of(seat), name_of(target)
    new = replace(new, turn=target, last_salvo=True)
    return Transition(
        new,
        told(
            seat,
            f"{mine} That was their last ship; they fire one last salvo (equal rounds).",
            f"{theirs} That was your last ship, but you fire one last salvo "
            "(equal rounds): sink their fleet for a draw.",
            f"{public} {shooter} has sunk the whole fleet; {defender} fires one "
            "last salvo (equal rounds).",
        ),
    )


def _answer(state: SeaBattleState, hits: list[tuple[Cell, Ship | None]], sunk: list[Ship]) -> str:
    """The salvo's answer, the same for both players and the channel (§3)."""
    fleet = state.rules.fleet
    if state.rules.blind_report:
        counts = Counter(fleet[ship.kind].name for _, ship in hits if ship is not None)
        answer = blind_report(counts)
    else:
        parts = []
        for cell, ship in hits:
            if ship is None:
                parts.append(f"{cell_name(cell)} miss")
            elif state.rules.named_hits:
                parts.append(f"{cell_name(cell)} hit ({fleet[ship.kind].name})")
            else:
                parts.append(f"{cell_name(cell)} hit")
        answer = ", ".join(parts) + "."
    for ship in sunk:
        answer += f' "You sank my {fleet[ship.kind].name}!"'
    return answer


def blind_report(counts: Counter[str]) -> str:
    return report_text(tuple(sorted(counts.items())))


def volley_numbers(state: SeaBattleState, shooter: int) -> dict[Cell, int]:
    """Each cell ``shooter`` fired at, with the number of the salvo (from 1) that named it."""
    numbers: dict[Cell, int] = {}
    index = count = 0
    for size in state.volleys:
        entries = state.log[index : index + size]
        index += size
        if entries and entries[0][0] == shooter:
            count += 1
            for _, cell in entries:
                numbers[cell] = count
    return numbers


def volley_reports(state: SeaBattleState, shooter: int) -> tuple[Report, ...]:
    """The blind reports ``shooter``'s salvos received, in order: hits per ship name."""
    reports: list[Report] = []
    index = 0
    target = other(shooter)
    for size in state.volleys:
        entries = state.log[index : index + size]
        index += size
        if not entries or entries[0][0] != shooter:
            continue
        counts: Counter[str] = Counter()
        for _, cell in entries:
            ship = state.sides[target].ship_at(cell)
            if ship is not None:
                counts[state.rules.fleet[ship.kind].name] += 1
        reports.append(tuple(sorted(counts.items())))
    return tuple(reports)


def last_salvo_at(state: SeaBattleState, owner: int) -> tuple[Cell, ...]:
    """The cells of the last salvo fired at ``owner``'s field."""
    end = len(state.log)
    for size in reversed(state.volleys):
        entries = state.log[end - size : end]
        end -= size
        if entries and entries[0][0] != owner:
            return tuple(cell for _, cell in entries)
    return ()
