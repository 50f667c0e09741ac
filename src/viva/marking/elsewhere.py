"""An answer to another question: the off-topic answer a candidate actually gives.

Asked what happens as lambda is turned up, a nervous candidate explains how L1 differs from
L2; asked for the KV cache's size, they explain grouped-query attention. Such an answer is
not about nothing: it uses the topic's words, so the rules credit a point or two and it
scores partial. Held against the whole bank the mistake shows plainly: its words are far
closer to another question's material than to this one's. :class:`InBank` wraps any marker
and caps such an answer at :data:`ELSEWHERE_CAP` (weak), naming the question it answers.

Closeness is TF-IDF cosine over the answer's content words (stems, no concepts) against each
question's prompt, answers and points. A question's family (its parent and follow-ups) counts
as itself. A story may be about any technical subject, so a story question is judged only
against the other story questions, by their themes; a story told for a technical question is
an answer to a story question. The margin :data:`ELSEWHERE_RATIO` was set on the bank's own
labelled answers (3,900 samples and 1,070 model and full answers), where the strong or partial
answer nearest another question is 1.51 times closer to it than to its own; 2 leaves a third
to spare for answers worded apart from the bank. Held-out answers (``benchmarks/gpu_unseen.py``)
are the check, not the fit.
"""

from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict

from viva.bank.model import Bank, Question
from viva.marking.backends import Marker
from viva.marking.result import Marking, verdict_for
from viva.marking.text import tokenize

ELSEWHERE_CAP = 0.25  # weak: it does not answer the question asked
ELSEWHERE_RATIO = 2.0  # how many times closer to another question an answer must be to be its
ELSEWHERE_FLOOR = 0.1  # below this closeness to any question, the answer is about little at all
FLAG = "another-question"


def _words(text: str) -> Counter[str]:
    """The stems of ``text``'s words that carry meaning (no stop words or fillers)."""
    return Counter(t.stem for t in tokenize(text) if not (t.filler or t.stop))


def _material(question: Question) -> str:
    points = (f"{p.text} {' '.join(p.accept)}" for p in question.points)
    return " ".join((question.prompt, question.answer, question.full_answer, *points))


def _is_story(question: Question) -> bool:
    return any(point.shows for point in question.points)


class _Index:
    """Questions as TF-IDF vectors, words weighed by how rare they are among these questions."""

    def __init__(self, questions: list[Question]) -> None:
        bags = {q.full_id: _words(_material(q)) for q in questions}
        seen = Counter(word for bag in bags.values() for word in bag)
        self._idf = {word: math.log(len(bags) / (1 + n)) + 1 for word, n in seen.items()}
        self._unseen_idf = math.log(max(len(bags), 1)) + 1  # a bank may hold no story question
        self._postings: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for full_id, bag in bags.items():
            for word, weight in self._vector(bag).items():
                self._postings[word].append((full_id, weight))

    def _vector(self, bag: Counter[str]) -> dict[str, float]:
        raw = {w: (1 + math.log(n)) * self._idf.get(w, self._unseen_idf) for w, n in bag.items()}
        norm = math.sqrt(sum(x * x for x in raw.values())) or 1.0
        return {w: x / norm for w, x in raw.items()}

    def closeness(self, answer: str) -> dict[str, float]:
        """Cosine of ``answer`` with each question it shares a word with, by full id."""
        found: dict[str, float] = defaultdict(float)
        for word, weight in self._vector(_words(answer)).items():
            for full_id, other in self._postings.get(word, ()):
                found[full_id] += weight * other
        return found


class Neighbours:
    """The bank's questions as TF-IDF vectors, to find the one an answer is really about.

    A technical answer is held against every question, story questions included; a story only
    against the other story questions, with words weighed by how rare they are among stories,
    since what sets one story question apart is its theme (a disagreement, a failure, feedback),
    not the technical subject, which any story may have."""

    def __init__(self, bank: Bank) -> None:
        self._bank = bank
        questions = [q for q in bank.questions() if q.probe_of is None]
        self._all = _Index(questions)
        self._stories = _Index([q for q in questions if _is_story(q)])

    def closeness(self, answer: str, story: bool = False) -> dict[str, float]:
        """Cosine of ``answer`` with each question (each story question with ``story``)."""
        return (self._stories if story else self._all).closeness(answer)

    def _family(self, question: Question) -> set[str]:
        ids = {question.full_id, *(q.full_id for q in self._bank.follow_ups(question))}
        parent = self._bank.parent(question)
        while parent is not None and parent.full_id not in ids:
            ids.add(parent.full_id)
            parent = self._bank.parent(parent)
        return ids

    def answered_instead(self, question: Question, answer: str) -> Question | None:
        """The question ``answer`` answers instead of ``question``, if it plainly does."""
        if question.probe_of is not None or not self._bank.has_question(question.full_id):
            return None
        close = self.closeness(answer, story=_is_story(question))
        family = self._family(question)
        own = max((close.get(i, 0.0) for i in family), default=0.0)
        rivals = ((c, i) for i, c in close.items() if i not in family)
        best, best_id = max(rivals, default=(0.0, ""))
        if best < ELSEWHERE_FLOOR or best < ELSEWHERE_RATIO * own:
            return None
        return self._bank.question(best_id)


def capped(marking: Marking, other: Question) -> Marking:
    """``marking`` held to :data:`ELSEWHERE_CAP` as an answer to ``other``."""
    score = min(marking.score, ELSEWHERE_CAP)
    return marking.model_copy(
        update={
            "score": score,
            "verdict": verdict_for(score),
            "flags": [*marking.flags, FLAG],
            "answers_instead": other.full_id,
        }
    )


class InBank:
    """A marker that also knows the bank: an answer to another of its questions is weak."""

    def __init__(self, marker: Marker, bank: Bank) -> None:
        self.marker = marker
        self.bank = bank
        self.name = marker.name
        self.version = marker.version

    @functools.cached_property
    def neighbours(self) -> Neighbours:
        """Built on the first answer (about half a second), not where the program starts."""
        return Neighbours(self.bank)

    def mark(self, question: Question, answer: str) -> Marking:
        marking = self.marker.mark(question, answer)
        other = self.neighbours.answered_instead(question, answer)
        return marking if other is None else capped(marking, other)
