"""From tokens to *terms*: the units the marker compares, with concepts and polarity.

A term is one word or one lexicon phrase ("memory bandwidth", "kv cache") carrying the
set of keys it can match on: its stem plus every concept it belongs to. Keys make
"HBM" meet "memory bandwidth" and "sixteen bit" meet "BF16". Each term also knows the
concepts that contradict it (``anti``) and whether a negation ("not", "isn't",
"rather than") is in force over it, so "it is not memory-bound" is not mistaken for
"it is memory-bound".
"""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass, field, replace

from viva.marking import framing
from viva.marking.lexicon import (
    ANTONYMS,
    CONCEPTS,
    EFFECT_VERBS,
    LIGHT_WORDS,
    PARTICLE_REACH,
    PARTICLE_VERBS,
    PARTICLES,
    RELATIONAL,
    RIVALS,
    SLIPS,
    WHOLE_WORD_ONLY,
)
from viva.marking.text import STOPWORDS, Token, stem, tokenize

# Words that end the reach of a negation: a new clause starts.
CLAUSE_BREAKS = frozenset(
    [
        "but",
        "so",
        "because",
        "since",
        "although",
        "though",
        "whereas",
        "while",
        "which",
        "however",
        "then",
        "therefore",
        "hence",
        "it",
        "they",
        "we",
        "you",
        "he",
        "she",
        "i",
        "this",
        "there",
        "it's",
        "that's",
        "there's",
        "they're",
        "we're",
    ]
)
CONTRASTING = frozenset(["vs", "versus", "rather", "instead", "difference", "differ", "unlike", "whereas"])
NEGATION_REACH = 4  # content terms a negation covers, at most
# A denial followed straight away by a new subject denies nothing after it: the comma or full
# stop between them went unsaid ("it gets nothing it's counted twice", from a recogniser), and
# "no" before an article is a reply, not a determiner ("no the moments stay in FP32").
SUBJECTS = frozenset(
    [
        "i",
        "you",
        "we",
        "they",
        "he",
        "she",
        "it's",
        "that's",
        "there's",
        "they're",
        "we're",
        "i'd",
        "i'm",
        "you're",
    ]
)
ARTICLES = frozenset(["the", "a", "an"])
# "no" and "without" deny a noun; a phrase after it that says where it comes from or where it
# is ("no autocorrelation from time series", "without padding in the batch") is not denied.
# "of", "to" and "for" stay inside: "no sign of overfitting", "no need to scale the loss".
DENYING_DETERMINERS = frozenset(["no", "without"])
MODIFIER_PREPOSITIONS = frozenset(
    ["from", "in", "on", "at", "by", "with", "across", "during", "after", "before", "within", "between"]
)
# "doesn't make it more robust": a pronoun between a verb and a comparison is the verb's object,
# not the start of a new clause, so the negation reaches past it to what it denies.
OBJECT_PRONOUNS = frozenset(["it", "this", "you"])
COMPARATIVES = frozenset(
    ["more", "less", "any", "much", "better", "worse", "faster", "slower", "bigger", "smaller", "larger"]
)


@dataclass(frozen=True, slots=True)
class Term:
    keys: frozenset[str]
    anti: frozenset[str]
    stem: str
    surface: str
    start: int
    end: int
    weight: float
    sentence: int
    clause: int = 0
    negated: bool = False
    negator: bool = False
    brk: bool = False
    core: frozenset[str] = frozenset()  # keys that match the whole term, not just one of its words
    parts: tuple[frozenset[str], ...] = ()  # a phrase's words (each with its keys); empty for one word
    # negated only as what a denied effect verb acts on: "quality" in "didn't degrade quality"
    affected: bool = False
    # which option of a kind it names (lexicon.RIVALS), as "@group.option"; else empty
    option: str = ""

    @property
    def rivals(self) -> frozenset[str]:
        """The other options of its kind: "@0.2" (mean) for "max" ("@0.0")."""
        return rivals_of(self.option)

    @property
    def content(self) -> bool:
        return self.weight > 0

    @property
    def words(self) -> frozenset[str]:
        """Its own words, without the concepts that join it to others: "L1" and "L2" share one
        (both caches), but picking one is not picking the other."""
        return frozenset(k for k in self.keys if not k.startswith("#"))


@dataclass(frozen=True, slots=True)
class Analysis:
    """A text as terms; ``content`` indexes the terms that carry meaning."""

    text: str
    terms: tuple[Term, ...]
    tokens: tuple[Token, ...]
    content: tuple[int, ...] = field(default=())
    positions: dict[str, tuple[int, ...]] = field(default_factory=dict)
    surfaces: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # characters whose words are not found (:func:`hiding`), e.g. what the answer names to reject
    hidden: tuple[tuple[int, int], ...] = ()
    # what matching works out about this text once and then asks again for every point and
    # phrasing (its clauses, the near spellings of a word); analyses are cached per text
    memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    def content_terms(self) -> list[Term]:
        return [self.terms[i] for i in self.content]


@functools.lru_cache(maxsize=2048)
def distinct_concepts(prompt: str) -> frozenset[str]:
    """Concepts the question tells apart: two of its words share one, and they are versioned
    names ("FP16" and "BF16", both #half-precision) or the prompt sets them against each
    other ("RMSNorm rather than LayerNorm").

    Elsewhere the concept lets either word stand for the other; in such a question saying one
    is not saying the other, so matching drops the concept (:func:`viva.marking.points.target`).
    Two words for one thing ("raise" and "rising") stay joined.
    """
    analysis = analyse(prompt)
    contrasted = any(t.norm in CONTRASTING for t in analysis.tokens)
    stems: dict[str, set[str]] = defaultdict(set)
    for term in analysis.content_terms():
        for key in term.keys:
            if key.startswith("#"):
                stems[key].add(term.stem)
    return frozenset(
        key
        for key, said in stems.items()
        if len(said) > 1 and (contrasted or any(c.isdigit() for stem in said for c in stem))
    )


def _norm_stem(token: Token) -> str:
    return SLIPS.get(token.stem, token.stem)


@functools.cache
def _lexicon() -> tuple[dict[tuple[str, ...], frozenset[str]], int, dict[str, frozenset[str]]]:
    phrases: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for concept, texts in CONCEPTS.items():
        for text in texts:
            stems = tuple(_norm_stem(t) for t in tokenize(text) if not t.filler)
            if stems:
                phrases[stems].add(concept)
    anti: dict[str, set[str]] = defaultdict(set)
    for a, b in ANTONYMS:
        anti["#" + a].add("#" + b)
        anti["#" + b].add("#" + a)
    longest = max(len(k) for k in phrases)
    return (
        {k: frozenset(v) for k, v in phrases.items()},
        longest,
        {k: frozenset(v) for k, v in anti.items()},
    )


@functools.cache
def _options() -> dict[str, str]:
    """A word naming an option of a kind (lexicon.RIVALS) -> "@group.option". Words, not
    stems: "means" is no mean."""
    return {
        word: f"@{g}.{o}" for g, group in enumerate(RIVALS) for o, words in enumerate(group) for word in words
    }


@functools.cache
def _rivals() -> dict[str, frozenset[str]]:
    """Each option of a kind ("@group.option") -> the other options of that kind."""
    options = [[f"@{g}.{o}" for o in range(len(group))] for g, group in enumerate(RIVALS)]
    return {option: frozenset(kind) - {option} for kind in options for option in kind}


def rivals_of(option: str) -> frozenset[str]:
    """The other options of the kind ``option`` is one of; empty for "" (no option)."""
    return _rivals().get(option, frozenset())


def _weight(stems: tuple[str, ...], norms: tuple[str, ...], concepts: frozenset[str]) -> float:
    if len(stems) > 1:
        return 1.0 + 0.25 * (len(stems) - 1)
    norm = norms[0]
    if concepts and norm in STOPWORDS:
        return 0.5
    if norm in STOPWORDS or norm.endswith(("n't", "n’t")):
        return 0.0
    if norm in LIGHT_WORDS or (len(norm) == 1 and not norm.isdigit()):
        return 0.4
    return 1.0


def _particle_after(
    words: list[Token], stems: list[str], i: int, phrases: dict[tuple[str, ...], frozenset[str]]
) -> frozenset[str]:
    """The direction a particle right after verb ``i``, or a few words after it, gives it:
    "turn the learning rate down" and "turn down the learning rate" both lower it (where the
    lexicon lists the joined form, "scale up", that phrase is found first). A particle in a
    phrase of its own ("scale it so the loss goes down") is not the verb's."""
    if stems[i] not in _PARTICLE_STEMS:
        return frozenset()
    for j in range(i + 1, min(len(words), i + PARTICLE_REACH + 2)):
        if words[j].clause != words[i].clause:
            break
        if words[j].norm in PARTICLES:
            if (stems[j - 1], stems[j]) in phrases:
                break
            return frozenset([PARTICLES[words[j].norm]])
    return frozenset()


_PARTICLE_STEMS = frozenset(stem(v) for v in PARTICLE_VERBS)
_EFFECT_STEMS = frozenset(stem(v) for v in EFFECT_VERBS)


def effect_verb(term: Term) -> bool:
    """Whether ``term`` says something acts on a thing (:data:`EFFECT_VERBS`): "degraded"."""
    return term.stem in _EFFECT_STEMS


@functools.lru_cache(maxsize=4096)
def analyse(text: str) -> Analysis:
    """Terms of ``text`` with concepts, antonyms and negation scopes resolved."""
    phrases, longest, antonyms = _lexicon()
    tokens = tuple(tokenize(text))
    words = [t for t in tokens if not t.filler]
    stems = [_norm_stem(t) for t in words]
    terms: list[Term] = []
    i = 0
    while i < len(words):
        size, concepts = 1, phrases.get((stems[i],), frozenset())
        for n in range(min(longest, len(words) - i), 1, -1):
            found = phrases.get(tuple(stems[i : i + n]))
            if found is not None:
                size, concepts = n, found
                break
        if size == 1 and not concepts:
            concepts = _particle_after(words, stems, i, phrases)
        concepts = frozenset("#" + c for c in concepts)
        span = words[i : i + size]
        part_stems = tuple(stems[i : i + size])
        keys = set(part_stems) | concepts
        # the concepts each word of a phrase carries on its own ("lesson" only for a word alone)
        part_concepts = {
            s: frozenset("#" + c for c in phrases.get((s,), frozenset()) if c not in WHOLE_WORD_ONLY)
            for s in part_stems
            if size > 1 and s not in STOPWORDS
        }
        if not any(c[1:] in RELATIONAL for c in concepts):
            for found_concepts in part_concepts.values():
                keys |= found_concepts
        if size > 1:
            keys -= STOPWORDS | LIGHT_WORDS
        core = frozenset(keys) if size == 1 else frozenset(concepts | {" ".join(part_stems)})
        parts = tuple(
            frozenset({s} | part_concepts[s])
            for s in part_stems
            if s in part_concepts and s not in LIGHT_WORDS
        )
        anti = frozenset(a for c in concepts for a in antonyms.get(c, ()))
        norms = tuple(t.norm for t in span)
        weight = _weight(part_stems, norms, concepts)
        negator = size == 1 and span[0].negator
        terms.append(
            Term(
                keys=frozenset(keys),
                anti=anti,
                stem=" ".join(part_stems),
                surface=" ".join(norms),
                start=span[0].start,
                end=span[-1].end,
                weight=0.0 if negator else weight,
                sentence=span[0].sentence,
                clause=span[0].clause,
                negator=negator,
                brk=size == 1 and norms[0] in CLAUSE_BREAKS,
                core=core,
                parts=parts,
                option=_options().get(norms[0], "") if size == 1 else "",
            )
        )
        i += size
    terms = _with_negation(terms, text)
    content = tuple(i for i, t in enumerate(terms) if t.content)
    positions: dict[str, list[int]] = defaultdict(list)
    surfaces: dict[str, list[int]] = defaultdict(list)
    for rank, i in enumerate(content):
        for key in terms[i].keys:
            positions[key].append(rank)
        if terms[i].option:
            positions[terms[i].option].append(rank)
        surfaces[terms[i].surface].append(rank)
    return Analysis(
        text,
        tuple(terms),
        tokens,
        content,
        {k: tuple(v) for k, v in positions.items()},
        {k: tuple(v) for k, v in surfaces.items()},
    )


def unframed(text: str) -> Analysis:
    """``text`` as what it asserts: the words it quotes in order to reject them ("people often
    assume X", :mod:`viva.marking.framing`) are not found. Misconceptions and contradictions are
    looked for here, so naming the wrong idea to set it right is not held against an answer."""
    return hiding(text, framing.rejected(text))


def disowned(text: str) -> Analysis:
    """``text`` without the claims it reports only to deny them ("people assume X", "X, but
    that's a myth"): what it says there, it says is false (:func:`viva.marking.framing.disbelieved`)."""
    return hiding(text, framing.disbelieved(text))


@functools.lru_cache(maxsize=4096)
def hiding(text: str, spans: tuple[tuple[int, int], ...]) -> Analysis:
    """``text`` with the words inside ``spans`` not found; content ranks stay those of
    :func:`analyse`, so positions and evidence still index the whole text."""
    full = analyse(text)
    if not spans:
        return full
    kept = {
        rank
        for rank, i in enumerate(full.content)
        if not framing.inside(spans, full.terms[i].start, full.terms[i].end)
    }
    return replace(
        full,
        positions=_kept(full.positions, kept),
        surfaces=_kept(full.surfaces, kept),
        hidden=spans,
        memo={},
    )


def hidden_by(view: Analysis, answer: Analysis) -> Analysis:
    """Only what ``view`` (a :func:`hiding` of ``answer``) hides: the rest of the text hidden
    instead, and what ``answer`` already hides (named only to be rejected) still hidden."""
    rest, start = [], 0
    for a, b in view.hidden:
        if a > start:
            rest.append((start, a))
        start = b
    if start < len(answer.text):
        rest.append((start, len(answer.text)))
    return hiding(answer.text, tuple(sorted((*rest, *answer.hidden))))


def _kept(index: dict[str, tuple[int, ...]], ranks: set[int]) -> dict[str, tuple[int, ...]]:
    found = {k: tuple(r for r in v if r in ranks) for k, v in index.items()}
    return {k: v for k, v in found.items() if v}


def _object_pronoun(terms: list[Term], j: int, text: str) -> bool:
    """Whether the clause-breaking word at ``j`` is an object ("make it more robust")."""
    if terms[j].surface not in OBJECT_PRONOUNS or j + 1 >= len(terms):
        return False
    gap = text[terms[j - 1].end : terms[j].start]
    return gap.strip() == "" and terms[j + 1].surface in COMPARATIVES


def _with_negation(terms: list[Term], text: str) -> list[Term]:
    """Flip ``negated`` on the content terms each negation reaches (see :data:`NEGATION_REACH`)."""
    flips = [False] * len(terms)
    affected = [False] * len(terms)
    for i, term in enumerate(terms):
        starts = term.negator or (
            term.stem in {"instead", "rather"} and i + 1 < len(terms) and terms[i + 1].stem in {"of", "than"}
        )
        if not starts:
            continue
        after = terms[i + 1] if i + 1 < len(terms) and terms[i + 1].clause == term.clause else None
        if after and (after.surface in SUBJECTS or (term.surface == "no" and after.surface in ARTICLES)):
            continue
        reached = 0
        effect = False
        for j in range(i + 1, len(terms)):
            other = terms[j]
            if other.negator or other.clause != term.clause:
                break
            if other.brk and j > i + 1 and not _object_pronoun(terms, j, text):
                break
            if reached and term.stem in DENYING_DETERMINERS and other.stem in MODIFIER_PREPOSITIONS:
                break  # "no autocorrelation from time series" denies the autocorrelation only
            if other.content:
                flips[j] = not flips[j]
                affected[j] = effect
                effect = effect or (not reached and effect_verb(other))
                reached += 1
                if reached >= NEGATION_REACH:
                    break
    return [replace(t, negated=True, affected=affected[i]) if flips[i] else t for i, t in enumerate(terms)]
