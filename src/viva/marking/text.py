"""Tokens with character offsets, normalised for typed and spoken answers alike.

Every token remembers ``answer[start:end]`` so evidence can point at the candidate's own
words. Normalisation is what makes speech and typing look the same to the marker:
lower case, spelled-out numbers become digits ("sixteen bit" -> ``16`` ``bit``), glued
units are split ("80gb" -> ``80`` ``gb``), a maths symbol is the word said for it
("1 − ρ²" -> ``1`` ``minus`` ``rho`` ``squared``), fillers ("um", "so basically") are marked so
they neither count as words nor break a phrase, and each word gets a Snowball stem.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from viva.language import FILLER_PHRASES, FILLERS, NEGATORS, STOPWORDS, stem

__all__ = ["FILLERS", "FILLER_PHRASES", "NEGATORS", "OPENERS", "STOPWORDS", "Token", "stem", "tokenize"]

# Words a spoken answer opens with before it says anything ("so, no, it isn't", "well, L2"):
# what an answer opens with (its verdict, the option it picks) is read past them.
OPENERS = frozenset(["so", "well", "okay", "ok", "oh", "honestly"])

# "1,000" and "12,288" are one number; a comma between other digits ("1,2") separates.
_THOUSANDS = r"\d{1,3}(?:,\d{3})+(?!\d)"
# Symbols a typed answer uses for what a spoken one says: "σ²" is "sigma squared".
_SYMBOL_WORDS = {"²": "squared", "³": "cubed", "√": "root", "−": "minus", "∞": "infinity", "µ": "micro"}
_GREEK = "\u0391-\u03a9\u03b1-\u03c9"
_WORD = re.compile(
    rf"(?:{_THOUSANDS}|\d+)(?:\.\d+)?[A-Za-z]*|[A-Za-z][A-Za-z0-9]*(?:['’][A-Za-z]+)?"
    rf"|[{_GREEK}{''.join(_SYMBOL_WORDS)}]"
)
# A line break alone is wrapping; a blank line or a new list item ends a clause and a sentence.
_CLAUSE_END = re.compile(
    r"(?<!\d),|,(?!\d{3}(?!\d))|[;:()\u2014]|\s-\s|[.!?]+(?=\s|$)|\n\s*\n|\n(?=\s*[-*•])"
)
_SENTENCE_END = re.compile(r"[.!?;:]+(?=\s|$)|\n\s*\n|\n(?=\s*[-*•])")
_DIGITS_THEN_LETTERS = re.compile(r"^(\d+(?:\.\d+)?)([a-z]+)$")

_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
# "seven billion" stays ``7`` ``billion`` so it meets "7 billion" and "7B" (b -> billion)
_SCALES = {"hundred": 100}
# Names written as letters and a number and said as two words, "h one hundred" for H100 and
# "bf sixteen" for BF16: the letters, and the numbers they name (no other: "p = 6" is no P6).
_NAMED_BY_NUMBER = {
    "h": frozenset([100, 200, 800]),
    "bf": frozenset([16]),
    "fp": frozenset([4, 8, 16, 32, 64]),
    "int": frozenset([2, 4, 8]),
    "l": frozenset([0, 1, 2]),
    "p": frozenset([50, 90, 95, 99, 999]),
}


@dataclass(frozen=True, slots=True)
class Token:
    """One word: ``norm`` is its normalised form, ``stem`` its stem, offsets into the text."""

    norm: str
    stem: str
    start: int
    end: int
    filler: bool = False
    sentence: int = 0
    clause: int = 0

    @property
    def stop(self) -> bool:
        return self.norm in STOPWORDS or self.norm in NEGATORS

    @property
    def negator(self) -> bool:
        return self.norm in NEGATORS or self.norm.endswith(("n't", "n’t"))


Word = tuple[str, int, int, int, int]


def _counter(pattern: re.Pattern[str], text: str) -> list[int]:
    return [m.start() for m in pattern.finditer(text)]


def _raw_words(text: str) -> list[Word]:
    """(lower-case word, start, end, sentence, clause), splitting glued numbers and units."""
    sentence_breaks = _counter(_SENTENCE_END, text)
    clause_breaks = _counter(_CLAUSE_END, text)
    words: list[Word] = []
    sentence = clause = next_sentence = next_clause = 0
    for match in _WORD.finditer(text):
        while next_sentence < len(sentence_breaks) and sentence_breaks[next_sentence] < match.start():
            sentence += 1
            next_sentence += 1
        while next_clause < len(clause_breaks) and clause_breaks[next_clause] < match.start():
            clause += 1
            next_clause += 1
        word = _spoken(match.group()).lower().replace("’", "'")
        if word[0].isdigit():
            word = word.replace(",", "")
        start, end = match.span()
        glued = _DIGITS_THEN_LETTERS.match(word)
        if glued and glued.group(2) not in {"st", "nd", "rd", "th", "s", "x", "e"}:
            cut = start + len(glued.group(1))
            words.append((glued.group(1), start, cut, sentence, clause))
            words.append((glued.group(2), cut, end, sentence, clause))
        else:
            words.append((word, start, end, sentence, clause))
    return words


def _spoken(word: str) -> str:
    """The word said for a symbol ("ρ" -> "rho"); any other word unchanged."""
    if word in _SYMBOL_WORDS:
        return _SYMBOL_WORDS[word]
    if len(word) == 1 and not word.isascii():
        name = unicodedata.name(word, "")  # GREEK SMALL LETTER RHO
        if name.startswith("GREEK"):
            return name.rsplit(" ", 1)[-1].replace("LAMDA", "LAMBDA")
    return word


def _number_run(words: list[Word], i: int) -> tuple[int, int] | None:
    """Parse spelled-out number words starting at ``i``: (value, count of words used)."""
    current, used, last = 0, 0, ""
    for j in range(i, len(words)):
        word = words[j][0]
        if word in _UNITS:
            value = _UNITS[word]
            spoken_hundreds = used == 1 and last == "unit" and 0 < current < 10 <= value
            if spoken_hundreds and words[j][4] == words[i][4]:
                current *= 100  # "two fifty six" is said for 256, "nine eighty nine" for 989
            elif not (last in ("", "scale", "and") or (last == "tens" and value < 10)):
                break
            current += value
            last = "tens" if value >= 20 and value % 10 == 0 else "unit"
        elif word in _SCALES and last in ("unit", "tens"):
            current *= _SCALES[word]
            last = "scale"
        elif word == "and" and last == "scale" and j + 1 < len(words) and words[j + 1][0] in _UNITS:
            last = "and"
        else:
            break
        used = j - i + 1
    if not used:
        return None
    return current, used


# Spoken decimals: "point oh nine" is 0.09. "Oh" is a digit only there; "point" starts a
# number only after a number or where no article makes it a noun ("at that point two ...").
_DIGIT_WORDS = {**{w: v for w, v in _UNITS.items() if v < 10}, "oh": 0}
_NOT_BEFORE_POINT = frozenset(
    [
        "the",
        "a",
        "an",
        "that",
        "this",
        "each",
        "every",
        "one",
        "some",
        "any",
        "which",
        "another",
        "other",
        "same",
        "my",
        "your",
        "our",
        "their",
        "its",
        "his",
        "her",
        "first",
        "second",
        "third",
        "next",
        "last",
        "main",
        "key",
        "whole",
    ]
)


def _decimals(words: list[Word], i: int) -> tuple[str, int] | None:
    """The digits said after "point" at ``i`` ("point two four five" -> "245") and the count of
    words used, or None."""
    if i >= len(words) or words[i][0] != "point":
        return None
    digits = ""
    for word, *_, clause in words[i + 1 :]:
        if word not in _DIGIT_WORDS or clause != words[i][4]:
            break
        digits += str(_DIGIT_WORDS[word])
    return (digits, 1 + len(digits)) if digits else None


def tokenize(text: str) -> list[Token]:
    """Tokens of ``text`` in order, with numbers as digits ("h one hundred" as "h100") and
    fillers marked."""
    words = _raw_words(text)
    tokens: list[Token] = []
    i = 0
    while i < len(words):
        word, start, end, sentence, clause = words[i]
        bare_point = word == "point" and (i == 0 or words[i - 1][0] not in _NOT_BEFORE_POINT)
        number = _number_run(words, i) if word in _UNITS else (0, 0) if bare_point else None
        if number is not None:
            value, used = number
            fraction = _decimals(words, i + used)
            if fraction is not None or used:
                norm = f"{value}.{fraction[0]}" if fraction else str(value)
                used += fraction[1] if fraction else 0
                last = words[i + used - 1]
                token = Token(norm, norm, start, last[2], sentence=sentence, clause=clause)
                before = tokens[-1] if tokens and tokens[-1].clause == clause else None
                if before is not None and not fraction and value in _NAMED_BY_NUMBER.get(before.norm, ()):
                    named = before.norm + norm
                    token = Token(named, named, before.start, token.end, sentence=sentence, clause=clause)
                    tokens.pop()
                tokens.append(token)
                i += used
                continue
        tokens.append(Token(word, stem(word), start, end, word in FILLERS, sentence, clause))
        i += 1
    _mark_filler_phrases(tokens)
    return tokens


def _mark_filler_phrases(tokens: list[Token]) -> None:
    for i in range(len(tokens) - 1):
        pair = (tokens[i].norm, tokens[i + 1].norm)
        if pair in FILLER_PHRASES:
            # "kind of"/"sort of" before a noun is hedging, "you know" and "i mean" are fillers
            for k in (i, i + 1):
                t = tokens[k]
                tokens[k] = Token(t.norm, t.stem, t.start, t.end, True, t.sentence, t.clause)
