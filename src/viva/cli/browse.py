"""``viva topics`` and ``viva show``: read the bank from the terminal."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table

from viva.bank import Question
from viva.cli.common import bank_for, out, user_errors


def topics(ctx: typer.Context) -> None:
    """List topics in site order with section and question counts."""
    bank = bank_for(ctx)
    table = Table(title="Topics")
    table.add_column("id")
    table.add_column("title")
    table.add_column("sections", justify="right")
    table.add_column("questions", justify="right")
    for topic in bank.topics:
        table.add_row(
            topic.id, topic.title, str(len(topic.sections)), str(sum(1 for _ in topic.all_questions()))
        )
    out.print(table)


@user_errors
def show(
    ctx: typer.Context,
    question_id: Annotated[str, typer.Argument(help="topic-id/question-id")],
) -> None:
    """Show a question with its model answer, marking points and misconceptions."""
    bank = bank_for(ctx)
    question = bank.question(question_id)
    section = bank.section(f"{question.topic_id}/{question.section_id}")
    _show(question, section.title)
    for follow_up in bank.follow_ups(question):
        out.print(f"\n[bold]Then they push further:[/] {follow_up.full_id}")
        _show(follow_up, section.title)


def _show(question: Question, section_title: str) -> None:
    out.print(
        Panel(question.prompt, title=question.full_id, subtitle=f"{question.difficulty} · {section_title}")
    )
    out.print("[bold]If this comes up in an interview[/]")
    out.print(Markdown(question.answer))
    out.print("[bold]What gets marked up[/]")
    for point in question.points:
        out.print(f"  • {point.text}  [dim]({point.id})[/]")
    if question.misconceptions:
        out.print("[bold]Misconceptions[/]")
        for m in question.misconceptions:
            out.print(f"  ✗ {m.text}\n    → {m.correction}")


def register(app: typer.Typer) -> None:
    app.command()(topics)
    app.command()(show)
