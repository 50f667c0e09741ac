"""A yes-or-no question answered the other way is a wrong claim, however fluent the rest."""

from __future__ import annotations

import pytest

from viva.bank.model import MarkingPoint, Question
from viva.marking.lexical import LexicalBackend
from viva.marking.verdicts import VERDICT_ID, asks_yes_or_no, opening, other_verdict

NEEDLE = Question(
    topic_id="pretraining",
    section_id="long-context",
    id="needle-done",
    prompt="Your 128k model finds a planted sentence anywhere with 100 % accuracy. Is its long context done?",
    answer="No. The needle test only checks retrieving one odd sentence; test multi-hop reasoning too.",
    points=(
        MarkingPoint("easy-case", "The needle test only checks retrieving one distinctive fact.", 2.0),
        MarkingPoint("harder-tasks", "Test multi-hop reasoning over the whole document.", 2.0),
    ),
)
WRONG = (
    "Yes, essentially. The needle test only checks retrieving one distinctive fact, and if that "
    "works at every depth, multi-hop reasoning over the whole document follows."
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yes, essentially.", True),
        ("um, yeah, I'd say so", True),
        ("So no, it isn't done.", False),
        ("Nope.", False),
        ("yeah, so, no, it isn't done", False),  # an acknowledgement, then the answer
        ("Yeah, no. The needle test is the easy case.", False),
        ("um, yeah, it's still a problem", True),
        ("yeah, so the needle test only checks one fact", None),  # an acknowledgement only
        ("Yes, so it is still a problem.", True),
        ("Not necessarily: it depends on the task.", None),  # a hedge, not a verdict
        ("It depends. No single test settles it.", None),  # the verdict must open the answer
    ],
)
def test_only_a_plain_opening_yes_or_no_is_a_verdict(text: str, expected: bool | None) -> None:
    found = opening(text)
    assert (found[0] if found else None) is expected


def test_opening_with_the_other_verdict_states_a_wrong_claim() -> None:
    found = other_verdict(NEEDLE, WRONG)
    assert found is not None and found.misconception.id == VERDICT_ID
    assert [WRONG[s:e] for s, e in found.evidence] == ["Yes"]
    assert found.misconception.text == "The answer to this question is yes."
    assert found.misconception.correction == NEEDLE.answer
    marking = LexicalBackend().mark(NEEDLE, WRONG)
    assert "misconception" in marking.flags and marking.verdict != "strong", marking.score
    assert LexicalBackend().mark(NEEDLE, WRONG.replace("Yes, essentially", "No")).verdict == "strong"


@pytest.mark.parametrize(
    "answer",
    [
        "No, it isn't done: the needle test only checks one fact.",
        "It's tempting to say yes, but the needle test only checks one fact.",  # not an opening
        "Not yet. The needle test only checks retrieving one fact.",
    ],
)
def test_the_right_verdict_or_none_states_nothing(answer: str) -> None:
    assert other_verdict(NEEDLE, answer) is None


def test_a_question_whose_answer_opens_with_no_verdict_has_none_to_reverse() -> None:
    open_question = Question(
        topic_id="pretraining",
        section_id="long-context",
        id="needle-what",
        prompt="What does a perfect needle-in-a-haystack score tell you?",
        answer="Only that the model can retrieve one odd sentence from anywhere in the context.",
        points=(MarkingPoint("easy-case", "It only checks retrieving one distinctive fact."),),
    )
    assert other_verdict(open_question, "No, it tells you the model uses its whole context.") is None


def _asked(prompt: str, answer: str) -> Question:
    return Question(
        topic_id="metrics",
        section_id="reading",
        id="asked",
        prompt=prompt,
        answer=answer,
        points=(MarkingPoint("prevalence", "Precision depends on prevalence."),),
    )


def test_a_hedged_no_to_a_yes_or_no_question_is_contradicted_by_a_plain_yes() -> None:
    worse = _asked(
        "PR AUC dropped this quarter while ROC AUC didn't change. Has the model got worse?",
        "Not necessarily. Precision depends on prevalence, and fewer positives lower it.",
    )
    assert other_verdict(worse, "Yes: PR AUC fell, so it ranks worse.") is not None
    assert other_verdict(worse, "No, precision depends on prevalence.") is None
    # "Not far." answers "how far?", a question no yes or no answers: nothing to reverse
    how_far = _asked("How far can you trust the recall you measure there?", "Not far. Recall is noisy.")
    assert other_verdict(how_far, "Yes, recall is fine.") is None


@pytest.mark.parametrize(
    ("prompt", "asks"),
    [
        ("Is its long context done?", True),
        ("If one feature is a 0/1 flag, is the regression invalid?", True),
        ("Removals doubled this quarter. Did moderation get better?", True),
        ("So when would you prefer ROC AUC over PR AUC?", False),
        ("What does tree 50 actually see as its training target?", False),
    ],
)
def test_a_yes_or_no_question_opens_with_an_auxiliary_verb(prompt: str, asks: bool) -> None:
    assert asks_yes_or_no(prompt) is asks
