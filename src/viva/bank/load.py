"""Load a bank from ``content/``: returns the bank *and* every error found.

One bad file never hides errors in another: each file is parsed and validated on its
own, cross-references are checked once everything readable has been read, and what
fails is left out of the bank but reported with file, line and a hint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from viva.bank.lines import LineMap, YamlError, load_yaml
from viva.bank.model import (
    Bank,
    MarkingPoint,
    Misconception,
    Question,
    SampleAnswer,
    Section,
    Source,
    Topic,
)
from viva.bank.schema import (
    FollowUpRef,
    LessonFrontMatter,
    MisconceptionSpec,
    PointSpec,
    QuestionSpec,
    SectionFileSpec,
    TopicSpec,
)

SECTION_STEM = re.compile(r"^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)$")
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class BankError:
    """One problem in a bank file, printed as ``path:line: message (hint)``."""

    path: str
    line: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        tail = f" (hint: {self.hint})" if self.hint else ""
        return f"{self.path}:{self.line}: {self.message}{tail}"


class _Collector:
    def __init__(self) -> None:
        self.errors: list[BankError] = []
        self.refs: list[tuple[str, str, Source]] = []  # (question id, follow-up ref, where)
        self.related: list[tuple[str, Source]] = []  # (related section, where)

    def add(self, path: Path | str, line: int, message: str, hint: str = "") -> None:
        self.errors.append(BankError(str(path), line, message, hint))

    def validate(self, model: type[M], data: Any, path: Path, lines: LineMap) -> M | None:
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            for err in exc.errors():
                loc = _clean_loc(err["loc"])
                self.add(path, lines.line_of(loc), _message(loc, err), _hint(model, loc, err))
            return None


def _clean_loc(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    # pydantic adds the union member's class name to a path inside a union; drop it
    return tuple(p for p in loc if not (isinstance(p, str) and p in {"question", "ref"} and p != loc[-1]))


def _message(loc: tuple[int | str, ...], err: Any) -> str:
    where = ".".join(str(p) for p in loc) or "file"
    if err["type"] == "extra_forbidden":
        return f"unknown key {loc[-1]!r}"
    if err["type"] == "missing":
        return f"missing field {where!r}"
    if err["type"] == "string_too_short":
        return f"{where} is empty"
    return f"{where}: {err['msg']}"


_ALLOWED = {
    "points": "id, text, weight, accept, shows, probe",
    "misconceptions": "id, text, correction, accept, probe",
    "marked_up": "id, text, weight, accept, shows, probe",
    "samples": "verdict, kind, answer",
}


def _hint(model: type[BaseModel], loc: tuple[int | str, ...], err: Any) -> str:
    if err["type"] == "extra_forbidden":
        parent = next((str(p) for p in reversed(loc[:-1]) if isinstance(p, str)), "")
        if parent in _ALLOWED:
            return f"allowed keys: {_ALLOWED[parent]}"
        if parent in {"questions", "follow_ups", "probe"}:
            return "allowed keys: " + ", ".join(QuestionSpec.model_fields)
        return "allowed keys: " + ", ".join(model.model_fields)
    if err["type"] == "string_pattern_mismatch":
        return "ids are slugs: lowercase letters, digits and single hyphens"
    if (loc and loc[-1] == "marked_up") or (len(loc) > 1 and loc[-2] == "marked_up"):
        return "a question has at most 6 marked-up points"
    if (loc and loc[-1] == "points") or (len(loc) > 1 and loc[-2] == "points"):
        return "a question has 2 to 6 marking points"
    return ""


def load_bank(root: Path | str) -> tuple[Bank, list[BankError]]:
    """Read every topic folder under ``root``.

    Given one topic folder, the whole bank around it is loaded (so links to other
    topics resolve) and only errors inside that folder are returned.
    """
    root = Path(root)
    if (root / "topic.yaml").exists() and root.parent.is_dir():
        bank, errors = _load_folders(sorted(_topic_folders(root.parent)))
        inside = [e for e in errors if Path(e.path) == root or root in Path(e.path).parents]
        return Bank(tuple(t for t in bank.topics if t.source and Path(t.source.path).parent == root)), inside
    if not root.is_dir():
        return Bank(), [BankError(str(root), 1, "no such folder", "point at content/ or a topic folder")]
    return _load_folders(sorted(_topic_folders(root)))


def _topic_folders(root: Path) -> list[Path]:
    return [p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))]


def _load_folders(folders: list[Path]) -> tuple[Bank, list[BankError]]:
    errors = _Collector()
    topics = [t for t in (_load_topic(folder, errors) for folder in folders) if t is not None]
    topics.sort(key=lambda t: (t.order, t.id))
    _check_unique(((t.id, t.source) for t in topics), "topic", errors)
    bank = Bank(tuple(topics))
    _check_references(bank, errors)
    return bank, errors.errors


def _load_topic(folder: Path, errors: _Collector) -> Topic | None:
    topic_file = folder / "topic.yaml"
    if not topic_file.exists():
        errors.add(folder, 1, "topic folder has no topic.yaml", "see content/README.md")
        return None
    spec_and_lines = _read_yaml(topic_file, TopicSpec, errors)
    sections: list[Section] = []
    stems = sorted({p.stem for p in folder.iterdir() if p.suffix in {".md", ".yaml"}} - {"topic", "README"})
    topic_id = spec_and_lines[0].id if spec_and_lines else folder.name
    for stem in stems:
        section = _load_section(folder, stem, topic_id, errors)
        if section is not None:
            sections.append(section)
    if spec_and_lines is None:
        return None
    spec, lines = spec_and_lines
    if spec.id != folder.name:
        errors.add(
            topic_file,
            lines.line_of(("id",)),
            f"topic id {spec.id!r} differs from its folder {folder.name!r}",
            "rename one so they match",
        )
    if not sections:
        errors.add(topic_file, 1, "topic has no sections", "add NN-<section-id>.md and .yaml files")
    sections.sort(key=lambda s: s.position)
    _check_unique(((s.id, s.source) for s in sections), "section", errors)
    _check_unique(((q.id, q.source) for s in sections for q in s.all_questions()), "question", errors)
    return Topic(
        id=spec.id,
        title=spec.title,
        summary=spec.summary.strip(),
        order=spec.order,
        assumes=spec.assumes.strip(),
        sections=tuple(sections),
        source=Source(str(topic_file), 1),
    )


def _load_section(folder: Path, stem: str, topic_id: str, errors: _Collector) -> Section | None:
    lesson_file, questions_file = folder / f"{stem}.md", folder / f"{stem}.yaml"
    match = SECTION_STEM.match(stem)
    if match is None:
        bad = lesson_file if lesson_file.exists() else questions_file
        errors.add(
            bad,
            1,
            f"file name {bad.name!r} is not NN-<section-id>",
            "sections are named like 01-what-the-hardware-is-doing.md",
        )
        return None
    position, stem_id = int(match.group(1)), match.group(2)
    if not lesson_file.exists():
        errors.add(
            questions_file,
            1,
            f"section {stem_id!r} has questions but no lesson",
            f"add {lesson_file.name} with front matter and the lesson",
        )
        return None
    lesson = _read_lesson(lesson_file, stem_id, errors)
    questions: list[Question] = []
    if questions_file.exists():
        parsed = _read_yaml(questions_file, SectionFileSpec, errors)
        if parsed is not None:
            spec, lines = parsed
            for i, q in enumerate(spec.questions):
                questions.append(
                    _question(
                        q, topic_id, stem_id, None, _Where(questions_file, lines, ("questions", i), errors)
                    )
                )
    if lesson is None:
        return None
    front, body = lesson
    return Section(
        topic_id=topic_id,
        id=stem_id,
        title=front.title,
        lesson=body,
        position=position,
        questions=tuple(questions),
        related=tuple(front.related),
        source=Source(str(lesson_file), 1),
    )


def _read_yaml(path: Path, model: type[M], errors: _Collector) -> tuple[M, LineMap] | None:
    try:
        data, lines = load_yaml(path.read_text(encoding="utf-8"))
    except YamlError as exc:
        errors.add(path, exc.line, str(exc), "check indentation and quote text containing ': '")
        return None
    except UnicodeDecodeError:
        errors.add(path, 1, "file is not UTF-8 text")
        return None
    if not isinstance(data, dict):
        errors.add(path, 1, "expected a mapping of keys to values at the top of the file")
        return None
    spec = errors.validate(model, data, path, lines)
    return (spec, lines) if spec is not None else None


def _read_lesson(path: Path, stem_id: str, errors: _Collector) -> tuple[LessonFrontMatter, str] | None:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        errors.add(path, 1, "lesson has no front matter", "start the file with ---, id:, title:, ---")
        return None
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        errors.add(path, 1, "front matter is not closed", "add a line with --- after the front matter")
        return None
    try:
        data, line_map = load_yaml("\n".join(lines[1:end]), offset=1)
    except YamlError as exc:
        errors.add(path, exc.line, str(exc))
        return None
    if not isinstance(data, dict):
        errors.add(path, 2, "front matter must be keys and values")
        return None
    front = errors.validate(LessonFrontMatter, data, path, line_map)
    if front is None:
        return None
    for i, ref in enumerate(front.related):
        errors.related.append((ref, Source(str(path), line_map.line_of(("related", i)))))
    if front.id != stem_id:
        errors.add(
            path,
            line_map.line_of(("id",)),
            f"section id {front.id!r} differs from file name {stem_id!r}",
            "the file is NN-<section-id>.md",
        )
    body = "\n".join(lines[end + 1 :]).strip()
    if not body:
        errors.add(path, end + 2, "lesson is empty", "write the section that teaches these questions")
    return front, body


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a question sits: its file, that file's line map and the path to it."""

    path: Path
    lines: LineMap
    loc: tuple[str | int, ...]
    errors: _Collector

    def source(self, *more: str | int) -> Source:
        return Source(str(self.path), self.lines.line_of((*self.loc, *more)))

    def child(self, *more: str | int) -> _Where:
        return _Where(self.path, self.lines, (*self.loc, *more), self.errors)


def _question(
    spec: QuestionSpec,
    topic_id: str,
    section_id: str,
    parent: str | None,
    where: _Where,
    probe_of: str | None = None,
) -> Question:
    full_id = f"{topic_id}/{spec.id}"

    def probe(owner: PointSpec | MisconceptionSpec, *loc: str | int) -> Question | None:
        if owner.probe is None:
            return None
        return _question(owner.probe, topic_id, section_id, full_id, where.child(*loc, "probe"), owner.id)

    nested: list[Question] = []
    refs: list[str] = []
    for i, follow in enumerate(spec.follow_ups):
        if isinstance(follow, FollowUpRef):
            ref = follow.ref if "/" in follow.ref else f"{topic_id}/{follow.ref}"
            refs.append(ref)
            where.errors.refs.append((spec.id, ref, where.source("follow_ups", i)))
        else:
            nested.append(_question(follow, topic_id, section_id, full_id, where.child("follow_ups", i)))
    return Question(
        topic_id=topic_id,
        section_id=section_id,
        id=spec.id,
        prompt=spec.prompt.strip(),
        answer=spec.answer.strip(),
        full_answer=spec.full_answer.strip() if spec.full_answer else "",
        points=tuple(
            MarkingPoint(
                p.id, p.text, p.weight, tuple(p.accept), probe=probe(p, "points", i), shows=tuple(p.shows)
            )
            for i, p in enumerate(spec.points)
        )
        + tuple(
            MarkingPoint(
                p.id,
                p.text,
                p.weight,
                tuple(p.accept),
                core=False,
                probe=probe(p, "marked_up", i),
                shows=tuple(p.shows),
            )
            for i, p in enumerate(spec.marked_up)
        ),
        misconceptions=tuple(
            Misconception(m.id, m.text, m.correction, tuple(m.accept), probe=probe(m, "misconceptions", i))
            for i, m in enumerate(spec.misconceptions)
        ),
        follow_ups=tuple(nested),
        follow_up_refs=tuple(refs),
        samples=tuple(
            SampleAnswer(s.answer, s.expected, where.source("samples", i), s.kind)
            for i, s in enumerate(spec.samples)
        ),
        tags=tuple(spec.tags),
        difficulty=spec.difficulty,
        parent_id=parent,
        source=where.source(),
        probe_of=probe_of,
    )


def _check_unique(items: Iterable[tuple[str, Source | None]], kind: str, errors: _Collector) -> None:
    seen: dict[str, Source | None] = {}
    for item_id, source in items:
        if item_id in seen:
            first = seen[item_id]
            errors.add(
                source.path if source else "?",
                source.line if source else 1,
                f"duplicate {kind} id {item_id!r}",
                f"first defined at {first}" if first else "",
            )
        else:
            seen[item_id] = source


def _check_references(bank: Bank, errors: _Collector) -> None:
    sections = {s.full_id for t in bank.topics for s in t.sections}
    for ref, where in errors.related:
        if ref not in sections:
            errors.add(
                where.path,
                where.line,
                f"related section {ref!r} does not exist",
                "use topic-id/section-id of a section in the bank",
            )
    for question_id, ref, where in errors.refs:
        if not bank.has_question(ref):
            errors.add(
                where.path,
                where.line,
                f"follow-up {ref!r} of {question_id!r} points nowhere",
                "refer to an existing topic-id/question-id",
            )
    for question in bank.questions():
        _check_inner_ids(question, errors)


def _check_inner_ids(question: Question, errors: _Collector) -> None:
    src = question.source
    for kind, ids in (
        ("marking point", [p.id for p in question.points]),
        ("misconception", [m.id for m in question.misconceptions]),
    ):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        for dupe in dupes:
            errors.add(
                src.path if src else "?",
                src.line if src else 1,
                f"duplicate {kind} id {dupe!r} in question {question.id!r}",
            )
