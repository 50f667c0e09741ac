"""Marking time per answer, and wall time of a 1,200-answer evaluation.

    .venv/bin/python benchmarks/marking_speed.py [--backend default|semantic]

Marks every model and sample answer in content/ (authored mode) and the Mohler dev
answers (reference mode), one at a time, after one warm-up pass over each question so
that per-question preparation (cached once per question in the app) is not counted.
Prints the median and 95th percentile in milliseconds, then times marking 1,200
answers end to end as `viva eval asag` does (cold caches included).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from viva.bank import load_bank
from viva.marking import get_backend, question_from_reference
from viva.marking.evaluate import evaluate, read_jsonl

MOHLER = Path("/work/shared/data/asag/mohler-dev.jsonl")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--content", type=Path, default=Path("content"))
    args = parser.parse_args()
    backend = get_backend(args.backend)
    bank, _ = load_bank(args.content)
    jobs = [(q, a) for q in bank.questions() for a in (q.answer, *(s.answer for s in q.samples))]
    rows = read_jsonl(MOHLER)
    jobs += [
        (question_from_reference(r["question"], r["reference"], r["question_id"]), r["answer"]) for r in rows
    ]
    for question, answer in jobs:  # warm-up: per-question preparation is cached in the app too
        backend.mark(question, answer + " warm")
    times = []
    for question, answer in jobs:
        started = time.perf_counter()
        backend.mark(question, answer)
        times.append(1000 * (time.perf_counter() - started))
    times.sort()
    eval_rows = (rows * 2)[:1200]
    started = time.perf_counter()
    evaluate(eval_rows, args.backend)
    wall = time.perf_counter() - started
    print(
        json.dumps(
            {
                "backend": backend.name,
                "answers": len(times),
                "median_ms": round(statistics.median(times), 3),
                "p95_ms": round(times[int(0.95 * len(times))], 3),
                "eval_1200_wall_s": round(wall, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
