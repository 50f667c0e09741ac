"""Another figure said where a point's figure belongs contradicts the point."""

from __future__ import annotations

import pytest

from viva.bank.model import MarkingPoint, Question
from viva.marking.figures import figures_in, other_figure
from viva.marking.lexical import LexicalBackend
from viva.marking.terms import analyse

SIGMOID = Question(
    topic_id="maths",
    section_id="backprop",
    id="sigmoid",
    prompt="In your 20-layer sigmoid network the first layers barely learn. Why?",
    answer="The sigmoid's derivative is at most 0.25, so the product over twenty layers vanishes.",
    points=(
        MarkingPoint("quarter", "The sigmoid's derivative is at most 0.25."),
        MarkingPoint("vanishes", "So the gradient vanishes over the layers."),
    ),
)


def _point(answer: str) -> tuple[str, float]:
    marking = LexicalBackend().mark(SIGMOID, answer)
    quarter = next(p for p in marking.points if p.point_id == "quarter")
    return quarter.status, quarter.credit


def test_another_figure_in_the_clause_that_makes_the_point_contradicts_it() -> None:
    assert _point("The sigmoid's derivative is at most 0.25, so the gradient vanishes.")[0] == "covered"
    status, credit = _point("The sigmoid's derivative peaks at 1, so the gradient vanishes.")
    assert (status, credit) == ("missed", 0.0)
    assert "contradiction" in LexicalBackend().mark(SIGMOID, "The sigmoid's derivative peaks at 1.").flags
    # without a figure the words earn what they earned before, and a figure in another
    # sentence is said of something else
    small = _point("The sigmoid's derivative is small, so the gradient vanishes.")
    assert small[1] > 0
    assert _point("The sigmoid's derivative is small, so the gradient vanishes. We ran 300 epochs.") == small


def test_a_scale_word_is_part_of_the_figure() -> None:
    figures = figures_in(analyse("under two thousand weights, 1.5 million in all"), spelled=True)
    assert [f.value for f in figures] == [2000, 1.5e6]


def _other(point: str, answer: str, prompt: str = "How much memory?") -> list[str]:
    analysis = analyse(answer)
    evidence = ((0, len(answer)),)  # every clause earned the point
    return [answer[a:b] for a, b in other_figure(point, prompt, evidence, analysis)]


def test_a_figure_far_from_the_points_is_reported_as_evidence() -> None:
    assert _other("Parameters are about 590,000.", "Parameters are about 2,300.") == ["2,300"]


@pytest.mark.parametrize(
    ("point", "answer", "prompt"),
    [
        # a rough figure is the same figure
        ("HNSW needs roughly 330 GB.", "HNSW needs roughly 350 GB.", "How much memory?"),
        # the point's figure said anywhere, in words or with a scale word, is said
        (
            "A 3 by 3 conv has 1,728 weights.",
            "A 3 by 3 with 64 filters is under two thousand weights.",
            "Why?",
        ),
        ("The base takes about 14 GB.", "The base in bf16 is fourteen gigs, 0.64 GB with the adapters.", "?"),
        ("It is 3.7 GFLOPs.", "It is 3.7 billion FLOPs, 1,850 million multiply-adds.", "How many?"),
        # figures the question gives are context, and so are small counts and operands
        ("Each search reads 31 GB.", "We search 10 million vectors each time.", "Ten million vectors: how?"),
        ("Bytes are 2 for K and V, times layers.", "K and V are cached for all 32 layers.", "KV cache?"),
        ("The MLP holds 8 d squared, of 12 d squared.", "The MLP holds 8 d squared, two thirds.", "Why 4d?"),
        # another unit is another fact, and an exponent is no figure of its own
        ("Spot is 50 to 70% cheaper.", "Spot is much cheaper with 30 seconds of notice.", "Spot?"),
        ("The scale is 65,536.", "Gradients below 6e-5 flush to zero; the scale is large.", "Why?"),
    ],
)
def test_what_is_not_another_figure(point: str, answer: str, prompt: str) -> None:
    assert _other(point, answer, prompt) == []
