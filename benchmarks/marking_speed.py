"""Marking time per answer, and wall time of a 1,200-answer evaluation.

    .venv/bin/python benchmarks/marking_speed.py [--backend default|semantic|llm] [--limit N]
        [--base-url URL --model NAME]   # for --backend llm; see benchmarks/bench_markers.py

Marks every model and sample answer in content/ (authored mode) and the Mohler dev
answers (reference mode), one at a time, after one warm-up pass over each question so
that per-question preparation (cached once per question in the app) is not counted.
Prints the median and 95th percentile in milliseconds, for those answers and, separately,
for the held-out answers in benchmarks/data/ (written blind to the rubrics, so the lexical
rules find fewer points in them and more of them need the model), then times marking 1,200
answers end to end as `viva eval asag` does (cold caches included); with ``--limit`` (an
LLM takes seconds per answer) only the first N answers, with no warm-up and no 1,200 run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench_markers import add_marker_options, fallbacks, marker_from  # a sibling: run as files
from viva.bank import load_bank
from viva.bank.model import Question
from viva.marking import InBank, Marker, Marking, question_from_reference
from viva.marking.evaluate import evaluate, read_jsonl

MOHLER = Path("/work/shared/data/asag/mohler-dev.jsonl")
HELD_OUT = tuple(
    Path("benchmarks/data") / f"{name}.jsonl"
    for name in ("unseen-answers", "gpu-unseen-answers", "unseen-part3-answers")
)


def timed(backend: Marker, jobs: list[tuple[Question, str]]) -> tuple[list[float], list[Marking]]:
    """Milliseconds to mark each answer, sorted, and the markings."""
    times = []
    markings: list[Marking] = []
    for question, answer in jobs:
        started = time.perf_counter()
        markings.append(backend.mark(question, answer))
        times.append(1000 * (time.perf_counter() - started))
    return sorted(times), markings


def summary(times: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[int(0.95 * len(times))], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_marker_options(parser)
    parser.add_argument("--limit", type=int, help="time only the first N answers, without warm-up")
    parser.add_argument("--content", type=Path, default=Path("content"))
    args = parser.parse_args()
    bank, _ = load_bank(args.content)
    backend = InBank(marker_from(args), bank)  # as the app marks, with the bank's other questions
    jobs = [(q, a) for q in bank.questions() for a in (q.answer, *(s.answer for s in q.samples))]
    rows = read_jsonl(MOHLER)
    jobs += [
        (question_from_reference(r["question"], r["reference"], r["question_id"]), r["answer"]) for r in rows
    ]
    if args.limit is None:
        for question, answer in jobs:  # warm-up: per-question preparation is cached in the app too
            backend.mark(question, answer + " warm")
    else:
        jobs = jobs[: args.limit]
    times, markings = timed(backend, jobs)
    report: dict[str, object] = {
        "backend": backend.name,
        "backend_version": backend.version,
        "answers": len(times),
        "fallbacks": fallbacks(markings),
        **summary(times),
    }
    if args.limit is None:
        held_out = [(bank.question(r["question_id"]), r["answer"]) for p in HELD_OUT for r in read_jsonl(p)]
        for question, answer in held_out:
            backend.mark(question, answer + " warm")
        held_times, held_markings = timed(backend, held_out)
        report["held_out"] = {
            "answers": len(held_times),
            "fallbacks": fallbacks(held_markings),
            **summary(held_times),
        }
        eval_rows = (rows * 2)[:1200]
        started = time.perf_counter()
        evaluate(eval_rows, args.backend)
        report["eval_1200_wall_s"] = round(time.perf_counter() - started, 2)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
