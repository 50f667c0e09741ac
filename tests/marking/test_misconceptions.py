from dataclasses import replace

from viva.bank.model import Misconception, Question
from viva.marking.misconceptions import detect
from viva.marking.terms import analyse


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
