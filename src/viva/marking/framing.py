"""Words an answer quotes in order to reject them: "people often assume X", "a common mistake is X".

A correct answer often names the wrong idea before it sets it right ("People assume RoPE
extrapolates. It doesn't."). Its words are the misconception's words in the misconception's
order, so without this a marker would hear the candidate assert what they reject. A *frame*
marks what follows as someone else's belief or a known mistake; its *scope* runs to the end
of the sentence or to the first contrast word ("but", "however"), where the candidate's own
view starts.

Some frames say so on their own ("a common mistake is", "people assume", "people usually
read it as", "it's tempting to think"). Others are only a rejection when one follows ("it
looks like X, but ...", "the idea that X is wrong", "you might expect X. It doesn't."), since
"it looks like overfitting" is also how a candidate states their own diagnosis. A few
rejections follow what they reject: "X would be a mistake", "X ..., so I wouldn't go with
that", and a practice named as the subject of its own failure ("multiplying the probabilities
underflows"). Words in quotation marks are mentioned, not asserted, and so is what an opening
"unlike X, where ...," says of X. A yes/no question the answer asks itself and answers "no"
("Is it really about convexity? Not in my experience.") denies what it asks.

What a frame covers is no evidence *against* the candidate: it asserts no misconception and
contradicts no point (:func:`viva.marking.terms.unframed`). A practice named as a mistake may
still earn a point, since "a classic bug is zeroing the gradients every micro-batch" says what
the bug is; a claim reported only to be denied ("people say X, but that's a myth",
:func:`disbelieved`) earns none, since the answer says it is false.
"""

from __future__ import annotations

import functools
import re

Spans = tuple[tuple[int, int], ...]

_BELIEF_NOUNS = r"(?:misconception|myth|fallacy|misreading|misunderstanding|misbelief)"
_WRONG_NOUNS = rf"(?:mistake|{_BELIEF_NOUNS})"
_QUALIFIED_NOUNS = r"(?:bug|trap|pitfall|gotcha|anti-?pattern|error)"
_QUALIFIERS = (
    r"(?:common|classic|frequent|typical|usual|standard|well-known|big|easy|subtle|rookie|beginner's)"
)
_BELIEVE = (
    r"(?:say|think|assume|believe|claim|expect|argue|conclude|suggest|worry|guess|reach\s+for|jump\s+to"
    r"|treat|conflate|confuse|equate|mix\s+up)"
)
# Who holds a belief the answer reports, and how often: "many people usually ..."
_PEOPLE = r"(?:(?:many|some|most|a\s+lot\s+of)\s+)?(?:people|folks|candidates|beginners|newcomers|others)"
_HOW_OFTEN = (
    r"(?:often\s+|usually\s+|commonly\s+|sometimes\s+|tend\s+to\s+|will\s+|might\s+|may\s+|would\s+)?"
)
_READINGS = (
    r"(?:answer|reading|assumption|conclusion|view|instinct|take|explanation|guess|interpretation"
    r"|response|intuition|thought|story|diagnosis|fix)"
)


def _named_wrong(nouns: str) -> str:
    """ "a common mistake is X", "the myth here is that X"."""
    return (
        rf"\b(?:(?:a|an|the|one|another)\s+)?(?:{_QUALIFIERS}\s+)?{nouns}s?\s+(?:here\s+|people\s+make\s+)?"
        rf"(?:is|are|would\s+be|was)\b(?:\s+(?:to|that|thinking|assuming|believing))?"
    )


# Frames that name a wrong practice on their own: "a common mistake is to skip loss scaling",
# "a classic bug is zeroing the gradients every micro-batch". What they cover may be the very
# practice a point names.
_MISTAKES = re.compile(
    "|".join(
        [
            _named_wrong("mistake"),
            rf"\b(?:(?:a|an|one|another)\s+)?{_QUALIFIERS}\s+{_QUALIFIED_NOUNS}s?\s+(?:here\s+)?(?:is|are)\b"
            r"(?:\s+(?:to|that))?",
        ]
    ),
    re.IGNORECASE,
)
# Frames that mark what follows as a belief the answer rejects, on their own.
_STRONG = re.compile(
    "|".join(
        [
            _named_wrong(_BELIEF_NOUNS),
            rf"\b{_PEOPLE}\s+{_HOW_OFTEN}{_BELIEVE}(?:s|ed)?\b(?:\s+that)?",
            # "people usually read it as X", "many take this to mean X"
            rf"\b(?:{_PEOPLE}|many|most)\s+{_HOW_OFTEN}"
            r"(?:mis)?(?:read|take|interpret)s?\s+(?:it|this|that|them|these|the\s+\w+)\s+(?:as|to\s+mean)\b(?:\s+that)?",
            r"\bsome\s+(?:would|might|will)\s+(?:say|argue|claim)\b(?:\s+that)?",
            r"\bi\s+used\s+to\s+(?:think|believe|assume)\b(?:\s+that)?",
            r"\b(?:you|we|one|i)\s+(?:can['’]t|cannot|can\s+not|shouldn['’]t|should\s+not|mustn['’]t)\s+"
            r"(?:\w+ly\s+)?(?:say|claim|conclude|assume|infer)\b(?:\s+that)?",
            rf"\b(?:the\s+|a\s+)?(?:naive|tempting|intuitive|knee-jerk|lazy|wrong|mistaken|textbook-wrong)"
            rf"\s+{_READINGS}\s+(?:here\s+)?(?:is|would\s+be)\b(?:\s+that|\s+to)?",
            r"\bit(?:'s|’s|\s+is|\s+would\s+be)\s+tempting\s+to\s+(?:(?:think|say|assume|conclude|believe|read\s+\w+\s+as)"
            r"\b(?:\s+that)?)?",
            r"\b(?:contrary\s+to|despite)\s+(?:the\s+|a\s+)?(?:popular|common|widespread|usual|folk)?\s*"
            r"(?:belief|view|intuition|assumption|wisdom|myth)\b(?:\s+that)?",
        ]
    ),
    re.IGNORECASE,
)

# Frames that reject only when a rebuttal follows (see _REBUTTAL and _REBUTTAL_NEXT).
_WEAK = re.compile(
    "|".join(
        [
            r"\bit\s+(?:looks|seems|sounds|might\s+look|may\s+look|can\s+look|might\s+seem|may\s+seem|can\s+seem)"
            r"(?:\s+like|\s+as\s+if|\s+as\s+though)?\b",
            r"\bat\s+first\s+(?:glance|sight)\b",
            r"\bon\s+the\s+surface\b",
            r"\byou(?:\s+(?:might|may|could|would)|['’]d)\s+(?:naively\s+)?(?:think|assume|expect|guess|believe)\b"
            r"(?:\s+that)?",
            # "you'll hear that X" ("it's often described as X" is _REPORTED)
            r"\byou(?:['’]ll|\s+will|\s+often|\s+usually)\s+(?:hear|read|see\s+it\s+said)\b(?:\s+that)?",
            # "most people start from X", "everyone reaches for X", "people get hung up on X"
            rf"\b(?:{_PEOPLE}|everyone|everybody|(?:some|many|most)\s+teams)\s+{_HOW_OFTEN}(?:always\s+)?"
            r"(?:like\s+to|insist|blame|go\s+straight\s+to|start\s+(?:from|with)|get\s+hung\s+up\s+on"
            r"|reach(?:es)?\s+for|jump(?:s)?\s+to|default\s+to)\b(?:\s+that)?",
            r"\b(?:the\s+)?(?:first\s+)?instinct\s+is\b(?:\s+to|\s+that)?",
            r"\b(?:the\s+)?(?:usual|standard|common|textbook|classic|typical)\s+"
            r"(?:line|description|recipe|advice|claim|story|explanation|definition)\s+(?:is|says)\b(?:\s+that|\s+to)?",
            # "the usual answer is X" is as often the candidate's own answer: only with a rebuttal
            rf"\b(?:the\s+)?(?:obvious|first|easy|natural|common|usual)\s+{_READINGS}\s+(?:here\s+)?(?:is|would\s+be)\b"
            r"(?:\s+that|\s+to)?",
            r"\b(?:the\s+)?(?:idea|assumption|belief|claim|notion|intuition|argument)\s+that\b",
            # someone else's view the candidate sets against their own: "a colleague always insists X",
            # "my course made a big deal of X", "textbooks like to say X", "in theory X, but"
            r"\b(?:(?:my|our|a|the)\s+(?:old\s+)?(?:course|professor|textbook|manager|colleague|lecturer|boss|team)"
            r"(?:\s+of\s+mine)?|textbooks|the\s+docs|papers|courses)\s+(?:\w+\s+)?(?:like\s+to\s+|used\s+to\s+|always\s+)?"
            r"(?:say|says|said|claim|claims|insist|insists|blame|blamed|made\s+a\s+big\s+deal\s+of|drilled\s+into\s+us)\b"
            r"(?:\s+that)?",
            r"\bin\s+theory\b(?:\s+you\s+could\s+(?:argue|say)(?:\s+that)?)?",
            # a sentence after the first keeps its leading space
            r"^\s*(?:thinking|assuming|believing|saying|claiming)\b(?:\s+that)?",
            r"\b(?:the\s+)?(?:common|usual|standard|popular|conventional|folk)\s+wisdom\s+(?:is|says)\b(?:\s+that)?",
        ]
    ),
    re.IGNORECASE,
)

# Where a frame's scope ends inside its sentence: the candidate's own view starts.
_TURN = re.compile(
    r"\b(?:but|however|whereas|yet|although|though|instead|in\s+fact|actually)\b", re.IGNORECASE
)
_REBUTTAL = re.compile(
    r"\b(?:but|however|yet|actually|in\s+fact|in\s+reality|whereas|wrong|false|untrue|backwards|misleading"
    r"|a\s+mistake|the\s+mistake|a\s+myth|not\s+true|isn['’]t\s+true|not\s+the\s+case|isn['’]t\s+the\s+case"
    r"|(?:is|are)\s+really\s+(?:a|an|the|about|just)"
    r"|doesn['’]t\s+hold|does\s+not\s+hold)\b",
    re.IGNORECASE,
)
_REBUTTAL_NEXT = re.compile(
    r"^\W*(?:no\b|nope\b|not\s+(?:so|quite|really|true|exactly|at\s+all)\b|wrong\b|actually\b|in\s+(?:fact|reality)\b"
    r"|it\s+(?:doesn['’]t|does\s+not|isn['’]t|is\s+not|won['’]t|can['’]t|cannot)\b"
    r"|they\s+(?:don['’]t|do\s+not|aren['’]t|are\s+not|won['’]t|can['’]t)\b"
    r"|(?:that|this)(?:['’]s|\s+is)\s+(?:wrong|not|false|a\s+mistake|backwards|only|the\s+mistake|misleading)\b"
    r"|it(?:['’]s|\s+is)\s+(?:the\s+)?(?:reverse|opposite|other\s+way)\b|the\s+(?:reverse|opposite)\s+is\s+true\b"
    r"|quite\s+the\s+(?:opposite|reverse)\b)",
    re.IGNORECASE,
)
# Post-frames: what comes before them in the clause is the rejected belief; so is what comes
# before "(so) I wouldn't go with that" in its sentence.
_AFTER = re.compile(
    rf"(?:,\s*which\s+)?\b(?:is|are|was|would\s+be)\s+(?:a|an|the)\s+(?:{_QUALIFIERS}\s+)?{_WRONG_NOUNS}\b"
    r"|\bwould\s+be\s+(?:wrong|a\s+mistake|a\s+bad\s+idea|misleading)\b"
    r"|\b(?:i|we)(?:['’]d)?\s+(?:wouldn['’]t|would\s+not|won['’]t|don['’]t|do\s+not|never)\s+"
    r"(?:go\s+with|use|pick|choose|trust|recommend|rely\s+on|do)\s+(?:that|it|this|them|those)\b",
    re.IGNORECASE,
)
# A post-frame denying a claim: "the usual line is X, but that's a myth", "people say X, but
# that's not really true". What comes before it in its sentence is the rejected belief.
_DENIED = re.compile(
    r"\bbut\s+(?:that|this)(?:['’]s|\s+is)\s+(?:(?:kind\s+of|sort\s+of|really|just|actually|simply)\s+)?"
    rf"(?:(?:a|an|the)\s+(?:{_QUALIFIERS}\s+)?{_WRONG_NOUNS}|wrong|backwards|outdated|false|untrue|misleading"
    r"|not\s+(?:really\s+|quite\s+)?(?:true|right|correct|the\s+case|the\s+(?:real\s+)?(?:issue|problem|cause)))\b"
    # "the idea that X is kind of a myth": a belief named as one; "X is overrated / a red herring"
    r"|\b(?:is|are|was)\s+(?:(?:kind\s+of|sort\s+of|really|just|actually|simply|largely|honestly|mostly|a\s+bit(?:\s+of)?)\s+)?"
    rf"(?:(?:a|an|the)\s+(?:{_QUALIFIERS}\s+)?{_BELIEF_NOUNS}|overrated|overblown|a\s+red\s+herring|a\s+crutch"
    r"|old\s+advice|beside\s+the\s+point|a\s+(?:gross\s+)?(?:over)?simplification|oversimplified)\b",
    re.IGNORECASE,
)
# "Shadow mode sounds safe, but ...": what the sentence opens with is set aside for what follows.
_SOUNDS = re.compile(
    r"^\s*(?P<said>[^,;:.!?]{3,60}?)\s+(?:sounds|seems|looks|feels)\s+(?:like\s+)?(?:a\s+|the\s+)?"
    r"(?:safe|safer|reasonable|sensible|natural|obvious|appealing|tempting|attractive|simpler|easier"
    r"|(?:right|obvious|natural)\s+(?:answer|fix|choice|move))\b[^,;:.!?]{0,20},?\s+but\b",
    re.IGNORECASE,
)
# "PCA is often described as X, but ...", "it's commonly said that X": a report of how others
# put it, said of the clause's subject, so it need not open the clause; a rejection only when a
# rebuttal follows.
_REPORTED = re.compile(
    r"(?:['’]s|\b(?:is|are))\s+(?:often|usually|commonly|widely|sometimes|typically)\s+"
    r"(?:said|described|presented|explained|taught|thought|assumed|believed|claimed|framed|sold)\b"
    r"(?:\s+(?:as|that|to\s+be))?",
    re.IGNORECASE,
)
# A practice named as the subject of its own failure: "multiplying probabilities underflows",
# "averaging over the pads biases it". What opens the clause, up to the verb, is rejected.
_FAILS = re.compile(
    r"(?:^|(?<=[,:;—(])|(?<=\band\s)|(?<=\bbut\s)|(?<=\bso\s)|(?<=\bbecause\s)|(?<=\bsince\s))\s*"
    r"(?P<practice>(?!(?:during|nothing|something|everything|anything|thing|string|morning)\b)[a-z]+ing\b[^,;:.!?]*?)"
    r"\s+(?:underflows?|overflows?|fails?|breaks?|biases|skews?|leaks?|wastes?|diverges?|explodes?|misleads?"
    r"|(?:is|would\s+be)\s+(?:wrong|biased|a\s+bug)|(?:doesn['’]t|does\s+not|won['’]t|will\s+not)\s+work)\b",
    re.IGNORECASE,
)
# Words in quotation marks are mentioned, not asserted: the model "learned 'longer is better'".
# Two words at least, so a scare-quoted term ("is 'significant'") stays the answer's own.
_QUOTED = re.compile(
    r"(?:(?<=\s)|^)(?:'|‘|\"|“)(?P<said>[^'‘’\"“”\n]*?\w\s+\w[^'‘’\"“”\n]*?)(?:'|’|\"|”)(?!\w)"
)
# "Unlike X, where/which ..., Y": what the opening phrase says, it says of the other thing X,
# which the answer sets aside; the candidate's own claim starts after its closing comma.
_UNLIKE = re.compile(
    r"\bunlike\s+(?P<said>[^,;:.!?]+?(?:,\s*(?:where|which|whose|in\s+which|that|who)\b[^,;:.!?]+)?)\s*,",
    re.IGNORECASE,
)
# A yes/no question the answer puts to itself and then answers "no": "Is it really about
# convexity? Not in my experience." The question's claim is denied.
_ASKED = re.compile(
    r"^\s*(?:so\s+|but\s+|and\s+)?(?:is|are|was|were|does|do|did|can|could|would|should|will|has|have)\b"
    r"[^?]*\?\s*$",
    re.IGNORECASE,
)
_NO = re.compile(
    r"^\W*(?:no\b|nope\b|nah\b|hardly\b|rarely\b"
    r"|not\s+(?:really|in\s+my\s+experience|much|at\s+all|necessarily|quite|usually|always)\b)",
    re.IGNORECASE,
)
# a decimal point ("2.1") does not end a sentence
_SENTENCE = re.compile(r"(?:[^.!?;\n]|\.(?=\d))+(?:[.!?;]+|\n|$)")


def _sentences(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]


def _at_clause_start(sentence: str, at: int) -> bool:
    """Whether a frame found at ``at`` opens the sentence or one of its clauses."""
    before = sentence[:at].rstrip()
    if not before.strip(" \"'“‘("):
        return True
    opens = r"(?:[,:;—(]|\b(?:and|so|but|because|since|here|well|honestly|now))$"
    return bool(re.search(opens, before, re.IGNORECASE))


def _after(sentence: str, frame: re.Match[str]) -> tuple[int, int]:
    """What a frame covers: from its end to the first turn of its sentence ("but", "however")."""
    turn = _TURN.search(sentence, frame.end())
    return frame.end(), turn.start() if turn else len(sentence)


def _before(sentence: str, frame: re.Match[str]) -> tuple[int, int]:
    """What a post-frame covers: its clause before it, from the last turn of its sentence."""
    starts = [m.end() for m in _TURN.finditer(sentence, 0, frame.start())]
    return starts[-1] if starts else 0, frame.start()


def _said(frame: re.Match[str]) -> tuple[int, int]:
    return frame.span("said")


def _opening(pattern: re.Pattern[str], sentence: str) -> list[re.Match[str]]:
    """The frames of ``pattern`` that open ``sentence`` or one of its clauses."""
    return [f for f in pattern.finditer(sentence) if _at_clause_start(sentence, f.start())]


def _rebutted(frame: re.Match[str], sentence: str, following: str) -> bool:
    """Whether a rebuttal follows the frame in its sentence or opens the next one."""
    return bool(_REBUTTAL.search(sentence[frame.end() :]) or _REBUTTAL_NEXT.search(following))


@functools.lru_cache(maxsize=4096)
def rejected(text: str) -> Spans:
    """Character spans of ``text`` that a frame marks as a belief or practice the answer rejects."""
    found = list(disbelieved(text))
    for s0, s1 in _sentences(text):
        sentence = text[s0:s1]
        spans = [_after(sentence, f) for f in _opening(_MISTAKES, sentence)]
        spans += [_before(sentence, f) for f in _AFTER.finditer(sentence)]
        spans += [f.span("practice") for f in _FAILS.finditer(sentence)]
        spans += [_said(f) for f in _opening(_UNLIKE, sentence)]
        found += [(s0 + a, s0 + b) for a, b in spans]
    found.extend(_said(m) for m in _QUOTED.finditer(text))
    return tuple(sorted({(a, b) for a, b in found if b > a}))


@functools.lru_cache(maxsize=4096)
def disbelieved(text: str) -> Spans:
    """The part of :func:`rejected` that reports a claim the answer denies ("people assume X",
    "X, but that's a myth"). Not a practice named as a mistake, nor words quoted, which may be
    the very thing a point names ("a classic bug is zeroing the gradients every micro-batch",
    "multiplying probabilities underflows"); nor what "unlike X, which ..." says of X, which is
    true of X."""
    found: list[tuple[int, int]] = []
    sentences = _sentences(text)
    for k, (s0, s1) in enumerate(sentences):
        sentence = text[s0:s1]
        following = text[sentences[k + 1][0] : sentences[k + 1][1]] if k + 1 < len(sentences) else ""
        weak = [*_opening(_WEAK, sentence), *_REPORTED.finditer(sentence)]
        spans = [_after(sentence, f) for f in _opening(_STRONG, sentence)]
        spans += [_after(sentence, f) for f in weak if _rebutted(f, sentence, following)]
        spans += [_said(f) for f in _SOUNDS.finditer(sentence)]
        spans += [_before(sentence, f) for f in _DENIED.finditer(sentence)]
        asked = _ASKED.match(sentence)
        if asked and _NO.match(following):
            spans.append((asked.start(), asked.end()))
        found += [(s0 + a, s0 + b) for a, b in spans]
    return tuple(sorted((a, b) for a, b in found if b > a))


def inside(spans: Spans, start: int, end: int) -> bool:
    """Whether characters ``start:end`` lie within one of ``spans``."""
    return any(a <= start and end <= b for a, b in spans)
