"""Why a marking scored what it did, in plain sentences shared by the web page and the CLI.

The headline percentage must agree with the ticks a candidate sees, so every rule that
moves the score away from "the share of points made" is said out loud: a core point missed
(never strong), a misconception (halved, at most 60 %), and the guards that cap answers
which are not answers. The words live here, once, so web and terminal say the same thing.
"""

from __future__ import annotations

from viva.marking import elsewhere, guards, scoring
from viva.marking.result import Marking, PointMark

CAPS: dict[str, str] = {
    "keyword-list": f"capped at {guards.KEYWORD_LIST_CAP:.0%}: a list of the right words with no claim "
    "connecting them shows you recognise them, not that you can explain them",
    "gibberish": f"capped at {guards.GIBBERISH_CAP:.0%}: most of it is not words the marker can read",
    "instruction-to-marker": f"capped at {guards.INSTRUCTION_CAP:.0%}: it speaks to the marker instead of "
    "answering the question",
    "off-topic": f"capped at {guards.OFF_TOPIC_CAP:.0%}: nothing in it is about this question",
    "another-question": f"capped at {elsewhere.ELSEWHERE_CAP:.0%}: it answers another question in the bank",
    "empty": "there was nothing to mark",
}


def percent(value: float) -> str:
    return f"{value:.0%}"


def weight_label(point: PointMark) -> str:
    """ "×2" for a point that counts double; empty for the usual weight of one."""
    return "" if abs(point.weight - 1.0) < 1e-9 else f"×{point.weight:g}"


def point_tags(point: PointMark) -> str:
    """What the terminal prints after a point's text: "  [marked up]", "  [counts ×2]"."""
    tags = ([] if point.core else ["marked up"]) + (
        [f"counts {weight_label(point)}"] if weight_label(point) else []
    )
    return "".join(f"  [{tag}]" for tag in tags)


def point_tally(marking: Marking) -> str:
    """ "3 of 4 core points made (weights count: 5 of 6)" — the ticks the score is built on."""
    core = [p for p in marking.points if p.core]
    made = [p for p in core if p.status == "covered"]
    line = f"{len(made)} of {len(core)} core points made"
    if any(weight_label(p) for p in core):
        earned = sum(p.weight * p.credit for p in core)
        line += f" (by weight {earned:g} of {sum(p.weight for p in core):g})"
    extra = [p for p in marking.points if not p.core]
    if extra:
        line += f"; {sum(p.status == 'covered' for p in extra)} of {len(extra)} marked-up points"
    return line


def score_reasons(marking: Marking) -> list[str]:
    """Each rule that set this score, in the order it applied."""
    reasons = [point_tally(marking)]
    missed_core = [p for p in marking.points if p.core and p.status == "missed"]
    if missed_core and marking.score <= scoring.BELOW_STRONG + 1e-9:
        reasons.append(
            f"a core point was missed, so at most {percent(scoring.BELOW_STRONG)}: an answer that leaves out "
            "what the answer that works says is never strong"
        )
    if marking.misconceptions:
        reasons.append(
            f"{len(marking.misconceptions)} wrong claim(s) stated: each halves the score, and any keeps it "
            f"at or below {percent(scoring.MISCONCEPTION_CAP)}"
        )
    if "contradiction" in marking.flags:
        reasons.append("a point said the other way round earns nothing, even where its words appear")
    if "opposite" in marking.flags:
        reasons.append(
            "a point was stated the other way round (another option picked, a relation reversed or a "
            "ratio inverted): that is a wrong claim, and costs what a misconception costs"
        )
    if "gist" in marking.flags:
        reasons.append(
            "no core point was made in full, so this is how near its words come to them: on the "
            "right track, but still weak"
        )
    for flag in (f for f in marking.flags if f in CAPS):
        named = flag == elsewhere.FLAG and marking.answers_instead
        reasons.append(CAPS[flag] + (f" ({marking.answers_instead}), not the one asked" if named else ""))
    made_up = marking.marked_up_for
    if made_up:
        reasons.append("marked up for " + "; ".join(p.text.rstrip(".") for p in made_up))
    return reasons
