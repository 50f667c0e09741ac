"""Leave-questions-out cross-validation of the reference-mode score on a labelled ASAG set.

    .venv/bin/python benchmarks/asag_cv.py [mohler-dev.jsonl] [--backend default|semantic]
    .venv/bin/python benchmarks/asag_cv.py --backend llm --base-url URL [--model NAME] [--limit N]

The file defaults to /work/shared/data/asag/mohler-dev.jsonl. For each question in turn,
the reference-mode linear model (the coefficients in ``viva.marking.scoring``, and
``REFERENCE_BLEND`` in ``viva.marking.aligned`` for the default marker or
``viva.marking.semantic``; for a blend, both the lexical model and the blend on top of it)
is refitted on all *other* questions and used to mark this one; the printed Pearson r pools
those held-out predictions, which is what a new question in the bank meets. It also prints
the shipped marker's own (in-sample) Pearson and the coefficients fitted on everything.

Any other ``--backend`` (e.g. the llm backend, which has nothing to refit) prints instead
that marker's Pearson r against the human marks on the first ``--limit`` answers, beside
the lexical marker's on the same answers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench_markers import add_marker_options, fallbacks, marker_from  # a sibling: run as files
from viva.marking import scoring
from viva.marking.evaluate import pearson, read_jsonl
from viva.marking.lexical import LexicalBackend, reference_features
from viva.marking.reference import question_from_reference

DEFAULT = Path("/work/shared/data/asag/mohler-dev.jsonl")


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(a)
    m = [[*row[:], b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(xs: list[list[float]], ys: list[float], ridge: float = 1.0) -> list[float]:
    z = [[1.0, *x] for x in xs]
    k = len(z[0])
    a = [[sum(r[i] * r[j] for r in z) + (ridge if i == j and i else 0.0) for j in range(k)] for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(z, ys, strict=True)) for i in range(k)]
    return _solve(a, b)


def predict(w: list[float], x: list[float]) -> float:
    return w[0] + sum(wi * xi for wi, xi in zip(w[1:], x, strict=True))


def cross_validated(xs: list[list[float]], ys: list[float], groups: list[str]) -> float | None:
    predictions = [0.0] * len(ys)
    for held_out in sorted(set(groups)):
        train = [i for i, g in enumerate(groups) if g != held_out]
        w = fit([xs[i] for i in train], [ys[i] for i in train])
        for i, g in enumerate(groups):
            if g == held_out:
                predictions[i] = predict(w, xs[i])
    return pearson(predictions, ys)


def _blend_row(w: list[float], lexical: list[float], similarity: float) -> list[float]:
    mark = predict(w, lexical)
    return [mark, 5 * similarity, mark * similarity]


def cross_validated_blend(
    lexical: list[list[float]], similarity: list[float], ys: list[float], groups: list[str]
) -> float | None:
    """Both stages refitted without the held-out question: the lexical model, then the blend."""
    predictions = [0.0] * len(ys)
    for held_out in sorted(set(groups)):
        train = [i for i, g in enumerate(groups) if g != held_out]
        w = fit([lexical[i] for i in train], [ys[i] for i in train])
        rows = [_blend_row(w, lexical[i], similarity[i]) for i in range(len(ys))]
        v = fit([rows[i] for i in train], [ys[i] for i in train])
        for i, g in enumerate(groups):
            if g == held_out:
                predictions[i] = predict(v, rows[i])
    return pearson(predictions, ys)


def _similarities(backend: str, rows: list[dict[str, str]]) -> tuple[list[float], list[float], list[float]]:
    """Per row: the backend's alignment recall of the reference, and its shipped score."""
    from viva.marking import aligned, get_backend, semantic

    engine = get_backend(backend)
    recall: list[float] = []
    shipped: list[float] = []
    lexical = LexicalBackend()
    for row in rows:
        q = question_from_reference(row["question"], row["reference"], row["question_id"])
        if isinstance(engine, aligned.AlignedBackend):
            recall.append(engine.reference_recall(q, engine._embed([row["answer"]])[0]))
        elif isinstance(engine, semantic.SemanticBackend):
            recall.append(engine.similarities(q, lexical.assess(q, row["answer"])[0])[1])
        shipped.append(engine.mark(q, row["answer"]).score)
    module = aligned if backend == "default" else semantic
    return recall, shipped, list(module.REFERENCE_BLEND.values())


def marker_pearson(args: argparse.Namespace, rows: list[dict[str, object]]) -> None:
    """Pearson r of one marker's scores (no refitting) against the human marks."""
    marker = marker_from(args)
    lexical = LexicalBackend()
    markings, baseline = [], []
    for row in rows:
        q = question_from_reference(str(row["question"]), str(row["reference"]), str(row["question_id"]))
        markings.append(marker.mark(q, str(row["answer"])))
        baseline.append(lexical.mark(q, str(row["answer"])).score)
    ys = [float(str(r["score"])) for r in rows]
    report = {
        "backend": marker.name,
        "backend_version": marker.version,
        "n": len(rows),
        "fallbacks": fallbacks(markings),
        "pearson": round(pearson([m.score for m in markings], ys) or 0, 4),
        "lexical_pearson_same_rows": round(pearson(baseline, ys) or 0, 4),
    }
    print(json.dumps(report))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    add_marker_options(parser, default=None)
    parser.add_argument("--limit", type=int, help="with another --backend: mark only the first N answers")
    args = parser.parse_args()
    rows = read_jsonl(args.path)
    if args.backend not in (None, "default", "semantic"):
        marker_pearson(args, rows[: args.limit])
        return
    lexical = LexicalBackend()
    feats: list[list[float]] = []
    shipped: list[float] = []
    import math

    for row in rows:
        q = question_from_reference(row["question"], row["reference"], row["question_id"])
        analysis, results, _ = lexical.assess(q, row["answer"])
        f = reference_features(q, analysis, scoring.coverage(q, results))
        size = math.log1p(min(f.size, scoring.LENGTH_CAP))
        feats.append([f.points, f.whole, f.precision, size])
        shipped.append(lexical.mark(q, row["answer"]).score)
    ys = [float(r["score"]) for r in rows]
    groups = [str(r["question_id"]) for r in rows]
    print(
        json.dumps(
            {
                "n": len(rows),
                "questions": len(set(groups)),
                "lexical_cv_pearson": round(cross_validated(feats, ys, groups) or 0, 4),
                "lexical_in_sample_pearson": round(pearson(shipped, ys) or 0, 4),
                "lexical_fit_all": [round(w, 3) for w in fit(feats, ys)],
            }
        )
    )
    if args.backend:
        similarity, blended_shipped, blend_weights = _similarities(args.backend, rows)
        m = scoring.REFERENCE_MODEL
        shipped_w = [m[k] for k in ("intercept", "points", "whole", "precision", "length")]
        blend = [_blend_row(shipped_w, f, s) for f, s in zip(feats, similarity, strict=True)]
        name = args.backend
        print(
            json.dumps(
                {
                    f"{name}_cv_pearson": round(cross_validated_blend(feats, similarity, ys, groups) or 0, 4),
                    f"{name}_in_sample_pearson": round(pearson(blended_shipped, ys) or 0, 4),
                    f"{name}_fit_all": [round(w, 3) for w in fit(blend, ys)],
                    f"{name}_shipped_blend": blend_weights,
                }
            )
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
