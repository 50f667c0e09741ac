"""``viva interview`` end to end in a real pseudo-terminal: the real bank (GPU topic, with its
authored probes), the real marker, a SQLite file; then checked in the database."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pytest
from sqlalchemy import select

from viva.store import Attempt, make_engine, session_scope
from viva.store.models import Interview

VIVA = str(Path(sys.executable).parent / "viva")
ROOT = Path(__file__).resolve().parents[2]
TOPIC = "gpus-and-accelerators"
STRONG = (
    "It is mostly matrix multiplication, which is massively parallel, and a GPU has thousands of simple "
    "cores built for throughput while a CPU has a few complex cores."
)
TENSOR_CORES = (
    "Tensor cores are dedicated matrix units in each SM doing a small matrix multiply-accumulate, about "
    "fifteen times FP32, 989 teraflops, with BF16 inputs via autocast, dimensions multiples of 8."
)
PLANTED = "The whole working set sits in cache like on a CPU, so HBM speed does not matter."
PROBE_ANSWER = (
    "On-chip is tiny, a few hundred kilobytes per SM and about 50 MB of L2, so tensors live in HBM."
)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "VIVA_CONTENT_DIR": str(ROOT / "content"),
        "VIVA_DATABASE_URL": f"sqlite:///{tmp_path / 'viva.sqlite3'}",
        "VIVA_DATA_DIR": str(tmp_path / "data"),
        "VIVA_USER": "pty",
        "NO_COLOR": "1",
        "TERM": "dumb",
        "COLUMNS": "200",
    }


@pytest.fixture
def spawn(env: dict[str, str]) -> Iterator[Callable[..., pexpect.spawn]]:
    children: list[pexpect.spawn] = []

    def start(*args: str) -> pexpect.spawn:
        child = pexpect.spawn(VIVA, list(args), env=env, encoding="utf-8", timeout=60, dimensions=(50, 200))
        children.append(child)
        return child

    yield start
    for child in children:
        if child.isalive():
            child.kill(signal.SIGKILL)


def _say(child: pexpect.spawn, text: str) -> None:
    child.expect("> ")
    child.sendline(text)
    child.sendline("")


def _stored(env: dict[str, str]) -> tuple[list[Attempt], list[Interview]]:
    engine = make_engine(env["VIVA_DATABASE_URL"])
    try:
        with session_scope(engine) as session:
            attempts = list(session.scalars(select(Attempt).order_by(Attempt.id)).all())
            interviews = list(session.scalars(select(Interview)).all())
        return attempts, interviews
    finally:
        engine.dispose()


def test_a_mock_interview_pushes_on_the_answer_and_ends_with_the_debrief(
    spawn: Callable[..., pexpect.spawn], env: dict[str, str]
) -> None:
    child = spawn("interview", TOPIC, "--questions", "2")
    child.logfile_read = seen = io.StringIO()
    child.expect("No marks until the end")
    child.expect(r"Question 1 of 2 · clock 2:00")
    child.expect("Why are GPUs used for deep learning")
    _say(child, STRONG)
    child.expect(r"They push further · clock")  # strong: the authored follow-up
    child.expect("What are tensor cores")
    _say(child, TENSOR_CORES)
    child.expect("Question 2 of 2")
    _say(child, PLANTED)
    child.expect("They push further on what you said")  # the planted misconception's probe
    child.expect("You said the working set stays in cache")
    _say(child, PROBE_ANSWER)
    child.expect("Debrief")
    during = seen.getvalue().split("Debrief")[0]
    child.expect("Misconception: The whole working set sits in cache")
    child.expect("Readiness \\d+% ")
    child.expect("Practise next: viva interview --drill gpus-and-accelerators/gpu-memory-hierarchy")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "You said the working set" in during and not any(
        w in during for w in ("STRONG", "WEAK", "score", "✓")
    )

    attempts, interviews = _stored(env)
    assert [a.question_id.split("/")[1] for a in attempts] == [
        "why-gpus-for-deep-learning",
        "tensor-cores",
        "gpu-memory-hierarchy",
        "why-hbm-speed-matters",
    ]
    (interview,) = interviews
    assert {a.session_id for a in attempts} == {interview.session_id} and interview.finished_at is not None
    assert attempts[2].marking.misconceptions[0].misconception_id == "working-set-in-cache"

    shown = subprocess.run(
        [VIVA, "interview", "--show", interview.key, "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
    )
    data = json.loads(shown.stdout)
    kinds = [(i["question_id"].split("/")[1], i["kind"]) for i in data["items"]]
    assert kinds == [
        ("why-gpus-for-deep-learning", "question"),
        ("tensor-cores", "follow-up"),
        ("gpu-memory-hierarchy", "question"),
        ("why-hbm-speed-matters", "misconception"),
    ]
    assert data["readiness"][0]["topic_id"] == TOPIC and 0 < data["readiness"][0]["figure"] < 1


def test_leaving_midway_keeps_what_was_answered(
    spawn: Callable[..., pexpect.spawn], env: dict[str, str]
) -> None:
    child = spawn("interview", TOPIC, "--questions", "3")
    child.expect("Question 1 of 3")
    _say(child, STRONG)
    child.expect("What are tensor cores")
    child.expect("> ")
    child.sendeof()
    child.expect("ended early; your answers so far are kept")
    child.expect("Debrief")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    attempts, (interview,) = _stored(env)
    assert [a.question_id for a in attempts] == [f"{TOPIC}/why-gpus-for-deep-learning"]
    assert interview.finished_at is not None
    listed = subprocess.run(
        [VIVA, "interview", "--past", "--format", "json"], env=env, capture_output=True, text=True
    )
    assert [row["key"] for row in json.loads(listed.stdout)] == [interview.key]


def test_format_json_keeps_stdout_for_the_debrief(env: dict[str, str]) -> None:
    done = subprocess.run(
        [VIVA, "interview", TOPIC, "--questions", "1", "--format", "json"],
        env={**env, "VIVA_USER": "json"},
        input=f"{STRONG}\n\n{TENSOR_CORES}\n\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)  # prompts went to stderr
    assert "Why are GPUs used for deep learning?" in done.stderr
    assert [i["kind"] for i in data["items"]] == ["question", "follow-up"]
    assert data["items"][0]["verdict"] == "strong" and data["finished_at"] is not None
