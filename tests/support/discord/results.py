"""What came of one interaction, read live from the loopback Discord's records.

An interaction may be answered, followed up and edited long after the action that started
it, so :class:`InteractionResult` keeps no copies: each property looks at the server now.
"""

from __future__ import annotations

from .models import JSONDict
from .server import FakeDiscord, InteractionState, Sent, StoredMessage


class InteractionResult:
    """What came of one interaction; a live view over the server's records."""

    def __init__(self, server: FakeDiscord, state: InteractionState, start_seq: int, end_seq: int):
        self._server = server
        self.state = state
        self._start_seq = start_seq
        self._end_seq = end_seq

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} type={self.state.type} "
            f"callback_type={self.callback_type} sent={len(self.sent)}>"
        )

    @property
    def id(self) -> int:
        """Interaction id."""
        return self.state.id

    @property
    def user_id(self) -> int:
        """Who triggered it."""
        return self.state.user_id

    @property
    def channel_id(self) -> int:
        """Where it happened."""
        return self.state.channel_id

    @property
    def callback_type(self) -> int | None:
        """The initial response type (4 message, 5/6 defer, 7 update, 8 choices, 9 modal)."""
        return self.state.callback_type

    @property
    def acknowledged(self) -> bool:
        """False means the user saw "The application did not respond"."""
        return self.state.acknowledged

    @property
    def sent(self) -> list[Sent]:
        """Every record that answered this interaction (response, follow-ups, edits)."""
        return [s for s in self._server.sent if s.interaction_id == self.id]

    @property
    def during(self) -> list[Sent]:
        """Everything the bot sent while this interaction was being handled."""
        return [s for s in self._server.sent if self._start_seq < s.seq <= self._end_seq]

    @property
    def response(self) -> Sent | None:
        """The record of the initial callback, if any."""
        return next((s for s in self.sent if s.callback_type is not None), None)

    @property
    def followups(self) -> list[Sent]:
        """Follow-up messages, in order."""
        return [s for s in self.sent if s.kind == "followup"]

    @property
    def original(self) -> StoredMessage | None:
        """Current state of the ``@original`` message (None for autocomplete/modal/none)."""
        message_id = self.state.original_message_id
        return self._server.messages.get(message_id) if message_id is not None else None

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is visible only to the user."""
        original = self.original
        return original.ephemeral if original is not None else False

    @property
    def content(self) -> str | None:
        """Current text of the original response."""
        original = self.original
        return original.content if original is not None else None

    @property
    def choices(self) -> list[JSONDict] | None:
        """Autocomplete choices the bot answered with."""
        return self.state.choices

    @property
    def modal(self) -> JSONDict | None:
        """The modal the bot opened (``custom_id``, ``title``, ``components``)."""
        return self.state.modal
