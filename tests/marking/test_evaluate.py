import json
from pathlib import Path

import pytest

from viva.errors import InvalidInput
from viva.marking.evaluate import auc, evaluate, pearson, read_jsonl, rmse, spearman

ROWS = [
    {
        "question": "What is a pointer?",
        "reference": "A variable that holds the memory address of another variable.",
        "answer": answer,
        "score": score,
    }
    for answer, score in [
        ("A variable holding the memory address of another variable.", 5.0),
        ("It stores an address in memory.", 4.0),
        ("It points at things.", 2.5),
        ("A loop that repeats.", 1.0),
    ]
]


def test_metrics_match_hand_computed_values() -> None:
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [1, 4, 9]) == pytest.approx(1.0)
    assert rmse([1, 3], [1, 1]) == pytest.approx(2**0.5)
    assert auc([0.9, 0.8, 0.1], [1, 0, 0]) == pytest.approx(1.0)
    assert auc([0.5, 0.5], [1, 0]) == pytest.approx(0.5)


def test_evaluate_reports_every_field() -> None:
    report = evaluate(ROWS).as_dict()
    assert set(report) == {"n", "pearson", "spearman", "rmse", "auc", "ms_per_answer", "backend"}
    assert report["n"] == 4 and report["auc"] is None
    assert report["pearson"] > 0.5


def test_labels_give_auc() -> None:
    rows = [dict(r, label=int(r["score"] >= 3)) for r in ROWS]
    for r in rows:
        del r["score"]
    assert evaluate(rows).auc == pytest.approx(1.0)


def test_bad_lines_are_user_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(ROWS[0]) + "\n{oops\n")
    with pytest.raises(InvalidInput, match=r"bad\.jsonl:2"):
        read_jsonl(path)
