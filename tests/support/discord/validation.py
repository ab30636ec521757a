"""What Discord refuses in a message: lengths, embed sizes, component layouts, custom ids.

A bot bug must surface in tests as the same ``HTTPException`` Discord would raise, so every
message body the server is sent (a new message, an edit, an interaction response) is
checked against Discord's limits here first.
"""

from __future__ import annotations

from .models import COMPONENTS_V2, MAX_UPLOAD_BYTES, JSONDict, walk_components
from .wire import ApiError, form_error


class Validation:
    """Discord's limits on message bodies, checked before anything is stored."""

    def _validate(
        self, payload: JSONDict, files: dict[int, tuple[str, bytes]], *, creating: bool
    ) -> None:
        """Reject what Discord rejects, so bot bugs surface as HTTPException in tests."""
        content = payload.get("content")
        flags = int(payload.get("flags") or 0)
        if content is not None and len(content) > 2000:
            raise form_error(
                ["content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."
            )
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            raise form_error(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        total = sum(_embed_length(index, embed) for index, embed in enumerate(embeds))
        if total > 6000:
            raise form_error(
                ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
            )
        self._validate_components(payload.get("components") or [], flags)
        if flags & COMPONENTS_V2 and (payload.get("content") or embeds):
            raise form_error(
                ["content"],
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using "
                "MessageFlags.IS_COMPONENTS_V2",
            )
        if len(files) > 10:
            raise form_error(["files"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        if sum(len(data) for _, data in files.values()) > MAX_UPLOAD_BYTES:
            raise ApiError(413, 40005, "Request entity too large")
        if creating and not (
            (content or "").strip()
            or embeds
            or files
            or payload.get("components")
            or payload.get("sticker_ids")
            or payload.get("poll")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _validate_components(self, components: list[JSONDict], flags: int) -> None:
        if not flags & COMPONENTS_V2:
            if len(components) > 5:
                raise form_error(
                    ["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."
                )
            for index, row in enumerate(components):
                if row.get("type") != 1:
                    raise form_error(
                        ["components", index, "type"],
                        "UNION_TYPE_CHOICES",
                        'Value of field "type" must be one of (1,).',
                    )
                children = row.get("components") or []
                buttons = [c for c in children if c.get("type") == 2]
                if (
                    not children
                    or len(buttons) > 5
                    or (len(children) > 1 and len(buttons) != len(children))
                ):
                    raise form_error(
                        ["components", index, "components"],
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width",
                    )
        seen: set[str] = set()
        for component in walk_components(components):
            custom_id = component.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= 100:
                    raise form_error(
                        ["components", "custom_id"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                if custom_id in seen:
                    raise form_error(
                        ["components", "custom_id"],
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                seen.add(custom_id)
            if component.get("type") == 2:
                if len(component.get("label") or "") > 80:
                    raise form_error(
                        ["components", "label"],
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 80 or fewer in length.",
                    )
                if custom_id is None and component.get("style") not in (5, 6):
                    raise form_error(
                        ["components", "custom_id"],
                        "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
                        "A custom id is required",
                    )


def _embed_length(index: int, embed: JSONDict) -> int:
    """The characters one embed counts towards Discord's 6000, each part checked against
    its own limit first."""
    total = 0
    for key, limit in (("title", 256), ("description", 4096)):
        value = embed.get(key) or ""
        total += len(value)
        if len(value) > limit:
            raise form_error(
                ["embeds", index, key],
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {limit} or fewer in length.",
            )
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise form_error(
            ["embeds", index, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
        )
    for f_index, embed_field in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            value = embed_field.get(key) or ""
            total += len(value)
            if not value.strip() or len(value) > limit:
                raise form_error(
                    ["embeds", index, "fields", f_index, key],
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {limit} in length.",
                )
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > 2048 or len(author) > 256:
        raise form_error(["embeds", index], "BASE_TYPE_MAX_LENGTH", "Embed text too long.")
    return total + len(footer) + len(author)
