"""``viva mark`` and ``viva eval asag``: thin commands over :mod:`viva.marking`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from viva.bank import Question
from viva.cli.common import (
    FormatOption,
    OutputFormat,
    bank_for,
    check_backend,
    fail,
    marker_for,
    out,
    print_json,
    read_text_arg,
    settings,
    user_errors,
)
from viva.cli.render import show_mark
from viva.cli.speech import print_delivery, spoken_json, transcribe_for_cli
from viva.errors import InvalidInput
from viva.marking import question_from_reference
from viva.marking.evaluate import evaluate, read_jsonl

eval_app = typer.Typer(help="Measure the marker against labelled data.", no_args_is_help=True)


BackendOption = Annotated[
    str | None,
    typer.Option("--backend", help="Marker: default, lexical, semantic, llm, auto or a plugin's."),
]


def _batch_question(ctx: typer.Context, row: dict[str, Any], number: int) -> tuple[Question, str]:
    if "answer" not in row:
        raise InvalidInput(f"line {number}: missing field 'answer'")
    if "question_id" in row:
        return bank_for(ctx).question(str(row["question_id"])), str(row["answer"])
    if "question" in row and "reference" in row:
        return question_from_reference(str(row["question"]), str(row["reference"])), str(row["answer"])
    raise InvalidInput(f"line {number}: needs question_id, or question and reference")


@user_errors
def mark(
    ctx: typer.Context,
    question_id: Annotated[
        str | None, typer.Argument(help="topic-id/question-id; `-` after it reads stdin.")
    ] = None,
    stdin: Annotated[
        str | None, typer.Argument(help="`-` to read the answer from standard input.", show_default=False)
    ] = None,
    answer: Annotated[str | None, typer.Option("--answer", help="The answer text.")] = None,
    answer_file: Annotated[
        Path | None, typer.Option("--answer-file", help="Read the answer from a file.")
    ] = None,
    batch: Annotated[
        Path | None, typer.Option("--batch", help="JSONL of answers; prints one Marking per line.")
    ] = None,
    audio: Annotated[
        Path | None, typer.Option("--audio", help="Mark a recording (transcribed first).")
    ] = None,
    backend: BackendOption = None,
    format: FormatOption = OutputFormat.text,
) -> None:
    """Mark an answer against a question's points (or a batch of answers)."""
    engine = marker_for(ctx, backend)
    if batch is not None:
        for number, row in enumerate(read_jsonl(batch), 1):
            question, line_answer = _batch_question(ctx, row, number)
            sys.stdout.write(engine.mark(question, line_answer).model_dump_json() + "\n")
        return
    if question_id is None:
        raise fail("give a QUESTION_ID, or --batch FILE.jsonl")
    spoken = transcribe_for_cli(ctx, audio, question_id) if audio is not None else None
    text: str | None = spoken.text if spoken else read_text_arg("-" if stdin == "-" else answer, answer_file)
    if text is None:
        raise fail("give the answer with --answer TEXT, --answer-file PATH or - (standard input)")
    marking = engine.mark(bank_for(ctx).question(question_id), text)
    if format is OutputFormat.json:
        doc = json.loads(marking.model_dump_json())
        print_json(doc | spoken_json(spoken, marking) if spoken else doc)
    else:
        show_mark(marking)
        if spoken:
            print_delivery(spoken, marking)


@eval_app.command("asag")
@user_errors
def asag(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="Labelled JSONL: question, reference, answer, score|label.")],
    backend: BackendOption = None,
    format: FormatOption = OutputFormat.text,
) -> None:
    """Mark a labelled short-answer set; print Pearson, Spearman, RMSE, AUC and speed."""
    if not path.exists():
        raise fail(f"no such file: {path}")
    if backend is not None:
        check_backend(backend)
    report = evaluate(read_jsonl(path), backend or settings(ctx).marking_backend).as_dict()
    if format is OutputFormat.json:
        print_json(report)
        return
    for key, value in report.items():
        out.print(f"{key:>14}  {'n/a' if value is None else value}")


def register(app: typer.Typer) -> None:
    app.command()(mark)
    app.add_typer(eval_app, name="eval")
