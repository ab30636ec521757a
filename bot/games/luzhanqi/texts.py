"""What the bot says about Luzhanqi's rules: the summary of a variant and setup help."""

from __future__ import annotations

from bot.games.luzhanqi.board import Colour, half_ranks
from bot.games.luzhanqi.rules import LuzhanqiRules, WinRule
from bot.games.luzhanqi.state import LuzhanqiState


def describe(rules: LuzhanqiRules, name_: str) -> str:
    """The rules of ``rules`` (a variant called ``name_``) in one paragraph."""
    mines = {
        "m1": "M1 (engineers clear mines, others die)",
        "m2": "M2 (engineers clear mines, others die with them)",
        "m3": "M3 (every attacker dies with the mine)",
    }[rules.mines.value]
    win = (
        "capture the flag"
        if rules.win is WinRule.W1
        else "capture the flag or remove every movable enemy piece"
    )
    parts = [
        f"**Luzhanqi ({name_})**: 25 pieces a side on a 5x12 board of posts, camps, HQs, "
        "roads and railroads."
    ]
    if rules.flip:
        parts.append(
            "All pieces start face down. On your turn flip one (`flip c3`) or move "
            "one of yours (`a4-a5`); your first flip gives you your colour. Only "
            "face-up enemies can be attacked; the flag only once its side's "
            "landmines are gone."
        )
    else:
        parts.append(
            "Deploy in secret (`swap a1 e1` on Red's ranks 1-6, `swap a12 e12` on "
            "Blue's ranks 7-12; `random`, `save <name>`, "
            "`load <name>`, `ready`). Then move one piece a turn: `a4-a5`; a rail "
            "run or an engineer's route names only its destination. Clashes are "
            "judged in secret: you learn only which piece was removed."
        )
    parts.append(
        f"Landmines: {mines}. Win: {win}; a player without a move loses; "
        f"{rules.quiet_limit} plies without an attack draw; `offer draw` and "
        "`accept draw` agree one."
    )
    if not rules.camps_protect:
        parts.append("Camps give no protection; bombs may enter HQs and take the flag.")
    if not rules.engineer_turns:
        parts.append("Engineers run straight on railroads like other pieces.")
    return " ".join(parts)


def setup_instructions(rules: LuzhanqiRules) -> str:
    if rules.flip:
        return (
            "All 50 pieces are face down. The first player flips one (`flip c3`) and "
            "plays that colour. `/rules` has the full rules."
        )
    return (
        "You start from a legal random deployment, shown on your board. Edit it by "
        "swapping two of your pieces (`swap a1 e1` for Red on ranks 1-6, `swap a12 e12` "
        "for Blue on ranks 7-12), write `random` for another, `save <name>` / "
        "`load <name>` to keep one, and `ready` when it suits you. `/rules` has the full rules."
    )


def side_sentence(state: LuzhanqiState, seat: int) -> str:
    """The colour ``seat`` plays and who moves first; in the flip game colours come from
    the first flip (A1-A3), so it says who flips first."""
    colour = state.colour_of(seat)
    if colour is None:
        if state.turn == seat:
            return "You flip first: the colour you turn up is yours."
        return (
            "Your opponent flips first: the colour they turn up is theirs, and you play the other."
        )
    if colour is Colour.RED:
        return (
            f"You play Red, on {half_ranks(colour)}, and move first once both armies are deployed."
        )
    return f"You play Blue, on {half_ranks(colour)}; Red moves first once both armies are deployed."
