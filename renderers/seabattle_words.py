"""What a Sea Battle board says in words: its header line, its field titles and counts,
its setup footer's line, and the alt text that tells a screen reader the same. Kept apart
from the drawing so that the image and the alt text say one thing.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games.core import EndReason, Phase, other
from bot.games.grid import cell_name
from bot.games.seabattle.view import FieldView, Mark, SeaBattleView
from renderers.common import NO_NAMES, Names, player_text


def panel_fields(view: SeaBattleView) -> tuple[FieldView, FieldView]:
    """The fields as drawn left to right: a player's own fleet first, else seat order."""
    if view.seat is None:
        return view.fields
    return view.fields[view.seat], view.fields[other(view.seat)]


Namer = Callable[[int], str]
"""A seat's name as one output can show it: fitted to the image, or whole for alt text."""


def header_status(view: SeaBattleView, player: Namer) -> tuple[str, bool]:
    """The header line from the viewer's side, and whether it calls the viewer to act."""
    seat = view.seat
    if view.phase is Phase.SETUP:
        if seat is None:
            return "Fleets are being placed", False
        if view.ready[seat]:
            return "Waiting for your opponent", False
        return "Place your ships", True
    if view.phase is Phase.PLAY:
        if view.turn is None:
            return "", False
        if view.owed is not None and view.owed[1] == "move":  # §5.4: the captain chooses
            captain = view.owed[0]
            if seat is None:
                return f"{player(captain)}'s captain chooses", False
            if captain == seat:
                return "Move or stay", True
            return "Opponent's captain chooses", False
        if view.owed is not None:  # §4.6-4.7: the game waits for a disclosure
            owing, what = view.owed
            thing = "a ship cell" if what == "ship" else "a mine"
            if seat is None:
                return f"{player(owing)} discloses {thing}", False
            if owing == seat:
                return f"Disclose {thing}", True
            return "Opponent discloses", False
        shots = "" if view.salvo_size is None else f": salvo of {view.salvo_size}"
        if seat is None:
            return f"{player(view.turn)} to shoot{shots}", False
        if view.turn == seat:
            return f"Your turn{shots}", True
        return "Opponent's turn", False
    outcome = view.outcome
    if outcome is None or outcome.reason is EndReason.ABORTED:
        return "Game aborted" if outcome else "Game over", False
    how = {EndReason.RESIGNATION: " by resignation", EndReason.TIMEOUT: " on time"}.get(
        outcome.reason, ""
    )
    if outcome.winner is None:
        return "Draw", False
    if seat is None:
        return f"{player(outcome.winner)} wins{how}", False
    if outcome.winner == seat:
        return f"You win{how}!", True
    return f"You lose{how}", False


def field_titles(view: SeaBattleView, player: Namer) -> tuple[str, str]:
    if view.seat is None:
        return f"{player(0)}'s fleet", f"{player(1)}'s fleet"
    return "Your fleet", "Your shots"


def field_counts(view: SeaBattleView) -> tuple[str | None, str | None]:
    """What each panel's title says of its fleet, in panel order: ships afloat, or the
    Flying Dutchman's decks lost (§5.5); nothing while, or if, the fleets were never set."""
    counts: list[str | None] = []
    for field in panel_fields(view):
        if not view.fleets_set:
            counts.append(None)
        elif field.decks_lost is not None:
            counts.append(f"{field.decks_lost} deck{'s' if field.decks_lost != 1 else ''} lost")
        else:
            counts.append(f"{field.afloat} afloat")
    return counts[0], counts[1]


def setup_line(view: SeaBattleView) -> str | None:
    """The viewer's setup footer line once every ship is placed (while ships are left,
    their icons say it): it asks for ``ready`` only when nothing is left to lay."""
    if view.seat is None or view.phase is not Phase.SETUP or view.to_place:
        return None
    if view.ready[view.seat]:
        return "All ships placed"
    if any(view.items_left):
        return "All ships placed; lay the rest"
    return "All ships placed: send ready"


def ready_word(ready: bool) -> str:
    return "ready" if ready else "placing ships"


def alt_text(view: SeaBattleView, names: Names = NO_NAMES) -> str:
    """A short description for screen readers (Discord allows 1024 characters).

    The full cell-by-cell twin is ``view.text()``; this says what the picture is about.
    """

    def player(seat: int) -> str:
        return player_text(names, seat)

    status, _ = header_status(view, player)
    parts = [f"Sea Battle board ({view.variant}, {view.size}x{view.size})."]
    if status:
        parts.append(status + ".")
    titles = field_titles(view, player)
    for title, field, count in zip(titles, panel_fields(view), field_counts(view), strict=True):
        misses, hits = _count(field, Mark.MISS), _count(field, Mark.HIT, Mark.SUNK)
        bits = [f"{title}: {misses + hits} shots taken, {misses} misses", f"{hits} hits"]
        if count is not None:
            bits.append(count)
        if field.last_shot is not None:
            bits.append(f"last shot {cell_name(field.last_shot)}")
        parts.append(", ".join(bits) + ".")
    if view.phase is Phase.SETUP and view.seat is not None:
        if view.to_place:
            lengths = ", ".join(str(kind.length) for kind in view.to_place)
            parts.append(f"Ships still to place, by length: {lengths}.")
        mines, sweepers = view.items_left
        if mines or sweepers:
            left = [f"{mines} mine{'s' if mines != 1 else ''}"] if mines else []
            if sweepers:
                left.append(f"{sweepers} minesweeper{'s' if sweepers != 1 else ''}")
            parts.append(f"{' and '.join(left).capitalize()} still to lay.")
        line = setup_line(view)
        if line is not None:
            parts.append(f"{line}.")
        parts.append(f"You are {ready_word(view.ready[view.seat])}.")
    return " ".join(parts)[:1024]


def _count(field: FieldView, *marks: Mark) -> int:
    """How many cells carry any of ``marks`` (``tuple.count`` compares in C, without
    hashing each cell's mark as a ``Counter`` would)."""
    return sum(row.count(mark) for row in field.marks for mark in marks)
