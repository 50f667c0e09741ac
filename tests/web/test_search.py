"""Search: spelling variants find the same documents, snippets are plain text, the empty state."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from viva.bank.model import Question
from viva.web.search import Document, SearchIndex, plain_text

DOCUMENTS = [
    Document(
        "lesson",
        "attn/flash",
        "Tiling attention",
        "**FlashAttention** keeps the score tiles in `SRAM`; see [the paper](https://example.org/paper).",
        "Attention",
    ),
    Document(
        "question", "attn/softmax", "Why is softmax stable?", "Subtract the max before exp.", "Attention"
    ),
    Document(
        "lesson", "dist/ring", "Ring collectives", "## Ring all-reduce\nEach GPU sends a chunk.", "Dist"
    ),
    Document("question", "dist/nccl", "What does NCCL do?", "It runs the all reduce between GPUs.", "Dist"),
    Document(
        "question", "dist/fused", "Name one fused collective", "An allreduce fused with the backward.", "Dist"
    ),
    Document("lesson", "num/int8", "Going to int8", "Quantisation maps floats to a small grid.", "Numerics"),
    Document("question", "num/awq", "What is AWQ?", "A weight quantization method.", "Numerics"),
    Document(
        "question",
        "num/colour",
        "Which colour?",
        "Behaviour of the optimisation is normalised here.",
        "Numerics",
    ),
]


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(DOCUMENTS)


def found(index: SearchIndex, query: str) -> set[str]:
    return {hit.document.id for hit in index.search(query)}


def test_camel_case_and_spaced_words_find_each_other(index: SearchIndex) -> None:
    assert found(index, "flash attention") == found(index, "FlashAttention") == found(index, "flashattention")
    assert "attn/flash" in found(index, "flash attention")


def test_joined_spaced_and_hyphenated_compounds_find_the_same(index: SearchIndex) -> None:
    expected = {"dist/ring", "dist/nccl", "dist/fused"}
    assert found(index, "allreduce") == found(index, "all reduce") == found(index, "all-reduce") == expected


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("quantisation", "quantization"),
        ("colour", "color"),
        ("behaviour", "behavior"),
        ("optimisation", "optimization"),
    ],
)
def test_british_and_american_spellings_find_the_same(
    index: SearchIndex, british: str, american: str
) -> None:
    assert found(index, british) == found(index, american) != set()


def test_both_quantisation_spellings_rank_both_documents(index: SearchIndex) -> None:
    assert found(index, "quantisation") == {"num/int8", "num/awq"}


def test_title_match_ranks_above_body_match() -> None:
    index = SearchIndex(
        [
            Document("question", "a/body", "Something else", "softmax softmax is mentioned here", "A"),
            Document("question", "a/title", "Softmax explained", "A note.", "A"),
        ]
    )
    hits = index.search("softmax")
    assert [h.document.id for h in hits] == ["a/title", "a/body"]
    assert hits[0].score > hits[1].score


def test_snippet_is_plain_text_with_the_match_marked(index: SearchIndex) -> None:
    hit = index.search("flash attention")[0]
    text = "".join(piece for piece, _ in hit.snippet)
    for markup in ("**", "`", "](", "[", "https://", "#"):
        assert markup not in text
    assert "see the paper" in text
    assert ("FlashAttention", True) in hit.snippet
    heading = index.search("ring", kind="lesson")[0]
    assert not "".join(p for p, _ in heading.snippet).startswith("#")


def test_plain_text_strips_markdown() -> None:
    source = (
        "# Title\n\n- **bold** and _it_ with `code`\n"
        + "> [link](http://x.y) ![img](a.png)\n\n| a | b |\n|---|---|"
    )
    assert plain_text(source) == "Title bold and it with code link img a b"


def test_kind_filter_and_limit_still_apply(index: SearchIndex) -> None:
    assert {h.document.kind for h in index.search("allreduce", kind="lesson")} == {"lesson"}
    assert len(index.search("allreduce", limit=1)) == 1


def test_empty_state_is_a_sentence_not_a_list(client: TestClient) -> None:
    page = client.get("/search", params={"q": "zebra"}).text
    results = page[page.index('id="results"') :]
    assert "No question or lesson mentions all of" in results
    assert "<ol" not in results and "<li" not in results
    assert "0 results" not in results


def test_every_question_hit_links_to_a_card_its_topic_page_shows() -> None:
    """A probe has no card of its own on the topic page, so its hit links to the card of the
    question it presses on; every other question links to its own card."""
    from pathlib import Path

    from viva.bank import load_bank

    bank, errors = load_bank(Path(__file__).resolve().parents[2] / "content")
    assert not errors

    def cards(question: Question) -> Iterator[str]:  # what _question_card.html renders
        yield question.id
        for follow_up in question.follow_ups:
            yield from cards(follow_up)

    shown = {(t.id, c) for t in bank.topics for s in t.sections for q in s.questions for c in cards(q)}
    documents = [d for d in SearchIndex.from_bank(bank).documents if d.kind == "question"]
    probes = {q.full_id for q in bank.questions() if q.probe_of}
    assert probes and {d.id for d in documents} >= probes
    assert all((d.id.split("/")[0], d.card) in shown for d in documents)
    assert all(d.card != d.id.split("/")[1] for d in documents if d.id in probes)
