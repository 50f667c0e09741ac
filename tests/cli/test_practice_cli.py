"""The practice commands, driven through a real pseudo-terminal and checked in the database.

No mocks: the real ``viva`` executable, the real marker, a SQLite file per test.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pexpect
import pytest
from sqlalchemy import select
from typer.testing import CliRunner, Result

from tests.practice.factories import write_practice_bank
from viva.cli import app
from viva.store import Attempt, ReviewState, User, make_engine, session_scope

VIVA = str(Path(sys.executable).parent / "viva")
runner = CliRunner()
STRONG_CACHE = "It stores the keys and values of earlier tokens, so each step only computes the new token's."


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    write_practice_bank(tmp_path / "content")
    return {
        **os.environ,
        "VIVA_CONTENT_DIR": str(tmp_path / "content"),
        "VIVA_DATABASE_URL": f"sqlite:///{tmp_path / 'viva.sqlite3'}",
        "VIVA_DATA_DIR": str(tmp_path / "data"),
        "VIVA_USER": "pty",
        "NO_COLOR": "1",
        "TERM": "dumb",
        "COLUMNS": "200",
    }


def _stored(env: dict[str, str]) -> tuple[list[Attempt], list[ReviewState]]:
    engine = make_engine(env["VIVA_DATABASE_URL"])
    try:
        with session_scope(engine) as session:
            attempts = list(session.scalars(select(Attempt).join(User).where(User.name == "pty")).all())
            states = list(session.scalars(select(ReviewState).order_by(ReviewState.question_id)).all())
        return attempts, states
    finally:
        engine.dispose()


Spawn = Callable[..., pexpect.spawn]


@pytest.fixture
def spawn(env: dict[str, str]) -> Iterator[Spawn]:
    children: list[pexpect.spawn] = []

    def start(*args: str) -> pexpect.spawn:
        child = pexpect.spawn(
            VIVA,
            list(args),
            env=env,
            encoding="utf-8",
            timeout=60,
            dimensions=(50, 200),
            # a terminal's Ctrl-C must reach the CLI even when the test run itself was started in
            # the background, where the shell ignores SIGINT and children would inherit that
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        children.append(child)
        return child

    yield start
    for child in children:
        if child.isalive():
            child.kill(signal.SIGKILL)


def _answer(child: pexpect.spawn, *lines: str) -> None:
    child.expect("> ")
    for line in lines:
        child.sendline(line)
    child.sendline("")


def test_a_session_with_a_follow_up_and_an_override(spawn: Spawn, env: dict[str, str]) -> None:
    child = spawn("practice", "study", "--new", "2")
    child.expect(r"New · study/cache")
    child.expect("Why does the KV cache make decoding faster")
    _answer(
        child,
        "It stores the keys and values of earlier tokens,",
        "so each step only computes the new token's.",
    )
    child.expect("STRONG")
    child.expect("✓ The cache stores the keys and values")
    child.expect("Model answer")
    child.expect("I was right")
    child.sendline("")
    child.expect(r"Next review in \d+ days")

    child.expect(r"Then they push further · study/cache-batching")
    _answer(child, "no idea to be honest")
    child.expect("WEAK")
    child.expect("✗ Batching reuses each weight read")
    child.expect(r"Taught in: First things \(study/first\)")
    child.expect("I was right")
    child.sendline("r")
    child.expect("your verdict wins")
    child.expect(r"Next review in \d+ days")

    child.expect(r"New · study/norm")
    child.sendeof()
    child.expect(r"Session over: 2 answer\(s\) saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    attempts, states = _stored(env)
    assert [a.question_id for a in attempts] == ["study/cache", "study/cache-batching"]
    assert attempts[0].verdict == "strong" and attempts[0].override is None
    assert attempts[0].answer_text.startswith("It stores") and "\n" in attempts[0].answer_text
    assert attempts[1].verdict == "weak" and attempts[1].override == "right"
    assert attempts[0].session_id is not None and attempts[0].session_id == attempts[1].session_id
    assert all(a.duration_ms is not None and a.duration_ms >= 0 for a in attempts)
    assert [s.question_id for s in states] == ["study/cache", "study/cache-batching"]
    assert all((s.due - s.last_review).days >= 1 for s in states if s.last_review)  # the override won


def test_an_empty_answer_skips_and_ctrl_c_ends_cleanly(spawn: Spawn, env: dict[str, str]) -> None:
    child = spawn("practice", "study/first")
    child.expect(r"New · study/cache")
    _answer(child)
    child.expect("skipped")
    child.expect(r"New · study/norm")
    child.expect("> ")
    child.sendintr()
    child.expect(r"Session over: 0 answer\(s\) saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert _stored(env) == ([], [])


def test_killing_the_process_loses_no_attempt_shown_as_marked(spawn: Spawn, env: dict[str, str]) -> None:
    child = spawn("practice", "study")
    child.expect(r"New · study/cache")
    _answer(child, STRONG_CACHE)
    child.expect("STRONG")
    child.kill(signal.SIGKILL)
    child.wait()
    attempts, states = _stored(env)
    assert [a.question_id for a in attempts] == ["study/cache"]
    assert [s.question_id for s in states] == ["study/cache"]


def _viva(env: dict[str, str], *args: str) -> Result:
    """The non-interactive commands run in-process: same code path, no start-up cost."""
    return runner.invoke(app, list(args), env={k: env[k] for k in env if k.startswith("VIVA_")})


def test_answer_due_progress_export_import(env: dict[str, str], tmp_path: Path) -> None:
    done = _viva(env, "answer", "study/cache", "--answer", STRONG_CACHE, "--format", "json")
    assert done.exit_code == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["question_id"] == "study/cache" and result["marking"]["verdict"] == "strong"
    assert datetime.fromisoformat(result["next_due"]) - datetime.now(UTC) > timedelta(days=1)

    text = _viva(env, "answer", "study/norm", "--answer", "no idea")
    assert text.exit_code == 0 and "WEAK" in text.stdout and "Next review in 10 minutes" in text.stdout

    due = json.loads(_viva(env, "due", "--format", "json", "--within", "30").stdout)
    assert [d["question_id"] for d in due] == ["study/norm", "study/cache"]

    progress = json.loads(_viva(env, "progress", "--format", "json").stdout)
    assert progress["mastery"][0]["id"] == "study" and progress["mastery"][0]["attempted"] == 2
    assert progress["weakest_points"][0]["question_id"] == "study/norm"
    assert "Mastery" in _viva(env, "progress").stdout

    exported = _viva(env, "export")
    assert exported.exit_code == 0
    history = tmp_path / "history.json"
    history.write_text(exported.stdout)
    imported = _viva(env, "import", str(history), "--user", "copy")
    assert imported.exit_code == 0 and "imported 2 attempt(s)" in imported.stderr
    copy = json.loads(_viva(env, "export", "--user", "copy").stdout)
    copy["users"][0]["name"] = "pty"
    assert copy == json.loads(exported.stdout)


def test_user_mistakes_are_one_line_errors(env: dict[str, str], tmp_path: Path) -> None:
    missing = _viva(env, "answer", "study/nope", "--answer", "x")
    assert missing.exit_code == 1 and "no question 'study/nope'" in missing.stderr
    assert "Traceback" not in missing.stderr
    no_text = _viva(env, "answer", "study/cache")
    assert no_text.exit_code == 1 and "--answer" in no_text.stderr
    bad_scope = _viva(env, "practice", "nowhere")
    assert bad_scope.exit_code == 1 and "no topic 'nowhere'" in bad_scope.stderr
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "nope"}')
    refused = _viva(env, "import", str(junk))
    assert refused.exit_code == 1 and "not a viva history file" in refused.stderr
