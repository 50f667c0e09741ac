"""Matching one claim (a marking point's text or an accepted phrasing) against an answer.

The answer is searched for the window of nearby words that best covers the claim's
terms. Inside that window each claim term is *matched* (same keys, same polarity),
*contradicted* (negated where the claim is not, or replaced by an antonym), or absent.
Words the question itself uses weigh less, because repeating the question is not
knowing the answer. The evidence is the character spans of the matched words.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from dataclasses import dataclass, replace

from viva.domain import PointStatus
from viva.marking.embedding import VOCAB
from viva.marking.lexicon import DIRECTIONS
from viva.marking.terms import Analysis, Term, analyse, effect_verb
from viva.marking.worked import ROUNDING, number_value, unit_after, worked_results

# Words that stress what they stand in and change no claim: read through in word-for-word phrasings.
INTENSIFIERS = frozenset(["really", "truly", "very", "quite", "totally", "completely", "fully"])
QUESTION_WORD_WEIGHT = 0.1  # a term the prompt already uses counts this much (chosen by CV)
LESS = frozenset(["#decrease"])
ABSENCE = frozenset(["#unneeded", "#missing"])  # concepts that deny what they qualify: "unnecessary", "lost"
CONTRADICTS_AT = 0.34  # share of the addressed weight that, contradicted, voids the claim


@dataclass(frozen=True, slots=True)
class Target:
    """One claim as weighted content terms."""

    text: str
    terms: tuple[Term, ...]
    weights: tuple[float, ...]
    accept: bool  # a short authored phrasing: needs all its terms
    tight: bool = False  # terms must sit close together (phrasings and wrong claims)
    reach: int = 0  # when > 0, matched terms must sit within this many clauses (wrong claims)
    names_only: bool = False  # a phrasing that only names what the point is about: half credit
    # a point text's clauses as claims of their own, read only for a contradiction (see mark_claims)
    parts: tuple[Target, ...] = ()

    @property
    def width(self) -> int:
        """How far (in content words) from the anchor a term may be."""
        if self.accept or self.tight:
            return len(self.terms) + 1
        return max(8, 2 * len(self.terms) + 4)

    @property
    def total(self) -> float:
        return sum(self.weights)


@dataclass(frozen=True, slots=True)
class ClaimMatch:
    coverage: float  # matched weight / claim weight
    contradiction: float  # contradicted weight / claim weight
    evidence: tuple[tuple[int, int], ...]  # character spans in the answer
    swapped: bool = False  # a rival option stands where the claim names its own

    @property
    def contradicted(self) -> bool:
        addressed = self.coverage + self.contradiction
        return self.contradiction > 0 and (self.swapped or self.contradiction >= CONTRADICTS_AT * addressed)


NO_MATCH = ClaimMatch(0.0, 0.0, ())


@functools.lru_cache(maxsize=8192)
def target(
    text: str,
    demote: frozenset[str],
    accept: bool = False,
    tight: bool = False,
    one_clause: bool = False,
    distinct: frozenset[str] = frozenset(),
    names_only: bool = False,
    split: bool = False,
) -> Target:
    """``text`` as a claim; terms sharing a key with ``demote`` (the prompt's) weigh less.

    A ``one_clause`` claim is only found when one clause of the answer states it (or as
    many clauses as the claim itself has): "prefill is compute-bound; decoding is
    memory-bound" does not assert "decoding is compute-bound". Concepts in ``distinct``
    (:func:`viva.marking.terms.distinct_concepts`) no longer join the claim's words to others.
    """
    terms = [_without(t, distinct) for t in analyse(text).content_terms()]
    weights = tuple(t.weight * (QUESTION_WORD_WEIGHT if t.keys & demote else 1.0) for t in terms)
    if sum(weights) < 0.3 * sum(t.weight for t in terms):
        # a claim made of the question's own words ("decode is memory-bound" for "is decode
        # memory-bound?") is still the claim: demote only by half
        weights = tuple(t.weight * (0.5 if t.keys & demote else 1.0) for t in terms)
    reach = len(set(clauses(analyse(text)))) if one_clause else 0
    # a clause of one word ("so it is fast") would be denied by that word's opposite said of anything
    clause_claims = [target(c, demote, distinct=distinct) for c in _clause_texts(text)] if split else []
    parts = tuple(c for c in clause_claims if sum(w > 0 for w in c.weights) >= 2)
    return Target(text, tuple(terms), weights, accept, tight or accept, reach, names_only, parts)


def _clause_texts(text: str) -> list[str]:
    """The clauses of ``text`` as texts, when it has more than one."""
    spans: dict[int, list[int]] = {}
    for term in analyse(text).terms:
        spans.setdefault(term.clause, [term.start, term.end])[1] = term.end
    return [text[a:b] for a, b in spans.values()] if len(spans) > 1 else []


def _without(term: Term, concepts: frozenset[str]) -> Term:
    """``term`` matching only its own words, not the ``concepts`` it shares with others."""
    if not term.keys & concepts or not term.keys - concepts:
        return term
    return replace(term, keys=term.keys - concepts, core=term.core - concepts)


def _bounded_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, stopping early once it exceeds ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


@functools.lru_cache(maxsize=1)
def _words() -> frozenset[str]:
    """Whole English words: those of the MiniLM word-piece vocabulary Viva ships (about 22,000)."""
    return frozenset(w for w in VOCAB.read_text(encoding="utf-8").split() if w.isalpha())


# Endings a vocabulary word takes that the word-piece vocabulary rarely lists whole, longest
# first, each with what may stand before it: "maximises" is "maximize" + s, said the British way.
_ENDINGS = (("ing", ("", "e")), ("ed", ("", "e")), ("es", ("", "e")), ("s", ("",)), ("d", ("",)))
_BRITISH = re.compile(r"is(e|es|ed|ing|ation|ations)$")


def _american(word: str) -> str:
    """``word`` with a British "-ise" ending spelt "-ize": the vocabulary spells it so."""
    return _BRITISH.sub(r"iz\1", word)


def _is_word(word: str) -> bool:
    """Whether ``word`` is English: in the vocabulary, or a vocabulary word with a common
    ending ("minimizes", "computed"), spelt either way ("minimises")."""
    words = _words()
    spelt = _american(word)
    if spelt in words:
        return True
    for ending, stems in _ENDINGS:
        if spelt.endswith(ending) and len(spelt) > len(ending) + 3:
            base = spelt[: -len(ending)]
            if any(base + tail in words for tail in stems):
                return True
    return False


def _may_be_slip(word: str, other: str) -> bool:
    """Whether ``other`` may be ``word`` misspelt. Two words of the vocabulary are two words,
    however few letters tell them apart ("macro" and "micro", "content" and "context", "chance"
    and "change", "maximises" and "minimises"), unless they differ only in how they end: in the
    last letter ("noisy" and "noise", "built" and "build") or the last two after six shared
    ("accurate" and "accuracy"), forms the stemmer leaves apart. British and American spellings
    ("minimises", "minimizes") are one word."""
    if not (_is_word(other) and _is_word(word)):
        return True
    word, other = _american(word), _american(other)
    shorter, longer = sorted((len(word), len(other)))
    shared = next((i for i in range(shorter) if word[i] != other[i]), shorter)
    return shared >= shorter - 1 or (shared >= 6 and longer - shared <= 2)


def _near_spellings(word: str, answer: Analysis) -> list[int]:
    """Positions of answer words that are a misspelling of ``word`` (long words only)."""
    if len(word) < 5 or " " in word or not word.isalpha():
        return []
    limit = 1 if len(word) < 8 else 2
    found: list[int] = []
    for other, where in answer.surfaces.items():
        if (
            other[0] == word[0]
            and len(other) >= 5
            and _bounded_distance(word, other, limit) <= limit
            and _may_be_slip(word, other)
        ):
            found.extend(where)
    return sorted(found)


# A figure said a little differently is the same figure: "about 13.5 GB" for 14 GB, 1,024 for
# 1,000, 3.3 TB/s for 3.35. Beyond this relative difference it is another claim (70 % vs 75 %
# of peak bandwidth, 16 vs 18 bytes per parameter). Small whole numbers (bytes per value,
# bit widths, counts, "2x") must match exactly: there 2 and 2.1 are not rounding.
NUMBER_TOLERANCE = ROUNDING
EXACT_BELOW = 10


def near_number(point: float, said: float) -> bool:
    """Whether ``said`` is ``point`` up to rounding (see :data:`NUMBER_TOLERANCE`)."""
    if abs(point) < EXACT_BELOW and point == int(point):
        return said == point
    return abs(said - point) <= NUMBER_TOLERANCE * abs(point)


def _near_numbers(word: str, answer: Analysis) -> list[int]:
    """Positions of answer numbers within rounding of the number ``word``."""
    value = number_value(word)
    if value is None:
        return []
    found: list[int] = []
    for other, where in answer.surfaces.items():
        said = number_value(other)
        if said is not None and near_number(value, said):
            found.extend(where)
    return sorted(found)


def _near(word: str, answer: Analysis) -> list[int]:
    """Answer positions of a figure within rounding of ``word``, else of its misspellings."""
    key = ("near", word)
    found = answer.memo.get(key)
    if found is None:
        found = answer.memo[key] = _near_numbers(word, answer) or _near_spellings(word, answer)
    return found  # type: ignore[return-value]  # the memo holds what this function stored


Positions = tuple[list[int], list[list[int]], list[int], list[int]]


def _positions(term: Term, answer: Analysis) -> Positions:
    """(where the whole term occurs, where each word of a phrase occurs, where an antonym does,
    where a rival option does: "mean" for "max").

    Positions are content ranks. A phrase ("flops per byte") whose words are all said
    near each other ("FLOPs the kernel does per byte") is found; one word alone is not.
    """
    anti: set[int] = set()
    for key in term.anti:
        anti.update(answer.positions.get(key, ()))
    hits: set[int] = set()
    for key in term.core:
        hits.update(answer.positions.get(key, ()))
    if not hits:
        hits.update(_near(term.surface, answer))
    parts = []
    for keys in term.parts:
        found: set[int] = set()
        for key in keys:
            found.update(answer.positions.get(key, ()))
        parts.append(sorted(found - hits - anti))
    rivals: set[int] = set()
    for key in term.rivals:
        rivals.update(answer.positions.get(key, ()))
    # "compute-bound" shares the word "bound" with "memory-bound" but says the opposite
    return sorted(hits - anti), parts, sorted(anti), sorted(rivals - hits)


def _window(
    positions: list[int],
    low: int,
    high: int,
    used: list[int],
    clause: tuple[int, ...] = (),
    at: int = -1,
    reach: int = 1,
) -> list[int]:
    """Positions in ``[low, high]`` not yet used; with ``clause``, only those within ``reach``
    clauses of clause ``at``."""
    return [
        p
        for p in positions[bisect_left(positions, low) : bisect_left(positions, high + 1)]
        if p not in used and (not clause or abs(clause[p] - at) < reach)
    ]


# Where one assertion ends and the next begins, for wrong claims. A contrast ("X, whereas Y",
# "not X but Y", "unlike X, Y") or a coordination ("X and Y") starts a new one; so do a full
# stop, semicolon, colon or bracket. A comma alone does not (lists and asides are commas:
# "GPUs clock higher, around 5 GHz, so each core is faster" is one assertion), except after a
# contrast word: "unlike prefill, which is compute-bound, decode is memory-bound" is three.
CONTRAST_WORDS = frozenset(["but", "whereas", "while", "whilst", "although", "though", "however", "unlike"])
COORDINATION_WORDS = frozenset(["and"])
PAIRING_WORDS = frozenset(["both", "between"])  # "between 2.1 and 3.4" is one claim, not two
_STATES = frozenset(["is", "are", "was", "were", "means", "mean", "meant"])  # after a subject
_LINKING = frozenset(
    ["which", "that", "who", "where", "when", "so", "because", "since", "as", "while", "and", "or", "but"]
)
_SUBJECT_REACH = 4  # words a subject may take between a comma and its "is"
_HARD_BREAK = frozenset(".;:!?()\u2014")
# A line break inside a sentence is wrapping, not a break: only a blank line or a new list item is.
_LINE_BREAK = re.compile(r"\n\s*\n|\n\s*(?:[-*\u2022]|\d+[.)])\s")


def clauses(answer: Analysis) -> tuple[int, ...]:
    """For each content rank, the assertion (clause) it belongs to; see ``CONTRAST_WORDS``."""
    found = answer.memo.get("clauses")
    if found is None:
        found = answer.memo["clauses"] = _clauses(answer)
    return found  # type: ignore[return-value]  # the memo holds what this function stored


def _clauses(answer: Analysis) -> tuple[int, ...]:
    ids: list[int] = []
    current, in_contrast, previous_end = 0, False, None
    both = False  # "both X and Y", "between X and Y": two things inside one claim
    for k, term in enumerate(answer.terms):
        if previous_end is not None:
            gap = answer.text[previous_end : term.start]
            if any(c in _HARD_BREAK for c in gap) or _LINE_BREAK.search(gap):
                current, in_contrast = current + 1, False
            elif "," in gap and (in_contrast or _spliced(answer, k)):
                current += 1
        previous_end = term.end
        if term.surface in CONTRAST_WORDS:
            current, in_contrast = current + 1, True
        elif term.surface in COORDINATION_WORDS and not both:
            current += 1
        both = term.surface in PAIRING_WORDS or (both and term.surface not in COORDINATION_WORDS)
        if term.content:
            ids.append(current)
    return tuple(ids)


def _spliced(answer: Analysis, k: int) -> bool:
    """Whether the comma before term ``k`` joins two statements, as people join them aloud:
    "covariate drift is a change in the inputs, concept drift is a change in the relation"
    says each definition of its own subject. A subject and "is" or "means" follow the comma
    before any other break; "which is", "so it's" and the like go on with the same statement."""
    terms = answer.terms
    if terms[k].surface in _LINKING:
        return False
    for j in range(k + 1, min(k + _SUBJECT_REACH + 1, len(terms))):
        gap = answer.text[terms[j - 1].end : terms[j].start]
        if "," in gap or any(c in _HARD_BREAK for c in gap):
            return False
        if terms[j].surface in _STATES:
            return True
    return False


def match(claim: Target, answer: Analysis) -> ClaimMatch:
    """The best window of ``answer`` for ``claim``."""
    total = claim.total
    if claim.accept and (total < 1.0 or _idiom(claim.text)):
        return _literal(claim, answer)
    if total <= 0 or not answer.content or (claim.accept and not _in_order(claim.text, answer)):
        return NO_MATCH
    content = answer.content_terms()
    found = [_positions(t, answer) for t in claim.terms]
    _credit_worked_figures(claim, answer, content, found)
    anchors = sorted({p for hits, parts, *_ in found for p in (*hits, *(q for ps in parts for q in ps))})
    if not anchors:
        return NO_MATCH
    width = claim.width
    # "loss scaling is unnecessary" says what "without loss scaling" says: a claim of absence
    # agrees with the answer's negated words as a negated claim does
    absence = any(t.keys & ABSENCE for t in claim.terms)
    claim_negative = absence or any(t.negated for t in claim.terms)
    # "didn't degrade short-context quality" denies the harm; it says nothing against a claim
    # about short-context quality that names no such harm itself
    effect = any(effect_verb(t) for t in claim.terms)

    def negated(p: int) -> bool:
        return content[p].negated and (effect or not content[p].affected)

    # an option the claim names which the answer names the claim's way somewhere ("the mean over
    # the batch") is not swapped for a rival that stands nearer ("the row max")
    named = [
        any(negated(p) == t.negated for p in answer.positions.get(t.option, ())) if t.option else True
        for t in claim.terms
    ]

    clause = clauses(answer) if claim.reach else ()
    reach = claim.reach
    # A direction word ("lowers", "faster") says which way something moves. Found without
    # anything the claim says moves ("shrinks weights" for "lowers variance") it is no evidence,
    # and it is read only in a clause holding such a word: in "it reduces bias and increases
    # variance" the "reduces" is said of bias, so it neither makes nor unmakes "lowers variance".
    # The words the claim is about are therefore looked for first.
    about = [not _direction(t) for t in claim.terms]
    needs_subject = any(w > 0 for w, a in zip(claim.weights, about, strict=True) if a)
    order = sorted(range(len(claim.terms)), key=lambda k: not about[k])
    of = clauses(answer) if needs_subject and not all(about) else ()
    best: tuple[float, float, float, list[int], bool] = (-1e9, 0.0, 0.0, [], False)
    agreed: set[int] = set()  # claim words the answer says the claim's way somewhere
    # windows that state the opposite of some claim words, with those words: "for decode that's
    # an advantage ... since decode is compute-bound" must not escape through its first "decode"
    denials: dict[int, int] = {}  # claim word -> where the answer states its opposite
    for anchor in anchors:
        low, high = (anchor - width, anchor + width) if claim.tight else (anchor - width // 2, anchor + width)
        at = clause[anchor] if clause else -1
        matched = contradicted = 0.0  # contradicted is counted at full weight, see below
        swapped = False  # a rival option named where the claim names its own
        subject: list[int] = []  # where the words the claim is about were found
        used: list[int] = []
        denied: dict[int, int] = {}
        for k in order:
            term, weight, is_about, (hits, parts, anti, rivals) = (
                claim.terms[k],
                claim.weights[k],
                about[k],
                found[k],
            )
            said = {of[p] for p in subject} if of and not is_about else None
            before = len(used)
            share = 1.0
            extra: list[int] = []
            inside = _in(_window(hits, low, high, used, clause, at, reach), of, said)
            if not inside and parts:
                candidates = (_in(_window(ps, low, high, used, clause, at, reach), of, said) for ps in parts)
                nearest = [min(ps, key=lambda p: abs(p - anchor)) for ps in candidates if ps]
                share = len(nearest) / len(parts)
                inside, extra = nearest[:1], nearest[1:]
            # one answer word backs one claim word
            agree = [
                p
                for p in inside
                if negated(p) == term.negated
                or (claim_negative and not term.keys & ABSENCE and _negative_near(content, p, absence))
            ]
            if agree:
                matched += share * weight
                used.append(min(agree, key=lambda p: abs(p - anchor)))
                used.extend(extra)
                agreed.add(k)
            elif inside and term.negated and all(_lessened(content, p) for p in inside):
                pass  # "reduces reads of HBM" for "never goes to HBM": less, not none, nor more
            elif inside:
                contradicted += share * term.weight
                used.append(inside[0])
            else:
                # the opposite word says the opposite claim, and denied it says this one:
                # "doesn't need loss scaling" for "loss scaling is unnecessary"
                opposite = _in(_window(anti, low, high, [], clause, at, reach), of, said)
                against = [p for p in opposite if negated(p) == term.negated]
                if against:
                    contradicted += term.weight
                    if is_about:  # a direction is said of some quantity, not always this one
                        denied[k] = against[0]
                elif opposite:
                    matched += weight
                    used.append(opposite[0])
                    agreed.add(k)
                else:
                    # "subtract the mean" for "subtract the maximum": another option of its kind
                    rival = _in(_window(rivals, low, high, used, clause, at, reach), of, said)
                    instead = [p for p in rival if negated(p) == term.negated]
                    if instead and not named[k]:
                        contradicted += term.weight
                        swapped = True
                        used.append(instead[0])
            if is_about:
                subject.extend(used[before:])
        if needs_subject and not subject:
            matched = contradicted = 0.0
            used = []
            denied = {}
            swapped = False
        value = matched - 1.5 * contradicted
        if value > best[0] + 1e-9:
            best = (value, matched, contradicted, used, swapped)
        if matched > 0:
            denials.update(denied)
    # A claim word whose opposite the answer states in one place ("compute-bound" for
    # "memory-bound"), and which it never says the claim's way anywhere, is denied, however well
    # another window matches the rest of the claim. (A negation read in a window is not enough:
    # "items the old system never showed" is no denial of "labels exist for what it showed".)
    _, matched, contradicted, used, swapped = best
    denied_only = {k: p for k, p in denials.items() if k not in agreed}
    if not contradicted and denied_only:
        contradicted = sum(claim.terms[k].weight for k in denied_only)
        used = [*used, *denied_only.values()]
    spans = _merge([(content[p].start, content[p].end) for p in sorted(set(used))], answer.text)
    # A question's own words are demoted for coverage (repeating "memory-bound" from "is it
    # compute-bound or memory-bound?" is no evidence), but not for contradiction: answering
    # that question with the other option is exactly the wrong claim.
    raw_total = sum(t.weight for t in claim.terms)
    return ClaimMatch(min(1.0, matched / total), min(1.0, contradicted / raw_total), spans, swapped)


def _in(positions: list[int], of: tuple[int, ...], said: set[int] | None) -> list[int]:
    """``positions`` in one of the clauses ``said`` (``of`` gives each position's clause), or
    all of them when ``said`` is None."""
    return positions if said is None else [p for p in positions if of[p] in said]


def _direction(term: Term) -> bool:
    """A word that only says which way something goes ("raises", "lower", "faster")."""
    return any(key[1:] in DIRECTIONS for key in term.keys if key.startswith("#"))


def _credit_worked_figures(
    claim: Target, answer: Analysis, content: list[Term], found: list[Positions]
) -> None:
    """A figure of the claim the answer does not say, but works out for itself in the same unit
    ("8 billion times 2 bytes is 16 GB" for "14 GB"), is found where the answer's result is.
    A scale word is not a unit: "1.85 billion multiply-adds" is no "3.7 billion FLOPs"."""
    worked = sorted(worked_results(answer.text))
    if not worked:
        return
    for i, term in enumerate(claim.terms):
        hits, parts, anti, rivals = found[i]
        if hits or number_value(term.surface) is None:
            continue
        unit = unit_after(claim.terms, i)
        results = [r for r in worked if unit and unit & unit_after(content, r)]
        if results:
            found[i] = (results, parts, anti, rivals)


@functools.lru_cache(maxsize=4096)
def _idiom(text: str) -> bool:
    """A phrasing whose only content word is a bare number ("one after another", "off by
    one"): its meaning is in the small words around it, and "one" alone says nothing."""
    words = [t for t in analyse(text).tokens if not t.filler]
    content = analyse(text).content_terms()
    return len(words) >= 3 and len(content) == 1 and number_value(content[0].surface) is not None


# Words that put a phrasing's one content word in time: "after the churn" says when, and
# "churn" alone says nothing of it.
_ORDER_WORDS = frozenset(["after", "before", "until", "during"])
_ORDER_REACH = 3  # words an order word may stand before what it places


@functools.lru_cache(maxsize=4096)
def _order_of(text: str) -> tuple[str, str] | None:
    """(order word, stem) for a phrasing whose only content word follows an order word."""
    analysis = analyse(text)
    content = analysis.content_terms()
    if len(content) != 1:
        return None
    before = [t.norm for t in analysis.tokens if t.end <= content[0].start]
    found = [w for w in before if w in _ORDER_WORDS]
    return (found[-1], content[0].stem) if found else None


def _in_order(text: str, answer: Analysis) -> bool:
    """Whether the answer says a phrasing's order word before its content word, when the
    phrasing has one ("after the churn" in "once the customer has churned" is not said)."""
    order = _order_of(text)
    if order is None:
        return True
    word, stem_ = order
    tokens = [t for t in answer.tokens if not t.filler]
    return any(
        t.norm == word and any(u.stem == stem_ for u in tokens[i + 1 : i + 2 + _ORDER_REACH])
        for i, t in enumerate(tokens)
    )


def _literal(claim: Target, answer: Analysis) -> ClaimMatch:
    """Phrasings made of small words ("they're the same thing") must appear word for word,
    though the answer may stress them ("they aren't really independent" says "aren't
    independent", :data:`INTENSIFIERS`).

    Polarity still counts: "it is not memory-bound" says the phrasing "memory-bound" word
    for word but denies it, so a negation in force over the words (and absent from the
    claim) makes the match a contradiction.
    """
    wanted = [t.norm for t in analyse(claim.text).tokens if not t.filler]
    said = [t for t in answer.tokens if not t.filler and (t.norm not in INTENSIFIERS or t.norm in wanted)]
    norms = [t.norm for t in said]
    claim_negated = sum(t.negated for t in analyse(claim.text).content_terms())
    for i in range(len(norms) - len(wanted) + 1):
        if wanted and norms[i : i + len(wanted)] == wanted:
            span = (said[i].start, said[i + len(wanted) - 1].end)
            inside = [t for t in answer.content_terms() if span[0] <= t.start < span[1]]
            if sum(t.negated for t in inside) != claim_negated:
                return ClaimMatch(0.0, 1.0, (span,))
            return ClaimMatch(1.0, 0.0, (span,))
    return NO_MATCH


def _negative_near(content: list[Term], rank: int, absence: bool = False) -> bool:
    """A negation is in force within a few words of ``rank``: "no base case" states what
    "the base case is not included" states, so two negative phrasings agree. For a claim of
    ``absence`` ("loss scaling is unnecessary") a denied absence nearby ("doesn't make it
    unnecessary") is the reverse, not a second negation."""
    near = content[max(0, rank - 3) : rank + 4]
    if absence and any(t.negated and t.keys & ABSENCE for t in near):
        return False
    return any(t.negated for t in near)


def _lessened(content: list[Term], rank: int) -> bool:
    """A word of decrease governs ``rank`` ("reduces reads and writes to HBM"): it says less of
    what a negated claim says none of, so it neither makes that claim nor denies it."""
    return any(t.keys & LESS for t in content[max(0, rank - 4) : rank])


def _merge(spans: list[tuple[int, int]], text: str) -> tuple[tuple[int, int], ...]:
    """Join spans separated only by a few short words, so evidence reads as a phrase."""
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if (
            merged
            and start - merged[-1][1] <= 12
            and not any(c in text[merged[-1][1] : start] for c in ".!?\n")
        ):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return tuple(merged)


TEXT_CREDIT_FROM = 0.2  # coverage of a point's own text below which it earns nothing
SAID_IN_FULL = 0.99  # coverage of a claim said word for word (a sum of weights may fall short of 1)
TEXT_CREDIT_FULL = 0.65  # coverage at which it earns full credit
COVERED_AT = 0.75
PARTIAL_AT = 0.3
# Naming the thing a point is about, where a sibling point is about a rival thing ("draft
# model" for "a small draft model proposes tokens"), says that it exists, not what it does.
NAMED_CREDIT = 0.5


@dataclass(frozen=True, slots=True)
class PointResult:
    credit: float
    evidence: tuple[tuple[int, int], ...]
    contradicted: bool
    lexical: float = -1.0  # the credit the words alone earned, when another backend raised it
    # the answer states the point's opposite: picks another option, reverses the relation or
    # inverts the ratio (structural readings, unlike a contradicting word in a window)
    opposite: bool = False
    # the credit rests only on naming what the point is about (:data:`NAMED_CREDIT`), or on
    # the words around an option the answer never names: similarity may not raise it
    named: bool = False

    @property
    def made(self) -> bool:
        """Said at least in part. Sentence similarity alone cannot tell a claim from its
        negation or its swapped roles, so a point only embeddings found must be covered."""
        if 0 <= self.lexical < PARTIAL_AT:
            return self.credit >= COVERED_AT
        return self.credit >= PARTIAL_AT

    @property
    def status(self) -> PointStatus:
        if self.credit >= COVERED_AT:
            return "covered"
        return "partial" if self.credit >= PARTIAL_AT else "missed"


def claim_credit(claim: Target, found: ClaimMatch) -> float:
    """Credit in [0, 1] for one claim: an accepted phrasing needs (nearly) all its words."""
    if found.contradicted:
        return 0.0
    if claim.accept:
        if claim.names_only:
            return NAMED_CREDIT if found.coverage >= SAID_IN_FULL else 0.0
        return 1.0 if found.coverage >= SAID_IN_FULL else 0.5 if found.coverage >= 0.66 else 0.0
    span = TEXT_CREDIT_FULL - TEXT_CREDIT_FROM
    return max(0.0, min(1.0, (found.coverage - TEXT_CREDIT_FROM) / span))


def mark_claims(claims: list[Target], answer: Analysis) -> PointResult:
    """The best credit any of ``claims`` (a point's text and phrasings) earns in ``answer``."""
    best_credit = 0.0
    best_evidence: tuple[tuple[int, int], ...] = ()
    named = False
    against: tuple[tuple[int, int], ...] | None = None
    for claim in claims:
        found = match(claim, answer)
        credit = claim_credit(claim, found)
        if credit > best_credit:
            best_credit, best_evidence, named = credit, found.evidence, claim.names_only
        if against is None and found.contradicted and found.coverage + found.contradiction > 0.5:
            against = found.evidence
        # a clause of a point's text denied, and part of it said, denies the point though it is
        # little of the whole: "decode is compute-bound" for "decode is memory-bound, so it
        # scales with bandwidth, about 1.6 times faster"
        for part in claim.parts if against is None else ():
            piece = match(part, answer)
            if piece.contradicted and piece.coverage > 0 and piece.coverage + piece.contradiction > 0.5:
                against = piece.evidence
                break
    if best_credit < PARTIAL_AT and against is not None:
        return PointResult(0.0, against, True)
    return PointResult(best_credit, best_evidence, False, named=named)
