"""The terminal's two layouts of a marking (``viva mark``; ``viva answer`` and ``practice``)
show every point, missed ones too, and the answer's own words as evidence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.factories import write_bank
from viva.bank import Bank, load_bank
from viva.cli.common import out
from viva.cli.render import show_feedback, show_mark
from viva.marking.result import Marking, MisconceptionMark, PointMark, Span

ANSWER = "Decode is memory-bound, and compute-bound as well."


@pytest.fixture
def bank(tmp_path: Path) -> Bank:
    loaded, errors = load_bank(write_bank(tmp_path / "content"))
    assert not errors
    return loaded


def _marking() -> Marking:
    return Marking(
        question_id="demo/bound",
        answer=ANSWER,
        score=0.4,
        verdict="partial",
        points=[
            PointMark(
                point_id="memory-bound",
                text="Decode is limited by memory bandwidth.",
                status="covered",
                credit=1.0,
                evidence=[Span(start=10, end=22)],
            ),
            PointMark(
                point_id="reads-weights",
                text="Every step reads all the weights.",
                status="missed",
                credit=0.0,
            ),
        ],
        misconceptions=[
            MisconceptionMark(
                misconception_id="compute",
                text="Decode is compute-bound.",
                correction="It does about one multiply-add per weight byte read.",
                evidence=[Span(start=28, end=41)],
            )
        ],
        backend="lexical",
        backend_version="1",
        fallback_reason="the LLM timed out",
    )


def _shown(show: Callable[..., None], *args: object) -> list[str]:
    with out.capture() as captured:
        show(*args)
    return captured.get().splitlines()


def test_mark_layout_shows_each_point_its_evidence_and_the_correction() -> None:
    lines = _shown(show_mark, _marking())
    assert lines[0] == ANSWER
    assert "✓ Decode is limited by memory bandwidth.  “memory-bound”" in lines
    assert "✗ Every step reads all the weights." in lines  # a missed point is listed, without quotes
    assert "✗ misconception: Decode is compute-bound." in lines
    assert "  → It does about one multiply-add per weight byte read." in lines
    assert "fallback: the LLM timed out" in lines
    assert lines[-1] == "score 0.40 — partial  (lexical 1)"


def test_feedback_layout_shows_what_was_said_and_where_it_is_taught(bank: Bank) -> None:
    lines = _shown(show_feedback, bank, bank.question("demo/bound"), _marking())
    assert lines[:2] == ["", "PARTIAL  score 0.40"]
    assert "  ✓ Decode is limited by memory bandwidth.  “memory-bound”" in lines
    assert "  ✗ Every step reads all the weights." in lines
    assert "  ✗ Misconception: Decode is compute-bound." in lines
    assert "    you said “compute-bound”" in lines  # the evidence of the claim, in the answer's words
    assert "    → It does about one multiply-add per weight byte read." in lines
    assert "  fallback: the LLM timed out" in lines
    assert "Model answer" in lines and "Taught in: The basics (demo/basics)" in lines
