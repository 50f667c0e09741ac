"""A figure the candidate works out aloud, with the arithmetic right, stands in for the bank's."""

from __future__ import annotations

import pytest

from viva.marking.points import match, target
from viva.marking.terms import analyse
from viva.marking.worked import consistent, worked_results

NONE: frozenset[str] = frozenset()


def _results(text: str) -> list[str]:
    content = analyse(text).content_terms()
    return [content[rank].surface for rank in sorted(worked_results(text))]


@pytest.mark.parametrize(
    ("text", "results"),
    [
        ("8 billion parameters times 2 bytes is 16 GB of weights.", ["16"]),
        ("eight billion times two bytes is sixteen gigabytes", ["16"]),  # as speech is transcribed
        ("32 layers × 4096 × 2 × 2 bytes ≈ 0.5 MB per token", ["0.5"]),  # MB: a power of 1,024
        ("a global batch of 64 over 8 GPUs gives 8 per GPU", ["8"]),
        ("7B × 2 bytes = 28 GB", []),  # wrong arithmetic
        ("It needs 16 GB and then 2 bytes per value is 80 GB.", []),  # no operator joins 16 and 2
        ("The H100 has 80 GB and the A100 40 GB.", []),  # figures, no arithmetic
    ],
)
def test_only_right_arithmetic_yields_a_worked_figure(text: str, results: list[str]) -> None:
    assert _results(text) == results


def test_consistent_allows_rounding_and_a_change_of_scale_only() -> None:
    assert consistent(14.0, 14.4) and consistent(16e9, 16) and consistent(524288, 0.5)
    assert not consistent(14.0, 28.0) and not consistent(14.0, 15.0)


def test_a_worked_figure_in_the_same_unit_makes_the_point() -> None:
    """Another model size, worked out right, is as good as the bank's 14 GB; the same figure
    with the arithmetic wrong, or in another unit, is not."""
    claim = target("In 16-bit precision the weights take 14 GB.", NONE)
    worked = match(claim, analyse("In 16-bit precision the weights take 8 billion times 2 bytes, so 16 GB."))
    wrong = match(claim, analyse("In 16-bit precision the weights take 7 billion times 2 bytes, so 28 GB."))
    other_unit = match(claim, analyse("In 16-bit precision the weights take 16 GB; 8 times 2 is 16 layers."))
    assert worked.coverage == 1.0
    assert wrong.coverage < 1.0 and other_unit.coverage < 1.0


def test_a_scale_word_is_not_a_unit() -> None:
    """1.85 billion multiply-adds, worked out right, is not the point's 3.7 billion FLOPs."""
    claim = target("about 3.7 billion FLOPs", NONE)
    said = analyse("3 × 3 × 256 × 256 times 56 × 56 is about 1.85 billion multiply-adds")
    assert match(claim, said).coverage < 1.0
