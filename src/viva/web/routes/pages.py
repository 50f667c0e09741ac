"""Reading the bank: the home page, a topic's interview-prep page, and a section's lesson."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from viva.errors import NotFound
from viva.practice import Mastery, Practice
from viva.web.deps import DB, CurrentUser, MaybeUser, MaybeViewer, State
from viva.web.rendering import render

router = APIRouter(include_in_schema=False)


def _mastery_by_id(state: State, session: DB, user: MaybeUser) -> dict[str, Mastery]:
    """Mastery of every topic and section for ``user`` (empty when nobody is signed in)."""
    if user is None:
        return {}
    found: dict[str, Mastery] = {}
    for topic in Practice(session, state.bank).mastery(user, state.clock()):
        found[topic.id] = topic
        found.update({section.id: section for section in topic.sections})
    return found


@router.get("/", response_class=HTMLResponse)
def home(request: Request, state: State, session: DB, user: MaybeUser) -> HTMLResponse:
    """Every topic on the site, with the candidate's progress on each."""
    bank = state.bank
    counts = {t.id: sum(1 for _ in t.all_questions()) for t in bank.topics}
    return render(
        request,
        "home.html",
        {
            "topics": bank.topics,
            "counts": counts,
            "mastery": _mastery_by_id(state, session, user),
            "nav": "home",
        },
    )


@router.get("/topics/{topic_id}", response_class=HTMLResponse)
async def topic_page(request: Request, topic_id: str, state: State, user: MaybeViewer) -> HTMLResponse:
    """Sections in learning order, each with its questions, answers folded away.

    The page needs no database: the question cards are rendered once per app (they are the
    same for everyone) and the candidate's progress is fetched by htmx into the header. It
    is the most-read page, and this keeps it fast under load (see benchmarks/load_web.py).
    """
    topic = state.bank.topic(topic_id)

    def build() -> Markup:
        template = state.templates.get_template("_topic_body.html")
        return Markup(template.render(topic=topic, bank=state.bank))

    body = state.fragments.get(f"topic:{topic.id}", build)
    return render(request, "topic.html", {"topic": topic, "body": body, "nav": "home"})


@router.get("/topics/{topic_id}/progress", response_class=HTMLResponse)
def topic_progress(
    request: Request, topic_id: str, state: State, session: DB, user: CurrentUser
) -> HTMLResponse:
    """The candidate's mastery of one topic and its sections (an htmx fragment)."""
    topic = state.bank.topic(topic_id)
    mastery = _mastery_by_id(state, session, user)[topic.id]
    return render(request, "_topic_progress.html", {"topic": mastery})


@router.get("/topics/{topic_id}/{section_id}", response_class=HTMLResponse)
async def lesson_page(
    request: Request, topic_id: str, section_id: str, state: State, user: MaybeViewer
) -> HTMLResponse:
    """A section's lesson, linking back to the questions it prepares for."""
    topic = state.bank.topic(topic_id)
    section = topic.section(section_id)
    position = topic.sections.index(section)
    related = [state.bank.section(ref) for ref in section.related if _section_exists(state, ref)]
    return render(
        request,
        "lesson.html",
        {
            "topic": topic,
            "section": section,
            "previous": topic.sections[position - 1] if position > 0 else None,
            "next": topic.sections[position + 1] if position + 1 < len(topic.sections) else None,
            "related": related,
            "nav": "home",
        },
    )


def _section_exists(state: State, full_id: str) -> bool:
    try:
        state.bank.section(full_id)
    except NotFound:  # a dangling related link is reported by `viva bank check`; hide it here
        return False
    return True
