"""``viva bank …``: check, export, lint and stats."""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Column, Table

from viva.bank import load_bank
from viva.bank.export import bank_dict
from viva.bank.stats import bank_counts
from viva.cli.common import (
    FormatOption,
    OutputFormat,
    check_backend,
    err,
    out,
    print_json,
    settings,
    user_errors,
)

app = typer.Typer(help="Check and export the question bank.", no_args_is_help=True)


class ExportFormat(StrEnum):
    json = "json"


@app.command()
def check(
    ctx: typer.Context,
    path: Annotated[Path | None, typer.Argument(help="Content folder or one topic folder.")] = None,
) -> None:
    """Validate bank files; print `path:line: message` per error, exit 1 if any."""
    root = path or settings(ctx).content_dir
    bank, errors = load_bank(root)
    for error in errors:
        out.print(str(error), markup=False)
    questions = sum(1 for _ in bank.questions())
    summary = f"{len(bank.topics)} topic(s), {questions} question(s), {len(errors)} error(s)"
    err.print(("[red]" if errors else "[green]") + summary + "[/]")
    if errors:
        raise typer.Exit(1)


@app.command()
def export(
    ctx: typer.Context,
    format: Annotated[ExportFormat, typer.Option("--format", help="Output format.")] = ExportFormat.json,
    path: Annotated[Path | None, typer.Option(help="Content folder (default: the configured one).")] = None,
) -> None:
    """Print the whole bank as one JSON document."""
    bank, errors = load_bank(path or settings(ctx).content_dir)
    if errors:
        err.print(f"[yellow]warning:[/] {len(errors)} error(s) in the bank; those parts are left out")
    print_json(bank_dict(bank))


@app.command()
def stats(
    ctx: typer.Context,
    path: Annotated[Path | None, typer.Argument(help="Content folder or one topic folder.")] = None,
    format: FormatOption = OutputFormat.text,
) -> None:
    """Per topic: sections, top-level questions, follow-ups, probes and words of each lesson."""
    bank, errors = load_bank(path or settings(ctx).content_dir)
    if errors:
        err.print(f"[yellow]warning:[/] {len(errors)} error(s) in the bank; those parts are left out")
    rows = bank_counts(bank)
    if format is OutputFormat.json:
        print_json([dataclasses.asdict(row) for row in rows])
        return
    counted = ("sections", "questions", "follow_ups", "probes")
    table = Table("sections", "questions", "follow-ups", "probes", "lesson words")
    table.columns.insert(0, Column("topic", no_wrap=True))
    for row in rows:
        words = ", ".join(str(n) for n in row.lesson_words)
        table.add_row(row.topic_id, *(str(getattr(row, name)) for name in counted), words)
    total = [str(sum(getattr(row, name) for row in rows)) for name in counted]
    table.add_row("all", *total, str(sum(sum(row.lesson_words) for row in rows)), style="bold")
    out.print(table)


@app.command()
@user_errors
def lint(
    ctx: typer.Context,
    path: Annotated[Path | None, typer.Argument(help="Content folder or one topic folder.")] = None,
    backend: Annotated[
        str,
        typer.Option("--backend", help="Marker: default, lexical, semantic, llm, auto or a plugin's."),
    ] = "default",
    weakest: Annotated[int, typer.Option(help="How many of the weakest passes to list.")] = 5,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Also fail when a question lacks a sample of each kind "
            "or a misconception phrasing is too short to state a claim.",
        ),
    ] = False,
    one_word: Annotated[bool, typer.Option("--one-word", help="List one-word accepted phrasings.")] = False,
) -> None:
    """Mark every model and sample answer against its own points; exit 1 on any mismatch."""
    from viva.marking.lint import (
        incomplete_questions,
        lint_bank,
        missing_sample_kinds,
        one_word_accepts,
        unclaimed_phrasings,
        weakest_passes,
    )

    check_backend(backend)
    bank, errors = load_bank(path or settings(ctx).content_dir)
    if errors:
        err.print(f"[yellow]warning:[/] {len(errors)} error(s) in the bank; run `viva bank check`")
    results = lint_bank(bank, backend)
    failures = [r for r in results if not r.passed]
    for failure in failures:
        out.print(failure.describe(), markup=False)
    if weakest > 0:
        err.print("[bold]weakest passing model answers:[/]")
        for check in weakest_passes(results, weakest):
            err.print(f"  {check.marking.score:.2f}  {check.question_id}", markup=False)
    summary = f"{len(results)} answer(s) marked, {len(failures)} not as their authors expect"
    err.print(("[red]" if failures else "[green]") + summary + "[/]")
    singles = one_word_accepts(bank)
    if one_word:
        for note in singles:
            out.print(note.describe(), markup=False)
    err.print(
        f"{len(singles)} one-word accepted phrasing(s)" + ("" if one_word else " (--one-word lists them)")
    )
    unkinded = missing_sample_kinds(bank)
    if strict:
        for note in unkinded:
            out.print(note.describe(), markup=False)
    err.print(
        ("[red]" if strict and unkinded else "")
        + f"{len(unkinded)} question(s) without a paraphrase, contrast, partial and fluent-wrong sample"
        + ("[/]" if strict and unkinded else "")
    )
    unclaimed = unclaimed_phrasings(bank)
    for note in unclaimed:
        out.print(note.describe(), markup=False)
    if unclaimed:
        err.print(
            ("[red]" if strict else "[yellow]")
            + f"{len(unclaimed)} misconception phrasing(s) too short to state a claim, "
            "which the marker ignores[/]"
        )
    incomplete = incomplete_questions(bank)
    for note in incomplete:
        out.print(note.describe(), markup=False)
    if incomplete:
        err.print(f"[red]{len(incomplete)} question(s) missing tags, a misconception or a weak sample[/]")
    if failures or incomplete or (strict and (unkinded or unclaimed)):
        raise typer.Exit(1)
