"""Words of English text, one place for all of Viva: tokenising, stemming, stop words, fillers.

The marker (:mod:`viva.marking.text`), follow-up ranking (:mod:`viva.practice.words`),
search (:mod:`viva.web.search`) and delivery (:mod:`viva.speech.delivery`) all read
their word lists and stems from here.

Snowball stemmers keep per-call state on the instance, so one shared between the web
app's worker threads returns wrong stems and can raise ``IndexError``. Each thread
therefore gets its own stemmer (:func:`stemmer`); nothing here holds a lock.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable

import snowballstemmer

SIMPLE_WORD = re.compile(r"[a-z0-9]+")
"""Runs of lower-case letters and digits (text is lower-cased first)."""
SEARCH_WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")
"""Like :data:`SIMPLE_WORD`, but keeps ``2.5`` and ``don't`` whole, for search queries."""

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "also",
        "am",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "either",
        "else",
        "etc",
        "even",
        "ever",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "however",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "let",
        "me",
        "mine",
        "my",
        "myself",
        "of",
        "off",
        "on",
        "once",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "per",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "thus",
        "to",
        "too",
        "under",
        "until",
        "up",
        "upon",
        "us",
        "very",
        "via",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "whether",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "i'm",
        "it's",
        "that's",
        "there's",
        "they're",
        "we're",
        "you're",
        "i've",
        "we've",
        "you've",
        "they've",
        "i'd",
        "we'd",
        "you'd",
        "it'd",
        "he's",
        "she's",
        "what's",
        "let's",
        "can't",
        "one's",
        "gets",
        "get",
        "got",
        "make",
        "makes",
        "made",
        "use",
        "used",
        "uses",
        "using",
        "thing",
        "things",
        "way",
        "something",
        "anything",
        "really",
        "quite",
        "rather",
        "still",
        "yet",
        "may",
        "might",
        "must",
        "shall",
        "whereas",
        "since",
        "though",
        "although",
        "already",
        "another",
        "lot",
        "lots",
        "well",
    ]
)

NEGATORS = frozenset(
    [
        "not",
        "no",
        "never",
        "without",
        "cannot",
        "nor",
        "neither",
        "nowhere",
        "none",
        "nothing",
        "n't",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "won't",
        "wouldn't",
        "can't",
        "couldn't",
        "shouldn't",
        "haven't",
        "hasn't",
        "hadn't",
        "mustn't",
        "dont",
        "doesnt",
        "didnt",
        "isnt",
        "arent",
        "wasnt",
        "werent",
        "wont",
        "wouldnt",
        "cant",
        "couldnt",
        "shouldnt",
        "havent",
        "hasnt",
        "hadnt",
    ]
)

# Said, not meant: dropped from matching but kept (with offsets) so evidence stays exact.
FILLERS = frozenset(
    [
        "um",
        "umm",
        "uh",
        "uhh",
        "uhm",
        "erm",
        "er",
        "ah",
        "ahh",
        "hmm",
        "mm",
        "mhm",
        "okay",
        "ok",
        "yeah",
        "basically",
        "actually",
        "literally",
    ]
)
FILLER_PHRASES = (("you", "know"), ("i", "mean"), ("sort", "of"), ("kind", "of"), ("so", "yeah"))
"""Two-word fillers the marker drops ("kind of" only as hedging, see the marker)."""

HEDGES = ("like", "you see", "okay so")
"""Words that are fillers in speech only some of the time: delivery counts them (with care for
"looks like"), the marker keeps them because they can carry meaning."""

SPOKEN_FILLERS = tuple(
    sorted({*FILLERS, *(" ".join(pair) for pair in FILLER_PHRASES), *HEDGES}, key=lambda f: (-len(f), f))
)
"""Every filler word or phrase, longest first: what delivery counts in a transcript."""

_local = threading.local()


def stemmer() -> snowballstemmer.stemmer:
    """This thread's English Snowball stemmer (built on first use in each thread)."""
    found: snowballstemmer.stemmer | None = getattr(_local, "stemmer", None)
    if found is None:
        found = _local.stemmer = snowballstemmer.stemmer("english")
    return found


def stem_words(words: Iterable[str]) -> list[str]:
    """The Snowball stem of each word, in order."""
    return [str(s) for s in stemmer().stemWords(list(words))]


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball stem of a lower-case word; digits and mixed tokens (fp16, h100) stay as they are.

    A possessive is the word itself: "model's" stems to "model", as Snowball does. A tokenizer
    is not a token, though Snowball stems both to "token".
    """
    if not word.replace("'", "").isalpha():
        return word
    if word.startswith(("tokeniz", "tokenis")):
        return "tokeniz"
    return str(stemmer().stemWord(word))


def simple_words(text: str) -> list[str]:
    """Lower-case letter-and-digit runs of ``text``."""
    return SIMPLE_WORD.findall(text.lower())


def search_words(text: str) -> list[str]:
    """Lower-case words of ``text`` as search sees them (``2.5`` and ``don't`` whole)."""
    return SEARCH_WORD.findall(text.lower())
