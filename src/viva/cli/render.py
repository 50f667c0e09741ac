"""How the terminal shows a :class:`~viva.marking.result.Marking`: the one place that draws it.

Two commands show a marking, in two layouts of the same parts:

- ``viva mark`` (:func:`show_mark`), for authors checking the marker: the answer with its
  evidence highlighted, one line per point, the misconceptions, why the score is what it is,
  and the score with the backend last;
- ``viva answer`` and ``viva practice`` (:func:`show_feedback`), for candidates: the verdict
  first, the points with the words that earned them, the misconceptions with what was said,
  then the model answer, what gets marked up and where the missed points are taught.

Every part (a point's line, a misconception, the notes on the score) is drawn by one
function here; a :class:`Layout` holds the only things the two layouts do differently.
Authored text is Markdown (rendered); the candidate's words are never read as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.markdown import Markdown
from rich.padding import Padding
from rich.text import Text

from viva.bank import Bank, Question
from viva.cli.common import authored, out
from viva.marking.explain import point_tags, score_reasons
from viva.marking.result import Marking, MisconceptionMark, PointMark, Span
from viva.practice.lessons import lesson_for

VERDICT_COLOUR = {"strong": "green", "partial": "yellow", "weak": "red"}
STATUS = {"covered": ("✓", "green"), "partial": ("~", "yellow"), "missed": ("✗", "red")}
"""A point's status as a symbol and its colour."""


@dataclass(frozen=True, slots=True)
class Layout:
    """What differs between the author's view (``viva mark``) and the candidate's."""

    indent: str
    """Before each point, misconception and note."""
    joiner: str
    """Between two quotes of the answer."""
    evidence_style: str
    """The quoted evidence after a point."""
    misconception: str
    """The label before a misconception's text."""
    said: bool
    """Whether a misconception's evidence ("you said …") is shown."""
    arrow_style: str
    """The arrow before a correction."""
    whole_line: bool
    """Whether a point's or a misconception's colour runs over its whole line, not only its
    symbol or label."""

    def lead(self, label: str, colour: str) -> Text:
        """The indent and ``label`` in ``colour``, then a space: where a line starts."""
        if self.whole_line:
            return Text(f"{self.indent}{label} ", style=colour)
        return Text(self.indent).append(label, style=colour).append(" ")


AUTHOR = Layout(
    indent="",
    joiner="; ",
    evidence_style="dim",
    misconception="misconception:",
    said=False,
    arrow_style="bold",
    whole_line=False,
)
CANDIDATE = Layout(
    indent="  ",
    joiner=" … ",
    evidence_style="italic cyan",
    misconception="Misconception:",
    said=True,
    arrow_style="",
    whole_line=True,
)


def quoted(answer: str, spans: Sequence[Span], joiner: str = " … ") -> str:
    """The answer's words at ``spans``, each in curly quotes."""
    return joiner.join(f"“{answer[s.start : s.end]}”" for s in spans)


def highlighted(marking: Marking) -> Text:
    """The answer with each point's evidence (green, yellow if partial) and each stated
    misconception (red) highlighted."""
    text = Text(marking.answer)
    for point in marking.points:
        style = "bold green" if point.status == "covered" else "yellow"
        for span in point.evidence:
            text.stylize(style, span.start, span.end)
    for found in marking.misconceptions:
        for span in found.evidence:
            text.stylize("bold red", span.start, span.end)
    return text


def point_line(marking: Marking, point: PointMark, layout: Layout) -> Text:
    """``✓ text  [tags]  “evidence”``: the evidence only for a point (partly) made."""
    symbol, colour = STATUS[point.status]
    line = layout.lead(symbol, colour)
    line.append_text(authored(point.text))
    line.append(point_tags(point), style="dim")
    if point.evidence and point.status != "missed":
        line.append("  " + quoted(marking.answer, point.evidence, layout.joiner), style=layout.evidence_style)
    return line


def misconception_lines(marking: Marking, found: MisconceptionMark, layout: Layout) -> list[Text]:
    """The claim, what was said (where the layout shows it), and the correction."""
    label = layout.lead(f"✗ {layout.misconception}", "red")
    lines = [label.append_text(authored(found.text))]
    if layout.said and found.evidence:
        said = quoted(marking.answer, found.evidence)
        lines.append(Text(f"{layout.indent}  you said {said}", style="italic"))
    arrow = Text(f"{layout.indent}  ").append("→", style=layout.arrow_style).append(" ")
    lines.append(arrow.append_text(authored(found.correction)))
    return lines


def score_notes(marking: Marking, layout: Layout) -> list[Text]:
    """Why the score is what it is, and why another backend marked it, if one did."""
    notes = [Text(f"  {reason}", style="dim") for reason in score_reasons(marking)]
    if marking.fallback_reason:
        notes.append(Text(f"{layout.indent}fallback: {marking.fallback_reason}", style="yellow"))
    return notes


def _show_parts(marking: Marking, layout: Layout) -> None:
    for point in marking.points:
        out.print(point_line(marking, point, layout))
    for found in marking.misconceptions:
        for line in misconception_lines(marking, found, layout):
            out.print(line)
    for note in score_notes(marking, layout):
        out.print(note)


def show_mark(marking: Marking) -> None:
    """``viva mark``: the answer with evidence highlighted, each point, misconceptions, score."""
    out.print(highlighted(marking))
    out.print()
    _show_parts(marking, AUTHOR)
    colour = VERDICT_COLOUR[marking.verdict]
    out.print(
        f"[bold]score {marking.score:.2f}[/] — [{colour}]{marking.verdict}[/]  "
        f"[dim]({marking.backend} {marking.backend_version})[/]"
    )


def show_feedback(bank: Bank, question: Question, marking: Marking) -> None:
    """``viva answer`` and ``viva practice``: each point ✓ / ~ / ✗ with its evidence,
    misconceptions, the model answer, what gets marked up for this question, the lesson."""
    colour = VERDICT_COLOUR[marking.verdict]
    out.print(f"\n[bold {colour}]{marking.verdict.upper()}[/]  score {marking.score:.2f}")
    _show_parts(marking, CANDIDATE)
    out.print(Text("Model answer", style="bold"))
    out.print(Markdown(question.answer))
    _show_marked_up(question, marking)
    if marking.missed or any(p.status == "partial" for p in marking.points):
        lesson = lesson_for(bank, question, marking)
        out.print(Text(f"Taught in: {lesson.title} ({lesson.section_id})", style="bold"))
        if lesson.excerpt:
            out.print(Padding(Markdown(lesson.excerpt), (0, 0, 0, 2)))


def _show_marked_up(question: Question, marking: Marking) -> None:
    """This question's own "what gets marked up" list (never its section's), ticking what the
    answer made; with the full answer when the bank gives one."""
    extras = question.marked_up_points
    if not extras:
        return
    made = {p.point_id for p in marking.points if not p.core and p.status == "covered"}
    out.print(Text("What gets marked up", style="bold"))
    for point in extras:
        line = Text("  ✓ " if point.id in made else "  · ", style="green" if point.id in made else "dim")
        out.print(line.append_text(authored(point.text)))
    if question.full_answer:
        out.print(Text("The full answer", style="bold"))
        out.print(Markdown(question.full_answer))
