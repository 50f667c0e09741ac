"""The interview rules: the plan, the push further, the next step (pure functions)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.practice.factories import marking_for, strong
from tests.practice.interview_bank import interview_bank
from viva.bank import Bank, load_bank
from viva.marking import get_backend
from viva.practice.interview import Answered, Step, choose_push, next_step, plan, questions_for

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Bank:
    return interview_bank(tmp_path_factory.mktemp("interview-bank"))


def test_a_stated_misconception_is_probed_first(bank: Bank) -> None:
    mp = bank.question("gpu/mp")
    marking = marking_for(mp, [], misconception=True)  # every core point missed too
    push = choose_push(bank, mp, marking)
    assert push is not None
    assert (push.kind, push.about, push.question.full_id) == (
        "misconception",
        "halves-all",
        "gpu/mp-optimizer-probe",
    )


def test_the_heaviest_missed_core_point_is_probed_next(bank: Bank) -> None:
    mp = bank.question("gpu/mp")
    push = choose_push(bank, mp, marking_for(mp, []))
    assert push is not None and (push.kind, push.question.id) == ("missed-point", "mp-activations-probe")
    lighter = choose_push(bank, mp, marking_for(mp, ["activations"]))
    assert lighter is not None and lighter.question.id == "mp-tensor-probe"


def test_a_point_made_only_in_part_is_still_probed(bank: Bank) -> None:
    mp = bank.question("gpu/mp")
    push = choose_push(bank, mp, marking_for(mp, ["tensor-cores"], partial=["activations"]))
    assert push is not None and push.question.id == "mp-activations-probe"


def test_a_strong_answer_gets_the_authored_follow_up(bank: Bank) -> None:
    mp = bank.question("gpu/mp")
    push = choose_push(bank, mp, strong(mp))
    assert push is not None and (push.kind, push.question.id) == ("follow-up", "mp-loss-scale")


def test_nothing_left_to_push_means_the_next_question(bank: Bank) -> None:
    bare, mp = bank.question("gpu/bare"), bank.question("gpu/mp")
    assert choose_push(bank, bare, strong(bare)) is None  # strong, and no follow-up
    assert choose_push(bank, mp, strong(mp), exclude={"gpu/mp-loss-scale"}) is None


def test_an_asked_probe_is_not_asked_again(bank: Bank) -> None:
    mp = bank.question("gpu/mp")
    push = choose_push(bank, mp, marking_for(mp, []), exclude={"gpu/mp-activations-probe"})
    assert push is not None and push.question.id == "mp-tensor-probe"


def test_without_an_authored_probe_the_push_is_built_from_the_point(bank: Bank) -> None:
    bare = bank.question("gpu/bare")
    push = choose_push(bank, bare, marking_for(bare, ["bandwidth"]))
    assert push is not None and push.kind == "generated" and push.about == "stacked"
    assert "You didn't mention" in push.question.prompt and "hBM is stacked" not in push.question.prompt
    assert "HBM is stacked DRAM beside the GPU die" in push.question.prompt
    assert [p.text for p in push.question.points] == ["HBM is stacked DRAM beside the GPU die."]
    assert not bank.has_question(push.question.full_id), "a generated push is no bank question"
    claim = choose_push(bank, bare, marking_for(bare, ["stacked", "bandwidth"], misconception=True))
    assert claim is not None and claim.about == "on-die" and claim.question.prompt.startswith("You said")
    assert claim.question.answer.startswith("HBM is off-chip DRAM")


def test_the_plan_takes_due_first_then_new_mixed_across_topics(bank: Bank) -> None:
    assert plan(bank, ["gpu", "net"], [], set(), 4) == ["gpu/mp", "net/ring", "gpu/bare", "net/tree"]
    due_first = plan(bank, ["gpu", "net"], ["net/tree", "gpu/mp-loss-scale"], {"net/tree"}, 3)
    assert due_first == ["net/tree", "gpu/mp", "net/ring"], "due first; follow-ups are not planned"
    assert plan(bank, ["net"], ["net/tree"], {"net/tree"}, 5, due_only=True) == ["net/tree"]
    assert plan(bank, [], [], {"gpu/mp"}, 2) == ["gpu/bare", "net/ring"], "no topic means all"
    later = plan(bank, ["gpu"], [], {"gpu/mp", "gpu/bare"}, 3, later_ids=["gpu/bare", "gpu/mp"])
    assert later == ["gpu/bare", "gpu/mp"], "answered, not yet due: soonest due first, after the rest"
    assert plan(bank, ["gpu"], [], {"gpu/mp"}, 3, due_only=True, later_ids=["gpu/mp"]) == []
    assert questions_for(20) == 5 and questions_for(1) == 1


def test_the_steps_run_question_push_question_then_end(bank: Bank) -> None:
    mp, bare = bank.question("gpu/mp"), bank.question("gpu/bare")
    probe = bank.question("gpu/mp-optimizer-probe")
    ids = [mp.full_id, bare.full_id]

    def step(answered: list[Answered], now: datetime = START) -> Step | None:
        return next_step(bank, ids, answered, {}, started_at=START, minutes=20, now=now)

    first = step([])
    assert first is not None and (first.question, first.kind, first.number, first.of) == (
        mp,
        "question",
        1,
        2,
    )
    said = [Answered(mp.full_id, marking_for(mp, ["activations", "tensor-cores"], misconception=True))]
    pushed = step(said)
    assert pushed is not None and (pushed.question, pushed.kind, pushed.follows) == (
        probe,
        "misconception",
        mp,
    )
    said.append(Answered(probe.full_id, strong(probe)))
    second = step(said)
    assert second is not None and (second.question, second.number) == (bare, 2)
    assert step(said, now=START + timedelta(minutes=21)) is None, "time is up: no new question"
    said.append(Answered(bare.full_id, strong(bare)))
    assert step(said) is None


def test_on_the_shipped_bank_the_real_marker_leads_to_the_authored_probes() -> None:
    shipped, errors = load_bank(Path(__file__).resolve().parents[2] / "content")
    assert errors == []
    marker = get_backend("default")
    decode = shipped.question("gpus-and-accelerators/llm-inference-bound")
    gap = marker.mark(decode, "Batching many sequences reuses each weight read, raising throughput.")
    push = choose_push(shipped, decode, gap)
    assert push is not None and (push.kind, push.question.id) == (
        "missed-point",
        "why-decode-waits-on-memory",
    )
    claim = marker.mark(
        decode, "Generation is compute-bound because of billions of multiplications per token."
    )
    push = choose_push(shipped, decode, claim)
    assert push is not None and (push.kind, push.question.id) == (
        "misconception",
        "decode-arithmetic-intensity",
    )
