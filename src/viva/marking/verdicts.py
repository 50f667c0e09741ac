"""A yes-or-no question answered the other way: the opposite verdict is a wrong claim.

"Is its long context done?" has one verdict, and the answer that works opens with it ("No.
Needle-in-a-haystack only tests ..."). A fluent answer that opens "Yes, essentially" has got
the question wrong however right its words after it sound, as an answer that picks the other
option of "L1 or L2?" has (:func:`viva.marking.relations.picked`). Only a plain opening word
counts, on both sides: "yes", "yeah" or "yep" against "no" or "nope", after openers such as
"so" or "um". "Not necessarily" or "it depends" hedge, and the points read what follows.
"""

from __future__ import annotations

from viva.bank.model import Misconception, Question
from viva.marking.misconceptions import Detection
from viva.marking.text import tokenize

YES = frozenset(["yes", "yeah", "yep"])
NO = frozenset(["no", "nope"])
OPENERS = frozenset(["so", "well", "okay", "ok", "oh", "honestly", "hmm"])
VERDICT_ID = "the-other-verdict"


def opening(text: str) -> tuple[bool, tuple[int, int]] | None:
    """Whether ``text`` opens with yes (True) or no (False), and where; None if with neither."""
    for token in tokenize(text)[:4]:
        if token.norm in YES or token.norm in NO:
            return token.norm in YES, (token.start, token.end)
        if not (token.filler or token.norm in OPENERS):
            return None
    return None


def other_verdict(question: Question, answer: str) -> Detection | None:
    """The answer's opening yes or no, when the answer that works opens with the other one."""
    right = opening(question.answer)
    said = opening(answer) if right is not None else None
    if right is None or said is None or said[0] == right[0]:
        return None
    word = "yes" if right[0] else "no"
    wrong = Misconception(
        id=VERDICT_ID,
        text=f"The answer to this question is {'no' if right[0] else 'yes'}.",
        correction=f"The answer is {word}: {question.answer}",
    )
    return Detection(wrong, (said[1],))
