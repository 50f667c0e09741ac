"""Verdict accuracy on held-out answers the marker was never tuned on.

    .venv/bin/python benchmarks/gpu_unseen.py [benchmarks/data/gpu-unseen-answers.jsonl] [--backend NAME]
        [--base-url URL --model NAME]   # for --backend llm; see benchmarks/bench_markers.py

The path defaults to the GPU-topic set; pass ``benchmarks/data/unseen-answers.jsonl`` for the
set covering every other topic, written blind to the rubrics.

Each line: ``question_id``, ``kind`` (correct, spoken, partial, wrong, off-topic, ...),
``expected`` (strong | partial | weak) and ``answer``. Prints the share of verdicts that
match, the accuracy per kind, and for every question whether the mean score of its
correct answers beats its partial ones, which beat its wrong ones.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import defaultdict
from pathlib import Path

from bench_markers import add_marker_options, fallbacks, marker_from  # a sibling: run as files
from viva.bank import load_bank
from viva.marking import InBank, Marking
from viva.marking.evaluate import read_jsonl

RANK = {"strong": 2, "partial": 1, "weak": 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "path", nargs="?", type=Path, default=Path("benchmarks/data/gpu-unseen-answers.jsonl")
    )
    add_marker_options(parser)
    parser.add_argument("--limit", type=int, help="mark only the first N answers (a slow LLM)")
    parser.add_argument("--content", type=Path, default=Path("content"))
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    bank, _ = load_bank(args.content)
    rows = read_jsonl(args.path)[: args.limit]
    marker = InBank(marker_from(args), bank)  # as the app marks: knowing the other questions
    markings: list[Marking] = []
    right = 0
    by_kind: dict[str, list[int]] = defaultdict(list)
    by_question: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    misses = []
    for row in rows:
        marking = marker.mark(bank.question(row["question_id"]), row["answer"])
        markings.append(marking)
        ok = marking.verdict == row["expected"]
        right += ok
        by_kind[row["kind"]].append(ok)
        by_question[row["question_id"]][row["expected"]].append(marking.score)
        if not ok:
            misses.append(
                {
                    "question_id": row["question_id"],
                    "kind": row["kind"],
                    "expected": row["expected"],
                    "got": marking.verdict,
                    "score": marking.score,
                    "flags": marking.flags,
                }
            )
    ordered = {}
    for qid, groups in by_question.items():
        means = [sum(groups[v]) / len(groups[v]) for v in ("strong", "partial", "weak") if groups[v]]
        ordered[qid] = all(a > b for a, b in itertools.pairwise(means))
    print(
        json.dumps(
            {
                "backend": marker.name,
                "backend_version": marker.version,
                "n": len(rows),
                "fallbacks": fallbacks(markings),
                "accuracy": round(right / len(rows), 4) if rows else None,
                "by_kind": {k: round(sum(v) / len(v), 3) for k, v in sorted(by_kind.items())},
                "questions": len(ordered),
                "ordered_questions": sum(ordered.values()),
                "not_ordered": sorted(q for q, ok in ordered.items() if not ok),
            },
            indent=2,
        )
    )
    if args.show_misses:
        for miss in misses:
            print(json.dumps(miss))


if __name__ == "__main__":
    main()
