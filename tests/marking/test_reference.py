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
