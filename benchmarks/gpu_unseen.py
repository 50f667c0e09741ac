"""Verdict accuracy on held-out answers the marker was never tuned on.

    .venv/bin/python benchmarks/gpu_unseen.py [PATH ...] [--all] [--backend NAME]
        [--base-url URL --model NAME]   # for --backend llm; see benchmarks/bench_markers.py

The path defaults to the GPU-topic set; pass ``benchmarks/data/unseen-answers.jsonl`` for the
set covering every other topic, written blind to the rubrics, or ``--all`` for every set in
``benchmarks/data`` (the held-out ones, then dev) with one model load and a table at the end.

Each line: ``question_id``, ``kind`` (correct, spoken, partial, wrong, off-topic, ...),
``expected`` (strong | partial | weak) and ``answer``. Prints, per set, the share of verdicts
that match, the accuracy per kind, the two errors a candidate feels most (a correct answer
not marked strong, a wrong one marked strong) and for every question whether the mean score
of its correct answers beats its partial ones, which beat its wrong ones.

``--as-transcript`` marks each answer as a speech recogniser would give it (lower case, no
punctuation but a decimal point, hyphens as spaces): how much the marker leans on the sentence
breaks that a typed answer has and a spoken one, transcribed, does not.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench_markers import add_marker_options, fallbacks, marker_from  # a sibling: run as files
from viva.bank import Bank, load_bank
from viva.marking import InBank, Marker, Marking
from viva.marking.evaluate import read_jsonl

DATA = Path("benchmarks/data")
# Every set, held-out first; the dev sets are read while working on the marker, so they come last.
ALL_SETS = (
    "gpu-unseen",
    "unseen",
    "unseen-part3",
    "unseen-contrast",
    "unseen-behavioural",
    "dev",
    "dev-contrast",
    "dev-framed",
    "dev-offtopic",
    "dev-wide",
)


Row = dict[str, Any]
_UNSAID = re.compile(r"[.,](?!\d)|(?<!\d)[.,]|[;:!?()\"“”—–-]")  # "2.5" and "1,024" stay


def as_transcript(text: str) -> str:
    """``text`` as a recogniser gives it: lower case, no punctuation (a decimal point stays)."""
    return " ".join(_UNSAID.sub(" ", text).lower().split())


def measure(marker: Marker, bank: Bank, rows: list[Row], transcript: bool = False) -> tuple[Row, list[Row]]:
    """The figures for one set, and its misses."""
    markings: list[Marking] = []
    by_kind: dict[str, list[int]] = defaultdict(list)
    by_question: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    misses = []
    for row in rows:
        answer = as_transcript(row["answer"]) if transcript else row["answer"]
        marking = marker.mark(bank.question(row["question_id"]), answer)
        markings.append(marking)
        ok = marking.verdict == row["expected"]
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
    pairs = [(row["expected"], m.verdict) for row, m in zip(rows, markings, strict=True)]
    right = sum(expected == got for expected, got in pairs)
    figures = {
        "backend": marker.name,
        "backend_version": marker.version,
        "n": len(rows),
        "fallbacks": fallbacks(markings),
        "accuracy": round(right / len(rows), 4) if rows else None,
        "by_kind": {k: round(sum(v) / len(v), 3) for k, v in sorted(by_kind.items())},
        "correct_not_strong": sum(e == "strong" and g != "strong" for e, g in pairs),
        "wrong_marked_strong": sum(e == "weak" and g == "strong" for e, g in pairs),
        "wrong_not_weak": sum(e == "weak" and g != "weak" for e, g in pairs),
        "questions": len(ordered),
        "ordered_questions": sum(ordered.values()),
        "not_ordered": sorted(q for q, ok in ordered.items() if not ok),
    }
    return figures, misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="answer sets (default: the GPU set)")
    parser.add_argument("--all", action="store_true", help="every set in benchmarks/data, then a table")
    add_marker_options(parser)
    parser.add_argument("--limit", type=int, help="mark only the first N answers of each set (a slow LLM)")
    parser.add_argument("--content", type=Path, default=Path("content"))
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--as-transcript", action="store_true", help="answers without case or punctuation")
    args = parser.parse_args()
    paths = list(args.paths)
    if args.all:
        paths += [DATA / f"{name}-answers.jsonl" for name in ALL_SETS]
    paths = paths or [DATA / "gpu-unseen-answers.jsonl"]
    bank, _ = load_bank(args.content)
    marker = InBank(marker_from(args), bank)  # as the app marks: knowing the other questions
    table = []
    for path in paths:
        figures, misses = measure(marker, bank, read_jsonl(path)[: args.limit], args.as_transcript)
        print(json.dumps({"set": str(path), **figures}, indent=2))
        if args.show_misses:
            for miss in misses:
                print(json.dumps(miss))
        table.append((path, figures))
    if len(table) > 1:
        print_table(table)


def print_table(table: list[tuple[Path, Row]]) -> None:
    head = f"{'set':20} {'n':>4} {'accuracy':>9} {'ordered':>8}"
    print(f"\n{head} {'correct, not strong':>20} {'wrong, strong':>14}")
    for path, f in table:
        name = path.name.removesuffix("-answers.jsonl")
        ordered = f"{f['ordered_questions']}/{f['questions']}"
        print(
            f"{name:20} {f['n']:>4} {100 * f['accuracy']:>8.2f}% {ordered:>8}"
            f" {f['correct_not_strong']:>20} {f['wrong_marked_strong']:>14}"
        )


if __name__ == "__main__":
    main()
