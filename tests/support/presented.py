"""Everything a message carries, as the presenter makes it, for the non-interference tests.

The engines' views are the one door for hidden information, but a message also carries a
file name, an alt text, a status line and buttons (whose custom_ids come from the quick
moves). These helpers build the whole message for a state, from a game record whose move
count depends on everything that happened in the game, secrets included, just as a real
one does: a field that echoed it would then differ between twins and fail the test.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from bot.delivery.presenter import Message, present
from bot.games import ENGINES
from bot.referee import Notice, status_line
from bot.storage import GameRecord, GameStatus


def record_for(key: str, state: Any) -> GameRecord:
    """A stored game holding ``state``; its ply is a fingerprint of the whole state."""
    engine = ENGINES[key]
    data = engine.to_json(state)
    fingerprint = zlib.crc32(json.dumps(data, sort_keys=True).encode())
    return GameRecord(
        id=42,
        game=key,
        rules=data.get("rules", {}),
        seed=0,
        guild_id=500,
        channel_id=700,
        seats=(1001, 1002),
        status=GameStatus.ACTIVE,
        ply=fingerprint % 100_000,
        state=data,
        public_message_id=None,
        winner=None,
        end_reason=None,
        created_at=0.0,
        updated_at=0.0,
        names=("Zoë \u202eevil", "Борис"),
    )


def presented(key: str, state: Any, audience: int | None) -> Message:
    """The whole message ``audience`` would get about ``state``: text, image, file name,
    alt text and the moves offered as buttons."""
    engine = ENGINES[key]
    view = engine.view(state, audience)
    said = status_line(view, engine.outcome(state))
    return present(Notice(record_for(key, state), audience, (said,), view))
