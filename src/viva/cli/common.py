"""What every command shares: settings, the marker, the bank, consoles, and error exits."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.text import Text

from viva.bank import Bank, load_bank
from viva.errors import VivaError
from viva.marking import InBank, Marker, backend_names, build_marker
from viva.settings import Settings

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)


class OutputFormat(StrEnum):
    """What every command with ``--format`` prints: Rich text for people, JSON for programs."""

    text = "text"
    json = "json"


FormatOption = Annotated[OutputFormat, typer.Option("--format", help="Output format.")]

P = ParamSpec("P")
R = TypeVar("R")


@dataclass
class Started:
    """What the ``viva`` callback builds once per run and keeps on the Typer context: the
    settings, and the marker they ask for (built on first use, so commands that never
    mark never load a model)."""

    settings: Settings
    _marker: Marker | None = field(default=None, repr=False)

    @property
    def marker(self) -> Marker:
        if self._marker is None:
            self._marker = build_marker(self.settings)
        return self._marker


def _started(ctx: typer.Context | None) -> Started:
    if ctx is not None:
        root = ctx.find_root()
        if isinstance(root.obj, Started):
            return root.obj
        if isinstance(root.obj, Settings):
            wrapped = Started(root.obj)
            root.obj = wrapped
            return wrapped
        started = Started(Settings.from_env())
        root.obj = started
        return started
    return Started(Settings.from_env())


def settings(ctx: typer.Context | None = None) -> Settings:
    """The settings built once in the app callback (environment plus global options)."""
    return _started(ctx).settings


def check_backend(name: str) -> None:
    """Fail in one line (exit 1) when ``name`` is not a marking backend, listing those there are."""
    from viva.marking.backends import get_backend

    if name in backend_names():
        return
    try:
        get_backend(name)  # also accepts aliases backend_names() does not list
    except VivaError:
        raise fail(f"no marking backend {name!r}; choose one of: {', '.join(backend_names())}") from None


def marker_for(ctx: typer.Context | None = None, backend: str | None = None) -> Marker:
    """The run's one marker, or, for an explicit ``--backend``, the one that names; either
    knows the bank, so an answer to another of its questions is marked as one."""
    started = _started(ctx)
    if backend is not None:
        check_backend(backend)
    if backend is None or backend == started.settings.marking_backend:
        return InBank(started.marker, bank_for(ctx))
    return InBank(build_marker(started.settings.with_(marking_backend=backend)), bank_for(ctx))


@functools.lru_cache(maxsize=4)
def _cached_bank(content_dir: str) -> Bank:
    bank, errors = load_bank(content_dir)
    if errors:
        err.print(
            f"[yellow]warning:[/] the bank has {len(errors)} error(s); "
            f"run `viva bank check {content_dir}` to see them"
        )
    return bank


def bank_for(ctx: typer.Context | None = None) -> Bank:
    return _cached_bank(str(settings(ctx).content_dir))


def authored(markdown: str) -> Text:
    """Authored Markdown (a point, a correction) rendered as Rich renders it, as one inline
    Text, so it can sit on a line after a symbol: ``**and**`` shows as bold "and"."""
    options = out.options.update(width=10_000, no_wrap=True)
    lines = [
        [seg for seg in line if not seg.control]
        for line in out.render_lines(Markdown(markdown.strip()), options, pad=False)
    ]
    rendered = Text()
    for number, line in enumerate(ln for ln in lines if "".join(s.text for s in ln).strip()):
        if number:
            rendered.append("\n")
        for seg in line:
            rendered.append(seg.text, seg.style)
    rendered.rstrip()
    return rendered


def fail(message: str, code: int = 1) -> typer.Exit:
    # one line, however narrow the terminal; the message is plain text ("viva[queue]" is no markup)
    err.print(f"[red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def user_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a :class:`VivaError` into one line on stderr and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except VivaError as exc:
            raise fail(str(exc)) from None

    return wrapper


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def read_text_arg(answer: str | None, answer_file: Path | None) -> str | None:
    """``--answer TEXT``, ``--answer-file PATH`` or ``-`` (standard input)."""
    if answer == "-":
        return sys.stdin.read()
    if answer is not None:
        return answer
    if answer_file is not None:
        if str(answer_file) == "-":
            return sys.stdin.read()
        try:
            return answer_file.read_text(encoding="utf-8")
        except OSError as exc:
            raise fail(f"cannot read {answer_file}: {exc.strerror}") from None
    return None
