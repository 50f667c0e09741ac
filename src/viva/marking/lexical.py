"""The lexical backend: words, synonyms and polarity; deterministic, offline, pure Python.

The default marker (:mod:`viva.marking.aligned`) builds on it and keeps its clause rules.

Marking is a pipeline of small steps, each in its own module:

1. analyse the answer into terms (:mod:`~viva.marking.terms`),
2. credit each marking point by its best window of evidence (:mod:`~viva.marking.points`),
3. detect authored misconceptions (:mod:`~viva.marking.misconceptions`) in what the answer
   asserts, not in what it names only to reject (:mod:`~viva.marking.framing`),
4. combine into a score (:mod:`~viva.marking.scoring`), then apply the guards
   (:mod:`~viva.marking.guards`) that cap answers which are not answers.

Other backends build on this one through its public API (``__all__``): :func:`prompt_keys`
(the question's own words, which earn little), :func:`point_claims`,
:meth:`LexicalBackend.assess` (the analysis, per-point results with their contradictions,
and the misconceptions asserted), :func:`reference_features`, and :func:`build_marking`,
which applies the misconception, contradiction and guard vetoes to any backend's credits.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from viva.bank.model import MarkingPoint, Question
from viva.marking import guards, scoring, story
from viva.marking.figures import other_figure
from viva.marking.labels import label_frames, labels, names_only, rival_label_view
from viva.marking.misconceptions import Detection, detect
from viva.marking.points import (
    COVERED_AT,
    PARTIAL_AT,
    QUESTION_WORD_WEIGHT,
    PointResult,
    Target,
    _merge,
    mark_claims,
    match,
    target,
)
from viva.marking.reference import is_reference_only
from viva.marking.relations import (
    about_others,
    inverted,
    opposed,
    own_option,
    picked,
    rival_option_view,
    subjects,
    unnamed_pick,
)
from viva.marking.result import Marking, MisconceptionMark, PointMark, Span, verdict_for
from viva.marking.terms import Analysis, analyse, disowned, distinct_concepts, hiding, unframed
from viva.marking.text import tokenize
from viva.marking.verdicts import other_verdict

VERSION = "1.10"
RUN_ON_WORDS = 40  # an answer this long with no sentence break runs its sentences together
RUN_ON_REACH = 12  # words either side of a wrong claim taken as its sentence there

__all__ = [
    "LexicalBackend",
    "build_marking",
    "point_claims",
    "prompt_keys",
    "question_id_of",
    "reference_features",
]


@functools.lru_cache(maxsize=2048)
def prompt_keys(prompt: str) -> frozenset[str]:
    """The concept keys of the question's own content words: restating the question is not
    evidence, so matching and similarity weigh these words down."""
    keys: set[str] = set()
    for term in analyse(prompt).content_terms():
        keys |= term.keys
    return frozenset(keys)


@functools.lru_cache(maxsize=2048)
def _known_keys(question: Question) -> frozenset[str]:
    keys: set[str] = set(prompt_keys(question.prompt))
    texts = [
        question.answer,
        question.full_answer,
        *(p.text for p in question.points),
        *(a for p in question.points for a in p.accept),
        *(m.text for m in question.misconceptions),
    ]
    for text in texts:
        for term in analyse(text).content_terms():
            keys |= term.keys
    return frozenset(keys)


@functools.lru_cache(maxsize=2048)
def point_claims(question: Question) -> tuple[tuple[Target, ...], ...]:
    """For each point: its text, then each accepted phrasing, as claims."""
    prompt = prompt_keys(question.prompt)
    apart = distinct_concepts(question.prompt)
    return tuple(
        (
            target(p.text, prompt | frame, distinct=apart, split=True),
            *(
                target(a, prompt | frame, accept=True, distinct=apart, names_only=names_only(label, a))
                for a in p.accept
            ),
        )
        for p, frame, label in zip(question.points, label_frames(question), labels(question), strict=True)
    )


@functools.lru_cache(maxsize=2048)
def _reference_keys(reference: str) -> frozenset[str]:
    keys: set[str] = set()
    for term in analyse(reference).content_terms():
        keys |= term.keys
    return frozenset(keys)


def reference_features(question: Question, answer: Analysis, coverage: float) -> scoring.ReferenceFeatures:
    """What the reference-mode score is made of (see :mod:`viva.marking.scoring`)."""
    prompt = prompt_keys(question.prompt)
    whole = match(target(question.answer, prompt), answer)
    reference = _reference_keys(question.answer)
    content = answer.content_terms()
    size = sum(t.weight for t in content)
    # precision: the share of what the answer says *beyond the question* that the reference
    # also says; words the prompt uses are demoted as in matching, so restating the question
    # neither earns precision nor dilutes it
    said = [(t.weight * (QUESTION_WORD_WEIGHT if t.keys & prompt else 1.0), t) for t in content]
    new = sum(w for w, _ in said)
    shared = sum(w for w, t in said if t.keys & reference)
    return scoring.ReferenceFeatures(
        points=coverage,
        whole=0.0 if whole.contradicted else whole.coverage,
        precision=shared / new if new else 0.0,
        size=size,
    )


def question_id_of(question: Question) -> str:
    return question.id if question.topic_id == "reference" else question.full_id


class LexicalBackend:
    """Marks by matching terms; see the module docstring for the steps."""

    name = "lexical"
    version = VERSION

    def assess(self, question: Question, answer: str) -> tuple[Analysis, list[PointResult], list[Detection]]:
        """The parts a score is made of, for backends that build on this one."""
        analysis = analyse(answer)
        asserted = unframed(answer)  # without what the answer names only to reject it
        results = [
            _with_story(
                _own_option(_asserted(list(claims), analysis, asserted), claims, i, question, analysis),
                point,
                analysis,
            )
            for i, (claims, point) in enumerate(zip(point_claims(question), question.points, strict=True))
        ]
        for i, (claims, subject) in enumerate(zip(point_claims(question), subjects(question), strict=True)):
            against = (
                opposed(claims[0], subject, asserted)
                or inverted(question.points[i].text, answer)
                or _swapped(results[i], i, question, asserted)
            )
            if against:
                results[i] = PointResult(0.0, against, True, opposite=True)
        results = [
            _with_pick(r, c, p, question.prompt, analysis)
            for r, c, p in zip(results, point_claims(question), question.points, strict=True)
        ]
        results = [
            _with_figures(r, p, question.prompt, asserted)
            for r, p in zip(results, question.points, strict=True)
        ]
        found = detect(question, asserted) if question.misconceptions else []
        verdict = other_verdict(question, answer)
        if verdict is not None:
            found = [verdict, *found]
        if found:
            results = [_not_from(r, found, analysis) for r in results]
        return analysis, results, found

    def mark(self, question: Question, answer: str) -> Marking:
        analysis, results, found = self.assess(question, answer)
        coverage = scoring.coverage(question, results)
        if is_reference_only(question):
            base = scoring.reference_score(reference_features(question, analysis, coverage))
        else:
            base = scoring.authored_score(question, results)
        return build_marking(question, answer, analysis, results, found, base, self.name, self.version)


def _asserted(claims: list[Target], analysis: Analysis, asserted: Analysis) -> PointResult:
    """The point's result in the whole answer, unless only words the answer rejects
    (:func:`viva.marking.terms.unframed`) contradict it, or what it asserts earns more: then
    its result in what it asserts. "A common mistake is to skip loss scaling; you need it"
    does not deny the point. A point said only in a claim the answer denies ("people say X, but
    that's a myth") is not made there: it earns what the rest of the answer says."""
    result = mark_claims(claims, analysis)
    if asserted is analysis:
        return result
    own = mark_claims(claims, asserted)
    if not result.contradicted and own.credit < result.credit:
        mine = mark_claims(claims, disowned(analysis.text))
        if mine.credit < result.credit:
            return mine
    return own if result.contradicted or own.credit > result.credit else result


def _own_option(
    result: PointResult,
    claims: tuple[Target, ...],
    index: int,
    question: Question,
    analysis: Analysis,
) -> PointResult:
    """``result``, or less when its words are found only where the answer speaks of another
    option the prompt offers or another numbered stage or step than the point's own
    (:func:`viva.marking.relations.about_others`)."""
    if result.contradicted or not result.credit:
        return result
    others = about_others(question, index, analysis)
    if not others:
        return result
    own = mark_claims(list(claims), hiding(analysis.text, others))
    return own if own.credit <= result.credit else result


def _swapped(
    result: PointResult, index: int, question: Question, asserted: Analysis
) -> tuple[tuple[int, int], ...]:
    """Evidence that the answer says point ``index`` of a rival thing and not of its own; empty
    if it doesn't. The rival is another thing of the point's label's family
    (:func:`viva.marking.labels.rival_label_view`) or another option the prompt offers
    (:func:`viva.marking.relations.rival_option_view`).

    "The depthwise step is a 1 × 1 convolution that mixes the channels" makes every word of
    "a pointwise 1 × 1 convolution mixes the channels" but the depthwise step, and "Nsight
    Compute gives the system-wide timeline" every word of "Nsight Systems gives a system-wide
    timeline" but the tool: the roles are swapped, which is a wrong claim, not a point half made
    by naming the right thing elsewhere.
    """
    if result.contradicted or (result.credit >= PARTIAL_AT and not result.named):
        return ()
    spans = _said_of(
        _label_rival_claims(question, index), lambda: rival_label_view(question, index, asserted)
    )
    if spans:
        return spans
    point = question.points[index].text
    return _said_of(
        _option_rival_claims(question, index), lambda: rival_option_view(point, question.prompt, asserted)
    )


def _said_of(claims: tuple[Target, ...], rival: Callable[[], Analysis | None]) -> tuple[tuple[int, int], ...]:
    """Evidence that ``claims`` are made in full in the ``rival`` view (built only when there
    are claims to look for); empty if not."""
    view = rival() if claims else None
    if view is None:
        return ()
    said = mark_claims(list(claims), view)
    return said.evidence if said.credit >= COVERED_AT and not said.named else ()


@functools.lru_cache(maxsize=4096)
def _label_rival_claims(question: Question, index: int) -> tuple[Target, ...]:
    """Point ``index``'s text and phrasings as the swap check looks for them in what is said of
    a rival thing of its label's family: those with a word the family's other points do not
    use, without the label's own name, since what is said of the rival names the rival ("stage
    3 shards the optimizer states" says all of "stage 1 shards the optimizer state" but the
    "1"). Built once per question, as :func:`point_claims` is."""
    label = labels(question)[index]
    if label is None:
        return ()
    shared = {label.name, label.family, *label.aliases}
    for j, (p, other) in enumerate(zip(question.points, labels(question), strict=True)):
        if j != index and other and other.family == label.family:
            shared |= _words(p.text)
    demote = prompt_keys(question.prompt) | label_frames(question)[index]
    return _unnamed(point_claims(question)[index], {label.name, *label.aliases}, shared, demote, question)


@functools.lru_cache(maxsize=4096)
def _option_rival_claims(question: Question, index: int) -> tuple[Target, ...]:
    """As :func:`_label_rival_claims`, for a point about one option the prompt offers: its
    claims without the option's name, keeping those with a word no point about another option
    uses ("timeline" for Nsight Systems; not "CUDA", which the PyTorch profiler's point says)."""
    own = own_option(question.points[index].text, question.prompt)
    if not own:
        return ()
    shared = set(own)
    for p in question.points:
        other = own_option(p.text, question.prompt)
        if other and other != own:
            shared |= _words(p.text)
    return _unnamed(point_claims(question)[index], own, shared, prompt_keys(question.prompt), question)


def _words(text: str) -> set[str]:
    return {w for t in analyse(text).content_terms() for w in t.words}


def _unnamed(
    claims: tuple[Target, ...],
    names: set[str] | frozenset[str],
    shared: set[str],
    demote: frozenset[str],
    question: Question,
) -> tuple[Target, ...]:
    """``claims`` with the words ``names`` removed, keeping those left with a word outside
    ``shared``: a claim whose every word the rival's own points use too ("across the features",
    said of layer norm, in "batch norm normalises each feature across the batch") tells
    nothing when found in what is said of the rival."""
    apart = distinct_concepts(question.prompt)
    found = []
    for claim in claims:
        if not any(t.weight > 0 and not t.words & shared for t in claim.terms):
            continue
        kept, start = [], 0
        for token in tokenize(claim.text):
            if token.stem in names or token.norm in names:
                kept.append(claim.text[start : token.start])
                start = token.end
        found.append(target("".join(kept) + claim.text[start:], demote, accept=claim.accept, distinct=apart))
    return tuple(found)


def _with_story(result: PointResult, point: MarkingPoint, analysis: Analysis) -> PointResult:
    """``result``, raised to the share of the point's story features the answer shows
    (:mod:`viva.marking.story`), unless its words contradict the point."""
    if not point.shows or result.contradicted:
        return result
    share, spans = story.shown(point.shows, analysis)
    if share <= result.credit:
        return result
    return PointResult(share, _merge(sorted({*result.evidence, *spans}), analysis.text), False)


def _with_pick(
    result: PointResult, claims: tuple[Target, ...], point: MarkingPoint, prompt: str, analysis: Analysis
) -> PointResult:
    """``result``, made when the answer picks the option the point picks ("I'd use L1" for "Use
    L1") and void when it picks only another (:func:`viva.marking.relations.picked`). When the
    answer never names the point's option, the point's text, the question's words around the
    option, says nothing: only its phrasings may earn, and similarity may not (``named``)."""
    choice = picked(point.text, prompt, analysis) if not result.contradicted else None
    if choice is None:
        if result.contradicted or not unnamed_pick(point.text, prompt, analysis):
            return result
        phrased = mark_claims(list(claims[1:]), analysis)
        return PointResult(phrased.credit, phrased.evidence, phrased.contradicted, named=True)
    made, spans = choice
    if not made:
        return PointResult(0.0, spans, True, opposite=True)
    return PointResult(1.0, _merge(sorted({*result.evidence, *spans}), analysis.text), False)


def _with_figures(result: PointResult, point: MarkingPoint, prompt: str, asserted: Analysis) -> PointResult:
    """``result``, contradicted where its clauses state another figure than the point's
    (:func:`viva.marking.figures.other_figure`)."""
    if result.contradicted or result.credit < PARTIAL_AT:
        return result
    wrong = other_figure(point.text, prompt, result.evidence, asserted)
    return PointResult(0.0, wrong, True) if wrong else result


def _not_from(result: PointResult, found: list[Detection], analysis: Analysis) -> PointResult:
    """``result``, unless every word it rests on states a misconception or sits in a sentence
    that states one in full: "take the speed of a single request, 40 tokens per second" is the
    wrong claim, not the point "tokens per second across the batch" made as well, and "doubling
    the batch halves the gradient noise, so you get it for twice the compute" says nothing for
    "root two, for twice the compute". A wrong claim found only in part is the least certain
    reading of one, so only its own words are held against it. In a long answer with no
    sentence break (a transcript) the sentence is taken as the words within
    :data:`RUN_ON_REACH` of the wrong claim's."""
    tokens = analysis.tokens
    run_on = len(tokens) > RUN_ON_WORDS and tokens[0].sentence == tokens[-1].sentence
    near: set[int] = set()  # token indexes
    for d in found:
        if not d.whole:
            continue
        said = [i for i, t in enumerate(tokens) for a, b in d.evidence if a <= t.start < b]
        if not said:
            continue
        if run_on:
            near.update(range(min(said) - RUN_ON_REACH, max(said) + RUN_ON_REACH + 1))
        else:
            sentences = {tokens[i].sentence for i in said}
            near.update(i for i, t in enumerate(tokens) if t.sentence in sentences)
    spans = [span for d in found for span in d.evidence]
    inside = all(
        any(a <= s and e <= b for a, b in spans)
        or all(i in near for i, t in enumerate(tokens) if s <= t.start < e)
        for s, e in result.evidence
    )
    if not result.evidence or not inside or result.contradicted:
        return result
    return PointResult(0.0, (), False)


def carrying(analysis: Analysis, spans: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """The spans that hold a word carrying meaning: "take", "the" or a single letter, matched
    on their own, are no evidence to show a candidate."""
    strong = [t for t in analysis.content_terms() if t.weight >= 1.0]
    return [(s, e) for s, e in spans if any(s <= t.start < e for t in strong)]


def build_marking(
    question: Question,
    answer: str,
    analysis: Analysis,
    results: list[PointResult],
    found: list[Detection],
    base: float,
    backend: str,
    version: str,
) -> Marking:
    """Apply misconceptions, contradictions and guards to ``base``; assemble the Marking."""
    flags: list[str] = []
    # a point stated the other way round (another option picked, the relation reversed, the
    # ratio inverted) is a wrong claim as much as a misconception is, and costs as much
    opposite = sum(r.opposite for r in results)
    score = scoring.after_misconceptions(base, len(found) + opposite)
    if found:
        flags.append("misconception")
    if any(r.contradicted for r in results):
        flags.append("contradiction")
    if opposite:
        flags.append("opposite")
    for guard in guards.check(analysis, _known_keys(question), scoring.coverage(question, results)):
        flags.append(guard.flag)
        score = min(score, guard.cap)
    score = round(max(0.0, min(1.0, score)), 4)
    points = [
        PointMark(
            point_id=p.id,
            text=p.text,
            weight=p.weight,
            core=p.core,
            status=r.status,
            credit=round(r.credit, 4),
            evidence=[Span(start=s, end=e) for s, e in carrying(analysis, r.evidence)],
        )
        for p, r in zip(question.points, results, strict=True)
    ]
    misconceptions = [
        MisconceptionMark(
            misconception_id=d.misconception.id,
            text=d.misconception.text,
            correction=d.misconception.correction,
            evidence=[Span(start=s, end=e) for s, e in d.evidence],
        )
        for d in found
    ]
    return Marking(
        question_id=question_id_of(question),
        answer=answer,
        score=score,
        verdict=verdict_for(score),
        points=points,
        misconceptions=misconceptions,
        flags=flags,
        backend=backend,
        backend_version=version,
    )
