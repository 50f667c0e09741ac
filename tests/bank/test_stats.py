"""`viva bank stats`: counts a reviewer checks an issue's "at least N questions" against."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.bank.test_load import PROBED
from tests.factories import write_bank
from viva.bank import load_bank
from viva.bank.stats import bank_counts, lesson_words
from viva.cli import app

DIAGRAM_LESSON = """\
---
id: more
title: More
---
Two words.

```text
a b c d e f g h
```

Three more words, and the ~~~ inside a sentence is not a fence.
"""


def _bank(tmp_path: Path) -> Path:
    return write_bank(tmp_path / "content", {"01-basics.yaml": PROBED, "02-more.md": DIAGRAM_LESSON})


def test_follow_ups_and_probes_are_counted_apart_from_top_level_questions(tmp_path: Path) -> None:
    bank, errors = load_bank(_bank(tmp_path))
    assert not errors
    (row,) = bank_counts(bank)
    assert (row.topic_id, row.sections, row.questions, row.follow_ups, row.probes) == ("demo", 2, 1, 1, 2)
    # "# Basics" + "Memory bandwidth limits small-batch decode." = 6; the fenced diagram is left out
    assert row.lesson_words == (6, 14)


def test_lesson_words_skip_every_fenced_block() -> None:
    assert lesson_words("one\n```python\nx = 1\n```\ntwo\n~~~\nthree four\n~~~\nfive") == 3


def test_the_command_prints_rows_and_json(tmp_path: Path) -> None:
    root = _bank(tmp_path)
    runner = CliRunner()
    text = runner.invoke(app, ["bank", "stats", str(root)], env={"COLUMNS": "120"})
    assert text.exit_code == 0 and "demo" in text.stdout and "follow-ups" in text.stdout
    as_json = runner.invoke(app, ["bank", "stats", str(root), "--format", "json"])
    assert as_json.exit_code == 0
    assert json.loads(as_json.stdout) == [
        {
            "topic_id": "demo",
            "title": "Demo topic",
            "sections": 2,
            "questions": 1,
            "follow_ups": 1,
            "probes": 2,
            "lesson_words": [6, 14],
        }
    ]
