"""Agreement with human marks on a labelled short-answer set (pure Python, no SciPy).

A labelled line has ``question``, ``reference``, ``answer`` and either ``score`` on 0–5
or ``label`` 0/1. Each answer is marked in reference-only mode, one at a time, exactly
as the app meets a new question: nothing is learnt from other students' answers.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from viva.errors import InvalidInput
from viva.marking.backends import get_backend
from viva.marking.reference import question_from_reference


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    return pearson(ranks(xs), ranks(ys))


def rmse(predicted: Sequence[float], gold: Sequence[float]) -> float | None:
    if not predicted:
        return None
    return math.sqrt(sum((p - g) ** 2 for p, g in zip(predicted, gold, strict=True)) / len(predicted))


def auc(scores: Sequence[float], labels: Sequence[int]) -> float | None:
    """Probability a positive outranks a negative (ties count half)."""
    positives = [s for s, y in zip(scores, labels, strict=True) if y == 1]
    negatives = [s for s, y in zip(scores, labels, strict=True) if y == 0]
    if not positives or not negatives:
        return None
    r = ranks(list(scores))
    pos_rank_sum = sum(r[i] for i, y in enumerate(labels) if y == 1)
    n_pos, n_neg = len(positives), len(negatives)
    return (pos_rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


@dataclass(frozen=True)
class Report:
    n: int
    pearson: float | None
    spearman: float | None
    rmse: float | None
    auc: float | None
    ms_per_answer: float
    backend: str

    def as_dict(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{path}:{number}: not JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise InvalidInput(f"{path}:{number}: expected a JSON object")
            rows.append(row)
    return rows


def mark_rows(rows: Iterable[dict[str, Any]], backend: str = "default") -> list[float]:
    """Scores in [0, 1] for each labelled row, marked in reference-only mode."""
    engine = get_backend(backend)
    scores: list[float] = []
    for i, row in enumerate(rows):
        try:
            question = question_from_reference(
                str(row["question"]), str(row["reference"]), str(row.get("question_id", "")) or None
            )
            answer = str(row["answer"])
        except KeyError as exc:
            raise InvalidInput(
                f"line {i + 1}: missing field {exc.args[0]!r}",
                hint="lines need question, reference, answer and score or label",
            ) from None
        scores.append(engine.mark(question, answer).score)
    return scores


def evaluate(rows: list[dict[str, Any]], backend: str = "default") -> Report:
    """Mark every row and compare with the gold ``score`` (0–5) or ``label`` (0/1)."""
    started = time.perf_counter()
    scores = mark_rows(rows, backend)
    elapsed = time.perf_counter() - started
    name = get_backend(backend).name
    ms = 1000 * elapsed / len(rows) if rows else 0.0
    if rows and all("score" in r for r in rows):
        gold = [float(r["score"]) for r in rows]
        return Report(
            len(rows),
            pearson(scores, gold),
            spearman(scores, gold),
            rmse([5 * s for s in scores], gold),
            None,
            ms,
            name,
        )
    if rows and all("label" in r for r in rows):
        labels = [int(r["label"]) for r in rows]
        as_float = [float(y) for y in labels]
        return Report(
            len(rows),
            pearson(scores, as_float),
            spearman(scores, as_float),
            None,
            auc(scores, labels),
            ms,
            name,
        )
    raise InvalidInput("every line needs a gold `score` (0-5) or `label` (0/1)")
