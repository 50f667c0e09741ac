"""A yes-or-no question answered the other way: the opposite verdict is a wrong claim.

"Is its long context done?" has one verdict, and the answer that works opens with it ("No.
Needle-in-a-haystack only tests ..."). A fluent answer that opens "Yes, essentially" has got
the question wrong however right its words after it sound, as an answer that picks the other
option of "L1 or L2?" has (:func:`viva.marking.relations.picked`). Only a plain opening word
counts in an answer: "yes", "yeah" or "yep" against "no" or "nope", after openers such as "so"
or "um"; "not necessarily" or "it depends" hedge, and the points read what follows. The answer
that works may hedge its no ("Not necessarily.", "Usually not:") when the prompt asks a
yes-or-no question ("Has the model got worse?"): then a plain yes is the other verdict.
"""

from __future__ import annotations

import functools
import re

from viva.bank.model import Misconception, Question
from viva.marking.misconceptions import Detection
from viva.marking.text import OPENERS, Token, tokenize

YES = frozenset(["yes", "yeah", "yep"])
NO = frozenset(["no", "nope"])
ACKNOWLEDGEMENTS = frozenset(["yeah"])  # "yeah, so ..." acknowledges; "yes" and "no" answer
VERDICT_ID = "the-other-verdict"
OPENING_WORDS = 6  # how far into an answer its verdict may come, past openers and fillers
AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "should",
        "will",
        "has",
        "have",
        "must",
        "may",
        "might",
    ]
)
HEDGED_NO = (("not",), ("usually", "not"), ("basically", "no"), ("probably", "not"))


def opening(text: str) -> tuple[bool, tuple[int, int]] | None:
    """Whether ``text`` opens with yes (True) or no (False), and where; None if with neither.

    Of several verdict words before the first word of substance the last one counts: a spoken
    "yeah, so, no, it isn't done" or "yeah, no" opens with an acknowledgement, then answers.
    So does "yeah, so the needle test ...", which therefore gives no verdict: a "yeah" followed
    by an opener ("so", "well", "um") acknowledges the question rather than answering it."""
    said: Token | None = None
    for token in tokenize(text)[:OPENING_WORDS]:
        if token.norm in YES or token.norm in NO:
            said = token
        elif not (token.filler or token.norm in OPENERS):
            break
        elif said is not None and said.norm in ACKNOWLEDGEMENTS:
            said = None
    return None if said is None else (said.norm in YES, (said.start, said.end))


def asks_yes_or_no(prompt: str) -> bool:
    """Whether the prompt's last question opens with an auxiliary verb, at its start or after
    its last comma: "Is its long context done?", "If one feature is a flag, is it invalid?"."""
    asked = [s for s in re.split(r"(?<=[.?!])\s+", prompt.strip()) if s.endswith("?")]
    if not asked:
        return False
    parts = asked[-1].split(",")
    for part in (parts[0], parts[-1]):
        words = [t.norm for t in tokenize(part) if not (t.filler or t.norm in OPENERS)]
        if words and words[0] in AUXILIARIES:
            return True
    return False


@functools.lru_cache(maxsize=4096)
def right_verdict(question: Question) -> bool | None:
    """The verdict the answer that works opens with: yes (True), no (False) or none; read once
    per question, not once per answer."""
    said = opening(question.answer)
    if said is not None:
        return said[0]
    words = tuple(t.norm for t in tokenize(question.answer)[:2])
    hedged = any(words[: len(h)] == h for h in HEDGED_NO)
    return False if hedged and asks_yes_or_no(question.prompt) else None


def other_verdict(question: Question, answer: str) -> Detection | None:
    """The answer's opening yes or no, when the answer that works opens with the other one."""
    right = right_verdict(question)
    said = opening(answer) if right is not None else None
    if said is None or said[0] == right:
        return None
    wrong = Misconception(
        id=VERDICT_ID,
        text=f"The answer to this question is {'yes' if said[0] else 'no'}.",
        correction=question.answer,
    )
    return Detection(wrong, (said[1],))
