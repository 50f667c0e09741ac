"""Every GPU-topic question carries an authored probe, and each probe is a complete question
(a misconception, a strong and a weak sample, so `viva bank lint` checks how it marks)."""

from __future__ import annotations

from pathlib import Path

from viva.bank import load_bank

CONTENT = Path(__file__).resolve().parents[2] / "content"
GPU = "gpus-and-accelerators"


def test_every_gpu_question_has_a_probe_and_each_probe_is_complete() -> None:
    bank, errors = load_bank(CONTENT)
    assert errors == []
    topic = bank.topic(GPU)
    top_level = [q for s in topic.sections for q in s.questions]
    assert len(top_level) >= 15
    for question in top_level:
        assert question.probes, f"{question.full_id} has no probe"
        for probe in question.probes:
            assert probe.parent_id == question.full_id and probe.probe_of is not None
            assert probe.misconceptions and probe.tags, probe.full_id
            assert {s.verdict for s in probe.samples} >= {"strong", "weak"}, probe.full_id
    on_points = [p for q in top_level for p in q.points if p.probe is not None]
    assert len(on_points) >= 3 and all(p.core for p in on_points), "some probes press on missed core points"
