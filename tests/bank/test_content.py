"""The shipped bank's structure (never the wording of its prose)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from viva.bank import Bank, load_bank
from viva.cli import app

CONTENT = Path(__file__).resolve().parents[2] / "content"
GPU = "gpus-and-accelerators"


@pytest.fixture(scope="module")
def bank() -> Bank:
    bank, errors = load_bank(CONTENT)
    assert errors == [], "\n".join(map(str, errors))
    return bank


def test_gpu_topic_sections_in_learning_order(bank: Bank) -> None:
    topic = bank.topic(GPU)
    assert topic.title == "GPUs & accelerators"
    assert [s.id for s in topic.sections][:4] == [
        "what-the-hardware-is-doing",
        "getting-the-most-from-the-hardware",
        "measuring-a-gpu-workload",
        "choosing-hardware-and-renting-gpus",
    ]
    assert all(s.lesson for s in topic.sections)


@pytest.mark.parametrize(
    ("section", "question"),
    [
        ("what-the-hardware-is-doing", "why-gpus-for-deep-learning"),
        ("what-the-hardware-is-doing", "mixed-precision-training"),
        ("what-the-hardware-is-doing", "low-gpu-utilisation"),
        ("getting-the-most-from-the-hardware", "llm-inference-bound"),
        ("getting-the-most-from-the-hardware", "kernel-fusion"),
        ("measuring-a-gpu-workload", "compute-or-memory-bound"),
        ("choosing-hardware-and-renting-gpus", "choosing-hardware-for-7b-serving"),
    ],
)
def test_gpu_questions_have_fixed_ids_in_their_sections(bank: Bank, section: str, question: str) -> None:
    assert bank.question(f"{GPU}/{question}").section_id == section
    assert question in {q.id for q in bank.section(f"{GPU}/{section}").questions}


def test_token_generation_follow_up_is_nested(bank: Bank) -> None:
    parent = bank.question(f"{GPU}/compute-or-memory-bound")
    assert "why-token-generation-memory-bound" in [f.id for f in parent.follow_ups]


def test_export_has_the_gpu_topic_with_nested_follow_up() -> None:
    result = CliRunner().invoke(app, ["--content", str(CONTENT), "bank", "export", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    gpu = next(t for t in doc["topics"] if t["id"] == GPU)
    measuring = next(s for s in gpu["sections"] if s["id"] == "measuring-a-gpu-workload")
    parent = next(q for q in measuring["questions"] if q["id"] == "compute-or-memory-bound")
    assert "why-token-generation-memory-bound" in [f["id"] for f in parent["follow_ups"]]


def test_whole_bank_size_and_shape(bank: Bank) -> None:
    assert len(bank.topics) >= 8
    top_level = [q for t in bank.topics for s in t.sections for q in s.questions]
    assert len(top_level) >= 80
    assert {q.difficulty for q in top_level} == {"easy", "medium", "hard"}
    for topic in bank.topics:
        assert len(topic.sections) >= 3, topic.id
        assert topic.assumes, f"{topic.id} does not say what its numbers assume"
        assert any(not ref.startswith(f"{topic.id}/") for s in topic.sections for ref in s.related), (
            f"{topic.id} links to no other topic"
        )


def test_every_question_is_complete(bank: Bank) -> None:
    for question in bank.questions():
        assert 2 <= len(question.points) <= 6, question.full_id
        assert question.misconceptions, f"{question.full_id} has no misconception"
        assert question.tags, f"{question.full_id} has no tags"
        assert any(s.verdict == "weak" for s in question.samples), f"{question.full_id} has no weak sample"


def test_a_third_of_questions_have_follow_ups(bank: Bank) -> None:
    top_level = [q for t in bank.topics for s in t.sections for q in s.questions]
    with_follow_up = [q for q in top_level if bank.follow_ups(q)]
    assert len(with_follow_up) * 3 >= len(top_level)


# Every question and follow-up has a paraphrase, contrast, partial and fluent-wrong sample
# (`viva bank lint --strict` checks the same; probes are exempt), and a topic added later must too.


def test_every_new_topic_has_every_kind_of_sample(bank: Bank) -> None:
    from viva.marking.lint import missing_sample_kinds

    lacking = sorted(note.question_id for note in missing_sample_kinds(bank))
    assert lacking == []


def test_every_misconception_phrasing_states_a_claim(bank: Bank) -> None:
    """A phrasing of one meaningful word is ignored by the marker (`viva bank lint --strict`
    fails on it), so the bank has none: each is a claim an answer can be heard to make."""
    from viva.marking.lint import unclaimed_phrasings

    assert [note.describe() for note in unclaimed_phrasings(bank)] == []
