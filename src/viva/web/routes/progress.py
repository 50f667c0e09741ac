"""Progress: mastery per section and topic, the review forecast, score history, weak points."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from viva.practice import Practice
from viva.practice.interviews import Interviews
from viva.web.deps import DB, CurrentUser, State
from viva.web.plots import forecast_columns, mastery_bars, polyline, readiness_line, score_line
from viva.web.rendering import render

router = APIRouter(include_in_schema=False)


@router.get("/progress", response_class=HTMLResponse)
def progress_page(request: Request, state: State, session: DB, user: CurrentUser) -> HTMLResponse:
    progress = Practice(session, state.bank).progress(user, state.clock(), days=30, weakest=10)
    scores = score_line(progress.score_history)
    interviews = Interviews(session, state.bank)
    by_topic: dict[str, list[tuple[datetime, float]]] = {}
    titles: dict[str, str] = {}
    for point in interviews.readiness_history(user):
        by_topic.setdefault(point.topic_id, []).append((point.at, point.figure))
        titles[point.topic_id] = point.title
    readiness = [
        (titles[t], plot := readiness_line(found, titles[t]), polyline(plot), found[-1][1])
        for t, found in by_topic.items()
    ]
    questions = {w.question_id: state.bank.question(w.question_id) for w in progress.weakest_points}
    return render(
        request,
        "progress.html",
        {
            "mastery": progress.mastery,
            "mastery_plot": mastery_bars(progress.mastery),
            "forecast": progress.forecast,
            "forecast_plot": forecast_columns(progress.forecast),
            "history": progress.score_history,
            "score_plot": scores,
            "score_polyline": polyline(scores),
            "weak": progress.weakest_points,
            "questions": questions,
            # a weak point of a probe links to the card that shows the probe's question
            "cards": {qid: state.bank.presented_with(q).id for qid, q in questions.items()},
            "readiness": readiness,
            "missed_most": interviews.points_missed_most(user, limit=10),
            "can_drill": bool(interviews.weak_question_ids(user)),
            "nav": "progress",
        },
    )
