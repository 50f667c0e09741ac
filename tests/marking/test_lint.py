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


def test_one_word_accepts_are_listed_and_phrases_are_not(decode_question: Question) -> None:
    from dataclasses import replace

    from viva.marking.lint import one_word_accepts

    point = replace(
        decode_question.points[0],
        accept=("memory-bound", "limited by bandwidth", "another warp", "learning rate"),
    )
    question = replace(decode_question, points=(point, *decode_question.points[1:]))
    notes = one_word_accepts(_bank(question))
    # "another warp" is "warp" to the marker; "learning rate" is one two-word term
    assert [n.message for n in notes if n.message.startswith(f"point {point.id!r}")] == [
        f"point {point.id!r} accepts 'memory-bound'",
        f"point {point.id!r} accepts 'another warp'",
    ]


def test_misconception_phrasings_too_short_to_claim_anything_are_listed(decode_question: Question) -> None:
    from dataclasses import replace

    from viva.marking.lint import unclaimed_phrasings

    wrong = replace(
        decode_question.misconceptions[0], accept=("it's compute", "decode is compute-bound", "it's 7")
    )
    question = replace(decode_question, misconceptions=(wrong, *decode_question.misconceptions[1:]))
    notes = unclaimed_phrasings(_bank(question))
    assert [n.message.split(":")[1].split(" is too short")[0].strip() for n in notes] == [
        '"it\'s compute"',
        '"it\'s 7"',
    ]


def test_missing_sample_kinds_are_named_for_questions_and_follow_ups_not_probes(
    decode_question: Question,
) -> None:
    from dataclasses import replace

    from viva.bank.model import SampleAnswer
    from viva.marking.lint import missing_sample_kinds

    kinds = ("paraphrase", "contrast", "partial")
    samples = tuple(SampleAnswer("x", "strong", kind=k) for k in kinds)
    complete = (*samples, SampleAnswer("y", "weak", kind="fluent-wrong"))
    parent = "gpus/" + decode_question.id
    follow_up = replace(decode_question, id="later", parent_id=parent, samples=samples)
    probe = replace(decode_question, id="push", parent_id=parent, probe_of="p", samples=())
    question = replace(decode_question, samples=samples, follow_ups=(follow_up, probe))
    notes = missing_sample_kinds(_bank(question))
    assert sorted((n.question_id, n.message) for n in notes) == sorted(
        [(question.full_id, "no fluent-wrong sample"), (follow_up.full_id, "no fluent-wrong sample")]
    )
    done = replace(question, samples=complete, follow_ups=(replace(follow_up, samples=complete), probe))
    assert missing_sample_kinds(_bank(done)) == []


def test_a_question_without_tags_misconception_or_weak_sample_is_named(decode_question: Question) -> None:
    from dataclasses import replace

    from viva.marking.lint import incomplete_questions

    assert incomplete_questions(_bank(replace(decode_question, tags=("gpu",)))) == []
    bare = replace(decode_question, tags=(), misconceptions=(), samples=())
    [note] = incomplete_questions(_bank(bare))
    assert note.message == "no tags; no misconception; no weak sample"
    crowded = replace(decode_question, tags=("gpu",), points=decode_question.points * 3)
    assert (
        incomplete_questions(_bank(crowded))[0].message == "9 points counting the marked-up ones (at most 6)"
    )
