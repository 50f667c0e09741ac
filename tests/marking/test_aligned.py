"""The default marker: token alignment credits paraphrase, with evidence; the clause rules veto."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.marking.conftest import SWAPPED_PROFILERS
from viva.bank import load_bank
from viva.bank.model import MarkingPoint, Misconception, Question
from viva.marking import get_backend
from viva.marking.aligned import (
    ALIGNED_FROM,
    ALIGNED_FULL,
    ALIGNED_SHARE,
    EVIDENCE_AT,
    GIST_SHARE,
    AlignedBackend,
    combine,
    exact_words,
    point_alignment,
)
from viva.marking.embedding import Encoded
from viva.marking.explain import score_reasons
from viva.marking.points import COVERED_AT, PointResult
from viva.settings import Settings

CONTENT = Path(__file__).resolve().parents[2] / "content"

pytestmark = pytest.mark.semantic

PARAPHRASE = "Every step has to load the whole model, weight by weight, from HBM."


@pytest.fixture(scope="module")
def marker() -> AlignedBackend:
    backend = get_backend("default")
    assert isinstance(backend, AlignedBackend)
    return backend


def _encoded(pieces: list[str], rows: list[list[float]], offsets: list[tuple[int, int]]) -> Encoded:
    tokens = np.array(rows, dtype=np.float32)
    tokens /= np.linalg.norm(tokens, axis=1, keepdims=True)
    return Encoded((1.0, 0.0, 0.0), tuple(pieces), tokens, tuple(offsets))


def test_evidence_is_the_whole_answer_words_the_point_aligned_with() -> None:
    """Hand-made vectors: "weights" aligns with the piece "##ights" of "weights", "read" with
    "loads"; the unrelated word "cat" is no evidence; spans widen to whole words."""
    point = _encoded(["read", "weights"], [[1, 0, 0], [0, 1, 0]], [(0, 4), (5, 12)])
    text = "it loads the weights, cat"
    answer = _encoded(
        ["it", "loads", "the", "we", "##ights", ",", "cat"],
        [[0.2, 0.2, 1], [1, 0.1, 0], [0.3, 0.3, 1], [0, 0.1, 1], [0, 1, 0.1], [0, 0, 1], [0, 0, 1]],
        [(0, 2), (3, 8), (9, 12), (13, 15), (15, 20), (20, 21), (22, 25)],
    )
    recall, spans = point_alignment(point, "read weights", answer, text, frozenset())
    assert recall > EVIDENCE_AT
    assert [text[a:b] for a, b in spans] == ["loads the weights"]  # merged across "the"


def test_a_figure_aligns_only_with_the_same_figure() -> None:
    """Hand-made vectors make "five" and "eight", and "fp" "##16" and "bf" "##16", identical:
    similarity alone would credit them, but a different figure or version is another claim.
    A plain word may still stand for a figure ("half" for 50 %)."""
    point_text = "five bits in fp16"
    point = _encoded(
        ["five", "bits", "fp", "##16"],
        [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]],
        [(0, 4), (5, 9), (13, 15), (15, 17)],
    )
    rows = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]]
    wrong_text = "eight bits in bf16"
    wrong = _encoded(["eight", "bits", "bf", "##16"], rows, [(0, 5), (6, 10), (14, 16), (16, 18)])
    right_text = "5 bits in FP16"
    right = _encoded(["5", "bits", "fp", "##16"], rows, [(0, 1), (2, 6), (10, 12), (12, 14)])
    assert exact_words(point_text, point.offsets) == ("5", None, "fp16", "fp16")
    wrong_recall, wrong_spans = point_alignment(point, point_text, wrong, wrong_text, frozenset())
    right_recall, _ = point_alignment(point, point_text, right, right_text, frozenset())
    assert right_recall == pytest.approx(1.0)
    assert wrong_recall == pytest.approx(1 / 3)  # of "five", "bits" and "fp" ("##16" weighs 0), only "bits"
    assert [wrong_text[a:b] for a, b in wrong_spans] == ["bits"]
    worded_text = "half the bits"
    worded = _encoded(
        ["half", "the", "bits"], [[1, 0, 0], [0, 0.5, 0.5], [0, 1, 0]], [(0, 4), (5, 8), (9, 13)]
    )
    assert point_alignment(point, point_text, worded, worded_text, frozenset())[0] > 2 / 3


def test_an_option_does_not_align_with_its_rival() -> None:
    """Hand-made vectors make "median" and "mean" identical, as MiniLM nearly does; they are
    rival options of one kind (lexicon.RIVALS), so one is no evidence for the other. Another
    word may still align ("midpoint")."""
    point_text = "the conditional median"
    point = _encoded(["conditional", "median"], [[1, 0, 0], [0, 1, 0]], [(4, 15), (16, 22)])
    rows = [[1, 0, 0], [0, 1, 0]]
    rival_text = "conditional mean"
    rival = _encoded(["conditional", "mean"], rows, [(0, 11), (12, 16)])
    other_text = "conditional midpoint"
    other = _encoded(["conditional", "midpoint"], rows, [(0, 11), (12, 20)])
    assert point_alignment(point, point_text, other, other_text, frozenset())[0] == pytest.approx(1.0)
    recall, spans = point_alignment(point, point_text, rival, rival_text, frozenset())
    assert recall == pytest.approx(0.5)
    assert [rival_text[a:b] for a, b in spans] == ["conditional"]


def test_hidden_answer_words_align_with_nothing() -> None:
    """Words in a sentence about another option (:func:`viva.marking.relations.own_option_view`)
    are no evidence for this point, however similar."""
    point = _encoded(["read", "weights"], [[1, 0, 0], [0, 1, 0]], [(0, 4), (5, 12)])
    text = "A loads weights. B idles."
    answer = _encoded(
        ["a", "loads", "weights", ".", "b", "idles", "."],
        [[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1], [0.2, 0, 1], [0, 0, 1]],
        [(0, 1), (2, 7), (8, 15), (15, 16), (17, 18), (19, 24), (24, 25)],
    )
    seen, spans = point_alignment(point, "read weights", answer, text, frozenset())
    hidden, none = point_alignment(point, "read weights", answer, text, frozenset(), hidden=((0, 16),))
    assert seen == pytest.approx(1.0) and [text[a:b] for a, b in spans] == ["loads weights"]
    assert hidden < 0.2 and none == ()


def test_a_figure_within_rounding_still_aligns() -> None:
    point = _encoded(
        ["3", ".", "35", "tb"], [[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0]], [(0, 1), (1, 2), (2, 4), (5, 7)]
    )
    rows = [[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0]]
    near = _encoded(["3", ".", "3", "tb"], rows, [(0, 1), (1, 2), (2, 3), (4, 6)])
    far = _encoded(["3", ".", "9", "tb"], rows, [(0, 1), (1, 2), (2, 3), (4, 6)])
    assert point_alignment(point, "3.35 TB", near, "3.3 TB", frozenset())[0] == pytest.approx(1.0)
    assert point_alignment(point, "3.35 TB", far, "3.9 TB", frozenset())[0] < 0.5


def test_alignment_finds_a_paraphrase_and_its_words(
    marker: AlignedBackend, decode_question: Question
) -> None:
    point = decode_question.points[0]  # "Decode is memory-bound: each token reads all the weights."
    (said, said_where), (other, _), _ = marker.alignments(decode_question, PARAPHRASE)
    unrelated = marker.alignments(decode_question, "Mixed precision trains in float16 with loss scaling.")
    assert point.id == "memory-bound"
    assert said > unrelated[0][0]
    assert said > other  # the paraphrase says the first point, not the second
    words = [PARAPHRASE[a:b] for a, b in said_where]
    assert any("weight" in w for w in words), words


def test_alignment_raises_a_partial_point_but_not_an_untouched_one() -> None:
    partial = PointResult(0.4, ((0, 5),), False)
    raised = combine(partial, ALIGNED_FULL, ((7, 9),))
    assert raised.credit == ALIGNED_SHARE and raised.evidence == ((0, 5),) and raised.lexical == 0.4
    untouched = PointResult(0.0, (), False)
    middling = ALIGNED_FROM + 0.5 * (ALIGNED_FULL - ALIGNED_FROM)
    assert combine(untouched, middling, ((7, 9),)) == untouched  # topic talk is no evidence
    strong = combine(untouched, 1.0, ((7, 9),))
    assert strong.status == "covered" and strong.evidence == ((7, 9),) and strong.made


def test_a_contradicted_point_is_never_raised() -> None:
    denied = PointResult(0.0, ((0, 9),), True)
    assert combine(denied, 1.0, ((0, 9),)) == denied


def test_negation_vetoes_similarity(marker: AlignedBackend, decode_question: Question) -> None:
    negated = "Decode is not memory-bound: each token does not read all the weights."
    marking = marker.mark(decode_question, negated)
    first = marking.points[0]
    assert first.point_id == "memory-bound" and first.status == "missed"
    assert "contradiction" in marking.flags
    assert marking.verdict == "weak"


def test_misconception_caps_the_score(marker: AlignedBackend, decode_question: Question) -> None:
    marking = marker.mark(
        decode_question, decode_question.answer + " In the end decode is compute-bound, limited by flops."
    )
    assert [m.misconception_id for m in marking.misconceptions] == ["compute-bound"]
    assert marking.verdict != "strong"


def test_empty_answer_is_weak(marker: AlignedBackend, decode_question: Question) -> None:
    marking = marker.mark(decode_question, "  ")
    assert marking.verdict == "weak" and marking.backend == "default"


def test_an_answer_stating_a_misconception_gets_no_alignment_credit(
    marker: AlignedBackend, decode_question: Question
) -> None:
    """Right-sounding words around a known wrong claim are what similarity cannot judge."""
    answer = (
        "The bottleneck is moving the parameters, not the maths; serving many users together "
        "reuses each load of the parameters. Also, batching makes it slower."
    )
    marking = marker.mark(decode_question, answer)
    assert marking.misconceptions, "the claim is one the question's rubric names"
    words_alone = get_backend("lexical").mark(decode_question, answer)
    assert [p.credit for p in marking.points] == [p.credit for p in words_alone.points]
    assert marking.score == words_alone.score


def test_an_answer_the_rules_fully_credit_is_not_embedded_and_marks_the_same(
    marker: AlignedBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Skipping the model when alignment cannot raise any point saves most of the time of
    answers the rules already credit in full, and changes no marking: every answer and
    sample of a topic marks the same as with the model always run."""
    from viva.marking import aligned

    jobs = [
        (q, a)
        for topic in ("coding-for-ml", "deep-learning-basics")
        for q in load_bank(CONTENT / topic)[0].questions()
        for a in (q.answer, *(s.answer for s in q.samples))
    ]
    embedded: list[str] = []
    real_embed = marker._embed
    monkeypatch.setattr(marker, "_embed", lambda texts: embedded.extend(texts) or real_embed(texts))
    skipping = [marker.mark(q, a) for q, a in jobs]
    skipped = len(jobs) - sum(text in {a for _, a in jobs} for text in embedded)  # points are embedded too
    monkeypatch.setattr(aligned, "can_rise", lambda result: True)
    always = [marker.mark(q, a) for q, a in jobs]
    assert skipped > len(jobs) // 5, "answers whose points the rules credit in full are common"
    assert [m.model_dump() for m in skipping] == [m.model_dump() for m in always]


def test_the_marker_threads_setting_reaches_the_model() -> None:
    from viva.marking.embedding import load_embedder

    one, two = (load_embedder(Settings().semantic_model, threads=n) for n in (1, 2))
    assert [e._session.get_session_options().intra_op_num_threads for e in (one, two)] == [1, 2]
    text = "Decode reads every weight from memory for each new token."
    assert np.allclose(one([text])[0].tokens, two([text])[0].tokens, atol=1e-5)
    built = AlignedBackend.from_settings(Settings(marker_threads=2))
    assert built._embed._session.get_session_options().intra_op_num_threads == 2  # type: ignore[attr-defined]


def test_alignment_does_not_credit_what_is_said_of_another_option(
    marker: AlignedBackend, profiler_question: Question
) -> None:
    """Similarity cannot tell which tool a sentence is about; the sentences that name only the
    other option are hidden from each point's alignment, as from its words."""
    question = profiler_question
    marking = marker.mark(question, SWAPPED_PROFILERS)
    assert [p.status for p in marking.points] == ["missed", "missed"]
    assert marking.verdict == "weak"


PINNED = Question(
    topic_id="data",
    section_id="loading",
    id="pinned",
    prompt="What does pin_memory=True in the DataLoader do, and why does it speed things up?",
    answer="It puts batches in page-locked host memory, which the GPU's DMA engine copies from directly.",
    points=(
        MarkingPoint(
            "page-locked", "It allocates batches in page-locked host memory that cannot be swapped out."
        ),
        MarkingPoint("dma", "The GPU's DMA engine copies directly from it, with no staging copy."),
        MarkingPoint("overlap", "It allows asynchronous copies that overlap with GPU compute."),
    ),
    misconceptions=(
        Misconception(
            "pins-to-gpu",
            "pin_memory keeps the batches in GPU memory.",
            "The batches stay in host memory; only the copy gets faster.",
            accept=("keeps the batches in GPU memory",),
        ),
    ),
)
VAGUE = "It puts the batches in pinned memory, which makes transferring them to the GPU faster."


def test_a_vague_answer_on_the_right_track_ranks_above_one_about_something_else(
    marker: AlignedBackend,
) -> None:
    vague = marker.mark(PINNED, VAGUE)
    assert all(p.status != "covered" for p in vague.points)
    elsewhere = marker.mark(PINNED, "Use a larger learning rate with a linear warmup and cosine decay.")
    assert vague.score > elsewhere.score
    assert vague.verdict == "weak"  # the gist orders weak answers; it makes none partial
    assert "gist" in vague.flags and 0 < vague.score <= GIST_SHARE * COVERED_AT
    assert "gist" not in marker.mark(PINNED, PINNED.answer).flags
    assert any(r.startswith("no core point was made in full") for r in score_reasons(vague))


def test_an_answer_stating_a_wrong_claim_has_no_gist(marker: AlignedBackend) -> None:
    wrong = marker.mark(PINNED, VAGUE + " It keeps the batches in GPU memory.")
    assert wrong.misconceptions
    assert "gist" not in wrong.flags
    assert wrong.score < marker.mark(PINNED, VAGUE).score
    denied = marker.mark(PINNED, VAGUE + " It does not allow asynchronous copies.")
    assert "contradiction" in denied.flags and "gist" not in denied.flags


def test_a_claim_the_answer_denies_earns_no_alignment_credit(marker: AlignedBackend) -> None:
    """Words the answer reports only to call false ("PCA is often described as X, but ...")
    earn nothing from the rules; similarity must not credit them either."""
    question = load_bank(CONTENT)[0].question("classical-ml/what-pca-does")
    point = "max-variance-directions"
    denied = marker.mark(
        question,
        "PCA is often described as finding the directions of maximum variance, but really it keeps "
        "the original columns that matter most and drops the rest.",
    )
    own = marker.mark(question, "PCA finds the directions of maximum variance and drops the rest.")
    assert {p.point_id: p.status for p in own.points}[point] == "covered"
    assert {p.point_id: p.status for p in denied.points}[point] == "missed"


SPAM = Question(
    topic_id="metrics",
    section_id="choosing",
    id="spam",
    prompt="You're building a filter that moves emails to the spam folder. Which metric would you tune for?",
    answer="Precision: a real email lost to the spam folder costs more than a spam left in the inbox.",
    points=(
        MarkingPoint("precision", "Favour precision for a spam filter."),
        MarkingPoint("fp-cost", "A false positive hides a real email, which costs more than a missed spam."),
    ),
)


def test_a_point_whose_option_the_answer_swaps_earns_no_alignment_credit(marker: AlignedBackend) -> None:
    """ "Prioritise recall on the spam filter" aligns with every word of "favour precision for a
    spam filter" but the one that decides it; precision and recall are rivals (lexicon.RIVALS),
    so with recall named and precision never, similarity credits nothing. Rejecting the rival
    ("not recall") or naming the option keeps it."""
    swapped = marker.alignments(SPAM, "I'd prioritise recall when tuning the spam filter.")
    assert swapped[0] == (0.0, ())
    assert swapped[1][0] > 0  # the other point is aligned as before
    kept = marker.alignments(SPAM, "I'd prioritise exactness, not recall, when tuning the spam filter.")
    assert kept[0][0] > 0.5
    own = marker.alignments(SPAM, "I'd go with precision when tuning the spam filter; recall matters less.")
    assert own[0][0] > 0.5
