"""AUC of each marker on the SemEval-2013 2-way training splits (SciEntsBank, Beetle).

    .venv/bin/python benchmarks/asag_auc.py [--backends default,lexical,semantic] [--limit N]

Every answer is marked in reference-only mode against the question's best reference, one
at a time, as the app meets a new question; nothing in the markers was fitted on these
files, so ``shipped_auc`` already measures questions the marker never saw. For the
embedding markers it also prints ``loqo_auc``: the reference-mode blend (the lexical
model's predicted mark, the alignment recall of the reference and their product; see
``asag_cv.py``) refitted by least squares on all *other* questions of the same file and
applied to each held-out question, pooled over questions. Data: /work/shared/data/asag/.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from asag_cv import fit, predict
from viva.marking import aligned, get_backend, scoring, semantic
from viva.marking.evaluate import auc, read_jsonl
from viva.marking.lexical import LexicalBackend, reference_features
from viva.marking.reference import question_from_reference

DATA = Path("/work/shared/data/asag")
FILES = {"scientsbank": "scientsbank-train-2way.jsonl", "beetle": "beetle-train-2way.jsonl"}


def features(backend: str, rows: list[dict[str, str]]) -> tuple[list[float], list[list[float]], float]:
    """Shipped scores, blend features per row, and milliseconds per answer."""
    engine = get_backend(backend)
    lexical = LexicalBackend()
    scores: list[float] = []
    rows_x: list[list[float]] = []
    started = time.perf_counter()
    for row in rows:
        q = question_from_reference(row["question"], row["reference"], row["question_id"])
        scores.append(engine.mark(q, row["answer"]).score)
    elapsed = time.perf_counter() - started
    for row in rows:
        q = question_from_reference(row["question"], row["reference"], row["question_id"])
        analysis, results, _ = lexical.assess(q, row["answer"])
        f = reference_features(q, analysis, scoring.coverage(q, results))
        mark = f.predicted_mark()
        if isinstance(engine, aligned.AlignedBackend):
            recall = engine.reference_recall(q, engine._embed([row["answer"]])[0])
        elif isinstance(engine, semantic.SemanticBackend):
            recall = engine.similarities(q, analysis)[1]
        else:
            recall = 0.0
        size = math.log1p(min(f.size, scoring.LENGTH_CAP))
        rows_x.append([mark, 5 * recall, mark * recall, f.points, f.whole, f.precision, size])
    return scores, rows_x, 1000 * elapsed / max(1, len(rows))


def loqo_auc(xs: list[list[float]], labels: list[int], groups: list[str]) -> float | None:
    predictions = [0.0] * len(labels)
    for held_out in sorted(set(groups)):
        train = [i for i, g in enumerate(groups) if g != held_out]
        w = fit([xs[i] for i in train], [float(labels[i]) for i in train])
        for i, g in enumerate(groups):
            if g == held_out:
                predictions[i] = predict(w, xs[i])
    return auc(predictions, labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="default,lexical,semantic")
    parser.add_argument("--limit", type=int, default=0, help="first N answers of each file (0: all)")
    args = parser.parse_args()
    for name, file in FILES.items():
        rows = read_jsonl(DATA / file)
        if args.limit:
            rows = rows[: args.limit]
        labels = [int(r["label"]) for r in rows]
        groups = [str(r["question_id"]) for r in rows]
        for backend in args.backends.split(","):
            scores, xs, ms = features(backend, rows)
            blend = [x[:3] for x in xs] if backend != "lexical" else [x[3:] for x in xs]
            print(
                json.dumps(
                    {
                        "data": name,
                        "backend": backend,
                        "n": len(rows),
                        "questions": len(set(groups)),
                        "shipped_auc": round(auc(scores, labels) or 0, 4),
                        "loqo_auc": round(loqo_auc(blend, labels, groups) or 0, 4),
                        "ms_per_answer": round(ms, 2),
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
