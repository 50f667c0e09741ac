from __future__ import annotations

import json
from pathlib import Path

from viva.bank import load_bank
from viva.bank.export import bank_dict, question_dict


def test_export_shape_nests_follow_ups(bank_dir: Path) -> None:
    bank, _ = load_bank(bank_dir)
    doc = json.loads(json.dumps(bank_dict(bank)))
    [topic] = doc["topics"]
    assert {"id", "title", "summary", "sections"} <= topic.keys()
    section = topic["sections"][0]
    assert {"id", "title", "lesson", "questions"} <= section.keys()
    question = section["questions"][0]
    assert {"id", "prompt", "answer", "points", "misconceptions", "follow_ups"} <= question.keys()
    assert question["points"][0] == {
        "id": "memory-bound",
        "text": "Decode is limited by memory bandwidth.",
        "weight": 1.0,
        "accept": ["memory-bound"],
    }
    assert {"id", "text", "correction"} <= question["misconceptions"][0].keys()
    assert [f["id"] for f in question["follow_ups"]] == ["batching"]


def test_question_without_answer_hides_marking_material(bank_dir: Path) -> None:
    bank, _ = load_bank(bank_dir)
    data = question_dict(bank.question("demo/bound"), with_answer=False)
    assert "answer" not in data and "points" not in data
    assert data["follow_ups"][0]["prompt"] == "What does batching do about it?"


def test_export_keeps_a_points_story_features(tmp_path: Path) -> None:
    from tests.factories import QUESTIONS, write_bank

    text = QUESTIONS.replace(
        "        text: Every step reads all the weights.\n",
        "        text: Every step reads all the weights.\n        shows: [reflection]\n",
    )
    bank, _ = load_bank(write_bank(tmp_path / "c", {"01-basics.yaml": text}))
    points = question_dict(bank.question("demo/bound"))["points"]
    assert points[1]["shows"] == ["reflection"] and "shows" not in points[0]
