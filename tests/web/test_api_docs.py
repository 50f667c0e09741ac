"""The footer's API link opens a page for people, built from the OpenAPI schema."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_api_docs_page_lists_every_operation_of_the_schema(client: TestClient) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<script>" not in page.text  # nothing inline: the CSP would block it
    operations = [(m.upper(), p) for p, item in schema["paths"].items() for m in item if m != "parameters"]
    assert len(operations) > 5
    for method, path in operations:
        shown = f'<span class="method">{method}</span> <code class="path">{path}</code>'
        assert shown in page.text, (method, path)
    assert 'href="/api/docs">API</a>' in client.get("/").text
