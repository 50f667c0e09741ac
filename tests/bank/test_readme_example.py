"""The README's small complete topic must stay valid: it is what new authors copy."""

from __future__ import annotations

import shutil
from pathlib import Path

from viva.bank import load_bank
from viva.marking.lint import lint_bank

ROOT = Path(__file__).resolve().parents[2]


def _block(section: str, name: str, lang: str) -> str:
    after = section[section.index(f"`content/demo/{name}`") :]
    start = after.index(f"```{lang}\n") + len(f"```{lang}\n")
    return after[start : after.index("\n```\n", start)] + "\n"


def test_readme_topic_example_checks_and_lints(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### A small complete topic") : readme.index("## Settings")]
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "gpus-and-accelerators", content / "gpus-and-accelerators")
    demo = content / "demo"
    demo.mkdir()
    for name, lang in (("topic.yaml", "yaml"), ("01-decode.md", "markdown"), ("01-decode.yaml", "yaml")):
        (demo / name).write_text(_block(section, name, lang), encoding="utf-8")
    bank, errors = load_bank(demo)
    assert errors == []
    assert [q.id for q in bank.questions()] == ["decode-bound", "decode-batching"]
    assert all(result.passed for result in lint_bank(bank, "default"))
