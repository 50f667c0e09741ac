"""The layers hold: the adapters (web, CLI) reach storage only through the core, and the core
never imports an adapter.

Read from the source with :mod:`ast` (imports inside functions count too), so the rule holds
for code no test happens to run. The web app and the CLI each build and migrate the engine
in one place, their composition root; only those modules may import :mod:`viva.store`.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import typing
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
ADAPTERS = ("viva.web", "viva.cli")
STORE = "viva.store"
COMPOSITION_ROOTS = frozenset(
    {
        "viva.web.app",  # builds the engine and session factory, migrates, says where data lives
        "viva.cli.work",  # the same for commands that open the database
        "viva.cli.serve",  # migrates once before starting the workers; prints where data lives
    }
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it, as absolute dotted names."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            # `from viva import store` imports the module viva.store
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def modules_under(*packages: str) -> list[Path]:
    return sorted(
        path
        for path in (SRC / "viva").rglob("*.py")
        if any(module_name(path) == p or module_name(path).startswith(p + ".") for p in packages)
    )


def reaches(names: set[str], package: str) -> list[str]:
    return sorted(n for n in names if n == package or n.startswith(package + "."))


def store_imports_outside_roots(paths: list[Path]) -> dict[str, list[str]]:
    found = {module_name(p): reaches(imported(p), STORE) for p in paths}
    return {m: names for m, names in found.items() if names and m not in COMPOSITION_ROOTS}


def test_adapters_reach_the_store_only_at_their_composition_roots() -> None:
    adapters = modules_under(*ADAPTERS)
    assert len(adapters) > 30, "the walk found the web and CLI modules"
    assert store_imports_outside_roots(adapters) == {}


ADAPTERS_MAY_USE = frozenset({"sqlalchemy.orm", "sqlalchemy.orm.Session", "sqlalchemy.orm.sessionmaker"})
"""What the adapters may take from SQLAlchemy outside their roots, besides its errors
(``sqlalchemy.exc``): the unit of work's types. No engine and no SQL: they ask the core
(``/readyz`` asks :func:`viva.practice.units.database_status`)."""


def sqlalchemy_beyond_sessions(path: Path) -> list[str]:
    used = reaches(imported(path), "sqlalchemy")
    return [n for n in used if n not in ADAPTERS_MAY_USE and not reaches({n}, "sqlalchemy.exc")]


def test_adapters_hold_no_engine_and_run_no_sql_outside_their_roots() -> None:
    adapters = [p for p in modules_under(*ADAPTERS) if module_name(p) not in COMPOSITION_ROOTS]
    found = {module_name(p): sqlalchemy_beyond_sessions(p) for p in adapters}
    assert {m: names for m, names in found.items() if names} == {}


def test_the_composition_roots_exist() -> None:
    """A renamed root must be renamed here too, not silently allowed under its old name."""
    assert {module_name(p) for p in modules_under(*ADAPTERS)} >= COMPOSITION_ROOTS


def test_the_core_never_imports_an_adapter() -> None:
    adapters = set(modules_under(*ADAPTERS))
    core = [p for p in modules_under("viva") if p not in adapters and module_name(p) != "viva.__main__"]
    found = {module_name(p): [n for a in ADAPTERS for n in reaches(imported(p), a)] for p in core}
    assert {m: names for m, names in found.items() if names} == {}


@pytest.mark.parametrize(
    "source",
    [
        "from viva.store import session_scope\n",
        "from viva.store.models import User\n",
        "import viva.store.db\n",
        "from viva import store\n",
        "def later():\n    from viva.store.users import get_user\n",
        "from ...store import logins\n",
    ],
)
def test_the_check_catches_a_planted_store_import(
    source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planted = tmp_path / "viva" / "web" / "routes" / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text(source, encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.SRC", tmp_path)
    assert list(store_imports_outside_roots([planted])) == ["viva.web.routes.planted"]


def store_types_in(annotation: object) -> list[str]:
    """The store's classes that ``annotation`` names, however deeply (``list[X] | None``)."""
    found = [] if annotation is None else [annotation, *typing.get_args(annotation)]
    names = []
    for part in found:
        if part is not annotation:
            names += store_types_in(part)
        elif reaches({getattr(part, "__module__", "")}, STORE):
            names.append(f"{part.__module__}.{getattr(part, '__qualname__', part)}")
    return names


def practice_returns() -> dict[str, object]:
    """What each public function and method of :mod:`viva.practice` says it returns."""
    returns: dict[str, object] = {}
    for path in modules_under("viva.practice"):
        module = importlib.import_module(module_name(path))
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
                continue
            members = [(name, value)]
            if inspect.isclass(value):
                members = [(f"{name}.{n}", m) for n, m in vars(value).items() if not n.startswith("_")]
            for qualname, member in members:
                member = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                if inspect.isfunction(member):
                    returns[f"{module.__name__}.{qualname}"] = typing.get_type_hints(member).get("return")
    return returns


def test_practice_hands_the_adapters_no_store_rows() -> None:
    """The store returns rows and practice maps them: what practice returns is its own."""
    returns = practice_returns()
    assert "viva.practice.service.Practice.review_state" in returns, "the walk found Practice's methods"
    leaks = {name: types for name, r in returns.items() if (types := store_types_in(r))}
    assert leaks == {}


def test_practice_exports_no_store_names() -> None:
    import viva.practice

    exported = {name: getattr(viva.practice, name) for name in viva.practice.__all__}
    assert {
        n: v.__module__ for n, v in exported.items() if reaches({getattr(v, "__module__", "")}, STORE)
    } == {}


def test_every_core_module_has_something_of_its_own() -> None:
    """A module that only re-exports another's names is an alias to keep in step, not a layer."""
    bare = []
    for path in modules_under("viva.practice"):
        if path.name == "__init__.py":
            continue
        module = importlib.import_module(module_name(path))
        own = [v for v in vars(module).values() if getattr(v, "__module__", None) == module.__name__]
        if not own:
            bare.append(module.__name__)
    assert bare == []
