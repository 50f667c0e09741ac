"""The real Redis at 127.0.0.1:6379 for queue tests: a queue name of their own, cleaned up after.

Every test gets a fresh queue name (RQ puts it in every key of the queue and its registries)
in a database number set aside for tests, so parallel runs never see each other's jobs and
nothing is flushed wholesale. Outside CI the tests skip when no Redis answers; with
``CI=true`` they fail, since CI has Redis.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import pytest

REDIS_URL = os.environ.get("VIVA_TEST_REDIS_URL", "redis://127.0.0.1:6379/12")
IN_CI = os.environ.get("CI", "").lower() == "true"


def need_redis() -> str:
    """The test Redis URL, or skip (fail in CI) with the reason none answers."""
    try:
        import redis
    except ImportError:
        missing("the queue extra is not installed (pip install -e '.[queue]')")
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        missing(f"no Redis answers at {REDIS_URL}: {exc}")
    finally:
        client.close()
    return REDIS_URL


def missing(reason: str) -> NoReturn:
    """Skip with ``reason``; in CI, where every service and tool is installed, fail instead."""
    if IN_CI:
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


@contextmanager
def fresh_queue() -> Iterator[tuple[str, str]]:
    """(Redis URL, queue name) for one test; every key of that queue is deleted afterwards."""
    url = need_redis()
    import redis
    name = f"viva-test-{uuid.uuid4().hex[:12]}"
    try:
        yield url, name
    finally:
        client = redis.Redis.from_url(url)
        try:
            for key in client.scan_iter(match="rq:job:*", count=500):
                if client.type(key) == b"hash" and client.hget(key, "origin") == name.encode():
                    job_id = key.decode().split(":", 2)[2]
                    for extra in client.scan_iter(match=f"rq:*{job_id}*", count=500):
                        client.delete(extra)
                    client.delete(key)
            for key in client.scan_iter(match=f"*{name}*", count=500):
                client.delete(key)
            for registry in (b"rq:queues", b"rq:workers"):  # RQ's indexes name our queue and workers
                stale = [m for m in client.smembers(registry) if name.encode() in m]
                if stale:
                    client.srem(registry, *stale)
        finally:
            client.close()
