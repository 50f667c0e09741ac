"""YAML parsing that remembers the line of every value, so errors can name it.

PyYAML's composer keeps a start mark on each node; we walk the node tree once and
record ``path -> line`` where a path is the tuple of keys and list indexes leading to
the value (the same shape as a pydantic error's ``loc``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

Path = tuple[str | int, ...]

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (several times faster), else the pure one;
both keep a start mark on every node."""


@dataclass
class LineMap:
    """Line numbers (1-based) of values and of the keys that introduce them."""

    offset: int = 0
    lines: dict[Path, int] = field(default_factory=dict)

    def line_of(self, path: Path) -> int:
        """The line of ``path`` or of its nearest recorded ancestor."""
        while path and path not in self.lines:
            path = path[:-1]
        return self.lines.get(path, 1) + self.offset


class YamlError(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def load_yaml(text: str, *, offset: int = 0) -> tuple[Any, LineMap]:
    """Parse one YAML document; raise :class:`YamlError` with a line on bad syntax.

    ``offset`` shifts every line, for YAML embedded after other lines (front matter).
    """
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 if mark else 1) + offset
        raise YamlError(f"malformed YAML: {exc.problem or exc}", line) from None
    except yaml.YAMLError as exc:  # pragma: no cover - non-marked errors are rare
        raise YamlError(f"malformed YAML: {exc}", 1 + offset) from None
    line_map = LineMap(offset=offset)
    if node is None:
        return None, line_map
    return _build(node, (), line_map, yaml.constructor.SafeConstructor()), line_map


def _build(node: yaml.Node, path: Path, line_map: LineMap, make: yaml.constructor.SafeConstructor) -> Any:
    line_map.lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = make.construct_object(key_node, deep=True)
            child = (*path, key)
            line_map.lines[child] = key_node.start_mark.line + 1
            if key in result:
                raise YamlError(f"duplicate key {key!r}", key_node.start_mark.line + 1 + line_map.offset)
            result[key] = _build(value_node, child, line_map, make)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), line_map, make) for i, item in enumerate(node.value)]
    return make.construct_object(node, deep=True)  # a scalar, exactly as yaml.safe_load makes it
