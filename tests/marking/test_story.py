"""Story features: each finds its element in a story told in any words, and not where it is missing."""

from __future__ import annotations

from typing import get_args

import pytest

from viva.bank.model import MarkingPoint, Question
from viva.domain import StoryFeature
from viva.marking import mark, story
from viva.marking.terms import analyse


def _shows(feature: str, text: str) -> list[str]:
    return [text[a:b] for a, b in story.FEATURES[feature](analyse(text))]


def test_every_feature_the_bank_may_name_has_a_rule() -> None:
    assert set(story.FEATURES) == set(get_args(StoryFeature))


@pytest.mark.parametrize(
    ("feature", "has", "lacks"),
    [
        (
            "result-figure",
            "Mean absolute error dropped to seven minutes and support tickets fell 14%.",
            "We spent two weeks on it and the team liked the new dashboard.",
        ),
        ("result-figure", "recall more than doubled after the change", "I talked to two people about it"),
        (
            "result-figure",
            "latency went from 900 ms to 250 ms",
            "I pulled two weeks of logs from the warehouse",
        ),
        (
            "own-action",
            "I wrote the backtest, then I rolled it out store by store.",
            "The team built a model and we shipped it; it went well.",
        ),
        ("own-action", "My role was the feature pipeline.", "I think it was fine and I guess it worked."),
        (
            "setting",
            "At a payments company, fraud was costing us 40 thousand dollars a week.",
            "I like working on hard problems and learning new things.",
        ),
        (
            "proposal",
            "Rather than argue, I proposed a two-week pilot in one market.",
            "I told her it was wrong and escalated to my director.",
        ),
        (
            "evidence",
            "I pulled a month of data and showed the breakdown by market.",
            "I was sure I was right, so I insisted on my approach.",
        ),
        ("evidence", "so we ran an A/B test against the old ranker", "so we shipped it and moved on"),
        ("reflection", "What I learned is to ship the baseline first.", "Then we launched and it went fine."),
        ("reflection", "next time I'd write the success metric down first", "it was a busy quarter"),
        (
            "acknowledges",
            "She had a point: the quarterly goal was a real constraint.",
            "She was wrong and I explained why to her manager.",
        ),
        (
            "change-made",
            "After that I started putting a one-page summary at the top.",
            "After that the team changed the template.",
        ),
        (
            "owns-fault",
            "That was my mistake: I assumed the labels were clean.",
            "The data team gave us bad labels and it failed.",
        ),
        (
            "owns-fault",
            "We only found the label noise in month four; that was my miss.",
            "We only found the label noise in month four; the vendor missed it.",
        ),
        (
            "acknowledges",
            "Our PM wanted to launch everywhere at once to hit the quarterly goal, and I disagreed.",
            "Our PM wanted to launch everywhere at once, and I disagreed because Brazil wasn't ready.",
        ),
        ("acknowledges", "In the end he was right about the cost.", "I still think I was right about it."),
        (
            "positions",
            "Our PM wanted to launch in every market at once, and I thought Brazil wasn't ready.",
            "Our PM wanted to launch in every market at once, so we did, and it went well.",
        ),
        (
            "positions",
            "A colleague proposed a bigger network. My concern was the noisy labels.",
            "I thought we should clean the labels, and then I proposed a pilot.",  # no other side
        ),
        (
            "positions",
            "Our PM wanted to launch, and she was sure it was ready; I thought it wasn't.",
            "Our PM wanted to launch, and she thought it was ready; I agreed.",  # her view, not mine
        ),
        (
            "took-on",
            "The scheduler config wasn't my team's, but nobody fixed it, so I took it on.",
            "The scheduler config was my team's job, so I fixed it.",  # it was theirs
        ),
        (
            "took-on",
            "It was another team's model. I offered to write the fix.",
            "I offered to write the fix.",
        ),
        (
            "decider",
            "I needed the CFO to approve forty thousand dollars for relabelling.",
            "The CFO was friendly and we talked about the relabelling.",
        ),
        (
            "their-terms",
            "Rather than talk about architectures, I showed her what each option cost in hours.",
            "The nurse asked why we flagged five percent instead of everyone at risk. I explained it.",
        ),
        (
            "acknowledges",
            "Instead of defending it, I asked him to pair with me for an hour.",
            "I defended it and explained why he was wrong.",
        ),
        (
            "change-made",
            "I asked her for two examples, then rewrote my next doc with a summary up front.",
            "She asked me for two examples, then rewrote her doc with a summary up front.",
        ),
        (
            "finding",
            "I profiled the service. Most of the time went on recomputing embeddings per request.",
            "I profiled the service, then I cached the embeddings, and I shipped it.",
        ),
    ],
)
def test_a_feature_is_found_where_the_story_has_it_and_not_elsewhere(
    feature: str, has: str, lacks: str
) -> None:
    assert _shows(feature, has), (feature, has)
    assert not _shows(feature, lacks), (feature, lacks)


def test_a_state_or_a_view_is_not_an_action() -> None:
    """ "I'm paid for my own work" and "I think" are not the candidate doing something."""
    assert not _shows("own-action", "I stick to my own work, that's what I'm paid for.")
    assert not _shows("own-action", "I think the model was good and I feel it helped.")


def _story_question() -> Question:
    return Question(
        topic_id="t",
        section_id="s",
        id="shipped",
        prompt="Tell me about a model you shipped to production.",
        answer="At a grocery company late deliveries cost 40 thousand pounds a month; I built the "
        "forecast and refunds fell by a third.",
        points=(
            MarkingPoint(
                "result", "Gives a measurable result, a number that moved.", 1.0, (), shows=("result-figure",)
            ),
            MarkingPoint("role", "Says what my own role was.", 1.0, (), shows=("own-action",)),
            MarkingPoint("no-features", "Names the root cause that was found.", 1.0),
        ),
    )


@pytest.mark.parametrize("backend", ["lexical", "default", "semantic"])
def test_a_point_that_describes_the_story_is_made_by_the_story_in_its_own_words(backend: str) -> None:
    """ "Recall more than doubled" gives a measurable result without any of the point's words."""
    question = _story_question()
    answer = "I retrained it on the new labels and I ran it in shadow for a week. Recall more than doubled."
    credit = {p.point_id: p for p in mark(question, answer, backend=backend).points}
    assert credit["result"].status == "covered"
    assert credit["role"].status == "covered"
    assert [answer[s.start : s.end] for s in credit["result"].evidence] == ["Recall more than doubled"]
    # a point that names no feature is still judged on its words
    assert credit["no-features"].status == "missed"


def test_without_the_feature_the_point_is_not_made() -> None:
    question = _story_question()
    marking = mark(question, "The team built a forecasting model and we shipped it.", backend="lexical")
    assert {p.point_id: p.status for p in marking.points}["result"] == "missed"
