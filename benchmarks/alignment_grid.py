"""How the default marker's alignment constants were chosen (authored mode, leave-one-question-out).

    .venv/bin/python benchmarks/alignment_grid.py

Each SemEval-2013 2-way training answer (SciEntsBank, Beetle; /work/shared/data/asag) is
marked against its reference taken as *authored* points (the reference-derived points,
scored by the authored formula in ``viva.marking.scoring``), so per-point credit matters as
it does in the bank. For every setting of (ALIGNED_FROM, ALIGNED_FULL, ALIGNED_SHARE) in a
small grid, with and without crediting untouched points from middling similarity, it
computes the AUC; then, for each question in turn, picks the setting with the best AUC on
the other questions and scores the held-out one with it. Prints the lexical AUC, the best
settings on everything, and the pooled held-out AUC with the settings picked, both among the
settings where an untouched point needs full similarity (what the default marker ships) and
among all.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from viva.marking import get_backend
from viva.marking.aligned import AlignedBackend
from viva.marking.evaluate import auc, read_jsonl
from viva.marking.lexical import LexicalBackend
from viva.marking.points import COVERED_AT, PARTIAL_AT
from viva.marking.reference import question_from_reference
from viva.marking.scoring import BELOW_STRONG, after_misconceptions, point_score

DATA = Path("/work/shared/data/asag")
FILES = {"scientsbank": "scientsbank-train-2way.jsonl", "beetle": "beetle-train-2way.jsonl"}
Setting = tuple[float, float, float, bool]  # from, full, share, untouched points need COVERED_AT
GRID: list[Setting] = [
    (lo, hi, share, strict)
    for lo in (0.2, 0.3, 0.4)
    for hi in (0.7, 0.8, 0.9)
    for share in (0.8, 1.0)
    for strict in (False, True)
]


def prepare(rows: list[dict[str, str]], engine: AlignedBackend) -> list[dict[str, object]]:
    """Per answer: point weights, lexical credits and vetoes, alignment recalls, misconceptions."""
    lexical = LexicalBackend()
    out: list[dict[str, object]] = []
    for row in rows:
        q = question_from_reference(row["question"], row["reference"], row["question_id"])
        q = dataclasses.replace(q, tags=())
        analysis, results, found = lexical.assess(q, row["answer"])
        recalls = [r for r, _ in engine.alignments(q, row["answer"])] if analysis.tokens else []
        out.append(
            {
                "qid": row["question_id"],
                "weights": [p.weight for p in q.points],
                "lexical": [(r.credit, r.contradicted) for r in results],
                "recall": recalls or [0.0] * len(q.points),
                "misconceptions": len(found),
            }
        )
    return out


def score(row: dict[str, object], setting: Setting | None) -> float:
    """The authored score (all points core) with the alignment credit of ``setting``."""
    total = covered = 0.0
    missed = False
    for weight, (credit, contradicted), recall in zip(
        row["weights"],
        row["lexical"],
        row["recall"],
        strict=True,  # type: ignore[call-overload]
    ):
        own, alone = credit, False
        if setting and not contradicted:
            lo, hi, share, strict = setting
            aligned = share * max(0.0, min(1.0, (recall - lo) / (hi - lo)))
            if aligned > credit and not (strict and credit < PARTIAL_AT and aligned < COVERED_AT):
                own, alone = aligned, credit < PARTIAL_AT
        total += weight
        covered += weight * own
        missed |= own < (COVERED_AT if alone else PARTIAL_AT)
    value = point_score(covered / total) if total else 0.0
    return after_misconceptions(min(value, BELOW_STRONG) if missed else value, int(row["misconceptions"]))  # type: ignore[call-overload]


Scores = dict[Setting, list[float]]


def auc_on(scores: Scores, labels: list[int], setting: Setting, idx: list[int]) -> float:
    return auc([scores[setting][i] for i in idx], [labels[i] for i in idx]) or 0.0


def held_out_auc(
    settings: list[Setting], prepared: list[dict[str, object]], scores: Scores, labels: list[int]
) -> tuple[float, dict[str, int]]:
    """Each question scored with the setting best on all the others; the pooled AUC."""
    held_out = [0.0] * len(prepared)
    picked: dict[str, int] = {}
    for qid in sorted({str(r["qid"]) for r in prepared}):
        train = [i for i, r in enumerate(prepared) if r["qid"] != qid]
        best = max(settings, key=lambda s: auc_on(scores, labels, s, train))
        picked[str(best)] = picked.get(str(best), 0) + 1
        for i, r in enumerate(prepared):
            if r["qid"] == qid:
                held_out[i] = scores[best][i]
    return round(auc(held_out, labels) or 0, 4), picked


def top(settings: list[Setting], scores: Scores, labels: list[int]) -> list[object]:
    """The three settings with the best AUC on every answer, and their AUC."""
    everything = list(range(len(labels)))
    ranked = sorted(settings, key=lambda s: -auc_on(scores, labels, s, everything))[:3]
    return [(s, round(auc_on(scores, labels, s, everything), 4)) for s in ranked]


def main() -> None:
    engine = get_backend("default")
    assert isinstance(engine, AlignedBackend)
    strict = [s for s in GRID if s[3]]
    for name, file in FILES.items():
        rows = read_jsonl(DATA / file)
        labels = [int(r["label"]) for r in rows]
        prepared = prepare(rows, engine)
        scores = {s: [score(r, s) for r in prepared] for s in GRID}

        print(
            json.dumps(
                {
                    "data": name,
                    "lexical_auc": round(auc([score(r, None) for r in prepared], labels) or 0, 4),
                    "best_on_all": top(GRID, scores, labels),
                    "best_strict_on_all": top(strict, scores, labels),
                    # strict: an untouched point needs full similarity, the rule the default ships
                    "loqo_auc_strict": held_out_auc(strict, prepared, scores, labels),
                    "loqo_auc_any": held_out_auc(GRID, prepared, scores, labels),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
