"""The ``viva`` command: thin Typer commands over the core, Rich output."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from viva import __version__
from viva.cli import bank, browse, interview, mark, practice, serve, speech, worker
from viva.cli.common import Started
from viva.settings import Settings

app = typer.Typer(
    name="viva",
    help="Practise technical interview questions out loud.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)
app.add_typer(bank.app, name="bank")
browse.register(app)
mark.register(app)
speech.register(app)
practice.register(app)
interview.register(app)
serve.register(app)
worker.register(app)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"viva {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    content: Annotated[
        Path | None, typer.Option(help="Question bank folder.", envvar="VIVA_CONTENT_DIR")
    ] = None,
    database: Annotated[
        str | None, typer.Option(help="SQLAlchemy database URL.", envvar="VIVA_DATABASE_URL")
    ] = None,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True)] = False,
) -> None:
    ctx.obj = Started(Settings.from_env(content_dir=content, database_url=database))


def main() -> None:
    app()
