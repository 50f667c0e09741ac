"""An answer to another question in the bank is weak, and says which question it answers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from viva.bank import load_bank
from viva.bank.model import Bank, MarkingPoint, Question, Section, Topic
from viva.marking import InBank
from viva.marking.elsewhere import ELSEWHERE_CAP, FLAG, Neighbours
from viva.marking.explain import score_reasons
from viva.marking.lexical import LexicalBackend

CONTENT = Path(__file__).resolve().parents[2] / "content"


def _question(id: str, prompt: str, answer: str, *points: str, **extra: object) -> Question:
    marks = tuple(MarkingPoint(f"p{i}", text) for i, text in enumerate(points))
    return Question("reg", "penalties", id, prompt, answer, marks, **extra)  # type: ignore[arg-type]


CORRELATED = _question(
    "correlated",
    "And if the features are strongly correlated?",
    "The lasso picks one of a correlated group more or less at random; elastic net mixes in the "
    "squared penalty so the group is kept together.",
    "Lasso keeps one of a correlated group arbitrarily.",
    "Elastic net adds the squared penalty to keep correlated features together.",
    parent_id="reg/lambda",
)
LAMBDA = _question(
    "lambda",
    "What happens to bias and variance as you turn up the regularisation strength lambda?",
    "A larger lambda pulls the weights harder towards zero, so the model gets simpler: variance falls "
    "and bias rises. Too much and it underfits, so you pick lambda on validation error.",
    "A larger lambda shrinks the weights towards zero, a simpler model.",
    "Raising lambda lowers variance and raises bias.",
    follow_ups=(CORRELATED,),
)
L1_L2 = _question(
    "l1-l2",
    "How do L1 and L2 penalties differ?",
    "L1 penalises the absolute value of the weights and its corners on the axes drive many weights to "
    "exactly zero, a sparse model that selects features. L2 penalises the square and shrinks every "
    "weight smoothly without zeroing it.",
    "L1 gives sparse weights, exactly zero, so it selects features.",
    "L2 shrinks all weights smoothly and rarely zeroes one.",
)
DROPOUT = _question(
    "dropout",
    "Why does dropout regularise a network?",
    "Each step drops a random subset of units, so no unit can rely on particular others; it trains an "
    "ensemble of thinned networks that share weights, averaged at test time by scaling.",
    "Dropping random units stops co-adaptation.",
    "It acts like averaging an ensemble of thinned networks.",
)
STORY = Question(
    "reg",
    "penalties",
    "proud-of",
    "Tell me about a model you are proud of.",
    "I shipped a churn model; I owned the features and cut false alarms by a third.",
    (MarkingPoint("result", "Gives a measurable result.", shows=("result-figure",)),),
)
SECTION = Section("reg", "penalties", "Penalties", "lesson", 1, (LAMBDA, L1_L2, DROPOUT, STORY))
BANK = Bank((Topic("reg", "Regularisation", "summary", 1, (SECTION,)),))

# what a candidate says about L1 and L2 when asked about turning lambda up: true, and beside the point
ABOUT_L1_L2 = (
    "Well, L1 takes the absolute value of each weight, so it pushes lots of weights to exactly zero and "
    "you get a sparse model that does feature selection, while L2 takes the square and just shrinks the "
    "weights smoothly, never quite zeroing them."
)


def test_an_answer_to_the_neighbouring_question_is_weak_and_names_it() -> None:
    alone = LexicalBackend().mark(LAMBDA, ABOUT_L1_L2)
    assert alone.verdict != "weak"  # "shrinks the weights" makes a point
    marking = InBank(LexicalBackend(), BANK).mark(LAMBDA, ABOUT_L1_L2)
    assert marking.verdict == "weak" and marking.score == ELSEWHERE_CAP
    assert FLAG in marking.flags and marking.answers_instead == "reg/l1-l2"
    assert any("reg/l1-l2" in reason for reason in score_reasons(marking))
    assert InBank(LexicalBackend(), BANK).mark(L1_L2, ABOUT_L1_L2).verdict == "strong"


def test_an_answer_to_the_question_asked_is_marked_as_the_marker_marks_it() -> None:
    answer = "Turning lambda up shrinks the weights more, so variance goes down and bias goes up."
    assert InBank(LexicalBackend(), BANK).mark(LAMBDA, answer) == LexicalBackend().mark(LAMBDA, answer)


def test_a_question_and_its_follow_ups_are_one_family() -> None:
    neighbours = Neighbours(BANK)
    assert neighbours.answered_instead(LAMBDA, CORRELATED.answer) is None
    assert neighbours.answered_instead(CORRELATED, LAMBDA.answer) is None
    assert neighbours.answered_instead(DROPOUT, CORRELATED.answer) == CORRELATED


DISAGREED = Question(
    "reg",
    "penalties",
    "disagreed",
    "Tell me about a time you disagreed with a colleague.",
    "A colleague wanted a deep network and I thought cleaner labels mattered more. Her point was fair, "
    "so we let an experiment decide.",
    (MarkingPoint("their-view", "States the other person's view fairly.", shows=("acknowledges",)),),
)
STORIES = Bank(
    (
        Topic(
            "reg",
            "Regularisation",
            "summary",
            1,
            (replace(SECTION, questions=(*SECTION.questions, DISAGREED)),),
        ),
    )
)


def test_a_story_told_for_another_story_question_is_weak_and_names_it() -> None:
    disagreement = (
        "My colleague and I disagreed about a deep network; her point was fair, so an experiment decided."
    )
    neighbours = Neighbours(STORIES)
    assert neighbours.answered_instead(STORY, disagreement) == DISAGREED
    assert neighbours.answered_instead(DISAGREED, disagreement) is None
    # a story about a technical subject is held against the story questions only
    technical = f"I disagreed with a colleague about penalties. {L1_L2.answer} Her point was fair."
    assert neighbours.answered_instead(DISAGREED, technical) is None
    assert InBank(LexicalBackend(), STORIES).mark(STORY, disagreement).answers_instead == "reg/disagreed"


def test_a_bank_without_story_questions_still_judges_answers() -> None:
    technical = replace(SECTION, questions=(LAMBDA, L1_L2, DROPOUT))
    neighbours = Neighbours(Bank((Topic("reg", "Regularisation", "summary", 1, (technical,)),)))
    assert neighbours.answered_instead(LAMBDA, ABOUT_L1_L2) == L1_L2


def test_a_story_is_never_taken_for_a_technical_answer_but_a_technical_question_can_get_one() -> None:
    story = f"On a fraud model we overfit badly, so I argued about penalties: {L1_L2.answer}"
    neighbours = Neighbours(BANK)
    assert neighbours.answered_instead(STORY, story) is None
    assert neighbours.answered_instead(DROPOUT, story) == L1_L2
    told = "I shipped a churn model where I owned the features, and it cut false alarms by a third."
    assert neighbours.answered_instead(DROPOUT, told) == STORY


def test_a_question_from_outside_the_bank_is_left_alone() -> None:
    stranger = _question("stranger", "Not in the bank?", "No.", "It is not.")
    assert Neighbours(BANK).answered_instead(stranger, ABOUT_L1_L2) is None


@pytest.fixture(scope="module")
def bank() -> Bank:
    bank, errors = load_bank(CONTENT)
    assert not errors
    return bank


def test_no_answer_the_bank_marks_strong_or_partial_is_taken_for_another_questions(bank: Bank) -> None:
    neighbours = Neighbours(bank)
    taken = [
        (question.full_id, answer[:60])
        for question in bank.questions()
        for answer, verdict in (
            (question.answer, "strong"),
            (question.full_answer, "strong"),
            *((s.answer, s.verdict) for s in question.samples),
        )
        if answer and verdict != "weak" and neighbours.answered_instead(question, answer) is not None
    ]
    assert taken == []
    # and the bank's own off-topic samples are caught: the check is not idle
    caught = sum(
        neighbours.answered_instead(q, s.answer) is not None
        for q in bank.questions()
        for s in q.samples
        if s.verdict == "weak" and s.kind is None
    )
    assert caught >= 50


def test_bank_lint_marks_knowing_the_bank_and_names_the_other_question() -> None:
    from viva.bank.model import SampleAnswer
    from viva.marking.lint import lint_bank

    mislabelled = replace(LAMBDA, samples=(SampleAnswer(ABOUT_L1_L2, "partial"),), follow_ups=())
    section = replace(SECTION, questions=(mislabelled, L1_L2, DROPOUT, STORY))
    bank = Bank((Topic("reg", "Regularisation", "summary", 1, (section,)),))
    failure = next(r for r in lint_bank(bank, "lexical") if not r.passed)
    assert failure.kind == "partial sample" and "answers reg/l1-l2" in failure.describe()
