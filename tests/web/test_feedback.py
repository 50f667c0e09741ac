"""Evidence highlighting and search: pure functions, no app needed."""

from __future__ import annotations

from viva.bank import load_bank
from viva.marking.result import Span
from viva.web.feedback import Evidence, highlight
from viva.web.search import SearchIndex


def test_highlight_cuts_the_answer_at_every_span_and_keeps_all_text() -> None:
    answer = "memory bound because of weights"
    pieces = highlight(
        answer,
        [
            Evidence("1", "covered", Span(start=0, end=12)),
            Evidence("M1", "wrong", Span(start=7, end=12)),
            Evidence("2", "partial", Span(start=24, end=99)),  # past the end: clipped
        ],
    )
    assert "".join(p.text for p in pieces) == answer
    assert [(p.text, p.tone, p.labels) for p in pieces if p.tone] == [
        ("memory ", "covered", ("1",)),
        ("bound", "wrong", ("1", "M1")),  # a misconception outranks a covered point
        ("weights", "partial", ("2",)),
    ]


def test_highlight_ignores_empty_and_inverted_spans() -> None:
    pieces = highlight("abc", [Evidence("1", "covered", Span(start=2, end=1))])
    assert [(p.text, p.tone) for p in pieces] == [("abc", None)]


def test_search_requires_every_word_and_matches_the_last_as_a_prefix(bank_dir: object) -> None:
    bank, _ = load_bank(str(bank_dir))
    index = SearchIndex.from_bank(bank)
    assert index.search("decode memory")[0].document.id == "demo/bound"
    assert index.search("decode zebra") == []
    assert any(h.document.id == "demo/batching" for h in index.search("batch"))
    assert index.search("   ") == [] and index.search("!!!") == []
    lessons = index.search("bandwidth", kind="lesson")
    assert lessons and all(h.document.kind == "lesson" for h in lessons)
