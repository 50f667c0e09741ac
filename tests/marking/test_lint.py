from viva.bank.model import Bank, Question, Section, Topic
from viva.marking.lint import lint_bank, weakest_passes


def _bank(question: Question) -> Bank:
    section = Section("gpus", "hardware", "Hardware", "lesson", 1, (question,))
    return Bank((Topic("gpus", "GPUs", "summary", 1, (section,)),))


def test_model_answer_and_samples_are_checked(decode_question: Question) -> None:
    results = lint_bank(_bank(decode_question))
    assert [r.kind for r in results] == ["model answer", "weak sample"]
    assert all(r.passed for r in results)
    assert weakest_passes(results)[0].kind == "model answer"


def test_a_wrong_sample_verdict_fails_with_a_reason(decode_question: Question) -> None:
    from dataclasses import replace

    from viva.bank.model import SampleAnswer

    bad = replace(decode_question, samples=(SampleAnswer("It is compute-bound.", "strong"),))
    failure = next(r for r in lint_bank(_bank(bad)) if not r.passed)
    assert "expected strong, got weak" in failure.describe()
