"""``viva worker``: take transcription jobs from the Redis queue that ``viva serve --queue`` fills.

Runs on any machine that reaches the database and Redis. The recogniser is loaded once, at
start; jobs then run one at a time in this process (start more workers for more at once).
``--once`` takes what is queued and exits, for cron-style deployments.
"""

from __future__ import annotations

import importlib.util
from typing import Annotated

import typer

from viva.cli.common import fail, settings, user_errors


@user_errors
def worker(
    ctx: typer.Context,
    queue: Annotated[
        str | None, typer.Option(help="Redis URL of the job queue (default: VIVA_QUEUE_URL).")
    ] = None,
    database: Annotated[
        str | None, typer.Option(help="SQLAlchemy URL of the database the web app uses.")
    ] = None,
    once: Annotated[
        bool, typer.Option("--once", help="Do the jobs waiting now, then exit (for cron).")
    ] = False,
    name: Annotated[
        str | None, typer.Option(help="Worker name shown in the queue (default: random).")
    ] = None,
) -> None:
    """Transcribe queued spoken answers (a team server's slow work, off the web workers)."""
    config = settings(ctx).with_(queue_url=queue, database_url=database)
    if not config.queue_url:
        raise fail("no queue given: pass --queue redis://HOST:6379/0 or set VIVA_QUEUE_URL")
    if importlib.util.find_spec("rq") is None:
        raise fail("viva worker needs the queue extra: pip install 'viva[queue]'")
    from viva.jobqueue.worker import run_worker

    typer.echo(f"viva worker: queue {config.queue_name!r} at {_safe(config.queue_url)}", err=True)
    run_worker(config, once=once, name=name)


def _safe(url: str) -> str:
    """The Redis URL without its password, for logs."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password:
        host = parts.hostname or ""
        netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


def register(app: typer.Typer) -> None:
    app.command()(worker)
