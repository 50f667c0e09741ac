from __future__ import annotations

import pytest

from viva.bank.lines import YamlError, load_yaml


def test_lines_of_keys_and_list_items() -> None:
    data, lines = load_yaml("a: 1\nb:\n  - x: 2\n    y: |\n      hi\n  - z: 3\n")
    assert data == {"a": 1, "b": [{"x": 2, "y": "hi\n"}, {"z": 3}]}
    assert lines.line_of(("b", 0, "y")) == 4
    assert lines.line_of(("b", 1, "z")) == 6
    assert lines.line_of(("b", 1, "missing", 3)) == 6  # falls back to the nearest ancestor


def test_offset_shifts_lines() -> None:
    _, lines = load_yaml("id: x\ntitle: y\n", offset=1)
    assert lines.line_of(("title",)) == 3


def test_duplicate_key_is_an_error_with_line() -> None:
    with pytest.raises(YamlError) as info:
        load_yaml("a: 1\nb: 2\na: 3\n")
    assert info.value.line == 3


def test_syntax_error_has_line() -> None:
    with pytest.raises(YamlError) as info:
        load_yaml("a: 1\nb: [1, 2\nc: 3\n")
    assert info.value.line == 3
    assert "malformed YAML" in str(info.value)
