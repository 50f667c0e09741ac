"""``viva transcribe FILE``: what the speech engine heard, and how it was delivered."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from viva.cli.common import FormatOption, OutputFormat, bank_for, err, out, print_json, settings, user_errors
from viva.marking.result import Marking
from viva.speech import Delivery, Transcript, hotwords_for, measure_delivery, transcribe_file


def transcribe_for_cli(
    ctx: typer.Context, audio: Path, question_id: str | None = None, model: str | None = None
) -> Transcript:
    """Transcribe a file for a command, biased toward the question's terms when one is named."""
    config = settings(ctx).with_(whisper_model=model)
    hotwords = hotwords_for(bank_for(ctx).question(question_id)) if question_id else None
    err.print(f"[dim]transcribing {audio.name} with {config.whisper_model}…[/]")
    return transcribe_file(audio, config, hotwords)


def transcript_json(transcript: Transcript, delivery: Delivery) -> dict[str, Any]:
    """The transcript and its delivery measures as one JSON object (also used by `mark`)."""
    return {
        "text": transcript.text,
        "duration_s": transcript.duration_s,
        "words": [w.model_dump() for w in transcript.words],
        "words_per_minute": delivery.words_per_minute,
        "fillers": [f.model_dump() for f in delivery.fillers],
        "fillers_per_minute": delivery.fillers_per_minute,
        "pauses": [p.model_dump() for p in delivery.pauses],
        "first_point_s": delivery.first_point_s,
        "guidance": [g.model_dump() for g in delivery.guidance],
        "engine": transcript.engine,
    }


def spoken_json(transcript: Transcript, marking: Marking) -> dict[str, Any]:
    """What `viva mark --audio` adds to the Marking's JSON: the transcript and its delivery."""
    delivery = measure_delivery(transcript, marking)
    return {
        "transcript": transcript.model_dump(),
        "delivery": delivery.model_dump(exclude={"duration_s"}),
    }


def print_delivery(transcript: Transcript, marking: Marking | None = None) -> None:
    """Delivery measures beside plain guidance, for the terminal."""
    delivery = measure_delivery(transcript, marking)
    table = Table(title="Delivery", show_header=False)
    table.add_column("measure")
    table.add_column("")
    table.add_column("guidance")
    marks = {"ok": "[green]✓[/]", "work-on": "[yellow]![/]"}
    for guidance in delivery.guidance:
        table.add_row(guidance.measure, marks[guidance.status], guidance.message)
    if delivery.first_point_s is not None:
        table.add_row("first point", "", f"{delivery.first_point_s:.0f} s in")
    table.add_row("length", "", f"{delivery.duration_s:.1f} s, {delivery.words} words")
    out.print(table)


@user_errors
def transcribe(
    ctx: typer.Context,
    audio: Annotated[Path, typer.Argument(help="A recording: WebM/Opus, Ogg/Opus, MP4/AAC, WAV, …")],
    question: Annotated[
        str | None, typer.Option(help="topic-id/question-id whose terms bias the recogniser.")
    ] = None,
    model: Annotated[
        str | None, typer.Option(help="Whisper model name or folder (default: VIVA_WHISPER_MODEL).")
    ] = None,
    format: FormatOption = OutputFormat.text,
) -> None:
    """Transcribe a recording and measure its delivery (pace, fillers, pauses)."""
    transcript = transcribe_for_cli(ctx, audio, question, model)
    if format is OutputFormat.json:
        print_json(transcript_json(transcript, measure_delivery(transcript)))
        return
    out.print(transcript.text)
    print_delivery(transcript)


def register(app: typer.Typer) -> None:
    app.command()(transcribe)
