"""Templates, and the one place that decides between a fragment and a full page.

An htmx request that is not a boosted navigation (``HX-Request`` without ``HX-Boosted``)
swaps part of a page, so it gets the template's content alone; everything else — a
browser without JavaScript, a boosted link or form — gets the whole page. Templates always
``{% extends layout %}``, and :func:`render` sets ``layout``.

Two cases look like a swap but are not. When the Back button reaches an entry htmx has
not cached, htmx refetches it with ``HX-Request`` *and* ``HX-History-Restore-Request`` and
puts the answer in place of the whole body, so it must be a whole page (with its title).
And because one URL can answer both ways, every response says ``Vary: HX-Request``, so
the browser's own cache never hands a fragment to a full-page load of the same URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from viva.web.deps import csrf_token
from viva.web.lessons import LessonRenderer, opens_with_title

if TYPE_CHECKING:
    from viva.web.state import AppState  # state imports this module's users; only types here

TEMPLATES = Path(__file__).parent / "templates"
HTMX_VERSION = "2.0.11"


def make_templates(lessons: LessonRenderer) -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(TEMPLATES))
    env = templates.env
    env.autoescape = True
    env.trim_blocks = True
    env.lstrip_blocks = True
    env.filters["markdown"] = lessons
    env.tests["titled"] = opens_with_title
    env.globals["teach_href"] = lessons.teaching_href
    env.filters["percent"] = lambda value: f"{round(float(value) * 100)}%"
    env.globals["htmx_version"] = HTMX_VERSION
    return templates


def wants_fragment(request: Request) -> bool:
    """Whether to answer with the content alone (an htmx swap) rather than a full page."""
    headers = request.headers
    return (
        headers.get("hx-request") == "true"
        and headers.get("hx-boosted") != "true"
        and headers.get("hx-history-restore-request") != "true"
    )


def render(
    request: Request,
    template: str,
    context: Mapping[str, Any] | None = None,
    *,
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """Render ``template`` as a fragment or a full page (see :func:`wants_fragment`)."""
    state: AppState = request.app.state.viva
    values: dict[str, Any] = {
        "request": request,
        "layout": "fragment.html" if wants_fragment(request) else "base.html",
        "user": getattr(request.state, "user", None),
        # the 500 handler runs outside the session middleware, where there is no session
        "csrf_token": csrf_token(request) if "session" in request.scope else "",
        "single_user": state.settings.single_user,
        "speech_ready": state.transcriber.ready,
        "nav": "",
    }
    values.update(context or {})
    response: HTMLResponse = state.templates.TemplateResponse(
        request, template, values, status_code=status_code, headers=dict(headers or {})
    )
    vary = [v.strip() for v in response.headers.get("vary", "").split(",") if v.strip()]
    if "HX-Request" not in vary:
        response.headers["Vary"] = ", ".join([*vary, "HX-Request"])
    return response
