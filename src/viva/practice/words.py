"""Word overlap, for matching missed marking points to follow-ups and lesson paragraphs.

Deliberately simple (stemmed content words, no synonyms): it only ranks a handful of
authored candidates, so a rough signal is enough and it stays deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from viva.language import simple_words, stem_words

_STOP = frozenset(
    re.findall(
        r"\S+",
        """a an and are as at be because but by can do does for from has have how if in into is
    it its of on or so than that the their then there these they this to was what when which
    while who why will with would you your more less most very one two also each per""",
    )
)
"""A short stop list on purpose: follow-up ranking wants the content words of a point."""


def content_stems(*texts: str) -> frozenset[str]:
    """The stems of the non-stopwords in ``texts``."""
    words = [w for text in texts for w in simple_words(text) if w not in _STOP]
    return frozenset(stem_words(words))


def overlap(needle: Iterable[str], haystack: frozenset[str]) -> int:
    """How many of the ``needle`` stems occur in ``haystack``."""
    return sum(1 for stem in set(needle) if stem in haystack)
