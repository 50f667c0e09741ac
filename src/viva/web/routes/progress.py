"""Progress: mastery per section and topic, the review forecast, score history, weak points."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from viva.practice import Practice
from viva.web.deps import DB, CurrentUser, State
from viva.web.plots import forecast_columns, mastery_bars, polyline, score_line
from viva.web.rendering import render

router = APIRouter(include_in_schema=False)


@router.get("/progress", response_class=HTMLResponse)
def progress_page(request: Request, state: State, session: DB, user: CurrentUser) -> HTMLResponse:
    practice = Practice(session, state.bank)
    now = state.clock()
    mastery = practice.mastery(user, now)
    forecast = practice.forecast(user, now, days=30)
    history = practice.score_history(user)
    scores = score_line(history)
    weak = practice.weakest_points(user, limit=10)
    return render(
        request,
        "progress.html",
        {
            "mastery": mastery,
            "mastery_plot": mastery_bars(mastery),
            "forecast": forecast,
            "forecast_plot": forecast_columns(forecast),
            "history": history,
            "score_plot": scores,
            "score_polyline": polyline(scores),
            "weak": weak,
            "questions": {w.question_id: state.bank.question(w.question_id) for w in weak},
            "nav": "progress",
        },
    )
