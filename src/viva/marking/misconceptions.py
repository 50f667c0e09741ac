"""Detecting the wrong claims a bank author wrote down for a question.

A misconception is found when the answer *asserts* it: its words are there, in one
clause (so a contrast such as "prefill is compute-bound; decoding is memory-bound" or
"unlike prefill, decoding is memory-bound" does not assert "decoding is compute-bound"), with the
same polarity ("decode is compute-bound", not "decode is not compute-bound"). Words the
misconception shares with the model answer and the marking points prove nothing, since
a correct answer uses them too; so when a misconception has words of its own
("identical", "clock speed"), enough of those must be present as well. A wrong figure is
stated by saying it: an answer that gives its own figures and none of the misconception's
("63 percent of requests are slow" against "1 % of requests are slow") does not state it.
An accepted phrasing of one word names a thing and states nothing (:func:`states_a_claim`), and
a comparison the other way round states nothing either: "FP16 is more accurate than BF16" has
every word of "BF16 is more accurate" (:func:`_compared_against`). A claim that hands one thing
to each of many ("one vector for each sense") is stated only where the answer also says "each",
"per" or the like: "its senses get blended into one vector" has its words and the opposite
relation (:func:`_distributive_unsaid`). A goal held under a constraint ("maximise recall subject
to a precision floor") is not the goal at any cost (:func:`_constrained`).
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from viva.bank.model import Misconception, Question
from viva.marking.points import SAID_IN_FULL, ClaimMatch, Target, match, near_number, target
from viva.marking.terms import Analysis, analyse, distinct_concepts
from viva.marking.worked import number_value

ASSERTED_AT = 0.7  # coverage of the misconception's text that counts as stating it
OWN_WORDS_AT = 0.6  # share of its own (distinctive) words that must be present
ALL_SHARED_AT = 0.95  # coverage needed when every word also appears in the correct texts
CLAIM_WORDS = 2  # full-weight words an accepted phrasing needs before it can state a claim


@dataclass(frozen=True, slots=True)
class Detection:
    misconception: Misconception
    evidence: tuple[tuple[int, int], ...]
    whole: bool = False  # every word of the wrong claim (its text or a phrasing) is said


@functools.lru_cache(maxsize=2048)
def _correct_stems(question: Question) -> frozenset[str]:
    stems: set[str] = set()
    for text in (
        question.answer,
        question.full_answer,
        *(p.text for p in question.points),
        *(a for p in question.points for a in p.accept),
    ):
        stems.update(t.stem for t in analyse(text).content_terms())
    return frozenset(stems)


def _figure(surface: str) -> float | None:
    """The figure a term starts with: "4 bytes" is 4."""
    return number_value(surface.split(" ", 1)[0])


def _other_figures(claim: Target, answer: Analysis) -> bool:
    """Whether the claim has figures, the answer says figures, and none of them is the claim's."""
    wanted = [v for v in (_figure(t.surface) for t in claim.terms) if v is not None]
    said = [v for v in (_figure(s) for s in answer.surfaces) if v is not None]
    if not wanted or not said:
        return False
    return not any(near_number(w, v) for w in wanted for v in said)


def _unit_unsaid(claim: Target, answer: Analysis) -> bool:
    """Whether a figure the claim gives with a unit ("8 GB", "2 FLOPs") is never said with that
    unit: "8 billion parameters, 16 GB" does not say "8 GB", nor does "six FLOPs, two for the
    forward pass" say "2 FLOPs". A figure and its unit are one claim."""
    said = answer.content_terms()
    for term, unit in itertools.pairwise(claim.terms):
        value = _figure(term.surface)
        if value is None or " " in term.surface or _figure(unit.surface) is not None:
            continue
        if not any(
            (other := _figure(word.surface)) is not None
            and near_number(value, other)
            and following.keys & unit.keys
            for word, following in itertools.pairwise(said)
        ):
            return True
    return False


def _own_share(claim: Target, answer: Analysis, correct: frozenset[str], found: ClaimMatch) -> float:
    """Share of the claim's own words (ones the correct texts never use) in the matched window.

    Compared by stem, not by concept: "bigger" is the misconception's word even though the
    model answer says "more", and a synonym would blur exactly that difference.
    """
    own = [t for t in claim.terms if t.stem not in correct]
    if not own:
        return 1.0
    spans = found.evidence
    present = 0
    for term in own:
        for rank in answer.positions.get(term.stem.split()[-1], ()):
            word = answer.terms[answer.content[rank]]
            if word.negated == term.negated and any(s <= word.start < e for s, e in spans):
                present += 1
                break
    return present / len(own)


_THAN = re.compile(
    r"\b(?:than|rather\s+than|compared\s+(?:to|with))\s+(?:(?:the|a|an|plain|its|their)\s+)?$", re.I
)


_DISTRIBUTIVE = frozenset(["each", "every", "per", "separate", "separately", "own", "individual"])
_DISTRIBUTIVE_REACH = 20  # characters either side of the matched words: "a vector of its own"


def _distributive_unsaid(claim: Target, answer: Analysis, found: ClaimMatch) -> bool:
    """Whether the claim hands out one thing to each of many ("one vector for each sense")
    and the words that matched it say no such thing: "its senses get blended into one vector"
    has "one", "vector" and "senses" but the opposite relation."""
    if not _DISTRIBUTIVE.intersection(t.norm for t in analyse(claim.text).tokens):
        return False
    if not found.evidence:
        return True
    start, end = found.evidence[0][0], found.evidence[-1][1]
    return not any(
        t.norm in _DISTRIBUTIVE
        for t in answer.tokens
        if start - _DISTRIBUTIVE_REACH <= t.start < end + _DISTRIBUTIVE_REACH
    )


# A goal held under a constraint: "maximise recall subject to 99 % precision" is the
# constrained goal, not "maximise recall" at any cost.
_CONSTRAINED = re.compile(
    r"^\W{0,3}(?:\w+\W+){0,3}?(?:subject\s+to|within\s+(?:that|this|the|a|those|these)\s+(?:constraint|budget|limit|bound)s?"
    r"|under\s+(?:that|this|the|a)\s+(?:constraint|budget|limit|cap)|as\s+long\s+as|provided\s+(?:that\s+)?|so\s+long\s+as"
    r"|while\s+(?:keeping|holding|staying))\b",
    re.IGNORECASE,
)


def _constrained(answer: Analysis, found: ClaimMatch) -> bool:
    """Whether the words that matched a claim are a goal the answer holds under a constraint
    ("then maximise recall within that constraint")."""
    return bool(found.evidence) and bool(_CONSTRAINED.search(answer.text[found.evidence[-1][1] :]))


def _compared_against(claim: Target, answer: Analysis, found: ClaimMatch) -> bool:
    """Whether the answer compares something else against what a wrong claim is about:
    "FP16 is more accurate than BF16" does not state "BF16 is more accurate (than FP16)",
    though every word is there. The claim's subject is its first word; the claim is not stated
    where its evidence has that word after "than"."""
    if not claim.terms or _THAN.search(claim.text[: claim.terms[0].start]):
        return False
    keys = claim.terms[0].keys
    said = [
        t
        for t in answer.content_terms()
        if t.keys & keys and any(a <= t.start < b for a, b in found.evidence)
    ]
    return any(_THAN.search(answer.text[max(0, t.start - 30) : t.start]) for t in said)


def states_a_claim(claim: Target) -> bool:
    """Whether an accepted phrasing says enough to be a claim. One word ("it's overfitting",
    "medoid") only names a thing, and a correct answer names the wrong thing to reject it ("it's
    tempting to call it overfitting, but ...") or in a condition ("overfitting would show a
    lower training error")."""
    return sum(w >= 1.0 for w in claim.weights) >= CLAIM_WORDS


@functools.lru_cache(maxsize=2048)
def _claims(question: Question) -> tuple[tuple[Target, ...], ...]:
    """For each misconception: its text, then each accepted phrasing that states a claim, as
    claims; built once per question, as :func:`viva.marking.lexical.point_claims` is."""
    demote: frozenset[str] = frozenset()
    apart = distinct_concepts(question.prompt)
    return tuple(
        (
            target(m.text, demote, tight=True, one_clause=True, distinct=apart),
            *(
                claim
                for a in m.accept
                if states_a_claim(claim := target(a, demote, accept=True, one_clause=True, distinct=apart))
            ),
        )
        for m in question.misconceptions
    )


def detect(question: Question, answer: Analysis) -> list[Detection]:
    """The misconceptions ``answer`` asserts, in the order the bank lists them.

    Unlike marking points, the question's own words are not demoted here: demoting them
    would let a wrong claim be "asserted" by its few remaining words.
    """
    correct = _correct_stems(question)
    found_all: list[Detection] = []
    for misconception, claims in zip(question.misconceptions, _claims(question), strict=True):
        for claim in claims:
            found = match(claim, answer)
            needed = SAID_IN_FULL if claim.accept else ASSERTED_AT
            if found.contradicted or found.coverage < needed or _other_figures(claim, answer):
                continue
            if _unit_unsaid(claim, answer):
                continue
            if not any(t.stem not in correct for t in claim.terms) and found.coverage < ALL_SHARED_AT:
                continue  # only the arrangement of shared words can make it wrong: need all of them
            if (
                _compared_against(claim, answer, found)
                or _distributive_unsaid(claim, answer, found)
                or _constrained(answer, found)
            ):
                continue
            if _own_share(claim, answer, correct, found) >= OWN_WORDS_AT:
                found_all.append(Detection(misconception, found.evidence, found.coverage >= SAID_IN_FULL))
                break
    return found_all
