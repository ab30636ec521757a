"""What a Warships board says in words: its status line, each side's losses and the alt
text that tells a screen reader the same. Kept apart from the drawing so that the image and
the alt text say one thing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from bot.games.core import Phase
from bot.games.grid import cell_name
from bot.games.warships.units import Kind
from bot.games.warships.view import LossView, WarshipsView
from renderers.common import NO_NAMES, Names, player_label, player_text

NAME_WIDTH = 170
"""The most a player's name may take in the status line, in px."""


def _side(view: WarshipsView, seat: int, names: Names, drawn: bool) -> str:
    """A seat as the public sees it: its player's name and its shore."""
    shore = "South" if seat == view.south else "North"
    who = player_label(names, seat, 16, NAME_WIDTH)[0] if drawn else player_text(names, seat)
    return f"{who} ({shore})"


def status(view: WarshipsView, names: Names = NO_NAMES, drawn: bool = False) -> str:
    """Whose move it is, as the image's audience sees it; ``drawn``: names fitted to it."""
    if view.outcome is not None:
        # A game ended before its first move reveals nothing (core.secrecy).
        revealed = "" if view.outcome.unplayed else " All tokens revealed."
        if view.outcome.winner is None:
            return f"Game over: no winner.{revealed}"
        if view.seat is None:
            side = _side(view, view.outcome.winner, names, drawn)
            return f"Game over: {side} won.{revealed}"
        return ("You won!" if view.outcome.winner == view.seat else "You lost.") + revealed
    if view.phase is Phase.SETUP:
        if view.seat is None:
            return "Setting up in secret."
        return (
            "Your setup: swap, place mines, then ready."
            if view.seat in view.movers
            else ("Setup confirmed; waiting for your opponent.")
        )
    side = _side(view, view.turn, names, drawn) if view.turn is not None else ""
    offer = ""
    if view.draw_offer is not None:
        offerer = _side(view, view.draw_offer, names, drawn)
        if view.seat is not None:
            offerer = "You" if view.draw_offer == view.seat else "Your opponent"
        offer = f" {offerer} offered a draw."
    if view.seat is None:
        return f"{side} to move.{offer}"
    return ("Your move." if view.turn == view.seat else "Your opponent's move.") + offer


def losses_text(lost: list[LossView]) -> str:
    """A side's losses in words: known types by name, the rest as "of hidden type"."""
    named = Counter(loss.kind.unit.name for loss in lost if loss.kind is not None)
    interned = sum(1 for loss in lost if loss.interned)
    hidden = sum(1 for loss in lost if loss.kind is None)
    parts = [f"{count} {name}s" if count > 1 else name for name, count in sorted(named.items())]
    if hidden:
        parts.append(f"{hidden} of hidden type" if hidden > 1 else "1 of hidden type")
    text = ", ".join(parts) if parts else "nothing"
    return text + (f" ({interned} interned)" if interned else "")


def side_word(view: WarshipsView, seat: int, name: Callable[[int], str]) -> str:
    """A side in the losses: its player's name for the channel, else you or your opponent."""
    shore = "South" if seat == view.south else "North"
    if view.seat is None:
        return f"{name(seat)} ({shore})"
    return f"You ({shore})" if seat == view.seat else f"Opponent ({shore})"


def alt_text(view: WarshipsView, names: Names = NO_NAMES) -> str:
    """A short description for screen readers; the full text twin is ``view.text()``."""
    own = [t for t in view.tokens if view.seat is not None and t.owner == view.seat]
    enemy = [t for t in view.tokens if view.seat is None or t.owner != view.seat]
    known = sum(1 for t in enemy if t.kind is not None and t.kind is not Kind.BATTERY)
    parts = [f"Warships board. {status(view, names)}"]
    if view.seat is not None:
        parts.append(f"You have {len(own)} tokens on the board.")
    parts.append(
        f"{len(enemy)} other tokens on the board, {known} of them known apart from batteries."
    )
    first = view.seat if view.seat is not None else view.south
    for seat in (first, 1 - first):
        lost = [loss for loss in view.losses if loss.owner == seat]
        who = side_word(view, seat, lambda s: player_text(names, s))
        parts.append(f"{who} lost {len(lost)}: {losses_text(lost)}.")
    if view.last is not None and view.last.end is not None:
        parts.append(
            f"Last move {cell_name(view.last.start or view.last.end)}"
            f" to {cell_name(view.last.end)}"
            + (f", target {cell_name(view.last.target)}" if view.last.target else "")
            + "."
        )
    return " ".join(parts)[:1024]
