"""The readiness figure and the debrief assembled from answers (pure)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.practice.factories import marking_for, strong
from tests.practice.interview_bank import interview_bank
from viva.bank import Bank
from viva.marking.result import Span
from viva.practice.debrief import Given, band, debrief, readiness, statement

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Bank:
    return interview_bank(tmp_path_factory.mktemp("debrief-bank"))


def test_readiness_is_the_core_weight_made_with_a_misconception_as_one_more_miss(bank: Bank) -> None:
    mp, bare = bank.question("gpu/mp"), bank.question("gpu/bare")
    assert readiness([]) is None
    assert readiness([strong(mp)]) == 1.0
    assert readiness([marking_for(mp, ["activations"])]) == pytest.approx(2 / 3), "weights count"
    assert readiness([marking_for(mp, ["tensor-cores"])]) == pytest.approx(1 / 3)
    assert readiness([marking_for(mp, ["tensor-cores"], partial=["activations"])]) == pytest.approx(2 / 3)
    with_claim = marking_for(mp, ["activations", "tensor-cores"], misconception=True)
    assert readiness([with_claim]) == pytest.approx(3 / 4)
    assert readiness([strong(mp), marking_for(bare, [])]) == pytest.approx(3 / 5), "pooled by weight"


def test_the_bands_and_what_they_mean() -> None:
    assert [band(x) for x in (0.8, 0.79, 0.6, 0.59)] == ["ready", "nearly", "nearly", "not yet"]
    said = statement("GPUs", 0.625)
    assert said.startswith("GPUs: 62% of the core points") and "nearly" in said and "80%" in said


def test_the_debrief_lists_each_answer_with_evidence_and_what_to_practise(bank: Bank) -> None:
    mp, probe, ring = (
        bank.question("gpu/mp"),
        bank.question("gpu/mp-optimizer-probe"),
        bank.question("net/ring"),
    )
    answer = "Activations in 16 bits. It halves all the memory."
    wrong = marking_for(mp, ["activations"], misconception=True, answer=answer)
    covered = wrong.points[0].model_copy(update={"evidence": [Span(start=0, end=22)]})
    wrong = wrong.model_copy(update={"points": [covered, *wrong.points[1:]]})
    given = [
        Given(mp, "question", wrong, answer, attempt_id=1),
        Given(probe, "misconception", strong(probe), "They stay in FP32.", attempt_id=2),
        Given(ring, "question", strong(ring), "Neighbours, reduce-scatter.", attempt_id=3),
    ]
    result = debrief(bank, "k", AT, AT, given)
    first = result.items[0]
    assert [s.id for s in first.covered] == ["activations"] and first.covered[0].evidence == [
        "Activations in 16 bits"
    ]
    assert [s.id for s in first.missed] == ["tensor-cores"]
    assert first.misconceptions[0].correction.startswith("Adam's FP32")
    assert first.lesson.section_id == "gpu/basics"
    assert result.items[1].follows == mp.prompt and result.items[1].kind == "misconception"
    assert result.practise_next == ["gpu/mp"]
    figures = {r.topic_id: r.figure for r in result.readiness}
    assert figures == {"gpu": pytest.approx((2 + 2) / (3 + 1 + 2)), "net": 1.0}
    assert result.strongest_topic is not None and result.strongest_topic.topic_id == "net"
    assert result.weakest_points[0].point_id == "tensor-cores"
