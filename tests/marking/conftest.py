"""Questions built in code, so marking tests do not depend on content authors' files."""

from __future__ import annotations

import pytest

from viva.bank.model import MarkingPoint, Misconception, Question, SampleAnswer


@pytest.fixture
def decode_question() -> Question:
    return Question(
        topic_id="gpus",
        section_id="hardware",
        id="why-decode-memory-bound",
        prompt="Why is LLM decoding at batch size one slow, and how does batching help?",
        answer=(
            "At batch one every generated token has to read all the weights from HBM, about two "
            "FLOPs per byte, so decode is memory-bound and the tensor cores sit idle. Batching lets "
            "one read of the weights serve many sequences, which raises arithmetic intensity and "
            "throughput almost for free until you become compute-bound."
        ),
        points=(
            MarkingPoint(
                "memory-bound",
                "Decode is memory-bound: each token reads all the weights.",
                2.0,
                ("memory-bound", "limited by memory bandwidth", "reads all the weights"),
            ),
            MarkingPoint(
                "low-intensity",
                "Arithmetic intensity is about two FLOPs per byte at batch one.",
                1.0,
                ("flops per byte", "low arithmetic intensity"),
            ),
            MarkingPoint(
                "batching-amortises",
                "Batching reuses one read of the weights across many sequences, raising throughput.",
                2.0,
                ("one read of the weights", "raises throughput"),
            ),
        ),
        misconceptions=(
            Misconception(
                "compute-bound",
                "Decode is compute-bound.",
                "Decode is memory-bound; the compute sits idle waiting for weights.",
                ("decode is compute-bound", "limited by flops"),
            ),
            Misconception(
                "batching-slower",
                "Batching makes each step slower so throughput drops.",
                "A bigger batch reuses the same weight reads, so throughput rises.",
                ("batching makes it slower",),
            ),
        ),
        samples=(SampleAnswer("It is compute-bound.", "weak"),),
    )
