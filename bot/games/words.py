"""Small pieces of English that every game's sentences share."""

from __future__ import annotations

_SOUNDED_VOWEL = ("hour", "honest", "heir", "8", "11", "18")
"""Beginnings spelt with a consonant but sounded with a vowel."""
_SOUNDED_CONSONANT = ("u-", "uni", "use", "one", "eu")
"""Beginnings spelt with a vowel but sounded with a consonant (a U-boat, a one-cell ship)."""


def article(noun: str) -> str:
    """``a`` or ``an``, as the sound that begins ``noun`` asks for."""
    lowered = noun.lower()
    if len(noun) == 1 and noun.isupper():  # a letter is said by its name: an L, a T
        return "an" if noun in "AEFHILMNORSX" else "a"
    if lowered.startswith(_SOUNDED_VOWEL):
        return "an"
    if lowered.startswith(_SOUNDED_CONSONANT):
        return "a"
    return "an" if lowered[:1] in ("a", "e", "i", "o", "u") else "a"


def with_article(noun: str) -> str:
    """``noun`` after its article: ``an aircraft carrier``, ``a U-boat``."""
    return f"{article(noun)} {noun}"
