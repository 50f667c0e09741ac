"""Authored text (model answers, points, corrections, lessons) is Markdown: the terminal renders
it, and shows the marked-up list of the question answered, not its section's checklist."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tests.factories import LESSON, QUESTIONS, write_bank
from viva.cli import app

runner = CliRunner()

QUESTIONS_MD = (
    QUESTIONS.replace(
        "Memory-bound: each step reads all the weights for little arithmetic.",
        "Memory-bound: each step reads **all** the weights for little arithmetic.",
    )
    .replace(
        "It does about one multiply-add per weight byte read.",
        "It does about **one** multiply-add per weight byte read.",
    )
    .replace(
        "      - id: reads-weights\n        text: Every step reads all the weights.\n",
        "      - id: reads-weights\n        text: Every step reads *all* the weights.\n"
        "    full_answer: |\n      Memory-bound, and **batching** is the usual fix.\n"
        "    marked_up:\n      - id: batching-fix\n        text: Names **batching** as the fix.\n",
    )
)
CHECKLIST = (
    "\n## What interviewers listen for\n\n- Weights read **and** bandwidth for every step of decode.\n"
)


def test_answer_renders_markdown_and_the_questions_own_marked_up_list(tmp_path: Path) -> None:
    bank = write_bank(
        tmp_path / "content", {"01-basics.yaml": QUESTIONS_MD, "01-basics.md": LESSON + CHECKLIST}
    )
    result = runner.invoke(
        app,
        [
            "--content",
            str(bank),
            "--database",
            f"sqlite:///{tmp_path / 'v.sqlite3'}",
            "answer",
            "demo/bound",
            "--answer",
            "Decode is compute-bound.",
        ],
        env={"NO_COLOR": "1", "COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    shown = result.stdout
    assert "**" not in shown and "*all*" not in shown, shown
    assert "reads all the weights" in shown and "about one multiply-add" in shown
    assert "What gets marked up" in shown and "Names batching as the fix." in shown
    assert "Memory-bound, and batching is the usual fix." in shown
    assert "Weights read and bandwidth" not in shown  # the section's checklist is not this question's


def test_mark_renders_points_and_corrections(bank_dir: Path, tmp_path: Path) -> None:
    bank = write_bank(tmp_path / "content", {"01-basics.yaml": QUESTIONS_MD})
    result = runner.invoke(
        app,
        ["--content", str(bank), "mark", "demo/bound", "--answer", "Decode is compute-bound [x]."],
        env={"NO_COLOR": "1", "COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "**" not in result.stdout and "*all*" not in result.stdout, result.stdout
    assert "about one multiply-add" in result.stdout
