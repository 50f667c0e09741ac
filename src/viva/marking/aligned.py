"""The default marker: the lexical rules, with token alignment crediting points said in other words.

Each marking point's words are aligned with the answer's words in context (MiniLM
contextual token vectors, :mod:`viva.marking.embedding`): every content word piece of the
point is matched to its most similar word piece of the answer, and the similarities are
averaged (BERTScore-style recall, :func:`point_alignment`). A point said in other words
("streams every parameter out of GPU memory" for "reads all the weights") is credited, and
the answer's words it aligned with are its evidence.

Embeddings cannot tell a claim from its negation or its swapped roles, so the clause rules
of the lexical marker keep the last word: a point the words contradict earns nothing, a
misconception asserted caps the score and withholds all alignment credit, a point only
the alignment found must be fully covered to count as made, and a point whose words only name
its thing (:func:`viva.marking.labels.names_only`) takes no alignment credit: similarity cannot
tell which of two named things does what. Nor do the words of a claim the answer reports only to
deny it ("PCA is often described as X, but ...", :func:`viva.marking.framing.disbelieved`): they
align with nothing, as they earn nothing from the rules. Nor does a point whose option of a
kind the answer swaps for a rival ("recall" for "favour precision", :func:`rival_named`):
similarity cannot tell the two apart.

An answer that makes no point in full and states nothing wrong still scores its *gist*, how
near its words come to the core points, kept below the partial line
(:meth:`AlignedBackend.gist`): "it puts the batches in pinned memory so the copy is faster"
is weak, but nearer the mark than an answer about something else.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from viva.bank.model import Question
from viva.marking import scoring
from viva.marking.embedding import Encoded
from viva.marking.framing import disbelieved
from viva.marking.labels import label_frames
from viva.marking.lexical import build_marking, prompt_keys, reference_features
from viva.marking.points import COVERED_AT, PARTIAL_AT, PointResult, _merge, near_number
from viva.marking.reference import is_reference_only
from viva.marking.relations import about_others
from viva.marking.result import Marking
from viva.marking.semantic import EmbeddingMarker, alignment_recall, piece_weights
from viva.marking.terms import Analysis, analyse, rivals_of
from viva.marking.text import tokenize
from viva.marking.worked import number_value

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

VERSION = "2.10"
# Alignment recall -> credit: 0 below ALIGNED_FROM, rising linearly to ALIGNED_SHARE at
# ALIGNED_FULL; a point none of whose words the lexical rules found (credit below PARTIAL_AT)
# only takes the aligned credit when it reaches COVERED_AT, since similarity alone cannot tell
# a claim from its negation or swapped roles. Chosen leave-one-question-out on the SemEval-2013
# 2-way training splits, each reference taken as authored points (SciEntsBank AUC 0.743,
# Beetle 0.739 held out, against 0.725 and 0.742 for the words alone; see
# benchmarks/alignment_grid.py), and `viva bank lint` stays clean. Letting middling
# similarity credit untouched points ranks better there (0.767, 0.766) but gives fluent wrong
# and off-topic answers on the same topic a partial verdict.
ALIGNED_FROM = 0.2
ALIGNED_FULL = 0.7
ALIGNED_SHARE = 1.0
# An answer that states no wrong claim scores at least its gist (:meth:`AlignedBackend.gist`):
# this share of the core points' mean aligned credit, capped at COVERED_AT, so at most 0.26
# and always weak. It changes no verdict; it ranks a vague answer on the right track above
# one about something else, which the rules alike score 0 (see the module docstring).
GIST_SHARE = 0.35
EVIDENCE_AT = 0.6  # a point word aligned at least this well marks its answer word as evidence
# Reference mode: the lexical model's predicted mark (0-5), the reference's alignment recall
# (on a 0-5 scale) and their product, fitted by leave-one-question-out cross-validation on
# the Mohler dev set (benchmarks/asag_cv.py --backend default).
REFERENCE_BLEND = {"intercept": -1.371, "lexical": 1.033, "aligned": 1.823, "both": -1.553}

Spans = tuple[tuple[int, int], ...]


def _word_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a word piece's characters to the whole word it is part of."""
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    return start, end


@functools.lru_cache(maxsize=4096)
def exact_words(text: str, offsets: tuple[tuple[int, int], ...]) -> tuple[str | None, ...]:
    """Per word piece of ``text``: the normalised word when that word names a figure or a
    versioned thing ("0.091", "eight" as 8, "FP16", "H100"), else None.

    Embeddings put "five" near "eight", "0" (of "0.05") near "0.091" and "BF16" near "FP16",
    but each pair is two different claims: such a word may not align with another figure or
    version, only with the same one (a value within rounding,
    :func:`viva.marking.points.near_number`) or with plain words ("half" for "50 %"). A spoken
    "one" stays an ordinary word ("one weight read serves the batch").
    """
    words = [
        (t.start, t.end, t.norm)
        for t in tokenize(text)
        if any(c.isdigit() for c in t.norm) and (t.norm != "1" or text[t.start].isdigit())
    ]
    keys: list[str | None] = []
    for start, _ in offsets:
        keys.append(next((norm for a, b, norm in words if a <= start < b), None))
    return tuple(keys)


@functools.lru_cache(maxsize=4096)
def option_words(text: str, offsets: tuple[tuple[int, int], ...]) -> tuple[str, ...]:
    """Per word piece of ``text``: the option of a kind its word names ("@0.2" for "mean",
    :data:`viva.marking.lexicon.RIVALS`), else "". Embeddings put "median" next to "mean"."""
    named = [(t.start, t.end, t.option) for t in analyse(text).terms if t.option]
    return tuple(next((o for a, b, o in named if a <= start < b), "") for start, _ in offsets)


def rival_named(point: str, answer: Analysis) -> bool:
    """Whether the answer names a rival of an option ``point`` names ("recall" for "favour
    precision"), not in a negation, and never the option itself. Similarity cannot tell the two
    apart, so the rest of the point's words ("spam filter") earn it nothing."""
    content = answer.content_terms()
    return any(
        term.option not in answer.positions
        and any(not content[p].negated for r in term.rivals for p in answer.positions.get(r, ()))
        for term in analyse(point).terms
        if term.option
    )


def _may_align(point: str, said: str | None) -> bool:
    """A figure in a point may align with a plain word or the same figure, not another figure."""
    if said is None or point == said:
        return True
    value, other = number_value(point), number_value(said)
    return value is not None and other is not None and near_number(value, other)


def _exact_mask(point: Encoded, point_text: str, answer: Encoded, text: str) -> npt.NDArray[np.bool_] | None:
    """Which (point piece, answer piece) pairs may align; None when every pair may."""
    import numpy as np

    wanted = exact_words(point_text, point.offsets)
    options = option_words(point_text, point.offsets)
    if not any(wanted) and not any(options):
        return None
    said = exact_words(text, answer.offsets)
    named = option_words(text, answer.offsets)
    mask = np.ones((len(wanted), len(said)), dtype=bool)
    for i, (word, option) in enumerate(zip(wanted, options, strict=True)):
        if word is not None:
            mask[i] = [_may_align(word, other) for other in said]
        if option:
            rivals = rivals_of(option)
            mask[i] &= [other not in rivals for other in named]
    return mask


def point_alignment(
    point: Encoded,
    point_text: str,
    answer: Encoded,
    text: str,
    prompt: frozenset[str],
    hidden: Spans = (),
) -> tuple[float, Spans]:
    """How much of ``point`` the answer says, word piece by word piece, and where.

    Returns the weighted alignment recall in [0, 1] and the character spans of the answer
    words that the point's content words aligned with at :data:`EVIDENCE_AT` or better.
    Figures and versioned names in ``point_text`` align only with themselves
    (:func:`exact_words`); answer pieces inside ``hidden`` (sentences about another option,
    :func:`viva.marking.relations.about_others`) align with nothing.
    """
    import numpy as np

    weights = piece_weights(point.pieces, prompt)
    if not len(answer.tokens) or float(weights.sum()) <= 0:
        return 0.0, ()
    similarity = point.tokens @ answer.tokens.T
    mask = _exact_mask(point, point_text, answer, text)
    if mask is not None:
        similarity = np.where(mask, similarity, 0.0)
    if hidden:
        seen = np.array([not any(a <= start < b for a, b in hidden) for start, _ in answer.offsets])
        similarity = np.where(seen[np.newaxis, :], similarity, 0.0)
    best = similarity.argmax(axis=1)
    scores = similarity[np.arange(len(best)), best]
    recall = float((scores * weights).sum() / weights.sum())
    chosen = sorted(
        {
            _word_span(text, *answer.offsets[int(j)])
            for j, s, w in zip(best, scores, weights, strict=True)
            if w > 0 and s >= EVIDENCE_AT
        }
    )
    return recall, _merge(chosen, text)


def aligned_credit(recall: float) -> float:
    return ALIGNED_SHARE * max(0.0, min(1.0, (recall - ALIGNED_FROM) / (ALIGNED_FULL - ALIGNED_FROM)))


def can_rise(result: PointResult) -> bool:
    """Whether alignment could raise this point's credit; when none can, the answer is not embedded."""
    return not result.contradicted and result.credit < ALIGNED_SHARE


def combine(result: PointResult, recall: float, evidence: Spans) -> PointResult:
    """The lexical result, raised by the alignment unless the words contradict the point or
    only name what it is about: similarity cannot tell which of two named things does what."""
    if result.contradicted or result.named:
        return result
    credit = aligned_credit(recall)
    if credit <= result.credit or (result.credit < PARTIAL_AT and credit < COVERED_AT):
        return result
    return PointResult(credit, result.evidence or evidence, False, lexical=result.credit)


class AlignedBackend(EmbeddingMarker):
    """Lexical marking, with token alignment recall raising the credit of paraphrased points."""

    name = "default"
    version = VERSION

    def alignments(self, question: Question, answer: str) -> list[tuple[float, Spans]]:
        """Per point: its alignment recall and evidence spans (:func:`point_alignment`)."""
        encoded = self._embed([answer])[0]
        prompt = prompt_keys(question.prompt)
        analysis = analyse(answer)
        denied = disbelieved(answer)  # what the answer says is false says nothing for a point
        found: list[tuple[float, Spans]] = []
        for i, (p, frame) in enumerate(zip(question.points, label_frames(question), strict=True)):
            if rival_named(p.text, analysis):
                found.append((0.0, ()))
                continue
            hidden = tuple(sorted({*about_others(question, i, analysis), *denied}))
            demote = prompt | frame
            found.append(point_alignment(self._cached(p.text), p.text, encoded, answer, demote, hidden))
        return found

    @staticmethod
    def gist(question: Question, points: list[tuple[float, Spans]]) -> float:
        """A weak answer's score from how near its words come to the core points, though it
        makes none in full: "it puts the batches in pinned memory so copies are faster" is on
        the track of "page-locked memory the GPU copies from directly", an answer about
        something else is not. ``points`` are the :meth:`alignments`; the gist is at most
        ``GIST_SHARE * COVERED_AT``, below the partial line."""
        core = [
            aligned_credit(recall) for p, (recall, _) in zip(question.points, points, strict=True) if p.core
        ]
        return GIST_SHARE * min(sum(core) / len(core), COVERED_AT) if core else 0.0

    def reference_recall(self, question: Question, answer: Encoded) -> float:
        """How much of the reference answer the answer says (reference mode)."""
        return alignment_recall(self._cached(question.answer), [answer], prompt_keys(question.prompt))

    def mark(self, question: Question, answer: str) -> Marking:
        analysis, results, found = self._lexical.assess(question, answer)
        if not analysis.tokens:
            return self._lexical.mark(question, answer).model_copy(
                update={"backend": self.name, "backend_version": self.version}
            )
        if is_reference_only(question):
            encoded = self._embed([answer])[0]
            lexical_mark = reference_features(
                question, analysis, scoring.coverage(question, results)
            ).predicted_mark()
            aligned = 5 * self.reference_recall(question, encoded)
            m = REFERENCE_BLEND
            predicted = (
                m["intercept"]
                + m["lexical"] * lexical_mark
                + m["aligned"] * aligned
                + m["both"] * lexical_mark * aligned / 5
            )
            base = max(0.0, min(1.0, (predicted - scoring.REFERENCE_ZERO) / scoring.REFERENCE_SPAN))
            blended = results
        else:
            # an answer asserting a known wrong claim: its right-sounding words are exactly what
            # similarity cannot judge, so only what the rules found earns credit
            blended = results
            points = None
            if not found and any(can_rise(r) for r in results):
                points = self.alignments(question, answer)
                blended = [combine(r, *a) for r, a in zip(results, points, strict=True)]
            base = scoring.authored_score(question, blended)
            if points is not None and not any(r.contradicted for r in results):
                gist = self.gist(question, points)
                if gist > base:
                    marking = build_marking(
                        question, answer, analysis, blended, found, gist, self.name, self.version
                    )
                    return marking.model_copy(update={"flags": [*marking.flags, "gist"]})
        return build_marking(question, answer, analysis, blended, found, base, self.name, self.version)
