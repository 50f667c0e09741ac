"""``viva interview``: a timed mock interview in the terminal, then the debrief.

Thin over :class:`viva.practice.interviews.Interviews`: this reads the clock, commits each
answer before asking the next question (leaving midway keeps what was answered), and prints.
A terminal has no microphone Viva can rely on, so an answer is typed, or spoken into a
recording and given as ``@path/to/answer.wav`` (transcribed like ``viva transcribe``).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from viva.cli.common import (
    FormatOption,
    OutputFormat,
    authored,
    bank_for,
    err,
    marker_for,
    out,
    print_json,
    settings,
    user_errors,
)
from viva.cli.render import VERDICT_COLOUR
from viva.cli.work import UserOption, database, unit_of_work, utc_now
from viva.errors import InvalidInput
from viva.practice import debrief as debriefs
from viva.practice import interview as rules
from viva.practice.interviews import Interviews, scope_topics
from viva.speech.transcript import Transcript

HEADINGS = {
    "question": "Question",
    "misconception": "They push further on what you said",
    "missed-point": "They push further on what you left out",
    "generated": "They push further on what you left out",
    "follow-up": "They push further",
}


def _clock(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def _spoken(ctx: typer.Context, line: str, question_id: str | None) -> Transcript:
    from viva.cli.speech import transcribe_for_cli  # speech is optional: load it only when used

    path = Path(line[1:].strip()).expanduser()
    if not path.is_file():
        raise InvalidInput(f"no recording at {path}")
    return transcribe_for_cli(ctx, path, question_id)


@user_errors
def interview(
    ctx: typer.Context,
    topics: Annotated[
        list[str] | None, typer.Argument(help="Topic ids (default: every topic).", show_default=False)
    ] = None,
    minutes: Annotated[
        int, typer.Option("--minutes", min=1, help="Length of the interview.")
    ] = rules.MINUTES,
    questions: Annotated[
        int | None, typer.Option("--questions", min=1, help="Questions to ask (default: from --minutes).")
    ] = None,
    clock: Annotated[
        int, typer.Option("--clock", min=10, help="Soft limit per question, in seconds.")
    ] = rules.SOFT_LIMIT_S,
    due: Annotated[bool, typer.Option("--due", help="Only questions that are due.")] = False,
    weak: Annotated[
        bool, typer.Option("--weak", help="Drill the questions whose points you missed lately.")
    ] = False,
    drill: Annotated[
        list[str] | None,
        typer.Option("--drill", help="Drill these question ids (repeatable).", show_default=False),
    ] = None,
    show: Annotated[str | None, typer.Option("--show", help="Print a past interview's debrief.")] = None,
    past: Annotated[bool, typer.Option("--past", help="List past interviews.")] = False,
    user: UserOption = None,
    format: FormatOption = OutputFormat.text,
) -> None:
    """A mock interview: several questions out loud, a push further after each, no marks until
    the debrief. Answer, then an empty line; `@file.wav` gives a spoken answer; Ctrl-D ends early."""
    config = settings(ctx)
    bank = bank_for(ctx)
    name = user or config.user
    with database(ctx) as factory:
        if past or show:
            with unit_of_work(factory, bank, name) as (practice, me):
                service = Interviews(practice.session, bank)
                if past:
                    _list(service.past(me), format)
                    return
                assert show is not None
                found = service.get(me, show)
                _print(service.debrief(me, found), service.points_missed_most(me), format)
                return
        with unit_of_work(factory, bank, name) as (practice, me):
            service = Interviews(practice.session, bank)
            if weak:
                started = service.drill_weak_points(me, utc_now())
            elif drill:
                started = service.drill(me, drill, utc_now())
            else:
                started = service.start(
                    me,
                    scope_topics(bank, topics or []),
                    utc_now(),
                    minutes=minutes,
                    questions=questions,
                    soft_limit_s=clock,
                    due_only=due,
                )
            key, total, soft = started.key, len(started.plan), started.soft_limit_s
        if format is OutputFormat.text:
            out.print(
                f"[bold]Mock interview[/] · {total} question(s), about {minutes} minutes, "
                f"{_clock(soft)} a question (a soft limit). No marks until the end.\n"
                "Answer, then an empty line. @file.wav answers with a recording. Ctrl-D ends early."
            )
        _run(ctx, factory, bank, name, key, soft, format)
        with unit_of_work(factory, bank, name) as (practice, me):
            service = Interviews(practice.session, bank)
            found = service.get(me, key)
            service.finish(found, utc_now())
            result, most = service.debrief(me, found), service.points_missed_most(me)
    _print(result, most, format)


def _run(
    ctx: typer.Context, factory: Any, bank: Any, name: str, key: str, soft: int, format: OutputFormat
) -> None:
    marker = marker_for(ctx)
    with unit_of_work(factory, bank, name) as (practice, me):
        step = Interviews(practice.session, bank).step(
            Interviews(practice.session, bank).get(me, key), utc_now()
        )
    try:
        while step is not None:
            _ask(step, soft, format)
            started = time.monotonic()
            text, heard = _answer(ctx, step.question.full_id, format)
            taken = time.monotonic() - started
            if format is OutputFormat.text:
                over = " — over the soft limit" if taken > soft else ""
                out.print(Text(f"  ({_clock(taken)} of {_clock(soft)}{over})", style="dim"))
            # committed before the next question is asked
            with unit_of_work(factory, bank, name, marker) as (practice, me):
                service = Interviews(practice.session, bank, marker)
                step = service.answer(
                    me,
                    service.get(me, key),
                    step.question.full_id,
                    text,
                    utc_now(),
                    heard=heard,
                    duration_ms=None if heard else int(taken * 1000),
                )
    except (KeyboardInterrupt, EOFError):
        (out if format is OutputFormat.text else err).print(
            "\n[dim]Interview ended early; your answers so far are kept.[/]"
        )


def _ask(step: rules.Step, soft: int, format: OutputFormat) -> None:
    if format is not OutputFormat.text:
        err.print(f"\n{step.question.prompt}")
        return
    heading = HEADINGS[step.kind]
    where = f"{heading} {step.number} of {step.of}" if step.kind == "question" else heading
    out.print(Text(f"\n{where} · clock {_clock(soft)}", style="bold"))
    out.print(Text(step.question.prompt))


def _read_answer(format: OutputFormat) -> str:
    """Lines until an empty one. With ``--format json`` the prompts go to stderr, so stdout
    holds only the debrief's JSON. Ctrl-D raises EOFError (end the interview)."""
    lines: list[str] = []
    while True:
        prompt = "> " if not lines else "  "
        if format is OutputFormat.json:
            err.print(prompt, end="")
            prompt = ""
        line = input(prompt)
        if not line.strip():
            return "\n".join(lines).strip()
        lines.append(line)


def _answer(ctx: typer.Context, question_id: str, format: OutputFormat) -> tuple[str, Transcript | None]:
    say = out if format is OutputFormat.text else err
    while True:
        text = _read_answer(format)
        if text.startswith("@") and "\n" not in text:
            try:
                heard = _spoken(ctx, text, question_id)
            except InvalidInput as error:
                say.print(f"[red]{error.message}[/]")
                continue
            say.print(Text(f"  heard: {heard.text}", style="italic"))
            return heard.text, heard
        if text:
            return text, None
        say.print("[dim]Say something (an interviewer waits), or Ctrl-D to end the interview.[/]")


# -- the debrief ------------------------------------------------------------------------------


def _list(found: list[Any], format: OutputFormat) -> None:
    rows = [
        {
            "key": i.key,
            "kind": i.kind,
            "started_at": i.started_at.isoformat(),
            "finished": i.finished_at is not None,
            "topics": i.topics,
            "questions": len(i.plan),
        }
        for i in found
    ]
    if format is OutputFormat.json:
        print_json(rows)
        return
    if not rows:
        out.print("No interviews yet: `viva interview` starts one.")
    for row in rows:
        out.print(f"{row['started_at'][:16]}  {row['kind']:<9}  {row['questions']} question(s)  {row['key']}")


def _print(result: debriefs.Debrief, most: list[debriefs.PointTally], format: OutputFormat) -> None:
    if format is OutputFormat.json:
        print_json(debriefs.as_json(result, most))
        return
    out.print(Text("\nDebrief", style="bold underline"))
    if not result.items:
        out.print("Nothing was answered.")
    for n, item in enumerate(result.items, start=1):
        _print_item(n, item)
    out.print(Text("\nOverall", style="bold"))
    for topic in result.readiness:
        out.print(
            Text(f"  Readiness {topic.figure:.0%} ({topic.band}) · ", style="bold").append(topic.statement)
        )
    if result.strongest_topic and result.weakest_topic and len(result.readiness) > 1:
        out.print(f"  Strongest topic: {result.strongest_topic.title}; weakest: {result.weakest_topic.title}")
    for label, points in (
        ("Strongest points", result.strongest_points),
        ("Weakest points", result.weakest_points),
    ):
        if points:
            out.print(Text(f"  {label}:", style="bold"))
            for p in points:
                out.print(Text(f"    {p.made}/{p.asked}  ").append_text(authored(p.text)))
    if most:
        out.print(Text("  Missed most often, across all your answers:", style="bold"))
        for p in most[:5]:
            out.print(Text(f"    missed {p.asked - p.made}×  ").append_text(authored(p.text)))
    if result.practise_next:
        drill = " ".join(f"--drill {q}" for q in result.practise_next)
        out.print(Text("  Practise next: ", style="bold").append(f"viva interview {drill}"))
    out.print(f"[dim]Interview {result.key} · `viva interview --show {result.key}` prints this again.[/]")


def _print_item(n: int, item: debriefs.DebriefItem) -> None:
    kind = "" if item.kind == "question" else f" ({HEADINGS[item.kind].lower()})"
    out.print(Text(f"\n{n}. {item.prompt}{kind}", style="bold"))
    out.print(
        Text(f"   {item.verdict.upper()}", style=VERDICT_COLOUR[item.verdict]).append(
            f"  score {item.score:.2f}"
        )
    )
    out.print(Text(f"   You said: {item.answer}", style="italic"))
    for said in item.covered:
        quote = " … ".join(f"“{e}”" for e in said.evidence)
        out.print(
            Text("   ✓ ", style="green").append_text(authored(said.text)).append(f"  {quote}", style="cyan")
        )
    for said in item.missed:
        out.print(Text("   ✗ ", style="red").append_text(authored(said.text)))
    for said in item.misconceptions:
        quote = " … ".join(f"“{e}”" for e in said.evidence)
        out.print(
            Text("   ✗ Misconception: ", style="red").append_text(authored(said.text)).append(f"  {quote}")
        )
        out.print(Text("     → ").append_text(authored(said.correction)))
    if item.delivery:
        d = item.delivery
        first = d.get("first_point_s")
        out.print(
            f"   Delivery: {d['words_per_minute']:.0f} words a minute, {len(d['fillers'])} filler(s), "
            f"{len(d['pauses'])} long pause(s), "
            + (f"first point after {first:.0f} s" if first is not None else "no point made")
        )
    out.print(f"   Read: {item.lesson.title} ({item.lesson.section_id})")
    if not item.scheduled:
        out.print("[dim]   (a push made from the point: marked, not scheduled)[/]")


def register(app: typer.Typer) -> None:
    app.command()(interview)
