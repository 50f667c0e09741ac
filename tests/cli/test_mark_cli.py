"""`viva mark` and `viva eval asag` through the real CLI, on a small bank in a temp folder."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from viva.cli import app

runner = CliRunner()
RIGHT = "Decode is memory-bound: each step reads all the weights for very little arithmetic."
WRONG = "Decode is compute-bound."


def _mark(bank_dir: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--content", str(bank_dir), "mark", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_mark_json_has_the_marking_contract(bank_dir: Path) -> None:
    code, out, _ = _mark(bank_dir, "demo/bound", "--answer", RIGHT, "--format", "json")
    assert code == 0
    marking = json.loads(out)
    assert marking["question_id"] == "demo/bound"
    assert marking["verdict"] == "strong" and 0.7 <= marking["score"] <= 1
    first = marking["points"][0]
    assert first["point_id"] == "memory-bound" and first["status"] == "covered"
    span = first["evidence"][0]
    assert "memory-bound" in RIGHT[span["start"] : span["end"]].lower()
    assert marking["backend"] == "default"


def test_mark_human_output_shows_points_and_misconception(bank_dir: Path) -> None:
    code, out, _ = _mark(bank_dir, "demo/bound", "--answer", WRONG)
    assert code == 0
    assert "✗" in out and "weak" in out.lower()
    assert "It does about one multiply-add per weight byte read." in out  # the correction


def test_mark_reads_a_file_and_standard_input(bank_dir: Path, tmp_path: Path) -> None:
    answer_file = tmp_path / "answer.txt"
    answer_file.write_text(RIGHT)
    from_file = json.loads(
        _mark(bank_dir, "demo/bound", "--answer-file", str(answer_file), "--format", "json")[1]
    )
    from_stdin = json.loads(_mark(bank_dir, "demo/bound", "-", "--format", "json", stdin=RIGHT)[1])
    assert from_file["score"] == from_stdin["score"]


def test_mark_unknown_question_is_one_line_and_exit_1(bank_dir: Path) -> None:
    code, _, err = _mark(bank_dir, "demo/nope", "--answer", RIGHT)
    assert code == 1 and "no question 'demo/nope'" in err


def test_batch_keeps_order_and_supports_reference_only(bank_dir: Path, tmp_path: Path) -> None:
    rows = [
        {"question_id": "demo/bound", "answer": WRONG},
        {"question_id": "demo/bound", "answer": RIGHT},
        {
            "question": "What does a stack do?",
            "reference": "A stack stores items last in, first out: push adds on top and pop removes the top.",
            "answer": "It is last in first out; push puts an item on top and pop takes the top one off.",
        },
    ]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    code, out, _ = _mark(bank_dir, "--batch", str(batch), "--format", "json")
    assert code == 0
    markings = [json.loads(line) for line in out.splitlines()]
    assert [m["verdict"] for m in markings] == ["weak", "strong", "strong"]


def test_eval_asag_prints_the_metrics(tmp_path: Path) -> None:
    reference = "A stack stores items last in, first out: push adds on top and pop removes the top."
    answers = [
        ("Last in first out; push adds on top and pop removes the top item.", 5.0),
        ("It stores items and you can push them.", 2.5),
        ("A queue that is first in first out.", 0.5),
        ("Push adds to the top, pop removes from the top, so the last in is the first out.", 4.5),
    ]
    data = tmp_path / "set.jsonl"
    data.write_text(
        "\n".join(
            json.dumps({"question": "What is a stack?", "reference": reference, "answer": a, "score": s})
            for a, s in answers
        )
    )
    result = runner.invoke(app, ["eval", "asag", str(data), "--format", "json"])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)
    assert {"n", "pearson", "spearman", "rmse", "auc", "ms_per_answer", "backend"} <= metrics.keys()
    assert metrics["n"] == 4 and metrics["auc"] is None
    assert metrics["pearson"] > 0.5  # the marker orders these four the way the gold does


def test_a_fallback_marking_says_so_in_both_formats(bank_dir: Path, tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    env = {
        "VIVA_MARKING_BACKEND": "llm",
        "VIVA_LLM_BASE_URL": f"http://127.0.0.1:{closed}/v1",
        "VIVA_DATA_DIR": str(tmp_path),
    }
    args = ["--content", str(bank_dir), "mark", "demo/bound", "--answer", RIGHT]
    human = runner.invoke(app, args, env=env)
    assert human.exit_code == 0 and "fallback: the LLM request failed (ConnectError" in human.stdout
    as_json = json.loads(runner.invoke(app, [*args, "--format", "json"], env=env).stdout)
    assert as_json["backend"] == "lexical" and "ConnectError" in as_json["fallback_reason"]


def test_the_llm_backend_without_a_server_fails_in_one_line_with_the_fix(bank_dir: Path) -> None:
    env = {"VIVA_MARKING_BACKEND": "llm", "VIVA_LLM_BASE_URL": ""}
    args = ["--content", str(bank_dir), "mark", "demo/bound", "--answer", RIGHT]
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 1
    assert "VIVA_LLM_BASE_URL" in result.stderr and "Traceback" not in result.stderr


def test_an_answer_to_another_question_in_the_bank_is_weak_and_named() -> None:
    content = Path(__file__).resolve().parents[2] / "content"
    # the ZeRO question answered with how a ring all-reduce works: partial on the words alone
    answer = (
        "A ring all-reduce sends each GPU's buffer around the ring in two passes, a reduce-scatter then "
        "an all-gather, so each GPU moves about twice the buffer size whatever the number of GPUs."
    )
    code, out, _ = _mark(content, "distributed-training/zero-stages", "--answer", answer, "--format", "json")
    assert code == 0
    marking = json.loads(out)
    assert marking["verdict"] == "weak" and "another-question" in marking["flags"]
    assert marking["answers_instead"] == "distributed-training/ring-all-reduce-cost"
    code, out, _ = _mark(content, "distributed-training/zero-stages", "--answer", answer)
    assert "distributed-training/ring-all-reduce-cost" in out  # the reason names the question it answers
