"""Lesson headings get anchors, and "Read the section that teaches this" points at the best one."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.factories import write_bank
from viva.bank import load_bank
from viva.web.lessons import LessonRenderer, heading_slug

LESSON = """\
---
id: basics
title: The basics
related:
  - demo/more
---
# Basics

An overview.

## Why decode is memory-bound

Each step reads all the weights from memory; bandwidth, not arithmetic, is the limit.

## Batching

One weight read serves many sequences, so arithmetic intensity rises with batch size.

## Batching

A second heading with the same words.
"""


def test_headings_render_with_unique_slug_ids() -> None:
    html = str(LessonRenderer()("# Ring *all-reduce*\n\ntext\n\n## Ring all-reduce\n\n## Café & tea!"))
    assert '<h1 id="ring-all-reduce">' in html
    assert '<h2 id="ring-all-reduce-2">' in html
    assert '<h2 id="caf-tea">' in html
    assert heading_slug("!!!") == "section"


def test_teaching_link_points_at_the_best_matching_heading(tmp_path: Path) -> None:
    bank, errors = load_bank(str(write_bank(tmp_path, {"01-basics.md": LESSON})))
    assert not errors
    lessons = LessonRenderer(bank)
    question = bank.question("demo/bound")
    assert lessons.teaching_href(question) == "/topics/demo/basics#why-decode-is-memory-bound"
    point = "Arithmetic intensity rises with batch size."
    assert lessons.teaching_href(question, point) == "/topics/demo/basics#batching"
    assert lessons.teaching_href(question, "zebra") == "/topics/demo/basics"


def test_question_card_links_to_a_heading_anchor_that_exists(client: TestClient) -> None:
    topic = client.get("/topics/demo").text
    assert 'href="/topics/demo/basics#basics">Read the section that teaches this' in topic
    assert 'id="basics"' in client.get("/topics/demo/basics").text
