"""Search over questions and lessons (the index is built once per app from the bank)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from viva.web.deps import MaybeViewer, State
from viva.web.rendering import render
from viva.web.search import MAX_QUERY_CHARS

router = APIRouter(include_in_schema=False)


@router.get("/search", response_class=HTMLResponse)
def search_page(
    request: Request,
    state: State,
    user: MaybeViewer,
    q: Annotated[str, Query(max_length=MAX_QUERY_CHARS)] = "",
) -> HTMLResponse:
    """Results page; htmx asks for the results fragment alone as the candidate types."""
    hits = state.search.search(q, limit=30) if q.strip() else []
    return render(request, "search.html", {"q": q, "hits": hits, "nav": "search"})
