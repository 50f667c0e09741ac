"""Load test of the web app on loopback with wrk: requests/s and p95 at 50 connections.

    .venv/bin/python benchmarks/load_web.py            # SQLite 1 worker, PostgreSQL 1 and 2 workers
    .venv/bin/python benchmarks/load_web.py --quick    # 5-second runs

Targets: the topic page (a full server-rendered page with the candidate's mastery, single-
user mode so every request reads the database) and ``POST /api/v1/mark``. Each run is wrk
with 2 threads, 50 connections, for ``--seconds``; p95 comes from wrk's latency histogram
(Lua ``done`` hook). Zero errors means no socket errors and no non-2xx answers.

The machine has 2 cores shared by the server and the load generator. How they are split
is printed with each result: with one worker, the server is pinned to core 0 and wrk to
core 1; with two workers, the workers may use both cores and wrk is pinned to core 1 (so
the second worker competes with wrk: it measures what a second worker buys on a shared
box, not on a dedicated one). PostgreSQL runs unpinned.

Needs ``wrk`` (apt-get install wrk) and, for the PostgreSQL rows, a server at
``VIVA_BENCH_POSTGRES_URL`` (default postgresql+psycopg://postgres@127.0.0.1:5432/postgres;
a database ``viva_bench`` is dropped and recreated). Sends traffic only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOPIC = "gpus-and-accelerators"
POSTGRES = os.environ.get("VIVA_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
LUA = """
local errors = 0
response = function(status, headers, body)
  if status < 200 or status > 299 then errors = errors + 1 end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "p50_ms": %.2f, "p95_ms": %.2f, "p99_ms": %.2f, '
    .. '"socket_errors": %d, "status_errors": %d}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(95) / 1e3,
    latency:percentile(99) / 1e3, e.connect + e.read + e.write + e.timeout, e.status))
end
"""


@dataclass
class Result:
    setup: str
    target: str
    rps: float
    p50: float
    p95: float
    p99: float
    errors: int


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postgres_url() -> str:
    import psycopg

    admin = POSTGRES.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS viva_bench")
        connection.execute("CREATE DATABASE viva_bench")
    return POSTGRES.rsplit("/", 1)[0] + "/viva_bench"


def _start(database: str, workers: int, data: Path, cores: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "VIVA_DATA_DIR": str(data), "VIVA_DATABASE_URL": database, "VIVA_USER": "bench"}
    viva = str(Path(sys.executable).parent / "viva")
    command = [
        "taskset",
        "-c",
        cores,
        viva,
        "serve",
        "--single-user",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            # every worker must be up: ask a few times so the accept queue reaches each
            for _ in range(workers * 4):
                urllib.request.urlopen(f"{url}/topics/{TOPIC}", timeout=5).read()
            return process, url
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise SystemExit(f"server did not start ({' '.join(command)})") from None
            time.sleep(0.5)


def _wrk(url: str, path: str, seconds: int, body: dict[str, str] | None, folder: Path) -> dict[str, float]:
    script = LUA
    if body is not None:
        payload = json.dumps(body).replace("\\", "\\\\").replace("'", "\\'")
        script = (
            f"wrk.method = 'POST'\nwrk.body = '{payload}'\n"
            "wrk.headers['Content-Type'] = 'application/json'\n" + LUA
        )
    lua = folder / "report.lua"
    lua.write_text(script, encoding="utf-8")
    command = [
        "taskset",
        "-c",
        "1",
        "wrk",
        "-t2",
        "-c50",
        f"-d{seconds}s",
        "--timeout",
        "10s",
        "-s",
        str(lua),
        url + path,
    ]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    line = next(line for line in output.splitlines() if line.startswith('{"requests"'))
    data: dict[str, float] = json.loads(line)
    return data


def _measure(setup: str, url: str, seconds: int, answer: str, folder: Path) -> list[Result]:
    results = []
    targets = [
        (f"GET /topics/{TOPIC}", f"/topics/{TOPIC}", None),
        (
            "POST /api/v1/mark",
            "/api/v1/mark",
            {"question_id": f"{TOPIC}/why-gpus-for-deep-learning", "answer": answer},
        ),
    ]
    for name, path, body in targets:
        _wrk(url, path, 2, body, folder)  # warm-up
        data = _wrk(url, path, seconds, body, folder)
        results.append(
            Result(
                setup,
                name,
                data["requests"] / data["seconds"],
                data["p50_ms"],
                data["p95_ms"],
                data["p99_ms"],
                int(data["socket_errors"] + data["status_errors"]),
            )
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="5-second runs")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    seconds = 5 if args.quick else args.seconds
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install wrk")
    answer = (
        "Deep learning is mostly matrix multiplication, which is massively parallel. A GPU has thousands of "
        "simple cores built for throughput, tensor cores doing matrix multiply in hardware at low precision, "
        "and HBM with terabytes per second of memory bandwidth."
    )
    setups = [("SQLite, 1 worker (server core 0, wrk core 1)", "sqlite", 1, "0")]
    if not args.no_postgres:
        setups += [
            ("PostgreSQL, 1 worker (server core 0, wrk core 1)", "postgres", 1, "0"),
            ("PostgreSQL, 2 workers (server cores 0-1, wrk core 1)", "postgres", 2, "0-1"),
        ]
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for setup, backend, workers, cores in setups:
            data = folder / f"{backend}-{workers}"
            data.mkdir()
            database = f"sqlite:///{data / 'bench.sqlite3'}" if backend == "sqlite" else _postgres_url()
            process, url = _start(database, workers, data, cores)
            try:
                results += _measure(setup, url, seconds, answer, folder)
            finally:
                process.terminate()
                process.wait(timeout=20)
    print(f"\nwrk -t2 -c50 -d{seconds}s on 127.0.0.1, {os.cpu_count()} cores shared by server and wrk\n")
    print("| setup | target | requests/s | p50 ms | p95 ms | p99 ms | errors |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        print(
            f"| {r.setup} | {r.target} | {r.rps:.0f} | {r.p50:.1f} | {r.p95:.1f} | {r.p99:.1f} | {r.errors} |"
        )
    if any(r.errors for r in results):
        raise SystemExit("errors under load")


if __name__ == "__main__":
    main()
