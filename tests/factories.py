"""Test data builders: a tiny valid bank written to a folder, which tests break on purpose."""

from __future__ import annotations

from pathlib import Path

TOPIC = """\
id: demo
title: Demo topic
order: 5
summary: A topic for tests.
"""

LESSON = """\
---
id: basics
title: The basics
related:
  - demo/more
---
# Basics

Memory bandwidth limits small-batch decode.
"""

LESSON_2 = """\
---
id: more
title: More
---
Second lesson.
"""

QUESTIONS = """\
questions:
  - id: bound
    prompt: Is decode compute-bound or memory-bound?
    difficulty: easy
    tags: [inference]
    answer: |
      Memory-bound: each step reads all the weights for little arithmetic.
    points:
      - id: memory-bound
        text: Decode is limited by memory bandwidth.
        accept: [memory-bound]
      - id: reads-weights
        text: Every step reads all the weights.
    misconceptions:
      - id: compute
        text: Decode is compute-bound.
        correction: It does about one multiply-add per weight byte read.
    follow_ups:
      - id: batching
        prompt: What does batching do about it?
        answer: It reuses each weight read for many sequences.
        points:
          - id: reuse
            text: One weight read serves many sequences.
          - id: intensity
            text: Arithmetic intensity rises with batch size.
    samples:
      - verdict: weak
        answer: It is compute-bound.
"""


def write_bank(root: Path, files: dict[str, str] | None = None) -> Path:
    """Write the demo topic under ``root/demo``; ``files`` overrides or adds files."""
    topic = root / "demo"
    topic.mkdir(parents=True, exist_ok=True)
    contents = {
        "topic.yaml": TOPIC,
        "01-basics.md": LESSON,
        "01-basics.yaml": QUESTIONS,
        "02-more.md": LESSON_2,
    }
    contents.update(files or {})
    for name, text in contents.items():
        (topic / name).write_text(text, encoding="utf-8")
    return root
