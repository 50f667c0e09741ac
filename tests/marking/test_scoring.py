from viva.marking import scoring
from viva.marking.result import verdict_for


def test_point_score_is_monotone_and_bounded() -> None:
    values = [scoring.point_score(c / 10) for c in range(11)]
    assert values == sorted(values)
    assert values[0] == 0 and values[-1] == 1


def test_misconception_caps_below_strong() -> None:
    assert verdict_for(scoring.after_misconceptions(1.0, 1)) != "strong"
    assert scoring.after_misconceptions(0.5, 0) == 0.5


def test_reference_score_maps_predicted_marks() -> None:
    nothing = scoring.ReferenceFeatures(points=0, whole=0, precision=0, size=3)
    everything = scoring.ReferenceFeatures(points=1, whole=1, precision=1, size=12)
    assert scoring.reference_score(nothing) < 0.35 < 0.7 <= scoring.reference_score(everything)


def _question(marked_up: int = 0):  # type: ignore[no-untyped-def]
    from viva.bank.model import MarkingPoint, Question

    core = (MarkingPoint("a", "first core point"), MarkingPoint("b", "second core point"))
    extra = tuple(MarkingPoint(f"x{i}", f"extra point {i}", core=False) for i in range(marked_up))
    return Question("t", "s", "q", "prompt?", "answer", core + extra)


def _results(*credits: float):  # type: ignore[no-untyped-def]
    from viva.marking.points import PointResult

    return [PointResult(c, (), False) for c in credits]


def test_every_core_point_made_is_strong_and_marked_up_points_raise_it() -> None:
    question = _question(marked_up=2)
    core_only = scoring.authored_score(question, _results(1, 1, 0, 0))
    one_extra = scoring.authored_score(question, _results(1, 1, 1, 0))
    everything = scoring.authored_score(question, _results(1, 1, 1, 1))
    assert verdict_for(core_only) == "strong"
    assert core_only < one_extra < everything == 1.0


def test_missing_a_core_point_is_never_strong() -> None:
    question = _question(marked_up=2)
    assert verdict_for(scoring.authored_score(question, _results(1, 0, 1, 1))) != "strong"
    assert verdict_for(scoring.authored_score(_question(), _results(1, 0.1))) != "strong"


def test_under_the_missed_point_cap_an_answer_that_says_more_scores_more() -> None:
    """Both miss the second core point; the one that also makes both marked-up points is
    higher, not tied at the cap, and the cap moves no verdict."""
    from dataclasses import replace

    from viva.bank.model import MarkingPoint

    plain = _question(marked_up=2)
    question = replace(plain, points=(MarkingPoint("c", "third core point"), *plain.points))
    less = scoring.authored_score(question, _results(1, 1, 0.2, 0, 0))
    more = scoring.authored_score(question, _results(1, 1, 0.2, 1, 1))
    assert less < more <= scoring.BELOW_STRONG
    assert verdict_for(less) == verdict_for(more) == "partial"
    for raw in [c / 100 for c in range(101)]:
        assert verdict_for(scoring.below_strong(raw)) == verdict_for(min(raw, scoring.BELOW_STRONG))


def test_without_marked_up_points_the_score_is_the_core_score() -> None:
    question = _question()
    for credits in [(1, 1), (1, 0.5), (0.6, 0.9)]:
        covered = sum(credits) / 2
        assert scoring.authored_score(question, _results(*credits)) == scoring.point_score(covered)


def test_marked_up_points_never_lower_a_verdict() -> None:
    plain, rich = _question(), _question(marked_up=1)
    for a in range(0, 11):
        for b in range(3, 11):
            without = scoring.authored_score(plain, _results(a / 10, b / 10))
            with_none = scoring.authored_score(rich, _results(a / 10, b / 10, 0))
            assert verdict_for(with_none) == verdict_for(without) or (a < 3 or b < 3)
