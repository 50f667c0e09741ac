"""Server-rendered plots: geometry computed here, drawn as inline SVG by ``_plots.html``.

No JavaScript chart library: each plot is a handful of rectangles, lines and labels, so
it renders without JavaScript, prints, and stays inside the CSP (presentation attributes
only, no ``style``). Each plot also carries its numbers for a text alternative.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from viva.practice import DayCount, Mastery, ScorePoint


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value: float
    x: float
    y: float
    width: float
    height: float
    href: str = ""
    text: str = ""
    level: int = 0
    """0 for a topic, 1 for a section (drawn indented and lighter)."""


@dataclass(frozen=True, slots=True)
class Plot:
    width: int
    height: int
    bars: tuple[Bar, ...] = ()
    points: tuple[tuple[float, float, str], ...] = ()
    """(x, y, caption) for line plots."""
    ticks: tuple[tuple[float, str], ...] = ()
    guides: tuple[tuple[float, str], ...] = ()
    """Horizontal reference lines (y, label), e.g. the verdict thresholds."""


LABEL_WIDTH = 300
ROW = 22
PLOT_WIDTH = 640
# the mastery bars fill a whole panel: most of the width goes to the bars, not the labels
BARS_WIDTH = 880


def mastery_bars(topics: list[Mastery], with_sections: bool = True) -> Plot:
    """Horizontal bars, one per topic and (indented) per section, 0–100 % mastery."""
    bars: list[Bar] = []
    span = BARS_WIDTH - LABEL_WIDTH - 50
    rows: list[tuple[Mastery, int, str]] = []
    for topic in topics:
        rows.append((topic, 0, f"/topics/{topic.id}"))
        if with_sections:
            rows += [(s, 1, f"/topics/{s.id}") for s in topic.sections]
    for i, (item, level, href) in enumerate(rows):
        text = f"{round(item.mastery * 100)}% · {item.attempted}/{item.questions} answered"
        bars.append(
            Bar(
                item.title,
                item.mastery,
                LABEL_WIDTH,
                i * ROW + 4,
                max(1.0, item.mastery * span),
                ROW - 8,
                href,
                text,
                level,
            )
        )
    ticks = tuple((LABEL_WIDTH + span * f, f"{round(f * 100)}%") for f in (0, 0.5, 1))
    return Plot(BARS_WIDTH, len(rows) * ROW + 24, tuple(bars), ticks=ticks)


def forecast_columns(days: list[DayCount]) -> Plot:
    """One column per day: reviews due (today includes the overdue ones)."""
    height, top, left = 180, 10, 30
    span = height - top - 30
    peak = max((d.reviews for d in days), default=0) or 1
    step = (PLOT_WIDTH - left) / max(1, len(days))
    bars = []
    for i, day in enumerate(days):
        h = span * day.reviews / peak
        bars.append(
            Bar(
                _day_label(day.day, i),
                day.reviews,
                left + i * step + 1,
                top + span - h,
                max(step - 2, 1),
                h,
                text=f"{day.day.isoformat()}: {day.reviews} due",
            )
        )
    ticks = tuple(
        (left + i * step + step / 2, _day_label(d.day, i)) for i, d in enumerate(days) if i % 7 == 0
    )
    guides = ((top, str(peak)), (top + span, "0"))
    return Plot(PLOT_WIDTH, height, tuple(bars), ticks=ticks, guides=guides)


def _day_label(day: date, offset: int) -> str:
    return "today" if offset == 0 else day.strftime("%d %b")


def score_line(history: list[ScorePoint], last: int = 60) -> Plot:
    """Scores of the last ``last`` attempts in order, with the partial and strong thresholds."""
    height, top, left = 180, 10, 40
    span = height - top - 30
    recent = history[-last:]
    step = (PLOT_WIDTH - left - 10) / max(1, len(recent) - 1)
    points = tuple(
        (
            left + i * step,
            top + span * (1 - p.score),
            f"{p.answered_at:%d %b %H:%M} {p.question_id}: {p.score:.0%}",
        )
        for i, p in enumerate(recent)
    )
    guides = ((top + span * (1 - 0.7), "strong"), (top + span * (1 - 0.35), "partial"), (top + span, "0"))
    return Plot(PLOT_WIDTH, height, points=points, guides=guides)


def polyline(plot: Plot) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in plot.points)


def readiness_line(points: list[tuple[datetime, float]], caption: str) -> Plot:
    """One topic's readiness at each mock interview, oldest first, with the ready and nearly lines."""
    height, top, left = 140, 10, 40
    span = height - top - 30
    step = (PLOT_WIDTH - left - 10) / max(1, len(points) - 1)
    dots = tuple(
        (left + i * step, top + span * (1 - figure), f"{caption} {at:%d %b %H:%M}: {figure:.0%}")
        for i, (at, figure) in enumerate(points)
    )
    guides = ((top + span * (1 - 0.8), "ready"), (top + span * (1 - 0.6), "nearly"), (top + span, "0"))
    return Plot(PLOT_WIDTH, height, points=dots, guides=guides)
