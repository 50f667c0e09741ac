"""Concurrency probes against a real ``viva serve --workers 2`` on SQLite and PostgreSQL.

For each database: 50 concurrent answers (``POST /api/v1/attempts``) with one API token,
50 concurrent ``GET /api/v1/me`` with that token, and 30 concurrent wrong passwords for
one account name (from one cookie session). Prints, per probe, requests, 2xx, 4xx, 5xx,
failed connections and rows written (attempts recorded; password checks counted as failures).
Goal: zero 5xx, attempts = 50, password checks <= 5. Loopback only.

    PYTHONPATH=src:. .venv/bin/python benchmarks/concurrency.py [--postgres URL] [--sqlite-only]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import httpx
from sqlalchemy import func, select, text
from tests.factories import write_bank
from tests.integration.serve import Tally, burst, running_server

from viva.store import make_engine, session_scope
from viva.store.models import Attempt, LoginFailure
from viva.web import auth

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
ANSWER = {"question_id": "demo/bound", "answer": "decoding reads every weight once per token: memory-bound"}


def _count(url: str, query: object) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(query) or 0)  # type: ignore[call-overload]
    finally:
        engine.dispose()


def _row(name: str, tally: Tally, rows: int) -> str:
    return (
        f"{name:<28} {tally.requests:>8} {tally.count(200):>5} {tally.count(400):>5} "
        f"{tally.count(500):>5} {tally.statuses.get(0, 0):>6} {rows:>6}"
    )


def probe(label: str, url: str, root: Path) -> list[str]:
    bank = write_bank(root / "bank")
    lines = []
    with running_server(url, bank, root) as server:
        token = {"Authorization": f"Bearer {server.token}"}
        answers = burst(
            [("POST", "/api/v1/attempts", {"json": ANSWER, "headers": token})] * 50, server.base_url
        )
        attempts = _count(url, select(func.count()).where(Attempt.user_id == server.user_id))
        lines.append(_row(f"{label}: 50 answers", answers, attempts))
        reads = burst([("GET", "/api/v1/me", {"headers": token})] * 50, server.base_url)
        lines.append(_row(f"{label}: 50 token GETs", reads, 0))
        name = f"victim-{uuid.uuid4().hex[:8]}"
        engine = make_engine(url)
        with session_scope(engine) as session:
            auth.sign_up(session, name, "the real password", datetime.now(UTC))
        engine.dispose()
        with httpx.Client(base_url=server.base_url) as client:
            page = client.get("/login")
            found = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
            assert found, "no CSRF token on /login"
            cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
        form = f"name={quote(name)}&password=wrong-guess-1&csrf_token={quote(found.group(1))}"
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
        logins = burst(
            [("POST", "/login", {"content": form.encode(), "headers": headers})] * 30, server.base_url
        )
        checks = _count(url, select(func.count()).where(LoginFailure.key == f"name:{name.lower()}"))
        lines.append(_row(f"{label}: 30 wrong logins", logins, checks))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--postgres", default=POSTGRES, help="server URL (a fresh schema is made and dropped)"
    )
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "sqlite").mkdir()
        lines += probe("sqlite", f"sqlite:///{root / 'sqlite' / 'viva.sqlite3'}", root / "sqlite")
        if not args.sqlite_only:
            schema = f"viva_probe_{uuid.uuid4().hex[:8]}"
            admin = make_engine(args.postgres)
            with admin.begin() as connection:
                connection.execute(text(f'CREATE SCHEMA "{schema}"'))
            try:
                (root / "pg").mkdir()
                separator = "&" if "?" in args.postgres else "?"
                url = f"{args.postgres}{separator}options={quote(f'-csearch_path={schema}')}"
                lines += probe("postgresql", url, root / "pg")
            finally:
                with admin.begin() as connection:
                    connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
                admin.dispose()
    print(f"{'probe':<28} {'requests':>8} {'2xx':>5} {'4xx':>5} {'5xx':>5} {'failed':>6} {'rows':>6}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
