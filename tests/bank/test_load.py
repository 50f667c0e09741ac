from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import QUESTIONS, write_bank
from viva.bank import load_bank
from viva.errors import NotFound


def test_valid_bank_loads_without_errors(bank_dir: Path) -> None:
    bank, errors = load_bank(bank_dir)
    assert errors == []
    topic = bank.topic("demo")
    assert [s.id for s in topic.sections] == ["basics", "more"]
    question = bank.question("demo/bound")
    assert question.section_id == "basics"
    assert [p.id for p in question.points] == ["memory-bound", "reads-weights"]
    assert question.points[0].accept == ("memory-bound",)
    assert question.samples[0].verdict == "weak"


def test_follow_up_is_nested_and_addressable(bank_dir: Path) -> None:
    bank, _ = load_bank(bank_dir)
    parent = bank.question("demo/bound")
    follow_up = bank.question("demo/batching")
    assert parent.follow_ups == (follow_up,)
    assert follow_up.parent_id == "demo/bound"
    assert bank.parent(follow_up) == parent
    assert [q.id for q in bank.questions()] == ["bound", "batching"]


def test_unknown_question_is_not_found(bank_dir: Path) -> None:
    bank, _ = load_bank(bank_dir)
    with pytest.raises(NotFound):
        bank.question("demo/nope")


def _errors(tmp_path: Path, files: dict[str, str]) -> list[str]:
    _, errors = load_bank(write_bank(tmp_path / "c", files))
    return [str(e) for e in errors]


def test_unknown_key_names_file_line_and_allowed_keys(tmp_path: Path) -> None:
    text = QUESTIONS.replace("    difficulty: easy\n", "    difficulty: easy\n    colour: red\n")
    [error] = _errors(tmp_path, {"01-basics.yaml": text})
    assert error.endswith(
        "01-basics.yaml:5: unknown key 'colour' (hint: allowed keys: id, prompt, "
        "answer, full_answer, points, marked_up, misconceptions, follow_ups, samples, tags, difficulty)"
    )


def test_empty_answer_and_missing_field(tmp_path: Path) -> None:
    text = QUESTIONS.replace(
        "    answer: |\n      Memory-bound: each step reads all the weights for little arithmetic.\n",
        "    answer: '  '\n",
    ).replace("        text: Every step reads all the weights.\n", "")
    errors = _errors(tmp_path, {"01-basics.yaml": text})
    assert any(":6: questions.0.answer is empty" in e for e in errors), errors
    assert any("missing field 'questions.0.points.1.text'" in e for e in errors), errors


def test_too_few_points(tmp_path: Path) -> None:
    text = QUESTIONS.replace(
        "          - id: intensity\n            text: Arithmetic intensity rises with batch size.\n", ""
    )
    [error] = _errors(tmp_path, {"01-basics.yaml": text})
    assert "follow_ups.0.points" in error and "2 to 6 marking points" in error


def test_duplicate_question_ids_across_sections(tmp_path: Path) -> None:
    errors = _errors(tmp_path, {"02-more.yaml": QUESTIONS.replace("id: batching", "id: batching2")})
    assert any("02-more.yaml:2: duplicate question id 'bound'" in e for e in errors), errors


def test_follow_up_pointing_nowhere(tmp_path: Path) -> None:
    text = (
        QUESTIONS + "  - id: other\n    prompt: p\n    answer: a\n    points:\n"
        "      - {id: a, text: a}\n      - {id: b, text: b}\n    follow_ups:\n      - ref: nowhere\n"
    )
    [error] = _errors(tmp_path, {"01-basics.yaml": text})
    assert ":37: follow-up 'demo/nowhere' of 'other' points nowhere" in error


def test_malformed_yaml_reports_its_line_and_other_files_still_load(tmp_path: Path) -> None:
    broken = "questions:\n  - id: x\n    prompt: [unclosed\n"
    root = write_bank(tmp_path / "c", {"02-more.yaml": broken})
    bank, errors = load_bank(root)
    assert len(errors) == 1
    assert "02-more.yaml:" in str(errors[0]) and "malformed YAML" in str(errors[0])
    assert bank.has_question("demo/bound")  # the good file still loaded


def test_errors_in_two_files_are_both_reported(tmp_path: Path) -> None:
    errors = _errors(
        tmp_path,
        {
            "02-more.yaml": "questions: [oops\n",
            "topic.yaml": "id: demo\ntitle: Demo\nsummary: s\nlogo: x\n",
        },
    )
    assert any("topic.yaml:4: unknown key 'logo'" in e for e in errors)
    assert any("02-more.yaml" in e for e in errors)


def test_related_section_must_exist(tmp_path: Path) -> None:
    lesson = "---\nid: more\ntitle: More\nrelated: [elsewhere/nothing]\n---\nText.\n"
    [error] = _errors(tmp_path, {"02-more.md": lesson})
    assert "related section 'elsewhere/nothing' does not exist" in error


def test_lesson_id_must_match_file_name(tmp_path: Path) -> None:
    lesson = "---\nid: other\ntitle: More\n---\nText.\n"
    [error] = _errors(tmp_path, {"02-more.md": lesson})
    assert "02-more.md:2: section id 'other' differs from file name 'more'" in error


def test_lesson_without_front_matter(tmp_path: Path) -> None:
    errors = _errors(tmp_path, {"02-more.md": "# Just prose\n"})
    assert any("02-more.md:1: lesson has no front matter" in e for e in errors), errors


def test_questions_without_lesson(tmp_path: Path) -> None:
    [error] = _errors(tmp_path, {"03-lonely.yaml": "questions: []\n"})
    assert "section 'lonely' has questions but no lesson" in error


def test_bad_slug(tmp_path: Path) -> None:
    [error] = _errors(tmp_path, {"01-basics.yaml": QUESTIONS.replace("id: bound", "id: Bound_Q")})
    assert ":2: questions.0.id" in error and "slugs" in error


def test_missing_folder_is_an_error(tmp_path: Path) -> None:
    _, errors = load_bank(tmp_path / "absent")
    assert [e.message for e in errors] == ["no such folder"]


def test_one_topic_folder_resolves_links_to_its_siblings(tmp_path: Path) -> None:
    root = write_bank(tmp_path / "c")
    other = root / "other"
    other.mkdir()
    (other / "topic.yaml").write_text("id: other\ntitle: Other\nsummary: s\n")
    (other / "01-x.md").write_text("---\nid: x\ntitle: X\nrelated: [demo/more, demo/absent]\n---\nText.\n")
    (root / "demo" / "01-basics.yaml").write_text("questions: [oops\n")
    bank, errors = load_bank(other)
    assert [t.id for t in bank.topics] == ["other"]
    assert [e.message for e in errors] == ["related section 'demo/absent' does not exist"]
    assert errors[0].line == 4


PROBED = QUESTIONS.replace(
    "      - id: reads-weights\n        text: Every step reads all the weights.\n",
    "      - id: reads-weights\n        text: Every step reads all the weights.\n"
    "        probe:\n"
    "          id: why-all-weights\n"
    "          prompt: Why must every step read all the weights?\n"
    "          answer: Each token passes through every layer, so each layer's weights are read again.\n"
    "          points:\n"
    "            - id: every-layer\n"
    "              text: Each new token passes through every layer.\n"
    "            - id: not-cached\n"
    "              text: The weights do not fit in on-chip memory, so they come from HBM each step.\n",
).replace(
    "        correction: It does about one multiply-add per weight byte read.\n",
    "        correction: It does about one multiply-add per weight byte read.\n"
    "        probe:\n"
    "          id: flops-per-token\n"
    "          prompt: How long do a 7B model's FLOPs for one token take on an H100?\n"
    "          answer: About 14 GFLOP, roughly 14 microseconds, far less than reading 14 GB.\n"
    "          points:\n"
    "            - id: gflop\n"
    "              text: About 2 FLOPs per parameter, 14 GFLOP.\n"
    "            - id: microseconds\n"
    "              text: About 14 microseconds, against 4 ms to read the weights.\n",
)


def test_probes_hang_on_their_point_and_misconception(tmp_path: Path) -> None:
    bank, errors = load_bank(write_bank(tmp_path / "c", {"01-basics.yaml": PROBED}))
    assert errors == []
    question = bank.question("demo/bound")
    point_probe = bank.question("demo/why-all-weights")
    claim_probe = bank.question("demo/flops-per-token")
    assert question.points[1].probe == point_probe and question.points[0].probe is None
    assert question.misconceptions[0].probe == claim_probe
    assert (point_probe.probe_of, claim_probe.probe_of) == ("reads-weights", "compute")
    assert point_probe.parent_id == claim_probe.parent_id == "demo/bound"
    assert question.probes == (point_probe, claim_probe)
    assert [q.id for q in bank.questions()] == ["bound", "batching", "why-all-weights", "flops-per-token"]


def test_a_broken_probe_names_its_line(tmp_path: Path) -> None:
    text = PROBED.replace("              text: Each new token passes through every layer.\n", "")
    errors = _errors(tmp_path, {"01-basics.yaml": text})
    assert any("01-basics.yaml:19:" in e and "probe.points.0.text" in e for e in errors), errors


def test_a_probe_id_must_be_unique_in_its_topic(tmp_path: Path) -> None:
    text = PROBED.replace("id: why-all-weights", "id: batching")
    errors = _errors(tmp_path, {"01-basics.yaml": text})
    assert any("duplicate question id 'batching'" in e for e in errors), errors


def test_a_point_may_name_story_features_and_a_misspelt_one_names_its_line(tmp_path: Path) -> None:
    shows = QUESTIONS.replace(
        "        text: Every step reads all the weights.\n",
        "        text: Every step reads all the weights.\n        shows: [result-figure, own-action]\n",
    )
    bank, errors = load_bank(write_bank(tmp_path / "ok", {"01-basics.yaml": shows}))
    assert errors == []
    assert bank.question("demo/bound").points[1].shows == ("result-figure", "own-action")
    assert bank.question("demo/bound").points[0].shows == ()
    [error] = _errors(tmp_path, {"01-basics.yaml": shows.replace("own-action", "own-role")})
    # the line of the list, and the features it may hold
    assert "01-basics.yaml:14: questions.0.points.1.shows.1" in error and "'owns-fault'" in error, error
