"""The semantic backend: sentence embeddings combined with the default marker.

Embeddings recognise a point said in other words ("keeps the tensor cores fed" for
"arithmetic intensity is high enough"), but they cannot tell a claim from its negation,
so the lexical marker keeps the last word on contradictions, misconceptions and guards:
a point the answer contradicts earns nothing however similar it sounds.

The model (``Settings.semantic_model``) runs on onnxruntime; see :mod:`viva.marking.embedding`
for where it is read from. The default marker (:mod:`viva.marking.aligned`) credits points by
token alignment instead of this backend's sentence cosine, which measured worse.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Self

from viva.bank.model import Question
from viva.marking import scoring
from viva.marking.embedding import Embedder, Encoded, load_embedder
from viva.marking.lexical import LexicalBackend, build_marking, prompt_keys, reference_features
from viva.marking.points import QUESTION_WORD_WEIGHT, PointResult
from viva.marking.reference import is_reference_only
from viva.marking.relations import about_others
from viva.marking.result import Marking
from viva.marking.terms import Analysis
from viva.marking.text import STOPWORDS, stem

if TYPE_CHECKING:  # numpy is imported where used, so importing this module stays cheap
    import numpy as np
    import numpy.typing as npt

    from viva.settings import Settings

VERSION = "1.10"
SIMILAR_FROM = 0.45  # cosine below which a chunk says nothing of the point
SIMILAR_FULL = 0.8  # cosine at which it says the point in full
SEMANTIC_SHARE = 0.8  # most credit embeddings alone can give a point
CHUNK_WORDS = 24
# Reference mode: the lexical model's predicted mark (0-5), the reference's alignment recall
# (see ``alignment_recall``, on a 0-5 scale) and their product (similarity matters most where
# words differ), fitted by leave-one-question-out cross-validation on the Mohler dev set
# (benchmarks/asag_cv.py).
REFERENCE_BLEND = {"intercept": -1.297, "lexical": 1.011, "aligned": 1.822, "both": -1.544}


Similar = tuple[float, tuple[int, int]]  # cosine, and the span of the answer it came from


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _piece_weight(piece: str, prompt: frozenset[str]) -> float:
    """Reference word pieces that carry meaning count; the prompt's own words count little."""
    if not piece.isalnum() or piece in STOPWORDS:
        return 0.0  # punctuation, function words, and "##ing"-style continuations
    return QUESTION_WORD_WEIGHT if stem(piece) in prompt else 1.0


def piece_weights(pieces: Sequence[str], prompt: frozenset[str]) -> npt.NDArray[np.float32]:
    import numpy as np

    return np.array([_piece_weight(p, prompt) for p in pieces], dtype=np.float32)


def alignment_recall(reference: Encoded, answer: Sequence[Encoded], prompt: frozenset[str]) -> float:
    """How much of the reference the answer says, word by word, in context.

    Each content word piece of the reference is aligned with its most similar token
    anywhere in the answer (contextual token vectors, cosine), and the similarities are
    averaged, weighted as the lexical marker weighs words (BERTScore-style recall). Unlike one
    sentence cosine, an answer that says the reference's claims among other things is not
    diluted, and restating the question earns little.
    """
    import numpy as np

    weights = piece_weights(reference.pieces, prompt)
    rows = [a.tokens for a in answer if len(a.tokens)]
    if not rows or float(weights.sum()) <= 0:
        return 0.0
    best = (reference.tokens @ np.vstack(rows).T).max(axis=1)
    return float((best * weights).sum() / weights.sum())


def chunks(analysis: Analysis) -> list[tuple[int, int]]:
    """Spans of the answer's sentences, or of word windows when speech gave no punctuation."""
    tokens = analysis.tokens
    if not tokens:
        return []
    pieces: list[tuple[int, int]] = []
    by_sentence: dict[int, list[int]] = {}
    for i, token in enumerate(tokens):
        by_sentence.setdefault(token.sentence, []).append(i)
    for indexes in by_sentence.values():
        for begin in range(0, len(indexes), CHUNK_WORDS // 2):
            part = indexes[begin : begin + CHUNK_WORDS]
            pieces.append((tokens[part[0]].start, tokens[part[-1]].end))
            if begin + CHUNK_WORDS >= len(indexes):
                break
    if len(pieces) > 1:
        pieces.append((tokens[0].start, tokens[-1].end))
    return pieces


class EmbeddingMarker:
    """What the markers that embed share: the lexical rules they build on, the model, and a
    cache of embedded texts (point texts and reference answers recur on every answer)."""

    def __init__(self, embed: Embedder) -> None:
        self._embed = embed
        self._lexical = LexicalBackend()
        self._cached = functools.lru_cache(maxsize=8192)(self._embed_one)

    @classmethod
    def from_settings(cls, settings: Settings) -> Self:
        return cls(
            load_embedder(
                settings.semantic_model,
                allow_download=settings.allow_downloads,
                threads=settings.marker_threads,
            )
        )

    def _embed_one(self, text: str) -> Encoded:
        return self._embed([text])[0]


class SemanticBackend(EmbeddingMarker):
    """Lexical marking, with embedding similarity raising the credit of paraphrased points."""

    name = "semantic"
    version = VERSION

    def similarities(self, question: Question, analysis: Analysis) -> tuple[list[Similar], float]:
        """Per point: the best cosine and the span that earned it; and how much of the reference
        the answer says (:func:`alignment_recall`)."""
        pieces = chunks(analysis)
        if not pieces:
            return [(0.0, (0, 0))] * len(question.points), 0.0
        encoded = self._embed([analysis.text[a:b] for a, b in pieces])
        best: list[Similar] = []
        for i, point in enumerate(question.points):
            targets = [self._cached(point.text).vector, *(self._cached(a).vector for a in point.accept)]
            hidden = about_others(question, i, analysis)
            best.append(
                max(
                    (
                        (_cosine(t, e.vector), span)
                        for t in targets
                        for e, span in zip(encoded, pieces, strict=True)
                        if not _about_another_option(span, hidden)
                    ),
                    default=(0.0, (0, 0)),
                )
            )
        recall = alignment_recall(self._cached(question.answer), encoded, prompt_keys(question.prompt))
        return best, recall

    def mark(self, question: Question, answer: str) -> Marking:
        analysis, results, found = self._lexical.assess(question, answer)
        similarity, recall = self.similarities(question, analysis)
        blended = [_blend(r, s) for r, s in zip(results, similarity, strict=True)]
        if is_reference_only(question):
            lexical_mark = reference_features(
                question, analysis, scoring.coverage(question, results)
            ).predicted_mark()
            m = REFERENCE_BLEND
            aligned = 5 * recall
            predicted = (
                m["intercept"]
                + m["lexical"] * lexical_mark
                + m["aligned"] * aligned
                + m["both"] * lexical_mark * aligned / 5
            )
            base = max(0.0, min(1.0, (predicted - scoring.REFERENCE_ZERO) / scoring.REFERENCE_SPAN))
        else:
            base = scoring.authored_score(question, blended)
        return build_marking(question, answer, analysis, blended, found, base, self.name, self.version)


def _about_another_option(span: tuple[int, int], hidden: tuple[tuple[int, int], ...]) -> bool:
    """Whether a chunk takes in a sentence about another option than the point's
    (:func:`viva.marking.relations.own_option_view`): what that sentence says, it says of that
    option, and the whole-answer chunk would carry it back in."""
    start, end = span
    return any(start < b and a < end for a, b in hidden)


def _blend(result: PointResult, similar: Similar) -> PointResult:
    if result.contradicted:
        return result
    similarity, span = similar
    semantic = SEMANTIC_SHARE * max(
        0.0, min(1.0, (similarity - SIMILAR_FROM) / (SIMILAR_FULL - SIMILAR_FROM))
    )
    if semantic <= result.credit:
        return result
    return PointResult(semantic, result.evidence or (span,), False, lexical=result.credit)


def unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]
