"""``viva serve``: run the web app with uvicorn.

Options become ``VIVA_*`` environment variables before uvicorn starts, because with
several workers each worker process builds its own app from the environment
(:func:`viva.web.factory.app_from_env`). The schema is migrated once here, before any
worker starts, so workers never race to migrate.
"""

from __future__ import annotations

import errno
import importlib.util
import ipaddress
import os
import socket
from typing import Annotated

import typer

from viva.cli.common import fail, settings
from viva.settings import Settings
from viva.store import data_location, make_engine, migrate


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(
    ctx: typer.Context,
    host: Annotated[
        str | None, typer.Option(help="Address to bind (default: VIVA_HOST or 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port (default: VIVA_PORT or 8000).")] = None,
    database: Annotated[
        str | None, typer.Option(help="SQLAlchemy URL, e.g. postgresql+psycopg://… (default: SQLite file).")
    ] = None,
    single_user: Annotated[
        bool | None,
        typer.Option("--single-user/--multi-user", help="Sign VIVA_USER in automatically (loopback only)."),
    ] = None,
    force_single_user: Annotated[
        bool,
        typer.Option(
            "--force-single-user",
            help="Allow --single-user on a non-loopback address (anyone who can reach it is you).",
        ),
    ] = False,
    workers: Annotated[int | None, typer.Option(min=1, max=64, help="Worker processes.")] = None,
    queue: Annotated[
        str | None,
        typer.Option(help="Redis URL: queue transcriptions for `viva worker` instead of running them here."),
    ] = None,
    proxy_headers: Annotated[
        str, typer.Option(help="Trust X-Forwarded-* from these addresses (comma-separated, or '*').")
    ] = "127.0.0.1",
) -> None:
    """Start the web app (SQLite by default; PostgreSQL with --database)."""
    import uvicorn

    config: Settings = settings(ctx).with_(
        host=host, port=port, database_url=database, single_user=single_user, workers=workers,
        queue_url=queue,
    )
    if config.single_user and not _loopback(config.host) and not force_single_user:
        raise fail(
            f"--single-user on {config.host} would let anyone who can reach it act as {config.user!r}; "
            "bind to 127.0.0.1, or add --force-single-user if that is what you want"
        )
    if config.queue_url and importlib.util.find_spec("rq") is None:
        raise fail("--queue needs the queue extra: pip install 'viva[queue]'")
    problem = _port_problem(config.host, config.port)
    if problem:
        raise fail(problem)
    for name, value in _environment(config).items():
        os.environ[name] = value
    engine = make_engine(config.resolved_database_url)
    migrate(engine)
    engine.dispose()
    mode = f"single-user as {config.user!r}" if config.single_user else "accounts"
    if config.queue_url:
        mode += ", transcription on the job queue"
    typer.echo(f"Viva on http://{_url_host(config.host)}:{config.port} ({mode}, {config.workers} worker(s))")
    typer.echo(f"Data: {data_location(config.resolved_database_url)}")
    uvicorn.run(
        "viva.web.factory:app_from_env",
        factory=True,
        host=config.host,
        port=config.port,
        workers=config.workers,
        proxy_headers=True,
        forwarded_allow_ips=proxy_headers,
        log_level="info",
        access_log=False,
    )


def _port_problem(host: str, port: int) -> str | None:
    """Why uvicorn could not listen on ``host:port`` (in one line), or None when it can.

    Binds a throwaway socket the way uvicorn will (``SO_REUSEADDR``, so a port merely in
    TIME_WAIT is not reported), then closes it at once."""
    how = f"choose another with --port N or VIVA_PORT=N (e.g. --port {port + 1 if port < 65535 else 8001})"
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        return f"cannot listen on {host!r}: no such address; choose another with --host or VIVA_HOST"
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return f"port {port} on {host} is taken (is Viva already running?); {how}"
                if exc.errno == errno.EACCES:
                    return f"no permission to listen on port {port}; {how}"
                return f"cannot listen on {host}:{port}: {exc.strerror}"
    return None


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _environment(config: Settings) -> dict[str, str]:
    values = {
        "VIVA_CONTENT_DIR": str(config.content_dir),
        "VIVA_DATA_DIR": str(config.data_dir),
        "VIVA_DATABASE_URL": config.database_url,
        "VIVA_SINGLE_USER": "true" if config.single_user else "false",
        "VIVA_HOST": config.host,
        "VIVA_PORT": str(config.port),
        "VIVA_WORKERS": str(config.workers),
        "VIVA_QUEUE_URL": config.queue_url,
    }
    return {k: v for k, v in values.items() if v}


def register(app: typer.Typer) -> None:
    app.command()(serve)
