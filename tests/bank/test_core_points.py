"""The answer that works, the full answer, core and marked-up points, and sample kinds."""

from __future__ import annotations

from pathlib import Path

from tests.factories import QUESTIONS, write_bank
from viva.bank import load_bank
from viva.bank.export import question_dict

WITH_MARKED_UP = (
    QUESTIONS.replace(
        "    answer: |\n      Memory-bound: each step reads all the weights for little arithmetic.\n",
        "    answer: |\n      Memory-bound: each step reads all the weights for little arithmetic.\n"
        "    full_answer: |\n      Memory-bound, about one FLOP per byte, far below the ridge point.\n",
    )
    .replace(
        "        text: Every step reads all the weights.\n",
        "        text: Every step reads all the weights.\n"
        "    marked_up:\n"
        "      - id: ridge\n"
        "        text: About one FLOP per byte, far below the ridge point.\n"
        "        accept: [ridge point]\n",
    )
    .replace(
        "    samples:\n      - verdict: weak\n        answer: It is compute-bound.\n",
        "    samples:\n      - verdict: weak\n        answer: It is compute-bound.\n"
        "      - kind: contrast\n        answer: Prefill is compute-bound; decode is memory-bound.\n"
        "      - kind: fluent-wrong\n        verdict: weak\n        answer: Decode is compute-bound.\n",
    )
)


def _load(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    return load_bank(write_bank(tmp_path / "c", {"01-basics.yaml": text}))


def test_marked_up_points_follow_the_core_ones(tmp_path: Path) -> None:
    bank, errors = _load(tmp_path, WITH_MARKED_UP)
    assert errors == []
    question = bank.question("demo/bound")
    assert [p.id for p in question.core_points] == ["memory-bound", "reads-weights"]
    assert [(p.id, p.core) for p in question.marked_up_points] == [("ridge", False)]
    assert [p.id for p in question.points] == ["memory-bound", "reads-weights", "ridge"]
    assert question.full_answer.startswith("Memory-bound, about one FLOP per byte")
    assert question.longest_answer == question.full_answer


def test_full_answer_is_optional(tmp_path: Path) -> None:
    bank, _ = _load(tmp_path, QUESTIONS)
    question = bank.question("demo/bound")
    assert question.full_answer == "" and question.longest_answer == question.answer
    assert all(p.core for p in question.points)


def test_sample_kind_implies_its_verdict(tmp_path: Path) -> None:
    bank, errors = _load(tmp_path, WITH_MARKED_UP)
    assert errors == []
    samples = bank.question("demo/bound").samples
    assert [(s.kind, s.verdict) for s in samples] == [
        (None, "weak"),
        ("contrast", "strong"),
        ("fluent-wrong", "weak"),
    ]


def test_a_kind_contradicting_its_verdict_is_an_error(tmp_path: Path) -> None:
    text = WITH_MARKED_UP.replace("kind: contrast\n", "kind: contrast\n        verdict: weak\n")
    _, errors = _load(tmp_path, text)
    assert any("a contrast sample is strong, not weak" in str(e) for e in errors), errors


def test_a_sample_needs_a_verdict_or_a_kind(tmp_path: Path) -> None:
    text = WITH_MARKED_UP.replace("      - kind: contrast\n        answer:", "      - answer:")
    _, errors = _load(tmp_path, text)
    assert any("a sample needs a verdict or a kind" in str(e) for e in errors), errors


def test_export_keeps_core_and_marked_up_apart(tmp_path: Path) -> None:
    bank, _ = _load(tmp_path, WITH_MARKED_UP)
    data = question_dict(bank.question("demo/bound"))
    assert [p["id"] for p in data["points"]] == ["memory-bound", "reads-weights"]
    assert [p["id"] for p in data["marked_up"]] == ["ridge"]
    assert data["full_answer"].startswith("Memory-bound, about one FLOP")
    assert data["samples"][1] == {
        "verdict": "strong",
        "answer": "Prefill is compute-bound; decode is memory-bound.",
        "kind": "contrast",
    }
