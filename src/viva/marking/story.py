"""What a story does, found by its shape: the points of a behavioural answer.

A behavioural rubric point describes the story ("gives a measurable result, a number that
moved"), not a claim the candidate repeats, so its words are the wrong thing to look for:
"recall more than doubled to 52 %" makes that point without any of them. A point that says
``shows: [result-figure]`` in the bank is also credited when the answer has that feature,
whatever it is about. Each feature is a rule over the answer's clauses (see :data:`FEATURES`);
none of them judges whether the story is a good one, which the other points and the
misconceptions (blaming others, winning by authority) do.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence

from viva.domain import StoryFeature
from viva.language import stem
from viva.marking.terms import Analysis
from viva.marking.text import Token

Spans = tuple[tuple[int, int], ...]
Clause = tuple[Token, ...]


def _stems(words: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words.split())


def _phrases(*texts: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(t.split()) for t in texts)


_FIRST_PERSON = frozenset(["i", "i'd", "i've", "i'll", "i'm"])
_DOER = frozenset(["i", "i've"])  # "I'm paid", "I'd say": a state or a view, not an act
_WE = frozenset(["we", "we'd", "we've", "we'll"])
# "I think", "I guess": a view, not something done
_HEDGES = _stems("think guess feel mean suppose believe know hope wish was am would could should")
_CHANGE = _stems(
    "rose rise rising fell fall drop dropped cut reduced reduce improved improve increased increase "
    "decreased decrease grew grow saved save lifted lift jumped jump climbed climb shrank shrink "
    "doubled halved tripled went go down up lower higher gained gain boosted boost raised raise "
    "slashed halve double triple moved move won lost recovered"
)
_MULTIPLES = frozenset(["doubled", "halved", "tripled", "half", "third", "quarter", "twice", "thirds"])
_SETTINGS = _stems(
    "company startup team app platform retailer bank marketplace service product site business firm "
    "client insurer hospital lab org organisation organization store shop fintech provider network "
    "airline agency publisher charity school university consultancy scale-up scaleup group department"
)
_STAKES = _stems(
    "cost costing costs losing lost revenue money deadline launch customers users complaints refunds "
    "goal target churn risk fraud outage incident sla quarter million thousand pounds dollars euros "
    "budget contract regulator audit safety campaign"
)
_PEOPLE = _phrases("our pm", "our team", "my team", "my manager", "my lead")
_MY_PART = _phrases("my role", "my part", "my job", "i owned")
_PROPOSE = _stems("proposed propose suggested suggest offered offer recommended recommend pitched pitch")
_PROPOSAL_WORDS = _phrases(
    "instead", "compromise", "middle ground", "alternative", "what if we", "trade-off", "phased", "pilot"
)
_DATA_VERBS = _stems(
    "showed show pulled ran run analysed analyzed measured benchmarked plotted built wrote estimated "
    "computed sampled tested profiled checked compared prepared brought shared put dug"
)
_DATA_NOUNS = _stems(
    "data numbers analysis breakdown experiment test dashboard notebook doc curve estimate "
    "backtest benchmark logs sample results evaluation eval prototype spike study trace profile"
)
_AB_TEST = _phrases("a b")  # "A/B" is two words to the tokenizer
_REFLECTION = _phrases(
    "i learned",
    "i learnt",
    "learned that",
    "lesson",
    "taught me",
    "took away",
    "takeaway",
    "next time",
    "do differently",
    "done differently",
    "in hindsight",
    "looking back",
    "since then",
    "ever since",
    "from then on",
    "these days i",
    "now i",
    "i now",
    "i've since",
)
_ACKNOWLEDGE = _phrases(
    "fair point",
    "to be fair",
    "was fair",
    "were fair",
    "was right",
    "were right",
    "was partly right",
    "had a point",
    "a valid",
    "was valid",
    "legitimate",
    "made sense",
    "makes sense",
    "on board",
    "real constraint",
    "genuine",
    "asked for examples",
    "asked for specific",
    "i agreed",
    "it stung",
    "took it seriously",
    "thanked",
    "i understood why",
    "understood her",
    "understood his",
    "understood their",
    "wasn't wrong",
    "instead of defending",
    "rather than defending",
    "didn't get defensive",
    "wasn't defensive",
    "confirmed it",
)
# Someone else's plan: "our PM wanted to launch", "a colleague proposed retraining daily".
_OTHERS = _stems(
    "he she they pm colleague manager lead director head engineer scientist stakeholder team teammate "
    "cto ceo cfo vp client customer founder analyst designer owner boss product marketing sales"
)
_WANTED = _stems("wanted want proposed pushed insisted planned asked preferred argued decided suggested")
# The candidate's own view of it: "I thought", "I disagreed", "I'd seen".
_VIEWS = _stems(
    "thought disagreed worried felt believed objected doubted suspected seen noticed knew "
    "argued pushed concerned convinced"
)
_VIEW_NOUNS = _phrases("my concern", "my worry", "my view", "my reason", "my argument", "my point")
# Looking into a problem: "I profiled it", "I built a replay harness and diffed them".
_INVESTIGATE = _stems(
    "profiled traced dug investigated diffed analysed analyzed reproduced bisected inspected debugged "
    "audited instrumented logged replayed sliced compared plotted sampled checked ran built"
)
_REASONS = _phrases("because", "since", "given", "so that", "to hit", "to meet", "to make", "to reach")
_SELF_RIGHT = _phrases("i was right", "we were right", "i was correct")  # granted to oneself
# Not the candidate's to fix ("it wasn't my system", "another team's model"), and taken on
# anyway ("I offered to write the fix", "so I took it on").
_NOT_MINE = _phrases(
    "wasn't my",
    "wasn't mine",
    "was not my",
    "not my team",
    "not my job",
    "another team's",
    "other team's",
    "owned by",
    "nobody owned",
    "no one owned",
    "nobody actually owned",
    "outside my",
)
_TOOK_ON = _phrases(
    "i took it on",
    "took it on myself",
    "i picked it up",
    "i stepped in",
    "i volunteered",
    "i offered",
    "i took ownership",
    "i decided to fix",
    "i owned it",
)
# Someone who decides, and the decision: "the head of merchandising wanted", "I needed the CFO
# to approve".
_DECIDERS = _stems(
    "head director cfo ceo cto coo vp executive exec stakeholder stakeholders client board founder "
    "manager owner partner clinician doctor lawyer regulator"
)
_DECIDING = _stems(
    "decide decided decision approve approved fund funded sign choose chose pick wanted needed asked"
)
# Their terms, and the jargon set aside: "instead of precision and recall I said ... costs an
# adjuster two hours", "I didn't lead with a ROC curve; I put it in dollars".
_SET_ASIDE = _phrases("rather than", "instead of", "instead", "didn't lead with", "left out", "without the")
_THEIR_TERMS = _stems(
    "dollars pounds euros money cost costs costing revenue sales customers customer users hours "
    "days weeks risk losses profit budget complaints patients"
)
_CHANGED = _stems(
    "started began changed switched rewrote stopped adopted moved introduced now "
    "split restructured reorganised"
)
_THEN = frozenset(["then", "and", "so"])
_FAULT = _phrases(
    "my mistake",
    "my fault",
    "my call",
    "on me",
    "i should have",
    "i shouldn't have",
    "i missed",
    "i assumed",
    "i underestimated",
    "i overlooked",
    "i was wrong",
    "i skipped",
    "i ignored",
    "i failed",
    "i got wrong",
    "my miss",
    "was mine",
    "was my own",
    "problem was my",
    "issue was my",
    "cause was my",
)


def _clauses(analysis: Analysis) -> list[Clause]:
    """The answer's words, fillers left out, grouped by clause in order."""
    groups: dict[int, list[Token]] = {}
    for token in analysis.tokens:
        if not token.filler:
            groups.setdefault(token.clause, []).append(token)
    return [tuple(g) for _, g in sorted(groups.items())]


def _span(clause: Clause) -> tuple[int, int]:
    return clause[0].start, clause[-1].end


def _norms(clause: Clause) -> list[str]:
    return [t.norm for t in clause]


def _has_phrase(norms: Sequence[str], phrases: Iterable[tuple[str, ...]]) -> bool:
    return any(tuple(norms[i : i + len(p)]) == p for p in phrases for i in range(len(norms) - len(p) + 1))


def _figure(token: Token) -> bool:
    return token.norm[:1].isdigit() or token.norm in _MULTIPLES


def _acts(clause: Clause, subjects: frozenset[str]) -> int:
    """How often a subject in ``subjects`` is followed closely by a word that is not a hedge
    or a negation: "I built", "I then ran"."""
    count = 0
    for i, token in enumerate(clause):
        if token.norm in subjects:
            after = [t for t in clause[i + 1 : i + 3] if t.norm not in ("also", "then", "just", "really")]
            count += bool(after) and after[0].stem not in _HEDGES and not after[0].negator
    return count


def result_figure(analysis: Analysis) -> Spans:
    """A figure and a change in one clause: "error fell from 18 to 12 per cent", "doubled"."""
    return tuple(
        _span(c)
        for c in _clauses(analysis)
        if any(_figure(t) for t in c) and (any(t.stem in _CHANGE for t in c) or _from_to(_norms(c)))
    )


def _from_to(norms: Sequence[str]) -> bool:
    """ "From 18 to 12": a before and an after."""
    return "from" in norms and "to" in norms[norms.index("from") + 2 :]


def own_action(analysis: Analysis) -> Spans:
    """ "I" does at least two things, or "my role was": the candidate's own part."""
    clauses = _clauses(analysis)
    mine = [c for c in clauses if _acts(c, _DOER)]
    owned = [c for c in clauses if _has_phrase(_norms(c), _MY_PART)]
    if owned or sum(_acts(c, _DOER) for c in mine) >= 2:
        return tuple(_span(c) for c in owned or mine)
    return ()


def setting(analysis: Analysis) -> Spans:
    """The opening names where it happened and what was at stake (a cost, a goal, a figure)."""
    opening = [c for c in _clauses(analysis) if c[0].sentence <= 2]
    where = [c for c in opening if any(t.stem in _SETTINGS for t in c) or _has_phrase(_norms(c), _PEOPLE)]
    stakes = [c for c in opening if any(t.stem in _STAKES or _figure(t) for t in c)]
    if where and stakes:
        return tuple(sorted({_span(c) for c in (where[0], stakes[0])}))
    return ()


def proposal(analysis: Analysis) -> Spans:
    """Someone put an option on the table: "I proposed", "we suggested", "a compromise"."""
    return tuple(
        _span(c)
        for c in _clauses(analysis)
        if any(t.stem in _PROPOSE for t in c) or _has_phrase(_norms(c), _PROPOSAL_WORDS)
    )


def evidence(analysis: Analysis) -> Spans:
    """ "I" or "we" brought data to it: "I pulled two weeks of data", "we ran an A/B test"."""
    return tuple(
        _span(c)
        for c in _clauses(analysis)
        if any(t.norm in _FIRST_PERSON | _WE for t in c)
        and any(t.stem in _DATA_VERBS for t in c)
        and (any(t.stem in _DATA_NOUNS for t in c) or _has_phrase(_norms(c), _AB_TEST))
    )


def reflection(analysis: Analysis) -> Spans:
    """What the candidate learned or does differently since."""
    return tuple(_span(c) for c in _clauses(analysis) if _has_phrase(_norms(c), _REFLECTION))


def acknowledges(analysis: Analysis) -> Spans:
    """The other side's view or the criticism is granted as fair, not argued away; or what the
    other side wanted is given with its reason ("our PM wanted to launch everywhere to hit the
    quarterly goal"), which is their view put fairly."""
    clauses = _clauses(analysis)
    granted = [
        _span(c)
        for c in clauses
        if _has_phrase(_norms(c), _ACKNOWLEDGE) and not _has_phrase(_norms(c), _SELF_RIGHT)
    ]
    words = [t for c in clauses for t in c]
    reasoned = []
    for clause in clauses:
        if not _wants(clause):
            continue
        # their reason: in the rest of the sentence, before the candidate's own words start
        rest = [t for t in words if t.start >= clause[0].start and t.sentence == clause[0].sentence]
        theirs = list(itertools.takewhile(lambda t: t.norm not in _FIRST_PERSON | _WE, rest))
        if _has_phrase([t.norm for t in theirs], _REASONS):
            reasoned.append((theirs[0].start, theirs[-1].end))
    return tuple(granted + reasoned)


def change_made(analysis: Analysis) -> Spans:
    """ "I" changed how something is done: "I started", "I rewrote", "now I", "I asked for
    examples, then rewrote the doc"."""
    found = []
    doer_said: set[int] = set()  # sentences where "I" is the subject, for "..., then rewrote it"
    for c in _clauses(analysis):
        norms = _norms(c)
        if any(n in _DOER for n in norms):
            doer_said.add(c[0].sentence)
        elided = norms[0] in _THEN and len(c) > 1 and c[1].stem in _CHANGED and c[0].sentence in doer_said
        if elided or any(n in _DOER and c[i + 1].stem in _CHANGED for i, n in enumerate(norms[:-1])):
            found.append(_span(c))
    return tuple(found)


def owns_fault(analysis: Analysis) -> Spans:
    """The candidate names a mistake as their own: "my mistake", "I assumed", "I should have"."""
    return tuple(_span(c) for c in _clauses(analysis) if _has_phrase(_norms(c), _FAULT))


def positions(analysis: Analysis) -> Spans:
    """Two sides: someone else wanted one thing ("our PM wanted to launch everywhere") and then
    the candidate saw it otherwise ("I thought it would hurt discovery", "I'd seen the
    false-positive rate", "my concern was")."""
    clauses = _clauses(analysis)
    theirs = next((k for k, c in enumerate(clauses) if _wants(c)), None)
    if theirs is None:
        return ()
    words = [t for c in clauses[theirs:] for t in c]
    for i, token in enumerate(words):
        view = next((t for t in words[i + 1 : i + 3] if t.stem in _VIEWS), None)
        if token.norm in _FIRST_PERSON and view is not None:
            return (_span(clauses[theirs]), (token.start, view.end))
    for clause in clauses[theirs + 1 :]:
        if _has_phrase(_norms(clause), _VIEW_NOUNS):
            return (_span(clauses[theirs]), _span(clause))
    return ()


def _wants(clause: Clause) -> bool:
    """Someone other than the candidate wants or proposes something in ``clause``."""
    return any(
        token.stem in _OTHERS
        and token.norm not in _FIRST_PERSON | _WE
        and any(t.stem in _WANTED for t in clause[i + 1 : i + 3])
        for i, token in enumerate(clause[:-1])
    )


def finding(analysis: Analysis) -> Spans:
    """What an investigation found: after "I" or "we" looked into it ("I profiled it", "we
    diffed the features"), a clause that is not another step of theirs states what was there
    ("most of the time was recomputing embeddings", "the model had learned the scanner text")."""
    clauses = _clauses(analysis)
    for k, clause in enumerate(clauses):
        looked = any(t.norm in _DOER | _WE for t in clause) and any(t.stem in _INVESTIGATE for t in clause)
        if not looked:
            continue
        for later in clauses[k + 1 : k + 4]:
            if any(t.norm in _FIRST_PERSON | _WE for t in later[:2]):
                continue  # another step, or the fix
            if len(later) >= 3:
                return (_span(clause), _span(later))
    return ()


def took_on(analysis: Analysis) -> Spans:
    """The candidate took on something that was not theirs: the answer says whose it was not
    ("it wasn't my system", "nobody owned it") and that they stepped in ("I offered to fix it")."""
    clauses = _clauses(analysis)
    not_mine = [_span(c) for c in clauses if _has_phrase(_norms(c), _NOT_MINE)]
    stepped = [_span(c) for c in clauses if _has_phrase(_norms(c), _TOOK_ON)]
    return (not_mine[0], stepped[0]) if not_mine and stepped else ()


def decider(analysis: Analysis) -> Spans:
    """Who had to decide and on what: a role that decides and a deciding verb in one clause ("the
    claims director wanted more claims flagged", "I needed the CFO to approve the budget")."""
    return tuple(
        _span(c)
        for c in _clauses(analysis)
        if any(t.stem in _DECIDERS for t in c) and any(t.stem in _DECIDING for t in c)
    )


def their_terms(analysis: Analysis) -> Spans:
    """The jargon set aside for the listener's own terms: the candidate sets something aside
    ("rather than talk about architectures, I showed", "I didn't lead with a ROC curve") with
    money, time, customers or risk in that sentence or the next."""
    clauses = _clauses(analysis)
    found = []
    for k, c in enumerate(clauses):
        if not _has_phrase(_norms(c), _SET_ASIDE):
            continue
        # the candidate sets it aside, in this clause or the next of the sentence
        own = [t for d in clauses[k : k + 2] for t in d if t.sentence == c[0].sentence]
        if not any(t.norm in _FIRST_PERSON for t in own):
            continue
        near = [t for d in clauses for t in d if c[0].sentence <= t.sentence <= c[0].sentence + 1]
        if any(t.stem in _THEIR_TERMS for t in near):
            found.append(_span(c))
    return tuple(found)


FEATURES: dict[StoryFeature, Callable[[Analysis], Spans]] = {
    "result-figure": result_figure,
    "own-action": own_action,
    "setting": setting,
    "proposal": proposal,
    "evidence": evidence,
    "reflection": reflection,
    "acknowledges": acknowledges,
    "change-made": change_made,
    "owns-fault": owns_fault,
    "positions": positions,
    "finding": finding,
    "took-on": took_on,
    "decider": decider,
    "their-terms": their_terms,
}
"""Every feature a point may name in ``shows``, each with what it looks for."""


def shown(features: Sequence[StoryFeature], analysis: Analysis) -> tuple[float, Spans]:
    """The share of ``features`` the answer has, and the clauses that show them."""
    if not features:
        return 0.0, ()
    spans: list[tuple[int, int]] = []
    have = 0
    for name in features:
        found = FEATURES[name](analysis)
        have += bool(found)
        spans.extend(found)
    return have / len(features), tuple(sorted(set(spans)))
