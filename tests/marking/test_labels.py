"""A point about one numbered stage, or one of two named things, is made only by what the answer
says of that stage or thing."""

from __future__ import annotations

import dataclasses

import pytest

from viva.bank.model import MarkingPoint, Question
from viva.marking import get_backend
from viva.marking.labels import Label, labels, own_label_view, rival_label_view
from viva.marking.lexical import LexicalBackend
from viva.marking.terms import Analysis, analyse

STAGES = Question(
    topic_id="distributed",
    section_id="memory",
    id="zero",
    prompt="Explain ZeRO stages 1, 2 and 3.",
    answer="Stage 1 shards the optimizer state, stage 2 the gradients, and stage 3 the parameters too.",
    points=(
        MarkingPoint("one", "Stage 1 shards the optimizer state, the master weights and Adam moments."),
        MarkingPoint("two", "Stage 2 also shards the gradients with a reduce-scatter."),
        MarkingPoint("three", "Stage 3 also shards the parameters and all-gathers each layer before use."),
        MarkingPoint("cost", "Stages 1 and 2 cost the same traffic as data parallelism.", core=False),
    ),
)
CORRECT = (
    "Stage 1 shards the optimizer state, the master weights and Adam moments, stage 2 also shards the "
    "gradients with a reduce-scatter, and stage 3 shards the parameters, all-gathering each layer before use."
)
SWAPPED = (
    "Stage 1 shards the parameters, all-gathering each layer before use, stage 2 also shards the gradients "
    "with a reduce-scatter, and stage 3 shards the optimizer state, the master weights and Adam moments."
)


def _statuses(answer: str) -> dict[str, str]:
    return {p.point_id: p.status for p in LexicalBackend().mark(STAGES, answer).points if p.core}


def test_points_opening_with_the_same_word_and_different_numbers_are_labelled() -> None:
    assert labels(STAGES) == (
        Label("stage", "1", True),
        Label("stage", "2", True),
        Label("stage", "3", True),
        None,
    )


def test_what_is_said_of_another_stage_is_no_evidence() -> None:
    assert _statuses(CORRECT) == {"one": "covered", "two": "covered", "three": "covered"}
    swapped = _statuses(SWAPPED)
    assert swapped["one"] == "missed"  # its words are all said, but of stage 3
    assert swapped["two"] == "covered"
    assert swapped["three"] != "covered"  # "master weights" is a kind of parameter, no more


def test_a_mention_of_several_stages_counts_for_each_and_a_sentence_end_closes_it() -> None:
    answer = "Stage 1 shards the optimizer state. Stages 2 and 3 also shard the gradients. Then the weights."
    view = own_label_view(STAGES, 0, analyse(answer))
    assert view is not None
    assert [answer[a:b] for a, b in view.hidden] == ["Stages 2 and 3 also shard the gradients"]
    view = own_label_view(STAGES, 1, analyse(answer))
    assert view is not None  # for stage 2, what is said of stage 1 alone is set aside
    assert [answer[a:b] for a, b in view.hidden] == ["Stage 1 shards the optimizer state"]


def test_an_answer_naming_no_stage_is_read_whole() -> None:
    assert own_label_view(STAGES, 0, analyse("The optimizer state is sharded first.")) is None


@pytest.mark.semantic
def test_sentence_similarity_cannot_carry_a_swapped_stage_back() -> None:
    marker = get_backend("default")
    assert marker.mark(STAGES, CORRECT).verdict == "strong"
    swapped = marker.mark(STAGES, SWAPPED)
    assert swapped.verdict != "strong"
    assert {p.point_id: p.status for p in swapped.points}["one"] == "missed"


SPECULATIVE = Question(
    topic_id="serving",
    section_id="decoding",
    id="speculative",
    prompt="Explain speculative decoding.",
    answer="A small, cheap draft model guesses a few tokens and the big target model checks them at once.",
    points=(
        MarkingPoint(
            "draft", "A small cheap draft model proposes several tokens ahead.", accept=("draft model",)
        ),
        MarkingPoint("verify", "The target model checks all the drafted tokens in one forward pass."),
        MarkingPoint("why", "Decode is memory-bound, so checking several tokens costs about one step."),
        MarkingPoint("both", "Two draft model calls cost less than one target call.", core=False),
    ),
)
SPECULATIVE_RIGHT = (
    "A small draft model proposes a few tokens ahead, and the target model checks all the drafted "
    "tokens in one forward pass."
)
SPECULATIVE_SWAPPED = (
    "The target model proposes several tokens ahead, and the small cheap draft model checks them."
)


def test_points_opening_with_rival_names_of_one_kind_are_labelled() -> None:
    assert labels(SPECULATIVE) == (
        Label("model", "draft", False, frozenset(["small", "cheap"])),
        Label("model", "target", False),
        None,
        None,  # it opens with a count: it is about both models
    )


def test_what_is_said_of_the_rival_thing_is_no_evidence() -> None:
    right = {p.point_id: p.status for p in LexicalBackend().mark(SPECULATIVE, SPECULATIVE_RIGHT).points}
    assert right["draft"] == right["verify"] == "covered"
    swapped = {p.point_id: p.status for p in LexicalBackend().mark(SPECULATIVE, SPECULATIVE_SWAPPED).points}
    assert swapped["verify"] == "missed"  # every word is there, said of the draft model
    assert swapped["draft"] != "covered"  # naming the draft model is not saying what it does


def test_a_name_reaches_to_the_end_of_its_clause_and_an_alias_names_it_too() -> None:
    answer = "The small model does the checking, so the work is one pass."
    view = own_label_view(SPECULATIVE, 1, analyse(answer))
    assert view is not None
    assert [answer[a:b] for a, b in view.hidden] == ["small model does the checking"]
    # "the draft tokens" names tokens, not the draft model
    assert own_label_view(SPECULATIVE, 1, analyse("The target model checks the draft tokens.")) is None


def test_naming_the_thing_alone_earns_half_a_point() -> None:
    marking = LexicalBackend().mark(SPECULATIVE, "It uses a draft model.")
    assert {p.point_id: p.credit for p in marking.points}["draft"] == 0.5


def _visible(view: Analysis) -> list[str]:
    ranks = sorted({r for found in view.positions.values() for r in found})
    return [view.content_terms()[r].surface for r in ranks]


def test_only_what_is_said_of_the_rival_thing_is_in_its_view() -> None:
    answer = "A small draft model proposes tokens, and the target model checks them in one pass."
    view = rival_label_view(SPECULATIVE, 0, analyse(answer))
    assert view is not None
    assert _visible(view) == ["target", "model", "checks", "1", "pass"]
    assert rival_label_view(SPECULATIVE, 0, analyse("A small draft model proposes tokens.")) is None


def test_a_point_said_of_the_rival_thing_is_a_wrong_claim() -> None:
    swapped = LexicalBackend().mark(SPECULATIVE, SPECULATIVE_SWAPPED)
    assert "opposite" in swapped.flags
    named = LexicalBackend().mark(SPECULATIVE, "It uses a small cheap draft model and a target model.")
    assert swapped.score < named.score  # a swapped role costs more than saying nothing of the roles
    assert "opposite" not in LexicalBackend().mark(SPECULATIVE, SPECULATIVE_RIGHT).flags


NORMS = Question(
    topic_id="deep-learning",
    section_id="normalisation",
    id="norms",
    prompt="Why do transformers use layer norm rather than batch norm?",
    answer="Batch norm normalises each feature across the batch; layer norm each token's own vector.",
    points=(
        MarkingPoint("batch", "Batch norm normalises each feature across the examples in the batch."),
        MarkingPoint(
            "layer",
            "Layer norm normalises each example's own feature vector.",
            accept=("across the features",),
        ),
    ),
)


def test_a_phrasing_in_words_the_rival_point_uses_too_is_no_swap() -> None:
    # "feature ... across" is in the batch-norm point as much as in the phrasing "across the
    # features": finding it said of batch norm says nothing wrong about layer norm
    marking = LexicalBackend().mark(NORMS, "Batch norm normalises each feature across the batch.")
    assert "opposite" not in marking.flags
    swapped = LexicalBackend().mark(NORMS, "Batch norm normalises each example's own feature vector.")
    assert "opposite" in swapped.flags


@pytest.mark.semantic
def test_sentence_similarity_cannot_carry_a_swapped_role_back() -> None:
    marker = get_backend("default")
    assert marker.mark(SPECULATIVE, SPECULATIVE_RIGHT).verdict == "strong"
    swapped = marker.mark(SPECULATIVE, SPECULATIVE_SWAPPED)
    assert swapped.verdict != "strong"
    statuses = {p.point_id: p.status for p in swapped.points}
    assert statuses["verify"] != "covered"
    assert statuses["draft"] != "covered"  # only named: similarity may not raise it


PASSES = Question(
    topic_id="pretraining",
    section_id="flops",
    id="six",
    prompt="Where does 6 FLOPs per parameter per token come from?",
    answer="The forward pass does 2 FLOPs per parameter and the backward pass about 4.",
    points=(
        MarkingPoint("forward", "The forward pass is a multiply and an add per weight, 2 FLOPs."),
        MarkingPoint("backward", "The backward pass does two matmuls, for inputs and weights, 4 FLOPs."),
    ),
)


def test_a_name_alone_opens_a_claim_only_where_a_subject_stands() -> None:
    answer = "Then forward with a multiply and an add. Backward is twice the forward because of two matmuls."
    view = own_label_view(PASSES, 1, analyse(answer))
    assert view is not None  # "then forward with ..." is about the forward pass
    assert [answer[a:b] for a, b in view.hidden] == ["forward with a multiply and an add"]


PHRASED = dataclasses.replace(
    STAGES,
    points=tuple(
        dataclasses.replace(point, accept=(accept,))
        for point, accept in zip(
            STAGES.points[:3],
            (
                "stage 1 shards the optimizer state",
                "stage 2 also shards the gradients",
                "stage 3 shards the parameters",
            ),
            strict=True,
        )
    )
    + STAGES.points[3:],
)


def test_a_phrasing_said_of_the_rival_stage_is_a_wrong_claim_though_it_names_its_own() -> None:
    # "stage 1 shards the optimizer state" is said in full of stage 3 but for its "1"
    swapped = LexicalBackend().mark(
        PHRASED,
        "Stage 1 shards the model parameters across the GPUs, stage 2 adds the gradients, "
        "and stage 3 finally shards the optimizer states.",
    )
    assert "opposite" in swapped.flags
    assert swapped.verdict == "weak"
    right = LexicalBackend().mark(
        PHRASED,
        "Stage 1 shards the optimizer states across the GPUs, stage 2 adds the gradients, "
        "and stage 3 finally shards the model parameters.",
    )
    assert "opposite" not in right.flags
    assert right.verdict == "strong"
