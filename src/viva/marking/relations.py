"""A clause that says the opposite of a point about that point's own subject voids it.

Phrasings such as "memory-bound" credit a point wherever they are said, so "prefill is
memory-bound and decode compute-bound" would earn "decode is memory-bound" from its first
clause. A point relates a subject (what only this point talks about: "decode") to a
property with an opposite ("memory-bound" against "compute-bound"); when one clause of the
answer puts that subject with the opposite property, and not with the property itself,
the answer has asserted the reverse relation and the point earns nothing. So does a
ratio of figures divided the other way round (:func:`inverted`).

Who is what also depends on which option a sentence is about: in a question that offers
named options ("Nsight Systems or Nsight Compute?") or tells named things apart ("why does FP16
need loss scaling and BF16 not?"), a point about one is read only in the sentences about it or
about none (:func:`own_option_view`); said in full only of another option, it is said the
wrong way round (:func:`rival_option_view`: "Nsight Compute gives the system-wide timeline").
A pick of another option voids a point that picks one (:func:`picked`). Points about one of
several things of a kind ("Stage 1 shards ...", "the draft model proposes ...") are read the
same way: what the answer says of stage 3 is no evidence for stage 1
(:func:`viva.marking.labels.own_label_view`).
"""

from __future__ import annotations

import functools
import itertools
import re

from viva.bank.model import Question
from viva.language import stem
from viva.marking.framing import inside
from viva.marking.labels import own_label_view
from viva.marking.points import Target, clauses, near_number
from viva.marking.terms import Analysis, Term, analyse, distinct_concepts, hidden_by, hiding
from viva.marking.text import OPENERS, Token
from viva.marking.worked import number_value


@functools.lru_cache(maxsize=2048)
def subjects(question: Question) -> tuple[frozenset[str], ...]:
    """For each point, what this point, and only it, is about: the concepts of its text that
    no other point, the prompt or a polar term uses.

    A question that names the things it contrasts ("What are the prefill and decode phases,
    and how do they differ?") would leave its polar points without their subjects, since the
    prompt and the other points say "prefill" and "decode" too. So a polar point is also about
    what it shares with the prompt and no other polar point says: "prefill" for "prefill is
    compute-bound" against "decode is memory-bound".
    """
    texts = [analyse(p.text).content_terms() for p in question.points]
    accepts = [[t for a in p.accept for t in analyse(a).content_terms()] for p in question.points]
    prompt = {k for t in analyse(question.prompt).content_terms() for k in t.keys}
    polar = [i for i, terms in enumerate(texts) if any(_polar(t) for t in terms)]
    found: list[frozenset[str]] = []
    for i, terms in enumerate(texts):
        concepts = {k for t in terms if not t.anti for k in t.keys if k.startswith("#")}
        others: set[str] = set(prompt)
        for j, other in enumerate(texts):
            if j != i:
                others.update(k for t in (*other, *accepts[j]) for k in t.keys)
        own = concepts - others
        if i in polar:
            rivals = {k for j in polar if j != i for t in (*texts[j], *accepts[j]) for k in t.keys}
            if rivals:
                own |= concepts & prompt - rivals
        found.append(frozenset(own))
    return tuple(found)


# Properties whose opposite is a different claim, not a matter of degree: "many" against
# "few" or "at once" against "one at a time" describe quantities an answer can mix freely.
POLAR = frozenset(
    "#" + c
    for c in (
        "memory-bound",
        "compute-bound",
        "stable",
        "unstable",
        "correct",
        "incorrect",
        "overfitting",
        "underfitting",
        "biased",
        "unbiased",
    )
)


def _polar(term: Term) -> bool:
    return bool(term.anti) and bool(term.core & POLAR)


def _states(term: Term, keys: frozenset[str], negated: bool) -> bool:
    return bool(term.keys & keys) and term.negated == negated


def opposed(claim: Target, subject: frozenset[str], answer: Analysis) -> tuple[tuple[int, int], ...]:
    """Evidence of a clause asserting the reverse of ``claim`` about ``subject``; empty if none."""
    polar = [t for t in claim.terms if _polar(t)]
    if not polar or not subject:
        return ()
    content = answer.content_terms()
    ids = clauses(answer)
    by_clause: dict[int, list[Term]] = {}
    for rank, clause_id in enumerate(ids):
        if not inside(answer.hidden, content[rank].start, content[rank].end):
            by_clause.setdefault(clause_id, []).append(content[rank])
    qualifiers = [t for t in claim.terms if t.anti and not _polar(t)]
    for terms in by_clause.values():
        about = [t for t in terms if t.keys & subject]
        if not about:
            continue
        if any(_states(t, q.anti, q.negated) for q in qualifiers for t in terms):
            # "large-batch serving is compute-bound" is the other case of "small-batch decode
            # is memory-bound", not its reverse: the clause flips a qualifier too
            continue
        for p in polar:
            same = [t for t in terms if _states(t, p.core, p.negated)]
            reverse = [t for t in terms if _states(t, p.anti, p.negated) or _states(t, p.core, not p.negated)]
            if reverse and not same:
                return tuple((t.start, t.end) for t in (about[0], reverse[0]))
    return ()


# "A over B", "A / B", "A divided by B", with A and B figures written in digits.
_FIGURE = r"(\d[\d,]*(?:\.\d+)?)"
_RATIO = re.compile(rf"(?<![\w.]){_FIGURE}\s*(?:/|over|divided\s+by)\s*{_FIGURE}(?![\w.])", re.I)


@functools.lru_cache(maxsize=4096)
def _ratios(text: str) -> tuple[tuple[float, float, tuple[int, int]], ...]:
    """The figure ratios ``text`` states: (numerator, denominator, characters)."""
    found = []
    for m in _RATIO.finditer(text):
        top, bottom = (number_value(g.replace(",", "")) for g in m.groups())
        if top is not None and bottom is not None and top != bottom:
            found.append((top, bottom, m.span()))
    return tuple(found)


def inverted(point: str, answer: str) -> tuple[tuple[int, int], ...]:
    """Evidence that ``answer`` divides the other way round from ``point`` ("0.098 / 0.085"
    for "0.085 over 0.098"), saying no ratio the right way up; empty if it doesn't.

    Both figures are right and a bag of words credits the point; the claim is the reverse.
    """
    wanted = _ratios(point)
    if not wanted:
        return ()
    said = _ratios(answer)
    if any(near_number(top, a) and near_number(bottom, b) for top, bottom, _ in wanted for a, b, _ in said):
        return ()
    return tuple(
        span
        for top, bottom, _ in wanted
        for a, b, span in said
        if near_number(top, b) and near_number(bottom, a)
    )


# A pick: the speaker ("I'd", "we would", or a bare imperative) choosing one of the options
# the prompt sets against each other ("L1 or L2?", "a canary over blue-green").
CHOICE_VERBS = frozenset(
    stem(w)
    for w in (
        "use",
        "pick",
        "choose",
        "prefer",
        "believe",
        "go",
        "train",
        "serve",
        "frame",
        "report",
        "recommend",
        "take",
        "opt",
    )
)
_CHOOSERS = frozenset(["i", "i'd", "i'll", "we", "we'd", "we'll", "would", "i'm", "we're"])
_ALTERNATIVES = frozenset(["or", "vs", "versus", "over"])
_SET_ASIDE = frozenset(["than", "not", "over", "instead", "of", "unlike"])
_PICK_REACH = 4  # content words after the verb in which the option chosen is named


@functools.lru_cache(maxsize=2048)
def choice_keys(prompt: str) -> frozenset[str]:
    """The words of the options the prompt sets against each other (:func:`_option_runs`)."""
    return frozenset(k for run in _option_runs(prompt) for t in run for k in t.words)


@functools.lru_cache(maxsize=2048)
def options(prompt: str) -> tuple[frozenset[str], ...]:
    """The named things the prompt offers as options, each as the words only it has: "the
    PyTorch profiler, Nsight Systems, or Nsight Compute" offers {pytorch, profil}, {system}
    and {comput}. Empty unless there are two or more.

    Only options with a name (a capital letter past the sentence's start, or a digit: "L1",
    "BF16", "Adam") count: "range versus precision" or "a metric or target" offer ideas that
    one sentence can be about without naming them, or two words for one thing."""
    runs = [run for run in _option_runs(prompt) if any(_a_name(prompt, t) for t in run)]
    named = [frozenset(k for t in run for k in t.words) for run in runs]
    own = [o - frozenset().union(*(p for j, p in enumerate(named) if j != i)) for i, o in enumerate(named)]
    found = tuple(dict.fromkeys(o for o in own if o))
    return found if len(found) > 1 else _told_apart(prompt)


def _told_apart(prompt: str) -> tuple[frozenset[str], ...]:
    """Names the prompt tells apart without offering a choice, each an option: "why does FP16
    need loss scaling and BF16 not?" is about two formats that share a concept
    (:func:`viva.marking.terms.distinct_concepts`). Empty unless there are two or more."""
    apart = distinct_concepts(prompt)
    if not apart:
        return ()
    terms = [t for t in analyse(prompt).content_terms() if t.keys & apart and _a_name(prompt, t)]
    found = tuple(dict.fromkeys(n for n in (t.words for t in terms) if n))
    return found if len(found) > 1 else ()


def _a_name(text: str, term: Term) -> bool:
    """Whether ``term`` is written as a name: a digit, or a capital not opening its sentence."""
    word = text[term.start : term.end]
    opens = not text[: term.start].strip() or text[: term.start].rstrip()[-1] in ".?!:"
    return any(c.isdigit() for c in word) or any(c.isupper() for c in word[0 if not opens else 1 :])


def _option_runs(prompt: str) -> list[list[Term]]:
    """The run of adjacent content words on each side of "or", "vs" or "over", and on the left
    each earlier run of a comma list ("A, B, or C"), no longer than the run on the right: "an
    MoE or a dense model of similar quality" offers "MoE" and "dense model", and "is LLM
    inference compute-bound or memory-bound" offers the two bounds, not "LLM inference"."""
    analysis = analyse(prompt)
    content = analysis.content_terms()
    runs: list[list[Term]] = []
    for token in analysis.tokens:
        if token.norm not in _ALTERNATIVES:
            continue
        before = [t for t in content if t.end <= token.start and t.sentence == token.sentence][::-1]
        after = [t for t in content if t.start >= token.end and t.sentence == token.sentence]
        right = _run(prompt, after)
        if token.norm == "over" and right and prompt[right[0].start].isdigit():
            continue  # "search over 100 million vectors", "a PSI over 0.25": an amount, not a rival
        runs.append(right)
        while before:
            run = _run(prompt, before)[: max(1, len(right))]  # options are parallel: "X-bound or Y-bound"
            runs.append(run[::-1])
            before = before[len(run) :]
            if not before or prompt[before[0].end : run[-1].start].strip() != ",":
                break
    return [run for run in runs if run]


def _run(text: str, terms: list[Term]) -> list[Term]:
    """The first of ``terms`` and those that follow it with nothing but a space or hyphen between."""
    run = terms[:1]
    for term in terms[1:]:
        a, b = sorted((run[-1], term), key=lambda t: t.start)
        if text[a.end : b.start].strip(" -"):
            break
        run.append(term)
    return run


_ANAPHORS = frozenset(["it", "its", "it's", "this", "that", "they", "these", "those", "them"])


@functools.lru_cache(maxsize=2048)
def _qualifiers(prompt: str) -> tuple[frozenset[str], tuple[bool, ...]]:
    """The words every option shares ("Nsight"), and for each option (:func:`options`)
    whether the prompt names it only after one of them, so that "Systems" names Nsight
    Systems only after "Nsight", not in "system-wide"."""
    offered = options(prompt)
    shared = choice_keys(prompt) - frozenset().union(*offered)
    runs = _option_runs(prompt)
    return shared, tuple(
        any(r[0].words & shared and any(t.words & o for t in r[1:]) for r in runs) for o in offered
    )


def _options_named(answer: Analysis, prompt: str) -> dict[int, set[int]]:
    """For each sentence of ``answer``, the options (:func:`options`) it is about: those it
    names, as the prompt does ("Nsight Systems", not the "system" of "system-wide"), or, for a
    sentence that names none and opens with "it", "this" or "they", the previous sentence's."""
    key = ("options named", prompt)
    found = answer.memo.get(key)
    if found is not None:
        return found  # type: ignore[return-value]  # the memo holds what this function stored
    offered = options(prompt)
    shared, qualify = _qualifiers(prompt)
    words = [t for t in answer.terms if not t.negator]
    named: dict[int, set[int]] = {}
    for k, term in enumerate(words):
        qualified = k > 0 and bool(words[k - 1].words & shared)
        for i, o in enumerate(offered):
            if term.words & o and (qualified or not qualify[i]):
                named.setdefault(term.sentence, set()).add(i)
    opening: dict[int, str] = {}  # each sentence's first word that is no filler ("" if none)
    for token in answer.tokens:
        if not opening.get(token.sentence):
            opening[token.sentence] = "" if token.filler else token.norm
    for previous, sentence in itertools.pairwise(sorted(opening)):
        if sentence not in named and previous in named and opening[sentence] in _ANAPHORS:
            named[sentence] = named[previous]
    answer.memo[key] = named
    return named


def own_option_view(point: str, prompt: str, answer: Analysis) -> Analysis | None:
    """``answer`` without its sentences that name only other options than the one ``point`` is
    about, or None when the point names no single option or no sentence is hidden.

    "Nsight Compute gives the system-wide timeline. Nsight Systems reads one kernel's counters"
    has every word of "Nsight Systems gives a system-wide timeline", but what it says of the
    timeline it says of Nsight Compute: the point is found only where its own option is named
    or none is.
    """
    own = _option_of(point, prompt)
    if own is None:
        return None
    by_sentence = _options_named(answer, prompt)
    other = {s for s, named in by_sentence.items() if own not in named}
    if not other:
        return None
    spans: dict[int, tuple[int, int]] = {}
    for t in answer.terms:
        if t.sentence in other:
            start, _ = spans.get(t.sentence, (t.start, t.end))
            spans[t.sentence] = (start, t.end)
    return hiding(answer.text, tuple(spans.values()))


@functools.lru_cache(maxsize=4096)
def _option_of(point: str, prompt: str) -> int | None:
    """The index in :func:`options` of the one option ``point`` names; None if not exactly one."""
    said = {k for t in analyse(point).content_terms() for k in t.words}
    own = [i for i, o in enumerate(options(prompt)) if o & said]
    return own[0] if len(own) == 1 else None


def own_option(point: str, prompt: str) -> frozenset[str]:
    """The words of the one option (:func:`options`) ``point`` is about; empty if not one, or
    if the point picks it ("Use L1"), which is read by what the answer picks (:func:`picked`)."""
    choices = choice_keys(prompt)
    own = _option_of(point, prompt)
    if own is None or (choices and _point_option(point, choices)):
        return frozenset()
    return options(prompt)[own]


def rival_option_view(point: str, prompt: str, answer: Analysis) -> Analysis | None:
    """Only the sentences of ``answer`` about other options than the one ``point`` is about
    (what :func:`own_option_view` hides), or None when there are none."""
    view = own_option_view(point, prompt, answer)
    return None if view is None else hidden_by(view, answer)


def _picks(text: Analysis, choices: frozenset[str]) -> list[tuple[int, Term]]:
    """(where the verb starts, the option) for each clause where the speaker chooses an option:
    "I'd pick L2", "go with the dense model"."""
    content = text.content_terms()
    found = []
    for k, verb in enumerate(text.tokens):
        if verb.filler or verb.stem not in CHOICE_VERBS:
            continue
        before = [t for t in text.tokens[:k] if t.clause == verb.clause and not t.filler]
        if any(t.negator for t in before[-3:]):
            continue
        if before and not _CHOOSERS & {t.norm for t in before[-2:]}:
            continue
        after = [t for t in content if t.start >= verb.end and t.clause == verb.clause][:_PICK_REACH]
        named = _option_heads(text.text, [t for t in after if t.words & choices])
        if named and not any(_also_picked(text, t) for t in named[1:] if t.words != named[0].words):
            found.append((verb.start, named[0]))
    return found


_LEADS = OPENERS | {"a", "an", "the"}  # "So, L2, because ...", "A CNN."
_BECAUSE = frozenset(["because", "since", "as"])
_PAUSE = re.compile(r"[,.:;!?()\u2013\u2014]|\s-\s")


def _opening_pick(text: Analysis, choices: frozenset[str]) -> list[tuple[int, Term]]:
    """The option an answer opens with by its name alone ("L2, because ...", "A CNN.", "The
    MoE: ..."), which picks it as "I'd pick L2" does; empty if it opens any other way."""
    named: list[Token] = []
    for token in text.tokens:
        if token.filler or (not named and token.norm in _LEADS):
            continue
        if named and (_PAUSE.search(text.text[named[-1].end : token.start]) or token.norm in _BECAUSE):
            break
        if not (token.stem in choices or token.norm in choices):
            return []
        named.append(token)
    if not named:
        return []
    head = next((t for t in text.content_terms() if t.start == named[0].start), None)
    return [] if head is None else [(head.start, head)]


def _option_heads(text: str, named: list[Term]) -> list[Term]:
    """The first word of each option named: "dense model" is one option, not "dense" and then
    "model" offered beside it, though the prompt's "an MoE or a dense model" makes both words
    option words."""
    heads: list[Term] = []
    for k, term in enumerate(named):
        if k and not text[named[k - 1].end : term.start].strip(" -"):
            continue
        heads.append(term)
    return heads


def _also_picked(text: Analysis, option: Term) -> bool:
    """Whether a second option in the pick's clause is offered too ("L1 or L2"), not set
    aside ("rather than L2", "not L2", "over L2")."""
    before = [t.norm for t in text.tokens if t.end <= option.start and t.clause == option.clause][-2:]
    return not option.negated and not _SET_ASIDE & set(before)


@functools.lru_cache(maxsize=4096)
def _point_option(point: str, choices: frozenset[str]) -> frozenset[str]:
    """The option a point picks ("Use L1, the lasso" -> L1), if it opens with a choice verb."""
    picks = _picks(analyse(point), choices)
    if not picks or picks[0][0] != 0:
        return frozenset()
    return picks[0][1].words & choices


def _own_pick(point: str, prompt: str) -> frozenset[str]:
    """The words of the option ``point`` picks among those ``prompt`` offers; empty if none."""
    choices = choice_keys(prompt)
    return _point_option(point, choices) if choices else frozenset()


def picked(point: str, prompt: str, answer: Analysis) -> tuple[bool, tuple[tuple[int, int], ...]] | None:
    """Whether the answer picks the option ``point`` picks (True) or only another one (False),
    with the words that say so; None when the point is no pick or the answer names no pick.

    A question that asks "L1 or L2?" is answered by the pick: "I'd use L1" makes the point
    "Use L1" although every word of it is the question's own, and "I'd pick L2" (or an answer
    opening "L2, because ...", :func:`_opening_pick`) voids it, however much the answer then
    says about L1.
    """
    own = _own_pick(point, prompt)
    if not own:
        return None
    choices = choice_keys(prompt)
    picks = _picks(answer, choices) + _opening_pick(answer, choices)
    same = [(at, o) for at, o in picks if o.words & own]
    other = [(at, o) for at, o in picks if not o.words & own]
    if bool(same) == bool(other):
        return None
    return bool(same), tuple((at, o.end) for at, o in same or other)


def unnamed_pick(point: str, prompt: str, answer: Analysis) -> bool:
    """Whether ``point`` picks an option (:func:`picked`) that the answer never names: "a single
    GPU, low traffic, vLLM is great" repeats the conditions of "Pick the dense model for a single
    GPU at low traffic", all of them the question's words, without choosing anything."""
    own = _own_pick(point, prompt)
    return bool(own) and not any(t.words & own for t in answer.content_terms())


def about_others(question: Question, index: int, answer: Analysis) -> tuple[tuple[int, int], ...]:
    """What ``answer`` says of another option (:func:`own_option_view`) or another labelled
    thing (:func:`viva.marking.labels.own_label_view`) than point ``index`` is about: no
    evidence for that point."""
    views = (
        own_option_view(question.points[index].text, question.prompt, answer),
        own_label_view(question, index, answer),
    )
    return tuple(sorted(span for view in views if view is not None for span in view.hidden))
