"""The API's reference as a page of our own, rendered on the server from the OpenAPI schema.

FastAPI's hosted docs pages (Swagger UI, ReDoc) need inline scripts, which our CSP forbids;
the raw ``openapi.json`` is for programs. This page lists every endpoint for people.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from viva.web.rendering import render

router = APIRouter(include_in_schema=False)
METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    where: str
    required: bool
    description: str


@dataclass(frozen=True, slots=True)
class Endpoint:
    method: str
    path: str
    summary: str
    description: str
    parameters: tuple[Parameter, ...]
    body: bool
    statuses: tuple[str, ...]


def endpoints(schema: dict[str, Any]) -> list[Endpoint]:
    """Every operation in ``schema``, in the order the schema lists them."""
    found = []
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            parameters = tuple(
                Parameter(p["name"], p.get("in", ""), bool(p.get("required")), p.get("description", ""))
                for p in operation.get("parameters", [])
            )
            found.append(
                Endpoint(
                    method.upper(),
                    path,
                    operation.get("summary", ""),
                    operation.get("description", ""),
                    parameters,
                    "requestBody" in operation,
                    tuple(sorted(operation.get("responses", {}))),
                )
            )
    return found


@router.get("/api/docs", response_class=HTMLResponse)
def api_docs(request: Request) -> HTMLResponse:
    """The API's endpoints, readable in a browser, with a link to the full schema."""
    schema = request.app.openapi()
    context = {"info": schema.get("info", {}), "endpoints": endpoints(schema)}
    context["schema"] = request.app.openapi_url
    return render(request, "api_docs.html", context)
