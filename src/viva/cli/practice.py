"""``viva practice | answer | progress | due | export | import``: practice from the terminal.

Thin over :class:`viva.practice.Practice`: the commands read the clock (the core never
does), open one unit of work per step, and print. Each attempt is committed *before* its
marking is printed, so a session killed at any point loses nothing it showed as marked.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import asdict
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError

from viva.cli.common import (
    FormatOption,
    OutputFormat,
    bank_for,
    err,
    fail,
    marker_for,
    out,
    print_json,
    read_text_arg,
    settings,
    user_errors,
)
from viva.cli.render import show_feedback
from viva.cli.work import UserOption, database, practice_unit, unit_of_work, utc_now
from viva.errors import InvalidInput
from viva.practice import NEW_PER_SITTING, Scope


def _when(moment: datetime, now: datetime) -> str:
    """'now', 'in 10 minutes', 'in 3 days', '2 hours ago' — for people, not parsers."""
    seconds = (moment - now).total_seconds()
    if abs(seconds) < 60:
        return "now"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if abs(seconds) >= size:
            n = round(abs(seconds) / size)
            label = f"{n} {unit}{'s' if n != 1 else ''}"
            return f"in {label}" if seconds > 0 else f"{label} ago"
    return "now"


# -- viva practice -------------------------------------------------------------------------


def _read_answer() -> str:
    """Lines until an empty one; '' means skip. Ctrl-D raises EOFError (end the session)."""
    lines: list[str] = []
    while True:
        line = input("> " if not lines else "  ")
        if not line.strip():
            return "\n".join(lines).strip()
        lines.append(line)


@user_errors
def practice(
    ctx: typer.Context,
    scope: Annotated[
        str | None, typer.Argument(help="topic-id or topic-id/section-id (default: all).")
    ] = None,
    new: Annotated[
        int, typer.Option("--new", min=0, help="New questions to introduce this session.")
    ] = NEW_PER_SITTING,
    user: UserOption = None,
) -> None:
    """Practise: due reviews, follow-ups and new questions, one at a time.

    Answer, then an empty line. An empty answer skips; Ctrl-C or Ctrl-D ends the session.
    """
    config = settings(ctx)
    bank = bank_for(ctx)
    marker = marker_for(ctx)
    name = user or config.user
    where = Scope.parse(bank, scope)
    session_id = uuid.uuid4().hex
    skipped: list[str] = []
    answered = 0
    with database(ctx) as factory:
        out.print(f"[bold]Practising {where}[/] as {name}. Answer, then an empty line; Ctrl-D ends.")
        try:
            while True:
                with unit_of_work(factory, bank, name) as (service, me):
                    nxt = service.next_question(
                        me, where, utc_now(), new, session_id=session_id, exclude=skipped
                    )
                if nxt is None:
                    out.print("\n[bold]Nothing more to practise now.[/]")
                    break
                heading = {"new": "New", "due": "Review", "follow-up": "Then they push further"}[nxt.reason]
                out.print(Text(f"\n{heading} · {nxt.question.full_id}", style="bold"))
                out.print(Text(nxt.question.prompt))
                started = time.monotonic()
                answer = _read_answer()
                if not answer:
                    skipped.append(nxt.question.full_id)
                    out.print("[dim]skipped[/]")
                    continue
                duration_ms = int((time.monotonic() - started) * 1000)
                # committed before it is shown
                with unit_of_work(factory, bank, name, marker) as (service, me):
                    attempt = service.answer(
                        me,
                        nxt.question.full_id,
                        answer,
                        utc_now(),
                        duration_ms=duration_ms,
                        session_id=session_id,
                    )
                    attempt_id, marking = attempt.id, attempt.marking
                answered += 1
                show_feedback(bank, nxt.question, marking)
                choice = input("Enter to go on · r = I was right · m = I missed it: ").strip().lower()
                with unit_of_work(factory, bank, name) as (service, me):
                    if choice in {"r", "m"}:
                        service.override(me, attempt_id, "right" if choice == "r" else "missed", utc_now())
                        out.print("[dim]noted: your verdict wins[/]")
                    when = service.next_review(me, nxt.question.full_id)
                    if when is not None:
                        out.print(f"[dim]Next review {_when(when, utc_now())}.[/]")
        except (KeyboardInterrupt, EOFError):
            out.print("")
        out.print(f"Session over: {answered} answer(s) saved.")


# -- viva answer ----------------------------------------------------------------------------


@user_errors
def answer(
    ctx: typer.Context,
    question_id: Annotated[str, typer.Argument(help="topic-id/question-id")],
    answer_text: Annotated[
        str | None, typer.Option("--answer", help="The answer text ('-' reads stdin).")
    ] = None,
    answer_file: Annotated[
        Path | None, typer.Option("--answer-file", help="A file holding the answer.")
    ] = None,
    user: UserOption = None,
    format: FormatOption = OutputFormat.text,
) -> None:
    """Record one answer without the interactive loop; print the marking and the next due time."""
    text = read_text_arg(answer_text, answer_file)
    if text is None or not text.strip():
        raise InvalidInput("give the answer with --answer TEXT or --answer-file PATH")
    config = settings(ctx)
    bank = bank_for(ctx)
    question = bank.question(question_id)
    with (
        database(ctx) as factory,
        unit_of_work(factory, bank, user or config.user, marker_for(ctx)) as (service, me),
    ):
        now = utc_now()
        attempt = service.answer(me, question.full_id, text, now)
        marking = attempt.marking
        due = service.next_review(me, question.full_id) or now
    if format is OutputFormat.json:
        print_json(
            {
                "attempt_id": attempt.id,
                "question_id": question.full_id,
                "marking": marking.model_dump(mode="json"),
                "next_due": due.isoformat(),
            }
        )
        return
    show_feedback(bank, question, marking)
    out.print(f"Next review {_when(due, now)} ({due:%Y-%m-%d %H:%M} UTC).")


# -- viva progress / due ---------------------------------------------------------------------


def _bar(value: float, width: int = 20) -> str:
    filled = round(max(0.0, min(1.0, value)) * width)
    return "█" * filled + "░" * (width - filled)


@user_errors
def progress(ctx: typer.Context, user: UserOption = None, format: FormatOption = OutputFormat.text) -> None:
    """Mastery per topic and section, what is due soon, and the weakest marking points."""
    config = settings(ctx)
    bank = bank_for(ctx)
    with database(ctx) as factory, unit_of_work(factory, bank, user or config.user) as (service, me):
        now = utc_now().astimezone()  # local time zone, so "today" is the candidate's day
        mastery = service.mastery(me, now)
        forecast = service.forecast(me, now, days=8)
        weakest = service.weakest_points(me, limit=10)
    due_today = forecast[0].reviews
    next_week = sum(d.reviews for d in forecast[1:])
    if format is OutputFormat.json:
        print_json(
            {
                "user": me.name,
                "mastery": [asdict(m) for m in mastery],
                "due_today": due_today,
                "due_next_7_days": next_week,
                "forecast": [{"day": d.day.isoformat(), "reviews": d.reviews} for d in forecast],
                "weakest_points": [asdict(w) for w in weakest],
            }
        )
        return
    table = Table(title=f"Mastery · {me.name}", title_justify="left")
    for column in ("topic / section", "mastery", "", "answered"):
        table.add_column(column)
    for topic in mastery:
        table.add_row(
            f"[bold]{topic.title}[/]",
            _bar(topic.mastery),
            f"{topic.mastery:.0%}",
            f"{topic.attempted}/{topic.questions}",
        )
        for section in topic.sections:
            table.add_row(
                f"  {section.title}",
                _bar(section.mastery),
                f"{section.mastery:.0%}",
                f"{section.attempted}/{section.questions}",
            )
    out.print(table)
    out.print(f"Due today: [bold]{due_today}[/] · in the next 7 days: [bold]{next_week}[/]")
    if weakest:
        out.print("[bold]Weakest marking points[/]")
        for point in weakest:
            out.print(f"  {point.coverage:>4.0%}  {point.text}  [dim]({point.question_id})[/]")


@user_errors
def due(
    ctx: typer.Context,
    user: UserOption = None,
    within: Annotated[int, typer.Option("--within", min=0, help="Days ahead to include.")] = 7,
    format: FormatOption = OutputFormat.text,
) -> None:
    """The review queue: questions due now and within the next days, soonest first."""
    config = settings(ctx)
    bank = bank_for(ctx)
    with database(ctx) as factory, unit_of_work(factory, bank, user or config.user) as (service, me):
        now = utc_now()
        items = service.due(me, now, horizon=timedelta(days=within))
    if format is OutputFormat.json:
        print_json(
            [
                {"question_id": i.question.full_id, "due": i.due.isoformat(), "is_due": i.due <= now}
                for i in items
            ]
        )
        return
    if not items:
        out.print(f"Nothing due in the next {within} day(s).")
        return
    table = Table(title=f"Due · {me.name}", title_justify="left")
    for column in ("question", "due", "prompt"):
        table.add_column(column)
    for item in items:
        style = "bold" if item.due <= now else ""
        table.add_row(item.question.full_id, _when(item.due, now), item.question.prompt, style=style)
    out.print(table)


# -- viva export / import ----------------------------------------------------------------------


@user_errors
def export(ctx: typer.Context, user: UserOption = None) -> None:
    """Print a candidate's attempts and review states as JSON (`viva export > history.json`)."""
    config = settings(ctx)
    bank = bank_for(ctx)
    with database(ctx) as factory, unit_of_work(factory, bank, user or config.user) as (service, me):
        print_json(service.export_history(me))


@user_errors
def import_(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A file written by `viva export`.")],
    user: Annotated[str | None, typer.Option("--user", help="Import under this name instead.")] = None,
) -> None:
    """Add the history in PATH; importing the same file twice changes nothing."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise fail(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise fail(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    bank = bank_for(ctx)
    try:
        with database(ctx) as factory, practice_unit(factory, bank) as practice:
            report = practice.import_history(data, as_user=user)
    except SQLAlchemyError as exc:  # rolled back: nothing of the file was written
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise fail(f"{path}: the database refused the import, nothing was written: {reason}") from None
    err.print(
        f"imported {report.attempts_added} attempt(s) and {report.review_states} review state(s) "
        f"for {', '.join(report.users)}; {report.attempts_skipped} already present"
    )


def register(app: typer.Typer) -> None:
    app.command()(practice)
    app.command()(answer)
    app.command()(progress)
    app.command()(due)
    app.command()(export)
    app.command("import")(import_)
