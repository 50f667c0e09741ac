from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.factories import write_bank
from viva.cli import app

runner = CliRunner()


def test_check_passes_on_a_valid_bank(bank_dir: Path) -> None:
    result = runner.invoke(app, ["bank", "check", str(bank_dir)])
    assert result.exit_code == 0, result.output


def test_check_prints_path_line_message_and_exits_1(tmp_path: Path) -> None:
    root = write_bank(tmp_path / "c", {"02-more.yaml": "questions:\n  - id: x\n    prompt: [oops\n"})
    result = runner.invoke(app, ["bank", "check", str(root)])
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith(str(root / "demo" / "02-more.yaml") + ":")
    assert "malformed YAML" in first


def test_export_json(bank_dir: Path) -> None:
    result = runner.invoke(app, ["--content", str(bank_dir), "bank", "export", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["topics"][0]["sections"][0]["questions"][0]["follow_ups"][0]["id"] == "batching"


def test_topics_and_show(bank_dir: Path) -> None:
    result = runner.invoke(app, ["--content", str(bank_dir), "topics"])
    assert result.exit_code == 0 and "demo" in result.stdout
    result = runner.invoke(app, ["--content", str(bank_dir), "show", "demo/bound"])
    assert result.exit_code == 0
    assert "Is decode compute-bound or memory-bound?" in result.stdout
    assert "Then they push further" in result.stdout


def test_show_unknown_id_is_one_line_and_exit_1(bank_dir: Path) -> None:
    result = runner.invoke(app, ["--content", str(bank_dir), "show", "demo/nope"])
    assert result.exit_code == 1
    assert "no question 'demo/nope'" in result.stderr
    assert "Traceback" not in result.output
