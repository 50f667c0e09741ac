"""Points about one of several things of a kind: what the answer says of another is no evidence.

A rubric often has sibling points about rival things of one kind: "Stage 1 shards the
optimizer state" and "Stage 3 shards the parameters"; "a small draft model proposes tokens"
and "the target model checks them"; "a depthwise convolution filters each channel" and "a
pointwise convolution mixes the channels". Each such point has a *label* (:func:`labels`): its
family (the shared word) and its name. An answer that swaps the roles ("the target model
drafts, the draft model checks") has every word of both points, so a point is read only in
what the answer does not say of another name of its family (:func:`own_label_view`), and a
phrasing that only names the thing ("draft model") earns half a point (:func:`names_only`).
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import NamedTuple

from viva.bank.model import Question
from viva.language import stem
from viva.marking.terms import Analysis, analyse, hidden_by, hiding
from viva.marking.text import Token, tokenize

# "Stage 1 shards ...", "step 51 ...", "L2 ...": a point that opens with a word and a number
# (not "Stages 1 and 2 ...", which names two).
_LABEL = re.compile(
    r"^\W*(?:(?:the|a|an)\s+)?([A-Za-z]+)[\s-]?(\d+)\b(?!\s*(?:,|and|or|to)\s*\d)", re.IGNORECASE
)
_LIST_JOINS = frozenset(["and", "or", "to"])
_OPENING_WORDS = 4  # how far into a point its subject may reach: "a small cheap draft model"
_ARTICLES = frozenset(["a", "an", "the", "each", "every"])
_COUNTS = frozenset(["both", "all", "several", "many", "multiple"])
# What an answer calls one of two named things without repeating the noun: "the draft one",
# "the depthwise step".
_STAND_INS = frozenset(
    stem(w) for w in ["step", "stage", "phase", "part", "half", "one", "side", "version", "variant"]
)
# Words that can follow a name used alone ("pipeline across nodes"), where a noun would make
# the name a modifier of that noun ("draft tokens").
_PLACES = frozenset(
    [
        "across",
        "over",
        "inside",
        "within",
        "on",
        "at",
        "for",
        "with",
        "per",
        "into",
        "between",
        "through",
        "via",
    ]
)
_MENTION_REACH = 3  # words after a name in which its noun (or a stand-in) follows


class Label(NamedTuple):
    """What a point is about when a sibling point is about another of its kind: ("stage",
    "1") for "Stage 1 shards ...", ("model", "draft") for "A small draft model proposes"."""

    family: str  # the stem of the shared word: "stage", "model"
    name: str  # the number or the stem of the naming word: "1", "draft"
    numbered: bool
    aliases: frozenset[str] = frozenset()  # other words the point calls it by: "small", "cheap"


def _figure_or_symbol(norm: str) -> bool:
    """Words a subject may carry between its name and its noun: "a depthwise k × k convolution"."""
    return len(norm) == 1 or any(c.isdigit() for c in norm)


def _opening(text: str) -> list[str]:
    """Stems of the words that open ``text`` before its first small word, skipping figures
    after the first word ("a depthwise k × k convolution"). A point that opens with a count
    ("two full production environments") is about several things, so it has no opening."""
    words: list[str] = []
    for token in tokenize(text):
        if not words and (token.norm.isdigit() or token.norm in _COUNTS):
            return []
        if token.filler or (not words and token.norm in _ARTICLES) or _figure_or_symbol(token.norm):
            continue
        if token.stop or not token.norm.isalpha():
            break
        words.append(token.stem)
        if len(words) == _OPENING_WORDS:
            break
    return words


def _bigrams(text: str) -> set[tuple[str, str]]:
    stems = [t.stem for t in tokenize(text) if not t.filler and not _figure_or_symbol(t.norm)]
    return set(itertools.pairwise(stems))


def _named_labels(question: Question) -> list[Label | None]:
    """Points whose subjects are rival things of one kind ("a small draft model proposes ...",
    "the target model checks ..."): the noun they share and the word that tells them apart.

    Both names must be ones the model answer uses ("draft model", "target model"), and each
    point names its own thing only, so "keep the largest logits" and "drop the smallest logits"
    (instructions, not subjects the answer teaches) seldom qualify.
    """
    taught = _bigrams(question.answer) | _bigrams(question.full_answer or "")
    opened = [_opening(p.text) for p in question.points]
    openings = [[p for p in itertools.pairwise(words) if p in taught] for words in opened]
    named: dict[str, dict[str, set[int]]] = {}
    for i, opening in enumerate(openings):
        for name, family in opening:
            named.setdefault(family, {}).setdefault(name, set()).add(i)
    pairs = [_bigrams(p.text) for p in question.points]

    def apart(family: str, names: dict[str, set[int]]) -> bool:
        """No point of one name also says another name of the family."""
        return not any(
            (name, family) in pairs[j]
            for name in names
            for other in names.keys() - {name}
            for j in names[other]
        )

    rivals = {family for family, names in named.items() if len(names) > 1 and apart(family, names)}
    stems = [{t.stem for t in tokenize(p.text)} for p in question.points]
    found: list[Label | None] = []
    for i, (words, opening) in enumerate(zip(opened, openings, strict=True)):
        pair = next(((name, family) for name, family in opening if family in rivals), None)
        if pair is None:
            found.append(None)
            continue
        name, family = pair
        siblings = set().union(*named[family].values()) - {i}
        rival_words = set().union(*(stems[j] for j in siblings))
        before = frozenset(words[: words.index(name)]) - set(named[family]) - rival_words
        found.append(Label(family, name, numbered=False, aliases=before))
    # a family only one labelled point is left in tells nothing apart
    named_in = {family: {a.name for a in found if a and a.family == family} for family in rivals}
    return [label if label and len(named_in[label.family]) > 1 else None for label in found]


def names_only(label: Label | None, phrase: str) -> bool:
    """Whether ``phrase`` only names the thing ``label`` labels ("draft model", "depthwise"):
    where a sibling point is about a rival thing, naming one says nothing of what it does."""
    if label is None or label.numbered:
        return False
    words = {t.stem for t in tokenize(phrase) if not t.filler and not t.stop}
    return bool(words) and words <= {label.name, label.family, *_STAND_INS}


@functools.lru_cache(maxsize=2048)
def labels(question: Question) -> tuple[Label | None, ...]:
    """For each point, the label that tells it from a sibling point about another thing of the
    same kind, else None.

    Numbered: "Stage 1 shards the optimizer state" and "Stage 3 shards the parameters" are
    about stage 1 and stage 3. Named: "A depthwise k × k convolution filters each channel" and
    "A pointwise 1 × 1 convolution mixes the channels" are about the depthwise and the
    pointwise convolution (:func:`_named_labels`).
    """
    found: list[Label | None] = []
    for point in question.points:
        opening = _LABEL.match(point.text)
        found.append(Label(stem(opening.group(1).lower()), opening.group(2), True) if opening else None)
    numbers: dict[str, set[str]] = {}
    for label in found:
        if label:
            numbers.setdefault(label.family, set()).add(label.name)
    numbered = [label if label and len(numbers[label.family]) > 1 else None for label in found]
    named = _named_labels(question)
    return tuple(a or b for a, b in zip(numbered, named, strict=True))


_OPENERS = frozenset(["and", "then", "so", "but", "while", "whereas", "or", "plus", "next", "finally"])


def _opens_clause(tokens: list[Token], i: int) -> bool:
    """Whether token ``i`` (after any article) opens a clause, where its subject stands: "then
    pipeline across nodes", not "twice the forward because"."""
    j = i - 1
    while j >= 0 and tokens[j].norm in _ARTICLES:
        j -= 1
    return j < 0 or tokens[j].clause != tokens[i].clause or tokens[j].norm in _OPENERS


def _label_mentions(
    answer: Analysis, label: Label, known: dict[str, str]
) -> list[tuple[int, int, frozenset[str]]]:
    """(token index, sentence, names) for each place ``answer`` names a label of ``label``'s
    family: "stage 2", "stage-2", "l2", "stages 2 and 3" (both numbers); "draft model", "the
    depthwise step", "the small model" (by an alias in ``known``, which maps the words that
    name a label to its name). Another thing of the family ("the large model") is a mention
    naming nothing known, so it ends what the one before it says."""
    tokens = [t for t in answer.tokens if not t.filler]
    head = label.family
    found = []
    for i, token in enumerate(tokens):
        names: list[str] = []
        if not label.numbered:
            after = [t for t in tokens[i + 1 : i + 1 + _MENTION_REACH] if not _figure_or_symbol(t.norm)]
            nouns = [t.stem for t in after[:2] if t.sentence == token.sentence]
            named = token.norm.isalpha() and not token.stop and token.stem != head
            # a known name alone, before a small word or a break: "then pipeline across nodes"
            # (but "the draft tokens" names tokens)
            alone = (
                token.stem in known.values()
                and _opens_clause(tokens, i)
                and (
                    i + 1 == len(tokens)
                    or tokens[i + 1].stop
                    or tokens[i + 1].norm in _PLACES
                    or tokens[i + 1].sentence != token.sentence
                )
            )
            stand_in = token.stem in known and nouns[:1] and nouns[0] in _STAND_INS
            if named and (head in nouns or stand_in or alone):
                names.append(known.get(token.stem, ""))
        elif token.norm.startswith(head) and token.norm[len(head) :].isdigit():
            names.append(token.norm[len(head) :])
        elif token.stem == head:
            j = i + 1
            while j < len(tokens) and tokens[j].sentence == token.sentence:
                if tokens[j].norm.isdigit():
                    names.append(tokens[j].norm)
                elif not (names and tokens[j].norm in _LIST_JOINS):
                    break
                j += 1
        if names:
            found.append((i, token.sentence, frozenset(names)))
    return found


def own_label_view(question: Question, index: int, answer: Analysis) -> Analysis | None:
    """``answer`` without what it says about another label of the family point ``index`` opens
    with (:func:`labels`), or None when there is nothing to hide.

    "Stage 1 shards the model parameters, stage 2 adds the gradients, and stage 3 shards the
    optimizer states" has every word of "Stage 1 shards the optimizer state", but says it of
    stage 3: from each mention of another label to the next mention or the end of its
    sentence, the words are not this point's. Likewise "the target model drafts tokens and the
    draft model checks them" says nothing of what the draft model proposes.
    """
    found = labels(question)
    label = found[index]
    if label is None:
        return None
    family = [other for other in found if other and other.family == label.family]
    known = {word: other.name for other in family for word in (*other.aliases, other.name)}
    mentions = _label_mentions(answer, label, known)
    others = {other.name for other in family} - {label.name}

    def another(names: frozenset[str]) -> bool:
        return label.name not in names and (label.numbered or bool(names & others))

    if not any(another(names) for _, _, names in mentions):
        return None
    tokens = [t for t in answer.tokens if not t.filler]
    spans = []
    for k, (i, sentence, names) in enumerate(mentions):
        if not another(names):
            continue
        last = i
        stop = mentions[k + 1][0] if k + 1 < len(mentions) else len(tokens)
        # a name reaches to the end of its clause ("random negatives are too easy, so I'd add
        # items the model scores highly" says the second part of hard negatives); a numbered
        # label to the end of its sentence ("stage 2 adds the gradients, then the optimizer")
        while last + 1 < stop and (
            tokens[last + 1].clause == tokens[i].clause
            if not label.numbered
            else tokens[last + 1].sentence == sentence
        ):
            last += 1
        spans.append((tokens[i].start, tokens[last].end))
    return hiding(answer.text, tuple(spans))


def rival_label_view(question: Question, index: int, answer: Analysis) -> Analysis | None:
    """Only what ``answer`` says about another label of point ``index``'s family (what
    :func:`own_label_view` hides), or None when it names no other. Words ``answer`` already
    hides (named only to be rejected) stay hidden."""
    view = own_label_view(question, index, answer)
    return None if view is None else hidden_by(view, answer)


@functools.lru_cache(maxsize=2048)
def label_frames(question: Question) -> tuple[frozenset[str], ...]:
    """For each labelled point (:func:`labels`), the words it shares with another point of its
    family: "shards" in "Stage 1 shards the optimizer state" and "Stage 3 shards the parameters"
    is the frame every stage fills, so it says nothing of stage 1 in particular and weighs as
    little as the question's own words. Words only, not concepts: "parameters" and "master
    weights" share one, yet they are what tells stage 3 from stage 1."""
    found = labels(question)
    keys = [frozenset(k for t in analyse(p.text).content_terms() for k in t.words) for p in question.points]
    frames = []
    for i, label in enumerate(found):
        family = [j for j, o in enumerate(found) if j != i and label and o and o.family == label.family]
        frames.append(frozenset(k for j in family for k in keys[i] & keys[j]))
    return tuple(frames)
