"""The interview service over a real database (SQLite and PostgreSQL) and the real marker:
answers become ordinary attempts, the push follows the marking, the debrief and the point
memory come from what was stored."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.orm import Session

from tests.practice.conftest import NOW
from tests.practice.interview_bank import interview_bank
from viva.bank import Bank
from viva.errors import InvalidInput, NotFound
from viva.marking import get_backend
from viva.practice import Practice, Scope
from viva.practice.accounts import Account
from viva.practice.interviews import Interviews

PLANTED = "Activations in 16 bits and tensor cores, and it halves all the memory."
STRONG_MP = "Activations in 16 bits, halving activation memory, and the matmuls use tensor cores."


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Bank:
    return interview_bank(tmp_path_factory.mktemp("service-bank"))


@pytest.fixture
def interviews(db: Session, bank: Bank) -> Interviews:
    return Interviews(db, bank, get_backend("default"))


def test_a_planted_misconception_is_probed_and_everything_is_recorded(
    interviews: Interviews, user: Account, db: Session, bank: Bank
) -> None:
    interview = interviews.start(user, ["gpu"], NOW, questions=2)
    assert interview.plan == ["gpu/mp", "gpu/bare"]
    step = interviews.step(interview, NOW)
    assert step is not None and step.question.full_id == "gpu/mp"
    step = interviews.answer(user, interview, "gpu/mp", PLANTED, NOW)
    assert step is not None and (step.question.full_id, step.kind) == (
        "gpu/mp-optimizer-probe",
        "misconception",
    )
    with pytest.raises(InvalidInput):
        interviews.answer(user, interview, "gpu/bare", "out of turn", NOW)
    step = interviews.answer(user, interview, step.question.full_id, "No, they stay in FP32, 12 bytes.", NOW)
    assert step is not None and step.question.full_id == "gpu/bare"
    step = interviews.answer(user, interview, "gpu/bare", "It is an on-chip SRAM cache.", NOW)
    assert step is not None and step.kind == "generated" and step.question.prompt.startswith("You said")
    assert interviews.answer(user, interview, step.question.full_id, "It is off-chip DRAM.", NOW) is None
    assert interviews.get(user, interview.key).finished_at == NOW

    attempts = Practice(db, bank).attempts(user)
    assert [a.question_id for a in attempts] == ["gpu/mp", "gpu/mp-optimizer-probe", "gpu/bare"]
    assert {a.session_id for a in attempts} == {interview.session_id}
    assert Practice(db, bank).review_state(user, "gpu/mp-optimizer-probe") is not None, "probes are scheduled"

    result = interviews.debrief(user, interview)
    assert [(i.question_id, i.kind) for i in result.items] == [
        ("gpu/mp", "question"),
        ("gpu/mp-optimizer-probe", "misconception"),
        ("gpu/bare", "question"),
        (step.question.full_id, "generated"),
    ]
    assert result.items[0].misconceptions[0].evidence == ["halves all the memory"]
    assert result.items[3].scheduled is False and result.items[3].answer == "It is off-chip DRAM."
    assert "gpu/bare" in result.practise_next and [r.topic_id for r in result.readiness] == ["gpu"]


def test_a_strong_answer_gets_the_follow_up_and_leaving_keeps_the_answers(
    interviews: Interviews, user: Account, db: Session, bank: Bank
) -> None:
    interview = interviews.start(user, ["gpu"], NOW, questions=2)
    step = interviews.answer(user, interview, "gpu/mp", STRONG_MP, NOW)
    assert step is not None and (step.question.full_id, step.kind) == ("gpu/mp-loss-scale", "follow-up")
    interviews.finish(interview, NOW + timedelta(minutes=1))
    assert interviews.step(interview, NOW) is None
    assert [i.question_id for i in interviews.debrief(user, interview).items] == ["gpu/mp"]
    again = interviews.start(user, ["gpu"], NOW + timedelta(minutes=2), questions=5)
    assert again.plan == ["gpu/bare", "gpu/mp"], "new first; mp, answered and not yet due, comes last"


def test_point_memory_feeds_the_weak_point_drill(
    interviews: Interviews, user: Account, other_user: Account
) -> None:
    practice = interviews.practice
    practice.answer(user, "gpu/mp", "Only tensor cores.", NOW)
    practice.answer(user, "net/ring", "Each GPU sends a chunk to its neighbour; reduce-scatter.", NOW)
    practice.answer(user, "gpu/bare", "Stacked DRAM.", NOW + timedelta(minutes=1))
    assert interviews.weak_question_ids(user) == ["gpu/bare", "gpu/mp"], "most recent miss first"
    practice.answer(user, "gpu/bare", "Stacked DRAM with terabytes per second.", NOW + timedelta(minutes=2))
    assert interviews.weak_question_ids(user) == ["gpu/mp"], "a point made since is no longer weak"
    most = interviews.points_missed_most(user)
    assert {(p.point_id, p.made, p.asked) for p in most[:2]} == {("activations", 0, 1), ("bandwidth", 1, 2)}
    assert interviews.weak_question_ids(other_user) == []
    drill = interviews.drill_weak_points(user, NOW + timedelta(minutes=3))
    assert drill.kind == "drill" and drill.plan == ["gpu/mp"]


def test_nothing_to_ask_and_a_stranger_s_interview_are_refused(
    interviews: Interviews, user: Account, other_user: Account
) -> None:
    with pytest.raises(InvalidInput):
        interviews.start(user, ["gpu"], NOW, due_only=True)
    mine = interviews.start(user, [], NOW)
    with pytest.raises(NotFound):
        interviews.get(other_user, mine.key)
    assert interviews.get(user, mine.key) == mine


def test_probes_count_towards_mastery_only_once_answered(interviews: Interviews, user: Account) -> None:
    practice = interviews.practice
    gpu = next(m for m in practice.mastery(user, NOW) if m.id == "gpu")
    assert gpu.questions == 3, "mp, its follow-up and bare; the three probes wait until asked"
    practice.answer(user, "gpu/mp-optimizer-probe", "They stay in FP32, 12 bytes.", NOW)
    gpu = next(m for m in practice.mastery(user, NOW) if m.id == "gpu")
    assert (gpu.questions, gpu.attempted) == (4, 1)


def test_the_practice_queue_never_introduces_a_probe_on_its_own(
    interviews: Interviews, user: Account
) -> None:
    practice, seen = interviews.practice, []
    for minute in range(8):
        nxt = practice.next_question(user, Scope("gpu"), NOW + timedelta(minutes=minute), 10, session_id="s")
        if nxt is None:
            break
        seen.append(nxt.question.full_id)
        practice.answer(
            user, nxt.question.full_id, "I am not sure.", NOW + timedelta(minutes=minute), session_id="s"
        )
    assert seen and not any(bank_id.endswith("-probe") for bank_id in seen), seen
