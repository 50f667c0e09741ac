from dataclasses import replace
from pathlib import Path

from viva.bank import load_bank
from viva.bank.model import Misconception, Question
from viva.marking.misconceptions import detect
from viva.marking.terms import analyse

CONTENT = Path(__file__).resolve().parents[2] / "content"


def _ids(question: Question, answer: str) -> list[str]:
    return [d.misconception.id for d in detect(question, analyse(answer))]


def test_asserted_misconception_is_detected(decode_question: Question) -> None:
    assert _ids(decode_question, "so decode is compute-bound, the GPU runs out of flops") == ["compute-bound"]


def test_denied_misconception_is_not_detected(decode_question: Question) -> None:
    assert _ids(decode_question, "decode is not compute-bound, it is memory-bound") == []


def test_model_answer_asserts_none(decode_question: Question) -> None:
    assert _ids(decode_question, decode_question.answer) == []


def test_evidence_points_at_the_claim(decode_question: Question) -> None:
    answer = "Honestly batching makes it slower."
    found = detect(decode_question, analyse(answer))
    assert found and any("slower" in answer[s:e] for s, e in found[0].evidence)


def test_a_wrong_figure_is_stated_only_by_saying_it(decode_question: Question) -> None:
    """An answer giving its own figures, none of them the misconception's, does not state it,
    though it shares every other word ("63 percent of requests are slow" is no "1 %")."""
    question = replace(
        decode_question,
        misconceptions=(
            Misconception(
                "four-bytes",
                "Adam keeps 4 bytes of state per parameter in total for its moments.",
                "Two FP32 moments are 8 bytes per parameter.",
            ),
        ),
    )
    assert _ids(question, "Adam keeps 4 bytes of state per parameter for its moments") == ["four-bytes"]
    assert _ids(question, "Adam keeps 8 bytes of state per parameter for its moments") == []


def test_a_range_is_one_clause_so_a_wrong_claim_cannot_borrow_a_neighbouring_sentence(
    decode_question: Question,
) -> None:
    """ "between 2.1 and 3.4" is one claim: its "and" does not let the misconception span two
    clauses and so pick up "95 percent" from the sentence before."""
    question = replace(
        decode_question,
        misconceptions=(
            Misconception(
                "probability-inside",
                "There's a 95 percent probability that the true lift lies between 2.1 and 3.4.",
                "The 95 percent describes the procedure, not this interval.",
            ),
        ),
    )
    said = "There's a 95 percent probability that the true lift lies between 2.1 and 3.4."
    assert _ids(question, said) == ["probability-inside"]
    correct = (
        "About 95 percent of such intervals would contain the true lift. "
        "The true lift is fixed, so this interval from 2.1 to 3.4 contains it or not."
    )
    assert _ids(question, correct) == []


def test_a_figure_with_a_unit_is_stated_only_with_that_unit(decode_question: Question) -> None:
    """ "8 billion parameters ... 16 GB" says 8 and GB, but not "8 GB"; "six FLOPs, two for the
    forward pass" says 2 and FLOPs, but not "2 FLOPs"."""
    question = replace(
        decode_question,
        misconceptions=(
            Misconception(
                "one-byte", "An 8B model is 8 GB of weights.", "BF16 is 2 bytes.", ("8 GB of BF16 weights",)
            ),
            Misconception(
                "forward-only", "Training costs 2 FLOPs per parameter per token.", "It is about 6.", ()
            ),
        ),
    )
    assert _ids(question, "At 8 billion parameters the weights take 16 GB in BF16.") == []
    assert _ids(question, "The weights are 8 GB in BF16.") == ["one-byte"]
    assert _ids(question, "Training costs six FLOPs per parameter per token, two of them forward.") == []
    assert _ids(question, "Training costs 2 FLOPs per parameter per token.") == ["forward-only"]


def test_a_possessive_in_a_wrong_claim_is_its_word(decode_question: Question) -> None:
    """ "the layer's weights" and "the weights of the layer" name one thing; "layer's" was once
    a word of its own, so the claim could not be stated without the apostrophe."""
    question = replace(
        decode_question,
        misconceptions=(
            Misconception("zeroes-weights", "It zeroes the layer's weights.", "It zeroes activations."),
        ),
    )
    assert _ids(question, "Dropout zeroes the weights of the layer.") == ["zeroes-weights"]
    assert _ids(question, "Dropout zeroes the layer's activations.") == []


def test_a_phrasing_of_one_word_states_nothing(decode_question: Question) -> None:
    """ "it's overfitting" is said by any answer that names overfitting, even to reject it; a
    phrasing that makes a claim ("the deeper net overfits") is still heard."""
    question = replace(
        decode_question,
        misconceptions=(
            Misconception(
                "deep-overfits",
                "The deeper network is overfitting because it has more parameters.",
                "Its training error is higher too, which overfitting cannot explain.",
                ("it's overfitting", "the deeper net overfits"),
            ),
        ),
    )
    rejecting = "It's easy to call it overfitting, but overfitting would show a lower training error."
    assert _ids(question, rejecting) == []
    assert _ids(question, "Simple: the deeper net overfits the data.") == ["deep-overfits"]


def test_a_spelling_variant_is_the_claim_s_own_word(decode_question: Question) -> None:
    """ "furthest" is "farthest": a wrong claim's own word said in the other spelling states it."""
    question = replace(
        decode_question,
        answer="It maximises the margin; the support vectors are the points closest to the boundary.",
        misconceptions=(
            Misconception(
                "support-vectors-farthest",
                "The support vectors are the points farthest from the boundary.",
                "They lie on or inside the margin.",
            ),
        ),
    )
    assert _ids(question, "The support vectors are the points lying furthest from the boundary.") == [
        "support-vectors-farthest"
    ]
    assert _ids(question, "The support vectors are the points closest to the boundary.") == []


def test_a_comparison_the_other_way_round_states_no_misconception(decode_question: Question) -> None:
    """ "FP16 is more accurate than BF16" has every word of "BF16 is more accurate"; what a
    comparison is about is its subject, not what follows "than"."""
    question = replace(
        decode_question,
        prompt="How do FP16 and BF16 differ?",
        misconceptions=(
            Misconception(
                "bf16-more-accurate",
                "BF16 is more accurate than FP16.",
                "BF16 keeps 7 mantissa bits to FP16's 10.",
                ("BF16 is more accurate",),
            ),
        ),
    )
    assert _ids(question, "FP16 is more accurate than BF16, but BF16 has the range.") == []
    assert _ids(question, "BF16 is more accurate than FP16, so use it.") == ["bf16-more-accurate"]
    assert _ids(question, "Honestly BF16 is more accurate, so use it.") == ["bf16-more-accurate"]


def test_definitions_joined_by_a_comma_are_two_statements() -> None:
    """ "Covariate drift is a change in the inputs, concept drift is a change in the relation"
    defines each kind of its own subject; read as one clause it had every word of both swapped
    definitions (the bank's swapped-drift and swapped-covariate). Swapped, they still are."""
    question = load_bank(CONTENT)[0].question("mlops-and-production/covariate-vs-concept")
    right = (
        "Covariate drift is a change in the input distribution, concept drift is a change in "
        "the relation between inputs and label."
    )
    assert _ids(question, right) == []
    wrong = (
        "Concept drift is a change in the input distribution, covariate drift is a change in "
        "the relation between inputs and label."
    )
    assert sorted(_ids(question, wrong)) == ["swapped-covariate", "swapped-drift"]


def test_one_for_each_needs_a_word_that_hands_out() -> None:
    """ "One vector for each sense" hands a vector to every sense. "Its senses get blended into
    one vector" has the words and the opposite relation; "a separate vector per sense" has the
    relation in other words."""
    question = load_bank(CONTENT)[0].question("nlp-basics/context-in-training-only")
    right = "There's a single row for 'bank', so its senses get blended into one vector."
    assert _ids(question, right) == []
    assert _ids(question, "It keeps one vector for each sense of the word.") == ["one-per-sense"]
    assert _ids(question, "Word2vec learns a separate vector per sense.") == ["one-per-sense"]


def test_a_goal_held_under_a_constraint_is_not_the_goal_at_any_cost() -> None:
    """ "Maximise recall" is the misconception for a spam filter; "hold precision at 99.9 %,
    then maximise recall within that constraint" is the right answer's constrained goal."""
    question = load_bank(CONTENT)[0].question("evaluation-and-metrics/precision-or-recall")
    assert _ids(question, "I'd maximise recall on the spam class.")
    for right in (
        "Keep precision at or above 99.9 %, then maximise recall within that constraint.",
        "Set a precision floor and maximise recall subject to it.",
        "You can maximise recall as long as precision stays above the target.",
    ):
        assert _ids(question, right) == [], right
