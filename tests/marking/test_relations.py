"""A clause that reverses a point about its own subject voids the point (who is what)."""

from __future__ import annotations

import pytest

from viva.bank.model import MarkingPoint, Misconception, Question
from viva.marking import get_backend
from viva.marking.explain import score_reasons
from viva.marking.lexical import LexicalBackend
from viva.marking.relations import options, own_option_view
from viva.marking.terms import analyse

PHASES = Question(
    topic_id="gpus",
    section_id="inference",
    id="phases",
    prompt="Is LLM inference compute-bound or memory-bound?",
    answer="Prefill is compute-bound because the whole prompt goes through at once; decode is memory-bound.",
    points=(
        MarkingPoint("prefill", "Prefill is compute-bound.", 1.0, ("compute-bound",)),
        MarkingPoint("decode", "Decode is memory-bound.", 1.0, ("memory-bound",)),
    ),
    misconceptions=(
        Misconception("all-compute", "Inference is always limited by FLOPs.", "Decode waits on memory."),
    ),
)


def _statuses(answer: str) -> dict[str, tuple[str, bool]]:
    marking = LexicalBackend().mark(PHASES, answer)
    return {p.point_id: (p.status, "contradiction" in marking.flags) for p in marking.points}


@pytest.mark.parametrize(
    "answer",
    [
        "Prefill is compute-bound; decode is memory-bound.",
        "Unlike prefill, which is compute-bound, decode is memory-bound.",
        "Decode is not compute-bound, it is memory-bound, whereas prefill is compute-bound.",
        "It depends on the phase: decode is memory-bound and prefill compute-bound.",
    ],
)
def test_correct_relations_in_any_order_are_credited(answer: str) -> None:
    assert _statuses(answer) == {"prefill": ("covered", False), "decode": ("covered", False)}


@pytest.mark.parametrize(
    "answer",
    [
        "Prefill is memory-bound and decode is compute-bound.",
        "Decode is compute-bound, while prefill is memory-bound.",
    ],
)
def test_swapped_roles_earn_nothing_and_are_flagged(answer: str) -> None:
    assert _statuses(answer) == {"prefill": ("missed", True), "decode": ("missed", True)}


def test_the_evidence_against_is_the_clause_that_reverses_the_point() -> None:
    answer = "Prefill is memory-bound and decode is compute-bound."
    marking = LexicalBackend().mark(PHASES, answer)
    decode = next(p for p in marking.points if p.point_id == "decode")
    assert [answer[s.start : s.end] for s in decode.evidence] == ["decode", "compute-bound"]


NAMED_PHASES = Question(
    topic_id="llm",
    section_id="inference",
    id="named-phases",
    prompt="What are the prefill and decode phases of LLM inference, and how do they differ in performance?",
    answer="Prefill runs the prompt at once and is compute-bound; decode makes a token a step, memory-bound.",
    points=(
        MarkingPoint("prefill-parallel", "Prefill runs the whole prompt through in one parallel pass.", 1.0),
        MarkingPoint("prefill-compute", "Prefill is compute-bound, big matmuls.", 1.0, ("compute-bound",)),
        MarkingPoint("decode-memory", "Decode is memory-bound, reads every weight.", 1.0, ("memory-bound",)),
    ),
    misconceptions=(
        Misconception("all-compute", "Inference is always limited by FLOPs.", "Decode waits on memory."),
    ),
)


def test_a_prompt_that_names_both_subjects_still_tells_who_is_what() -> None:
    """The prompt and another point say "prefill" too, yet "prefill is memory-bound" reverses
    the prefill point: its subject is what it shares with the prompt and the decode point lacks."""
    swapped = "Prefill is the memory-bound phase. Decode is compute-bound, limited by the GPU's FLOPs."
    marking = LexicalBackend().mark(NAMED_PHASES, swapped)
    status = {p.point_id: p.status for p in marking.points}
    assert status["prefill-compute"] == "missed"
    assert status["decode-memory"] == "missed"
    assert "contradiction" in marking.flags
    right = "Prefill is compute-bound. Decode is memory-bound, since it reads every weight for one token."
    status = {p.point_id: p.status for p in LexicalBackend().mark(NAMED_PHASES, right).points}
    assert status["prefill-compute"] == "covered"
    assert status["decode-memory"] == "covered"


NE = Question(
    topic_id="recsys",
    section_id="metrics",
    id="ne",
    prompt="Your CTR is 2% and log loss 0.085. Is that good?",
    answer="Divide by the entropy of the base rate: NE is 0.085 over 0.098, about 0.87.",
    points=(
        MarkingPoint("ne-value", "Normalised entropy is 0.085 over 0.098, about 0.87.", 1.0),
        MarkingPoint("baseline", "The baseline is the entropy of the average CTR, 0.098.", 1.0),
    ),
    misconceptions=(Misconception("raw", "A log loss of 0.085 is good on its own.", "It needs a baseline."),),
)


@pytest.mark.parametrize(
    ("answer", "reversed_"),
    [
        ("NE is 0.098 / 0.085, about 1.15, from the baseline entropy of 0.098.", True),
        ("Divide 0.098 by... no: it is 0.085 over 0.098, about 0.87; 0.098 is the baseline entropy.", False),
        ("NE is 0.085 / 0.098 = 0.87, not 0.098 / 0.085; the baseline entropy is 0.098.", False),
    ],
)
def test_a_ratio_divided_the_other_way_round_is_the_reverse_claim(answer: str, reversed_: bool) -> None:
    marking = LexicalBackend().mark(NE, answer)
    ne = next(p for p in marking.points if p.point_id == "ne-value")
    assert (ne.status == "missed") is reversed_
    assert ("contradiction" in marking.flags) is reversed_


PICK = Question(
    topic_id="fundamentals",
    section_id="regularisation",
    id="l1-or-l2",
    prompt="You have 10,000 features and suspect most are useless. Would you regularise with L1 or L2?",
    answer="Use L1, the lasso: it drives most weights to exactly zero, which selects features.",
    points=(
        MarkingPoint("choose-l1", "Use L1, the lasso.", 2.0),
        MarkingPoint("zeros", "L1 drives many weights to exactly zero.", 1.0, ("exactly zero",)),
    ),
)


@pytest.mark.parametrize(
    "answer",
    [
        "I'd use L1.",
        "I'd go with L1 rather than L2.",
        "Rather than L2, we would pick L1, because the lasso zeroes weights.",
        "Use L1; L2 only shrinks them.",
    ],
)
def test_picking_the_points_option_in_the_questions_words_makes_it(answer: str) -> None:
    """The question's own words earn little, but naming the option it asks for is the answer."""
    choose = LexicalBackend().mark(PICK, answer).points[0]
    assert choose.status == "covered", answer
    assert choose.evidence, answer


@pytest.mark.parametrize(
    "answer",
    [
        "I'd pick L2. Its squared penalty drives useless weights to exactly zero, unlike L1 and the lasso.",
        "We'd use L2, the lasso is too aggressive.",
    ],
)
def test_picking_the_other_option_voids_the_point_whatever_else_is_said(answer: str) -> None:
    marking = LexicalBackend().mark(PICK, answer)
    assert marking.points[0].status == "missed" and "contradiction" in marking.flags
    assert marking.verdict != "strong"
    pick = answer[marking.points[0].evidence[0].start : marking.points[0].evidence[0].end]
    assert "L2" in pick, pick


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("L1, because the lasso zeroes the useless weights.", True),
        ("L2, because ridge sets the useless weights to zero.", False),
        ("So L2. Ridge sets the useless weights to zero.", False),
        ("Honestly, L2, since ridge sets the useless weights to zero.", False),  # a spoken opener
    ],
)
def test_an_answer_opening_with_an_options_name_alone_picks_it(answer: str, made: bool) -> None:
    """As "I'd pick L2" does: the first words, up to a pause or "because", name one option."""
    marking = LexicalBackend().mark(PICK, answer)
    assert (marking.points[0].status == "covered") is made, answer
    assert ("opposite" in marking.flags) is not made


@pytest.mark.parametrize(
    "answer",
    [
        "I wouldn't pick L2; the lasso zeroes the useless weights.",  # a rejection, not a pick
        "Most weights are useless, and the lasso drives them to exactly zero.",  # no pick said
        "I'd use L1 or L2 depending on the data.",  # both offered: no pick
        "L1 and L2 both shrink the weights, but only the lasso zeroes them.",  # opens with both
        "L2 regularisation shrinks every weight; L1 zeroes the useless ones.",  # a claim, no pick
    ],
)
def test_no_single_pick_leaves_the_point_to_its_words(answer: str) -> None:
    marking = LexicalBackend().mark(PICK, answer)
    assert "contradiction" not in marking.flags, answer


def test_offering_both_options_is_no_pick() -> None:
    assert LexicalBackend().mark(PICK, "I'd use L1 or L2 depending on the data.").points[0].status == "missed"


def test_a_point_that_is_no_pick_is_untouched_by_a_pick() -> None:
    """ "L1 drives weights to zero" is a claim, not a choice: picking L2 does not void it."""
    marking = LexicalBackend().mark(PICK, "I'd pick L2, although L1 drives many weights to exactly zero.")
    assert {p.point_id: p.status for p in marking.points}["zeros"] == "covered"


SERVE = Question(
    topic_id="serving",
    section_id="models",
    id="moe-or-dense",
    prompt="You can serve an MoE or a dense model of similar quality on one GPU. Which would you pick?",
    answer="Pick the dense model: the MoE needs memory for every expert.",
    points=(
        MarkingPoint("pick-dense", "Pick the dense model for a single GPU.", 2.0),
        MarkingPoint("all-experts", "The MoE needs memory for all its experts.", 1.0),
    ),
)


def test_an_option_of_several_words_is_one_pick() -> None:
    """The prompt's "a dense model" makes both "dense" and "model" option words; the point's
    "Pick the dense model" still picks one option, so picking the MoE voids it."""
    answer = "I'd pick the MoE, since it is smaller than the dense model on one GPU."
    other = LexicalBackend().mark(SERVE, answer)
    assert other.points[0].status == "missed" and "contradiction" in other.flags
    same = LexicalBackend().mark(SERVE, "I'd pick the dense model.")
    assert same.points[0].status == "covered"


@pytest.mark.parametrize("backend", ["lexical", "default"])
def test_a_pick_whose_option_is_never_named_is_not_made(backend: str) -> None:
    """ "Pick the dense model for a single GPU" is the question's words around its option:
    repeating the conditions ("one GPU, similar quality") chooses nothing, so neither the rules
    nor similarity credit it. Naming the option still makes it."""
    marker = get_backend(backend)
    vague = marker.mark(SERVE, "So one GPU and similar quality. vLLM serves that well on a single GPU.")
    assert vague.points[0].status == "missed", vague.points[0]
    named = marker.mark(SERVE, "The dense one, on a single GPU.")
    assert named.points[0].status == "covered", named.points[0]


def test_options_are_the_named_things_a_prompt_offers() -> None:
    assert options("When would you use the PyTorch profiler, Nsight Systems, or Nsight Compute?") == (
        frozenset({"comput"}),
        frozenset({"system"}),
        frozenset({"pytorch", "profil"}),
    )
    assert options("Would you regularise with L1 or L2?") == (frozenset({"l2"}), frozenset({"l1"}))
    # ideas, not names: one sentence can be about range without saying "range"
    assert options("Explain range versus precision in a floating-point format.") == ()
    assert options("Tell me about a time you pushed back on a metric or target.") == ()
    # "over" before an amount is a range, not a rival: "search over 100 million vectors"
    assert options("Search over 100 million float32 embeddings, on few machines. HNSW or IVF-PQ?") == (
        frozenset({"ivf", "pq"}),
        frozenset({"hnsw"}),
    )
    assert options("When would you choose Adam over SGD?") == (frozenset({"sgd"}), frozenset({"adam"}))


def test_names_the_prompt_tells_apart_are_options_without_an_or() -> None:
    """FP16 and BF16 share a concept (both half precision) and the prompt asks about each."""
    found = options("Why does FP16 training need loss scaling, and why does BF16 usually not?")
    assert sorted(sorted(o) for o in found) == [["bf16"], ["fp16"]]
    assert options("Why does FP16 training need loss scaling?") == ()


PROFILERS = Question(
    topic_id="profiling",
    section_id="tools",
    id="choosing-a-profiler",
    prompt="When would you use the PyTorch profiler, Nsight Systems, or Nsight Compute?",
    answer=(
        "Nsight Systems gives a system-wide timeline of CPU threads, kernels and copies. "
        "Nsight Compute analyses a single kernel's occupancy and stalls."
    ),
    points=(
        MarkingPoint("nsys", "Nsight Systems gives a system-wide timeline of CPU threads, kernels, copies."),
        MarkingPoint("ncu", "Nsight Compute analyses a single kernel's occupancy and stalls."),
    ),
)


def _profilers(answer: str) -> dict[str, str]:
    return {p.point_id: p.status for p in LexicalBackend().mark(PROFILERS, answer).points}


def test_a_point_about_one_option_is_not_made_by_what_is_said_of_another() -> None:
    swapped = (
        "Nsight Compute is the system-wide tool: it gives a timeline of CPU threads, kernels and copies. "
        "Nsight Systems analyses a single kernel's occupancy and stalls."
    )
    assert _profilers(swapped) == {"nsys": "missed", "ncu": "missed"}
    assert _profilers(PROFILERS.answer) == {"nsys": "covered", "ncu": "covered"}


def test_saying_one_options_point_of_another_is_a_wrong_claim() -> None:
    """Not only no evidence: "Nsight Compute gives the timeline" swaps the tools, which costs
    what a misconception costs, while naming the other tool for what it does is no swap."""
    swapped = LexicalBackend().mark(
        PROFILERS,
        "Nsight Compute is the system-wide tool: it gives a timeline of CPU threads, kernels and copies. "
        "Nsight Systems analyses a single kernel's occupancy and stalls.",
    )
    assert "opposite" in swapped.flags and swapped.verdict == "weak", swapped.score
    assert all(p.status == "missed" and p.evidence for p in swapped.points)
    half = LexicalBackend().mark(
        PROFILERS,
        "Nsight Systems gives a system-wide timeline of CPU threads, kernels and copies. "
        "Nsight Compute is the other one, for when you already know which kernel is slow.",
    )
    assert "opposite" not in half.flags
    assert [p.status for p in half.points] == ["covered", "missed"]


def test_a_sentence_naming_no_option_counts_for_every_point() -> None:
    """Only a sentence about another option is set aside; one that names none, or names both,
    still makes the point (a pronoun sentence belongs to the option before it)."""
    answer = (
        "Start with Nsight Systems. You get a system-wide timeline of CPU threads, kernels and copies. "
        "Then use Nsight Compute on the slow kernel: it analyses a single kernel's occupancy and stalls."
    )
    assert _profilers(answer) == {"nsys": "covered", "ncu": "covered"}


def test_a_pronoun_sentence_belongs_to_the_option_before_it() -> None:
    view = own_option_view(
        PROFILERS.points[0].text,
        PROFILERS.prompt,
        analyse("Nsight Compute is for kernels: it gives a system-wide timeline. Nsight Systems is not."),
    )
    assert view is not None
    hidden = [view.text[a:b] for a, b in view.hidden]
    assert hidden == ["Nsight Compute is for kernels", "it gives a system-wide timeline"]


BATCHES = Question(
    topic_id="gpus",
    section_id="inference",
    id="weight-only",
    prompt="Why does 4-bit weight-only quantization speed up token generation?",
    answer="Small-batch decode is memory-bound, so reading a quarter of the bytes per weight is faster.",
    points=(
        MarkingPoint("decode-memory", "Small-batch decode is memory-bound.", 1.0, ("memory-bound",)),
        MarkingPoint(
            "fewer-bytes", "Each weight is a quarter of the bytes to read.", 1.0, ("quarter of the bytes",)
        ),
    ),
    misconceptions=(Misconception("flops", "It does fewer FLOPs.", "The matmul runs in FP16 still."),),
)


@pytest.mark.parametrize(
    ("answer", "reversed_"),
    [
        ("Small-batch decode is compute-bound, and each weight is a quarter of the bytes.", True),
        (
            "Small-batch decode is memory-bound, so a quarter of the bytes per weight is faster; "
            "it helps far less in large-batch serving, which is compute-bound.",
            False,
        ),
    ],
)
def test_a_clause_about_the_opposite_case_is_not_the_reverse_claim(answer: str, reversed_: bool) -> None:
    marking = LexicalBackend().mark(BATCHES, answer)
    decode = next(p for p in marking.points if p.point_id == "decode-memory")
    assert (decode.status == "missed") is reversed_
    assert ("opposite" in marking.flags) is reversed_


def test_the_other_option_picked_costs_what_a_misconception_costs() -> None:
    """The other point made, but the wrong option picked: the answer is wrong, not half right."""
    answer = "I'd pick the MoE, even though the MoE needs memory for all of its experts."
    marking = LexicalBackend().mark(SERVE, answer)
    assert {p.point_id: p.status for p in marking.points} == {
        "pick-dense": "missed",
        "all-experts": "covered",
    }
    assert "opposite" in marking.flags
    assert marking.verdict == "weak", marking.score
    assert any("other way round" in reason for reason in score_reasons(marking))
