from viva.marking import mark, question_from_reference
from viva.marking.reference import is_reference_only, split_reference


def test_points_are_derived_from_the_reference() -> None:
    q = question_from_reference(
        "What is the difference between a constructor and a function?",
        "A constructor is called whenever an object is created, whereas a function needs to be called "
        "explicitly. Constructors do not have return type, but functions have to indicate a return type.",
        question_id="2.3",
    )
    assert is_reference_only(q)
    assert len(q.points) >= 2
    assert q.id == "2.3"


def test_short_reference_is_one_point() -> None:
    assert split_reference("By reference.") == ["By reference."]


def test_reference_mode_orders_answers() -> None:
    q = question_from_reference(
        "What is a pointer?", "A variable that contains the address in memory of another variable."
    )
    good = mark(q, "A pointer is a variable holding the memory address of another variable.")
    vague = mark(q, "It points to things.")
    off = mark(q, "Sorting puts the list in increasing order.")
    assert good.score > vague.score >= off.score
    assert good.verdict == "strong"
    assert off.verdict == "weak"


def test_reference_id_is_stable() -> None:
    a = question_from_reference("Q?", "Some reference answer here.")
    b = question_from_reference("Q?", "Some reference answer here.")
    assert a.id == b.id


def test_restating_the_question_earns_no_precision() -> None:
    from viva.marking import scoring
    from viva.marking.lexical import LexicalBackend, reference_features

    q = question_from_reference(
        "What is the role of a prototype program in problem solving?",
        "To simulate the behaviour of portions of the desired software product.",
    )
    lexical = LexicalBackend()

    def precision(answer: str) -> float:
        analysis, results, _ = lexical.assess(q, answer)
        return reference_features(q, analysis, scoring.coverage(q, results)).precision

    on_point = precision("It simulates portions of the desired product.")
    padded = precision("The role of a prototype program in problem solving: it simulates the product.")
    assert on_point == 1.0
    assert padded >= 0.75  # restating the question dilutes little (it was 2/7 when prompt words counted)
    assert precision("A prototype program helps problem solving.") < 0.35
