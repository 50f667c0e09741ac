"""Cold start of a marker: a fresh process builds it and marks one answer.

    .venv/bin/python benchmarks/cold_start.py [--backend default|lexical|semantic] [--runs 5]

Each run is a new Python process that imports the marking package, builds the marker from
the settings as the app does at start-up (:func:`viva.marking.build_marker`: for the default
marker that loads and checks the packaged model) and marks one answer to a question built
in code. Prints the median and worst of ``build_to_first_mark_s`` (imports included,
interpreter start-up not) and of the whole process's wall time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CHILD = """
import time
started = time.perf_counter()
from viva.bank.model import MarkingPoint, Question
from viva.marking import build_marker
from viva.settings import Settings
marker = build_marker(Settings.from_env(marking_backend={backend!r}))
question = Question(
    topic_id="gpus", section_id="hardware", id="decode", prompt="Why is decoding at batch one slow?",
    answer="Each token reads all the weights from HBM, so decode is memory-bound.",
    points=(MarkingPoint("memory-bound", "Decode is memory-bound: each token reads all the weights."),),
)
marker.mark(question, "Every step streams the whole model out of memory, so bandwidth limits it.")
print(time.perf_counter() - started)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    inside: list[float] = []
    wall: list[float] = []
    for _ in range(args.runs):
        started = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", CHILD.format(backend=args.backend)],
            check=True,
            capture_output=True,
            text=True,
        )
        wall.append(time.perf_counter() - started)
        inside.append(float(out.stdout.strip().splitlines()[-1]))
    print(
        json.dumps(
            {
                "backend": args.backend,
                "runs": args.runs,
                "build_to_first_mark_s": {
                    "median": round(statistics.median(inside), 3),
                    "max": round(max(inside), 3),
                },
                "process_wall_s": {"median": round(statistics.median(wall), 3), "max": round(max(wall), 3)},
            }
        )
    )


if __name__ == "__main__":
    main()
