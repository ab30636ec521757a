"""Texts of ratings and records: end-of-game changes, leaderboards, profiles and histories.

Pure functions of stored records, free of Discord and storage. Everything here is public:
ratings, results and opponents are what a game's channel already showed. Players are named
by mentions, which the bot sends with pings disabled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games import ENGINES
from bot.ratings import Skill
from bot.storage import GameRecord
from bot.storage.results import Leaderboard, Result, Score, Standing

HISTORY_PAGE = 10
"""Games per page of ``/history``."""
RECENT_GAMES = 5
"""Games listed on a ``/profile``."""

_VERB = {Score.WIN: "won", Score.LOSS: "lost", Score.DRAW: "drew"}


def game_title(key: str) -> str:
    engine = ENGINES.get(key)
    return engine.title if engine else key


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def figure(skill: Skill) -> str:
    """A rating as shown: a trailing ``?`` marks one not yet settled."""
    return f"{skill.display}?" if skill.provisional else str(skill.display)


def signed(change: int) -> str:
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


def record(standing: Standing) -> str:
    return f"{standing.wins}W {standing.losses}L {standing.draws}D"


def streak(standing: Standing) -> str:
    count = abs(standing.streak)
    if count == 0:
        return "no streak"
    kind = "win" if standing.streak > 0 else "loss"
    plural = "" if count == 1 else ("s" if kind == "win" else "es")
    return f"{count} {kind}{plural} in a row"


def rating_changes(results: Sequence[Result]) -> str:
    """Each player's new rating and its change, for a rated game's end; empty otherwise."""
    parts = [
        f"{mention(r.user_id)} {figure(r.after)} ({signed(r.change)})"
        for r in results
        if r.after is not None and r.change is not None
    ]
    return "Ratings: " + " · ".join(parts) if parts else ""


def _line(standing: Standing) -> str:
    games = "game" if standing.games == 1 else "games"
    return (
        f"{mention(standing.user_id)} **{figure(standing.skill)}** · "
        f"{standing.games} {games} · {record(standing)}"
    )


def leaderboard_text(board: Leaderboard) -> str:
    """The top settled players, provisional ones apart, and the caller's own place."""
    title = game_title(board.game)
    scope = "this server" if board.guild_id is not None else "all servers"
    lines = [f"**{title} leaderboard** · {scope}"]
    if not board.settled and not board.provisional:
        lines.append(f"No rated {title} game has been played here yet.")
    for standing in board.settled:
        lines.append(f"{standing.rank}. {_line(standing)}")
    if board.provisional:
        lines.append("Provisional (rating not settled yet, marked ?):")
        lines.extend(f"· {_line(standing)}" for standing in board.provisional)
    caller = board.caller
    if caller is None:
        lines.append(f"You have no rated {title} game in {scope} yet.")
    elif caller.rank is None:
        lines.append(f"You: {_line(caller)} · provisional, ranked once your rating settles.")
    else:
        lines.append(f"You: #{caller.rank} of {board.ranked} · {_line(caller)}")
    return "\n".join(lines)


def result_line(result: Result, variants: Mapping[int, str]) -> str:
    """One finished game from one player's side: id, game and variant (from ``variants``,
    by game id, when known), opponent, result, rating change."""
    change = "unrated" if result.change is None else signed(result.change)
    variant = variants.get(result.game_id)
    title = game_title(result.game) + (f" ({variant})" if variant else "")
    return (
        f"#{result.game_id} {title} vs {mention(result.opponent_id)}: "
        f"{_VERB[result.score]} ({change}) · <t:{int(result.ended_at)}:d>"
    )


def profile_text(
    user_id: int,
    standings: Sequence[Standing],
    recent: Sequence[Result],
    variants: Mapping[int, str],
) -> str:
    """Rating, record and streak per game, and the last games."""
    lines = [f"**Profile of {mention(user_id)}**"]
    if not standings and not recent:
        lines.append("No finished game yet. Start one with `/play`.")
        return "\n".join(lines)
    for standing in standings:
        lines.append(
            f"{game_title(standing.game)}: **{figure(standing.skill)}** · "
            f"{standing.games} rated · {record(standing)} · {streak(standing)}"
        )
    if not standings:
        lines.append("No rated game yet.")
    if recent:
        lines.append("Last games:")
        lines.extend(result_line(result, variants) for result in recent)
    return "\n".join(lines)


def pages(total: int) -> int:
    return max(1, -(-total // HISTORY_PAGE))


def history_text(
    user_id: int,
    game: str | None,
    results: Sequence[Result],
    page: int,
    total: int,
    variants: Mapping[int, str],
) -> str:
    """One page of a player's finished games, newest first."""
    which = f" · {game_title(game)}" if game else ""
    lines = [f"**Games of {mention(user_id)}**{which} · page {page + 1} of {pages(total)}"]
    if not results:
        lines.append("No finished game here yet.")
    lines.extend(result_line(result, variants) for result in results)
    return "\n".join(lines)


def game_summary(game: GameRecord, status: str, variant: str, results: Sequence[Result]) -> str:
    """A finished game: who played what, how it ended, and the rating changes."""
    rated = "rated" if game.rated else "unrated"
    lines = [
        f"**{game_title(game.game)} #{game.id}** · {mention(game.seats[0])} vs "
        f"{mention(game.seats[1])} · {variant}, {rated}",
        status,
        f"Ended <t:{int(game.updated_at)}:f>.",
    ]
    changes = rating_changes(results)
    if changes:
        lines.append(changes)
    return "\n".join(lines)
