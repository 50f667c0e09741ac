"""Which follow-up an interviewer would push with after an answer.

"Then they push further": after a question with follow-ups is answered, one of them comes
next. Where the candidate missed points, the follow-up whose wording overlaps the missed
points most is preferred, because it probes exactly the gap; then one never answered
before; then the order the author wrote them in.
"""

from __future__ import annotations

from collections.abc import Collection

from viva.bank import Bank, Question
from viva.domain import Override
from viva.marking.result import Marking
from viva.practice.words import content_stems, overlap


def missed_stems(marking: Marking, override: Override | None = None) -> frozenset[str]:
    """The words of the points not fully covered (none if the candidate says they were right)."""
    if override == "right":
        return frozenset()
    texts = [p.text for p in marking.points if p.status != "covered"]
    return content_stems(*texts)


def choose_follow_up(
    bank: Bank,
    question: Question,
    marking: Marking,
    *,
    override: Override | None = None,
    answered: Collection[str] = (),
    exclude: Collection[str] = (),
) -> Question | None:
    """The follow-up to ask after ``question`` was answered with ``marking``, or None."""
    candidates = [f for f in bank.follow_ups(question) if f.full_id not in exclude]
    if not candidates:
        return None
    gap = missed_stems(marking, override)

    def rank(indexed: tuple[int, Question]) -> tuple[int, int, int]:
        position, follow_up = indexed
        accepts = (a for p in follow_up.points for a in p.accept)
        probe = content_stems(follow_up.prompt, *(p.text for p in follow_up.points), *accepts)
        return (-overlap(gap, probe), follow_up.full_id in answered, position)

    return min(enumerate(candidates), key=rank)[1]
