"""What an answer names only to reject it: frames, their scope, and what the marker does with them."""

from dataclasses import replace

import pytest

from viva.bank.model import MarkingPoint, Misconception, Question
from viva.marking import get_backend
from viva.marking.framing import disbelieved, rejected
from viva.marking.misconceptions import detect
from viva.marking.terms import analyse, unframed


def _quoted(text: str) -> list[str]:
    return [text[a:b].strip(" ,") for a, b in rejected(text)]


def test_a_strong_frame_rejects_to_the_end_of_its_sentence() -> None:
    assert _quoted("People often assume decode is compute-bound. It is memory-bound.") == [
        "decode is compute-bound."
    ]


def test_a_frame_stops_where_the_candidates_own_view_starts() -> None:
    assert _quoted("A common mistake is to call decode compute-bound, but it is memory-bound.") == [
        "call decode compute-bound"
    ]


def test_a_weak_frame_rejects_only_when_a_rebuttal_follows() -> None:
    assert _quoted("It looks like decode is compute-bound. It isn't: it waits on memory.") == [
        "decode is compute-bound."
    ]
    # the same words with no rebuttal are the candidate's own diagnosis
    assert _quoted("It looks like decode is compute-bound, so add more GPUs.") == []


def test_a_reported_claim_opening_a_later_sentence_is_framed() -> None:
    """Sentences after the first start with a space; "saying X is really Y" reframes X."""
    text = "It's the method; saying there's a 95 percent chance it's inside is really a Bayesian claim."
    assert _quoted(text) == ["there's a 95 percent chance it's inside is really a Bayesian claim."]
    assert _quoted("It is fine. Thinking that dropout helps here misses the point, actually.") == [
        "dropout helps here misses the point"
    ]


def test_a_frame_inside_a_clause_is_not_a_frame() -> None:
    """ "people assume" in the middle of a clause is part of the candidate's own claim."""
    assert _quoted("Serving slows down when people assume large batches.") == []


def test_a_post_frame_rejects_what_comes_before_it() -> None:
    assert _quoted("Calling decode compute-bound would be a mistake.") == ["Calling decode compute-bound"]


def test_a_practice_named_as_the_subject_of_its_failure_is_rejected() -> None:
    assert _quoted("Sum the log-probabilities, since multiplying probabilities underflows.") == [
        "multiplying probabilities"
    ]
    assert _quoted("Averaging over every position including pads biases the loss.") == [
        "Averaging over every position including pads"
    ]
    # a gerund that is no practice, or a practice that works, is the answer's own
    assert _quoted("During training the loss falls.") == []
    assert _quoted("Multiplying probabilities gives the sequence probability.") == []


def test_words_in_quotation_marks_are_mentioned_not_asserted() -> None:
    assert _quoted("The reward model learned 'longer is better' as a shortcut.") == ["longer is better"]
    assert _quoted('Its rule of thumb, "bigger batches always help", is wrong.') == [
        "bigger batches always help"
    ]
    # one scare-quoted word, and apostrophes, are not quotations
    assert _quoted("A tiny difference comes out 'significant' and it's noise.") == []


def test_what_you_cannot_conclude_is_rejected() -> None:
    assert _quoted("You can't strictly say there is a 95 % chance the value is inside.") == [
        "there is a 95 % chance the value is inside."
    ]
    assert _quoted("You cannot conclude that it is better, but it might be.") == ["it is better"]


def test_an_option_set_aside_after_it_is_named_is_rejected() -> None:
    assert _quoted("The natural proportions are what the crawl gave, so I wouldn't go with that.") == [
        "The natural proportions are what the crawl gave, so"
    ]
    # the speaker's own practice is no rejection
    assert _quoted("I use it daily and would use nothing else.") == []


def test_unframed_hides_rejected_words_and_keeps_the_rest() -> None:
    text = "People often think decode is compute-bound. Decode is memory-bound."
    full, asserted = analyse(text), unframed(text)
    assert "#compute-bound" in full.positions
    assert "#compute-bound" not in asserted.positions
    assert asserted.positions.get("#memory-bound") == full.positions["#memory-bound"]
    assert unframed("Decode is memory-bound.") is analyse("Decode is memory-bound.")


def test_a_rejected_misconception_is_not_detected(decode_question: Question) -> None:
    answer = "A common misconception is that decode is compute-bound. It is memory-bound."
    assert [d.misconception.id for d in detect(decode_question, analyse(answer))] == ["compute-bound"]
    assert detect(decode_question, unframed(answer)) == []


def test_the_marker_does_not_hold_a_rejected_belief_against_the_answer(decode_question: Question) -> None:
    rejecting = (
        "People often assume decode is compute-bound. It isn't: every token reads all the weights "
        "from HBM, about two FLOPs per byte, so it is memory-bound; batching reuses one read of the "
        "weights across many sequences and raises throughput."
    )
    marking = get_backend("lexical").mark(decode_question, rejecting)
    assert marking.misconceptions == []
    assert marking.verdict == "strong"


def test_the_marker_still_hears_a_belief_stated_after_the_turn(decode_question: Question) -> None:
    """What follows "but" is the candidate's own view, so a wrong one there still counts."""
    asserting = (
        "People often assume decode is memory-bound, but decode is compute-bound; batching reuses "
        "one read of the weights and raises throughput."
    )
    marking = get_backend("lexical").mark(decode_question, asserting)
    assert [m.misconception_id for m in marking.misconceptions] == ["compute-bound"]
    assert marking.verdict != "strong"


def _phases() -> Question:
    return Question(
        topic_id="inference",
        section_id="phases",
        id="phase-bounds",
        prompt="What limits the speed of the prefill and decode phases?",
        answer="Prefill is compute-bound. Decode is memory-bound.",
        points=(
            MarkingPoint("prefill", "Prefill is compute-bound.", 1.0, ()),
            MarkingPoint("decode", "Decode is memory-bound.", 1.0, ()),
        ),
    )


def test_a_rejected_reverse_claim_does_not_void_the_point() -> None:
    """Said as the answer's own, "decode is compute-bound" is the reverse of the point "decode is
    memory-bound" and voids it (:func:`viva.marking.relations.opposed`); named to be rejected, it
    does not."""
    own = "Decode is compute-bound. Decode is memory-bound too."
    framed = "People often assume decode is compute-bound. Decode is memory-bound."
    marker = get_backend("lexical")
    assert {p.point_id: p.status for p in marker.mark(_phases(), own).points}["decode"] == "missed"
    marking = marker.mark(_phases(), framed)
    assert {p.point_id: p.status for p in marking.points}["decode"] == "covered"
    assert "contradiction" not in marking.flags


def test_words_the_answer_rejects_do_not_contradict_a_point(decode_question: Question) -> None:
    """Denying a point inside a frame ("a common myth is that batching doesn't raise throughput")
    rejects the denial; the point is simply not made by those words."""
    marker = get_backend("lexical")
    own = marker.mark(decode_question, "Batching doesn't raise throughput.")
    framed = marker.mark(decode_question, "A common myth is that batching doesn't raise throughput.")
    assert "contradiction" in own.flags
    assert "contradiction" not in framed.flags


def test_a_practice_rejected_by_its_failure_is_no_misconception(decode_question: Question) -> None:
    question = replace(
        decode_question,
        misconceptions=(
            Misconception(
                "multiply-probabilities",
                "Multiply the probabilities along the beam to get its score.",
                "The product underflows; sum the log-probabilities.",
                ("multiply the probabilities",),
            ),
        ),
    )
    answer = "Score each beam by its summed log-probs, since multiplying the probabilities underflows."
    assert [d.misconception.id for d in detect(question, analyse(answer))] == ["multiply-probabilities"]
    assert detect(question, unframed(answer)) == []
    stated = "Score each beam by multiplying the probabilities along it."
    assert [d.misconception.id for d in detect(question, unframed(stated))] == ["multiply-probabilities"]


def test_what_an_unlike_phrase_says_is_said_of_the_other_thing() -> None:
    assert _quoted("Unlike prefill, which is compute-bound, decode is memory-bound.") == [
        "prefill, which is compute-bound"
    ]
    assert _quoted("Unlike L2, L1 zeroes weights.") == ["L2"]
    assert _quoted("It behaves unlike anything else, and decode is memory-bound.") == []


def test_a_misconception_described_as_the_other_thing_is_not_held_against_the_answer() -> None:
    boosting = Question(
        topic_id="classical",
        section_id="ensembles",
        id="boosting",
        prompt="How does gradient boosting build its model?",
        answer="It adds shallow trees one at a time, each fit to the errors of the model so far.",
        points=(MarkingPoint("sequential", "Each tree is fit to the errors of the trees before it.", 1.0),),
        misconceptions=(
            Misconception(
                "parallel",
                "Boosting trains its trees independently and averages them.",
                "That is bagging; boosting builds trees one after another.",
            ),
        ),
    )
    answer = (
        "Unlike a random forest, where trees are trained independently and averaged, boosting "
        "fits each new tree to the errors of the trees before it."
    )
    assert [d.misconception.id for d in detect(boosting, analyse(answer))] == ["parallel"]
    assert detect(boosting, unframed(answer)) == []
    assert get_backend("lexical").mark(boosting, answer).verdict == "strong"


def test_a_reading_people_give_it_is_reported_not_asserted() -> None:
    assert _quoted(
        "People usually read it as a 95 percent chance the lift is in the interval, but it isn't."
    ) == ["a 95 percent chance the lift is in the interval"]
    assert _quoted("Many take this to mean the model is broken. It is not.") == ["the model is broken."]
    assert _quoted("I read it as a sign of leakage.") == []  # the candidate's own reading


def test_a_decimal_point_does_not_end_a_frame() -> None:
    assert _quoted("People assume the interval 2.1 to 3.4 holds the lift with 95 percent chance.") == [
        "the interval 2.1 to 3.4 holds the lift with 95 percent chance."
    ]


def test_a_belief_denied_after_it_is_named_is_rejected() -> None:
    """ "X, but that's a myth": the clause before the denial is the rejected belief."""
    assert _quoted("K-means wants round clusters, but that's a myth: it cuts any shape.") == [
        "K-means wants round clusters"
    ]
    assert _quoted("Decode waits on compute, but that's not really true at batch one.") == [
        "Decode waits on compute"
    ]
    assert _quoted("Needing more memory for an MoE is kind of a misconception.") == [
        "Needing more memory for an MoE"
    ]
    assert _quoted("It is memory-bound, but that's fine at batch one.") == []  # no denial


# How people set someone else's view aside in speech: each case is an answer and what a frame
# covers in it; the same words said as the candidate's own view ([]) are no frame.
SPOKEN_FRAMES = [
    # a report of someone else's view, rejected only with a rebuttal
    ("You'd think the sigmoid matters, but its derivative cancels.", ["the sigmoid matters"]),
    ("It's often described as sequential, but the trees are independent.", ["sequential"]),
    ("You'll hear that recall is fixed at build time. It isn't.", ["recall is fixed at build time."]),
    ("Most people start from friends of friends, but that's a weak signal.", ["friends of friends"]),
    ("The instinct is to add a reranker, but that won't help.", ["add a reranker"]),
    ("It's often described as sequential, and it is.", []),  # no rebuttal: own view
    (
        "People often treat TPOT and ITL as one number, but a mean hides spikes.",
        ["TPOT and ITL as one number"],
    ),
    ("A colleague always insists it's the template, but it's the sampling.", ["it's the template"]),
    ("In theory the logs are biased, but in practice they are fine.", ["the logs are biased"]),
    ("In theory and in practice the bound holds.", []),
    ("I used to think k-means needed round clusters.", ["k-means needed round clusters."]),
    # a report said of the clause's subject need not open the clause
    ("PCA is often described as keeping variance, but it keeps features.", ["keeping variance"]),
    ("PCA is often described as keeping variance, and it does.", []),
    # what a sentence opens with, said to sound right before "but", is set aside
    ("Shadow mode sounds safe, but it teaches you nothing.", ["Shadow mode"]),
    ("More data seems like the obvious fix, but the curve is flat.", ["More data"]),
    ("The model looks good offline, but live it drops.", []),  # an observation
    # a verdict on the idea after naming it
    ("Shadow mode is overrated here; go straight to an A/B test.", ["Shadow mode"]),
    ("The receptive field is a bit of a red herring, since it is huge.", ["The receptive field"]),
    # a yes/no question the answer puts to itself, then answers "no"
    ("Is it really about convexity? Not in my experience.", ["Is it really about convexity?"]),
    ("Does decode need the tensor cores? No, it waits on memory.", ["Does decode need the tensor cores?"]),
    ("Does decode need the tensor cores? Yes, for prefill.", []),
    ("Why is decode slow? Not because of compute.", []),  # no yes/no question
]


@pytest.mark.parametrize(("answer", "framed"), SPOKEN_FRAMES)
def test_spoken_dismissals_are_frames(answer: str, framed: list[str]) -> None:
    assert _quoted(answer) == framed


def test_a_claim_is_disbelieved_but_a_named_mistake_or_quote_is_not() -> None:
    """Only a reported claim the answer denies is disbelieved; a practice named as a mistake
    and quoted words may be the very thing a point names."""
    text = "People assume decode is compute-bound. A classic bug is zeroing gradients each step."
    assert [text[a:b].strip() for a, b in disbelieved(text)] == ["decode is compute-bound."]
    assert disbelieved("Multiplying probabilities underflows, and 'dog bites man' reads the same.") == ()
    # what an "unlike" phrase says of the other thing is true of it, not denied
    assert disbelieved("Unlike ROC, which divides by the many negatives, precision counts alarms.") == ()


def test_a_point_said_only_in_a_claim_the_answer_denies_is_not_made(decode_question: Question) -> None:
    """A framed-wrong answer names the right idea to deny it ("people say X, but that's a myth")
    and asserts a wrong one: the words it denies earn no credit, though they contradict nothing."""
    marker = get_backend("lexical")
    point = "memory-bound"
    own = marker.mark(decode_question, "Decode is memory-bound: each token reads all the weights.")
    denied = marker.mark(
        decode_question,
        "People say decode is memory-bound because each token reads all the weights, but that's "
        "a myth; it waits on the tensor cores.",
    )
    assert {p.point_id: p.status for p in own.points}[point] == "covered"
    assert {p.point_id: p.credit for p in denied.points}[point] == 0.0
    # a practice named as a classic bug still says what the bug is
    accumulation = Question(
        topic_id="training",
        section_id="loops",
        id="accumulation-bug",
        prompt="Gradient accumulation over four micro-batches trains worse than one big batch. Why?",
        answer="The loop zeroes the gradients every micro-batch, throwing away the accumulated sum.",
        points=(
            MarkingPoint(
                "zeroed", "The gradients are zeroed every micro-batch, so the accumulated sum is lost.", 1.0
            ),
        ),
    )
    bug = marker.mark(
        accumulation,
        "A classic bug is zeroing the gradients every micro-batch, so the accumulated sum is lost.",
    )
    assert bug.points[0].status == "covered"


def test_the_usual_answer_is_the_candidates_own_unless_rebutted() -> None:
    """ "The usual answer is stochastic rounding: ..." is how a candidate gives their answer;
    only a rebuttal makes it a reading they reject."""
    assert _quoted("The usual answer is stochastic rounding, so small updates survive.") == []
    assert "more data" in _quoted("The usual answer is more data, but that's wrong here.")
    assert "People blame leakage" in _quoted("People blame leakage, but that's not really the issue.")


def test_a_denied_claim_adds_nothing_to_a_point_the_answer_half_makes(decode_question: Question) -> None:
    """Whatever the rest of an answer earns, a claim it reports only to deny raises no point."""
    marker = get_backend("lexical")
    denied = (
        "People say one read of the weights serves many sequences, raising throughput, but that's a myth. "
    )
    for own in (
        "Batching shares the weights across many sequences.",
        "Many sequences share each weight read.",
    ):
        alone = {p.point_id: p.credit for p in marker.mark(decode_question, own).points}
        with_denied = {p.point_id: p.credit for p in marker.mark(decode_question, denied + own).points}
        assert 0.3 <= alone["batching-amortises"] < 1.0, own
        assert with_denied["batching-amortises"] == alone["batching-amortises"], own
