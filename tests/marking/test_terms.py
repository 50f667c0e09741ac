import pytest

from viva.marking.terms import analyse


def _keys(text: str) -> list[frozenset[str]]:
    return [t.keys for t in analyse(text).content_terms()]


def test_synonyms_share_a_concept_key() -> None:
    assert "#half-precision" in _keys("sixteen bit")[0]
    assert "#half-precision" in _keys("BF16")[0]
    assert "#memory-bandwidth" in _keys("HBM")[0]
    assert "#memory-bandwidth" in _keys("memory bandwidth")[0]
    assert "#kv-cache" in _keys("the KV cash")[0]


def test_recogniser_slip_is_corrected() -> None:
    assert "#arithmetic-intensity" in _keys("flops per bite")[0]


def test_negation_reaches_the_next_words_but_not_the_next_clause() -> None:
    terms = analyse("decode is not memory bound, it is compute bound").content_terms()
    assert [(t.stem, t.negated) for t in terms] == [
        ("decod", False),
        ("memori bound", True),
        ("comput bound", False),
    ]


@pytest.mark.parametrize("joint", ["but", "because", "so", "whereas", "although"])
def test_a_clause_word_ends_a_negation_without_a_comma(joint: str) -> None:
    """Saying "not compute bound but memory bound" denies compute-bound only."""
    terms = analyse(f"decode is not compute bound {joint} memory bound").content_terms()
    assert [(t.stem, t.negated) for t in terms][1:] == [("comput bound", True), ("memori bound", False)]


def test_a_pronoun_the_verb_takes_as_object_keeps_the_negation_going() -> None:
    """ "Doesn't make it more robust" denies robustness; "not compute bound it is memory bound",
    said without a comma, still starts a new clause at "it"."""
    robust = analyse("repetition doesn't make it more robust").content_terms()
    assert [t.negated for t in robust if t.stem == "robust"] == [True]
    spoken = analyse("decode is not compute bound it is memory bound").content_terms()
    assert [(t.stem, t.negated) for t in spoken][1:] == [("comput bound", True), ("memori bound", False)]
    assert [t.negated for t in analyse("the cache is nowhere near full").content_terms()][-1]


def test_contractions_and_rather_than_negate() -> None:
    assert analyse("it doesn't fit").content_terms()[0].negated
    assert [t.negated for t in analyse("keep it in sram rather than hbm").content_terms()] == [
        False,
        False,
        True,
    ]


def test_antonyms_are_attached() -> None:
    term = analyse("compute-bound").content_terms()[0]
    assert "#memory-bound" in term.anti


def test_no_denies_the_noun_not_where_it_comes_from() -> None:
    """ "No autocorrelation from time series" says nothing against time series; "of", "to" and
    "for" stay inside the denial ("no sign of overfitting", "no need to scale the loss")."""

    def denied(text: str) -> list[str]:
        return [t.surface for t in analyse(text).content_terms() if t.negated]

    assert denied("no autocorrelation from time series or repeated measures") == ["autocorrelation"]
    assert denied("without padding in the batch") == ["padding"]
    assert denied("no sign of overfitting") == ["sign", "overfitting"]
    assert denied("there is no need to scale the loss") == ["need", "scale", "loss"]


def test_a_denial_before_a_new_subject_or_an_article_denies_nothing_after_it() -> None:
    """A transcript drops the comma or full stop after a denial: "it gets nothing it's counted
    twice" still counts it, and "no the moments stay" is a reply; a denied noun stays denied."""

    def denied(text: str) -> list[str]:
        return [t.surface for t in analyse(text).content_terms() if t.negated]

    assert denied("it gets nothing it's counted as a false positive") == []
    assert denied("no the adam moments stay in fp32") == []
    assert denied("no you can initialise the biases to zero") == []
    assert denied("no dropout at inference") == ["dropout"]
    assert denied("not the weights but the activations") == ["weights"]
    assert denied("nothing changes in the loss") == ["changes", "loss"]


def test_a_word_inside_a_term_is_no_lesson() -> None:
    """ "Learned" ends a story with its lesson; the "learn" in "learning rate" is not one."""
    assert "#lesson" in analyse("what I learned").content_terms()[0].keys
    rate = analyse("I tuned the learning rate").content_terms()
    assert not any("#lesson" in t.keys or any("#lesson" in p for p in t.parts) for t in rate)
