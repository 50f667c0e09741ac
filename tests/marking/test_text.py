from viva.marking.points import match, target
from viva.marking.terms import analyse
from viva.marking.text import stem, tokenize


def test_offsets_point_at_the_original_characters() -> None:
    text = "Decode is Memory-bound."
    assert [text[t.start : t.end] for t in tokenize(text)] == ["Decode", "is", "Memory", "bound"]


def test_spelled_out_numbers_become_digits() -> None:
    norms = [t.norm for t in tokenize("sixteen bit and one hundred and twelve GB, twenty four layers")]
    assert norms[:2] == ["16", "bit"]
    assert "112" in norms and "24" in norms


def test_number_spans_cover_all_their_words() -> None:
    text = "about one hundred and twelve gigs"
    token = next(t for t in tokenize(text) if t.norm == "112")
    assert text[token.start : token.end] == "one hundred and twelve"


def test_glued_units_are_split() -> None:
    assert [t.norm for t in tokenize("80gb on an H100")][:2] == ["80", "gb"]
    assert "h100" in [t.norm for t in tokenize("80gb on an H100")]


def test_fillers_are_marked_not_dropped() -> None:
    tokens = tokenize("um so basically it's you know memory bound")
    fillers = {t.norm for t in tokens if t.filler}
    assert {"um", "basically", "you", "know"} <= fillers
    assert not next(t for t in tokens if t.norm == "memory").filler


def test_stem_is_snowball_and_leaves_mixed_tokens() -> None:
    assert stem("batching") == stem("batched")
    assert stem("fp16") == "fp16"


def test_a_possessive_stems_as_its_word_and_a_tokenizer_is_not_a_token() -> None:
    assert stem("application's") == stem("application") == stem("applications")
    assert stem("model’s".replace("’", "'")) == stem("model")
    assert stem("doesn't") == "doesn't"  # a contraction is not a possessive
    assert stem("tokenizer's") == stem("tokenization") == stem("tokenise") != stem("tokens")


def test_sentences_are_counted() -> None:
    tokens = tokenize("One. Two three! Four")
    assert [t.sentence for t in tokens] == [0, 1, 1, 2]


def test_a_number_with_thousands_separators_is_one_number() -> None:
    tokens = tokenize("a context of 32,768 tokens, 1,000 users, then 12GB")
    assert [t.norm for t in tokens if t.norm[0].isdigit()] == ["32768", "1000", "12"]
    assert len({t.clause for t in tokens if t.norm in ("of", "32768", "tokens")}) == 1


def test_a_comma_between_other_digits_still_separates() -> None:
    tokens = tokenize("stages 1,2 and 3")
    assert [t.norm for t in tokens][:3] == ["stages", "1", "2"]
    assert tokens[1].clause != tokens[2].clause


def test_maths_symbols_are_the_words_said_for_them() -> None:
    text = "1 − ρ² and σ²/δ²"
    tokens = tokenize(text)
    spoken = "1 minus rho squared and sigma squared delta squared"
    assert [t.norm for t in tokens] == spoken.split()
    assert text[tokens[2].start : tokens[2].end] == "ρ"


def test_a_typed_formula_meets_the_spoken_point() -> None:
    point = target("Variance falls by a factor of one minus rho squared.", frozenset())
    typed = match(point, analyse("CUPED cuts the variance by a factor of 1 − ρ²."))
    spoken = match(point, analyse("CUPED cuts the variance by a factor of one minus rho squared."))
    assert typed.coverage == spoken.coverage > 0.8


def test_a_line_break_inside_a_sentence_keeps_the_clause() -> None:
    tokens = tokenize("it won't\nhold for new patients\n\nnext")
    assert tokens[0].clause == tokens[3].clause != tokens[-1].clause


def test_a_spoken_decimal_is_one_number() -> None:
    """A transcript says "point oh nine" for 0.09; "at that point two things happen" has no
    decimal in it, and "oh" outside a decimal is a word."""
    norms = [t.norm for t in tokenize("roughly point oh nine, one point five and zero point two four")]
    assert norms == ["roughly", "0.09", "1.5", "and", "0.24"]
    assert [t.norm for t in tokenize("at that point two things happen, oh no")][2:4] == ["point", "2"]
    row = target("The row comes out as 0.09, 0.24 and 0.67.", frozenset())
    spoken = "you get roughly point oh nine, point two four five, point six six five"
    assert match(row, analyse(spoken)).coverage >= 0.6  # each figure said; "row", "comes" not


def test_hundreds_said_without_hundred_are_one_number() -> None:
    """People say 989 as "nine eighty nine" and 256 as "two fifty six"; a transcript keeps the
    words. "Twenty one" stays 21, and a comma keeps "one, twenty" two numbers."""
    norms = [t.norm for t in tokenize("nine eighty nine teraflops over two fifty six, one twelve")]
    assert norms == ["989", "teraflops", "over", "256", "112"]
    assert [t.norm for t in tokenize("twenty one layers, one, twenty")] == ["21", "layers", "1", "20"]
    ridge = target("The ridge point is about 295 FLOPs per byte.", frozenset())
    assert match(ridge, analyse("the ridge point is about two ninety five flops per byte")).coverage == 1.0


def test_a_name_said_as_letters_and_a_number_is_one_word() -> None:
    """A transcript says "h one hundred" for H100 and "bf sixteen" for BF16; only the numbers
    such names use join, so "p = six" keeps its six."""
    norms = [t.norm for t in tokenize("an h one hundred in bf sixteen, p ninety nine, l two, p six")]
    assert norms == ["an", "h100", "in", "bf16", "p99", "l2", "p", "6"]
    point = target("Use BF16 on an H100.", frozenset())
    assert match(point, analyse("use bf sixteen on an h one hundred")).coverage == 1.0
