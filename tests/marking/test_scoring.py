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
