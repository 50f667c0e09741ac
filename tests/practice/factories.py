"""A small bank for practice tests, and markings built by hand.

Two topics. ``study`` has two sections: ``first`` holds ``cache`` (with two follow-ups,
``cache-bandwidth`` probing memory bandwidth and ``cache-batching`` probing batching) and
``norm``; ``second`` holds ``clip``. ``later`` holds ``warmup``. Questions are written so
the real marker marks their model answers strong.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from viva.bank import Bank, Question, load_bank
from viva.marking.result import Marking, MisconceptionMark, PointMark, verdict_for

TOPIC = """\
id: {id}
title: {title}
order: {order}
summary: A topic for practice tests.
"""

SECTION_MD = """\
---
id: {id}
title: {title}
---
# {title}

{body}
"""


def _question(
    qid: str, prompt: str, answer: str, points: list[tuple[str, str, int]], indent: str = "  "
) -> str:
    lines = [
        f"{indent}- id: {qid}",
        f"{indent}  prompt: {prompt}",
        f"{indent}  answer: {answer}",
        f"{indent}  points:",
    ]
    for pid, text, weight in points:
        lines += [
            f"{indent}    - id: {pid}",
            f"{indent}      text: {text}",
            f"{indent}      weight: {weight}",
        ]
    lines += [
        f"{indent}  misconceptions:",
        f"{indent}    - id: wrong-{qid}",
        f"{indent}      text: The {qid} never matters at all.",
        f"{indent}      correction: It matters for the reasons in the model answer.",
    ]
    return "\n".join(lines)


CACHE = _question(
    "cache",
    "Why does the KV cache make decoding faster?",
    "It stores the keys and values of earlier tokens so each step only computes the new token's.",
    [
        ("stores-keys-values", "The cache stores the keys and values of earlier tokens.", 2),
        ("new-token-only", "Each decoding step only computes keys and values for the new token.", 1),
    ],
)
CACHE_FOLLOW_UPS = "\n".join(
    [
        "    follow_ups:",
        _question(
            "cache-batching",
            "What does batching many sequences do to decoding throughput?",
            "Batching reuses each weight read across many sequences, raising throughput.",
            [
                ("batch-reuse", "Batching reuses each weight read across many sequences.", 1),
                ("batch-throughput", "Throughput rises with the batch size.", 1),
            ],
            indent="      ",
        ),
        _question(
            "cache-bandwidth",
            "How much memory bandwidth does reading the cache of earlier tokens use?",
            "Every step reads the stored keys and values of all earlier tokens from memory.",
            [
                ("reads-all-keys", "Every step reads the stored keys and values of earlier tokens.", 1),
                ("bandwidth-grows", "The memory bandwidth used grows with the context length.", 1),
            ],
            indent="      ",
        ),
    ]
)
NORM = _question(
    "norm",
    "What does layer normalisation do?",
    "It rescales each token's activations to zero mean and unit variance, then applies a learned gain.",
    [
        ("zero-mean-unit-variance", "It rescales activations to zero mean and unit variance.", 1),
        ("learned-gain", "A learned gain and bias are applied after normalising.", 1),
    ],
)
CLIP = _question(
    "clip",
    "Why clip gradients?",
    "Clipping caps the gradient norm so one bad batch cannot blow up the weights.",
    [
        ("caps-norm", "Clipping caps the global gradient norm.", 1),
        ("prevents-spikes", "It stops one bad batch from blowing up the weights.", 1),
    ],
)
WARMUP = _question(
    "warmup",
    "Why warm up the learning rate?",
    "Warmup ramps the learning rate up slowly while the optimiser statistics are still noisy.",
    [
        ("ramps-up", "Warmup ramps the learning rate up slowly from near zero.", 1),
        ("noisy-statistics", "Early optimiser statistics are noisy, so big steps are unsafe.", 1),
    ],
)


def write_practice_bank(root: Path) -> Path:
    """Write the two-topic bank under ``root`` and return ``root``."""
    files = {
        "study/topic.yaml": TOPIC.format(id="study", title="Study", order=1),
        "study/01-first.md": SECTION_MD.format(
            id="first",
            title="First things",
            body="Layer normalisation rescales activations.\n\n"
            "Batching many sequences reuses each weight read, so throughput rises with batch size.",
        ),
        "study/01-first.yaml": "questions:\n" + CACHE + "\n" + CACHE_FOLLOW_UPS + "\n" + NORM + "\n",
        "study/02-second.md": SECTION_MD.format(id="second", title="Second things", body="Clipping."),
        "study/02-second.yaml": "questions:\n" + CLIP + "\n",
        "later/topic.yaml": TOPIC.format(id="later", title="Later", order=2),
        "later/01-schedules.md": SECTION_MD.format(id="schedules", title="Schedules", body="Warmup."),
        "later/01-schedules.yaml": "questions:\n" + WARMUP + "\n",
    }
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


def practice_bank(root: Path) -> Bank:
    bank, errors = load_bank(write_practice_bank(root))
    assert not errors, errors
    return bank


def marking_for(
    question: Question,
    covered: Iterable[str] = (),
    *,
    partial: Iterable[str] = (),
    misconception: bool = False,
    answer: str = "an answer",
) -> Marking:
    """A hand-made marking: the named points covered (or partial), the rest missed."""
    covered, partial = set(covered), set(partial)
    marks = []
    for point in question.points:
        status = "covered" if point.id in covered else "partial" if point.id in partial else "missed"
        credit = {"covered": 1.0, "partial": 0.5, "missed": 0.0}[status]
        marks.append(
            PointMark(point_id=point.id, text=point.text, weight=point.weight, status=status, credit=credit)
        )
    total = sum(p.weight for p in question.points)
    score = sum(m.weight * m.credit for m in marks) / total
    misconceptions = []
    if misconception:
        m = question.misconceptions[0]
        misconceptions.append(MisconceptionMark(misconception_id=m.id, text=m.text, correction=m.correction))
    return Marking(
        question_id=question.full_id,
        answer=answer,
        score=score,
        verdict=verdict_for(score),
        points=marks,
        misconceptions=misconceptions,
        backend="test",
        backend_version="1",
    )


def strong(question: Question) -> Marking:
    return marking_for(question, [p.id for p in question.points])


def weak(question: Question) -> Marking:
    return marking_for(question, [])
