import pytest

from viva.marking.lexical import prompt_keys
from viva.marking.points import ClaimMatch, claim_credit, clauses, mark_claims, match, target
from viva.marking.terms import analyse, distinct_concepts

NONE: frozenset[str] = frozenset()


def _said(claim: str, answer: str) -> ClaimMatch:
    """How ``answer`` matches ``claim``, with no question words demoted."""
    return match(target(claim, NONE), analyse(answer))


def test_a_paraphrase_with_synonyms_matches() -> None:
    found = _said("decode is limited by memory bandwidth", "decoding is HBM bound")
    assert found.coverage > 0.4


def test_negated_claim_is_a_contradiction() -> None:
    found = _said("decode is memory-bound", "decode is not memory-bound")
    assert found.contradicted


def test_antonym_is_a_contradiction() -> None:
    found = _said("decode is memory-bound", "decode is compute-bound")
    assert found.contradicted
    assert found.coverage < 1


@pytest.mark.parametrize(
    ("claim", "said"),
    [
        ("e to the 1,000 overflows to infinity", "e to the 1,000 underflows to zero"),
        ("the gradient vanishes", "the gradient explodes"),
        ("k-means++ seeding is random", "k-means++ seeding is deterministic"),
        ("the indicators are dependent", "the indicators are independent"),
    ],
)
def test_the_opposite_of_a_numerical_or_statistical_property_is_a_contradiction(
    claim: str, said: str
) -> None:
    assert _said(claim, said).contradicted
    assert not _said(claim, claim).contradicted


def test_both_said_right_way_round_is_no_contradiction() -> None:
    found = _said("decode is memory-bound", "decode is memory-bound, not compute-bound")
    assert not found.contradicted and found.coverage == 1


def test_evidence_points_at_the_right_words() -> None:
    answer = "Well, at batch one decoding is memory bound because every token reads the weights."
    found = _said("decode is memory-bound", answer)
    quoted = " ".join(answer[s:e] for s, e in found.evidence)
    assert "decoding" in quoted and "memory bound" in quoted
    assert "Well" not in quoted


def test_accepted_phrasing_needs_all_its_words() -> None:
    claims = [
        target("the weights are read once per batch", NONE),
        target("one read of the weights", NONE, accept=True),
    ]
    assert mark_claims(claims, analyse("one read of the weights serves the batch")).status == "covered"
    assert mark_claims(claims[1:], analyse("weights")).status == "missed"


def test_one_word_of_a_short_phrasing_is_no_contradiction() -> None:
    # "weight decay" said plainly elsewhere does not deny "no decay on biases": a contradiction
    # needs more than half of the phrasing's words, as a credit does
    claims = [target("no decay on biases", NONE, accept=True)]
    assert not mark_claims(claims, analyse("AdamW applies weight decay directly to the weights")).contradicted
    assert mark_claims(claims, analyse("apply the decay to the biases as well")).contradicted


def test_a_clause_of_a_long_point_stated_the_other_way_denies_the_point() -> None:
    # "decode is compute-bound" is a small share of the whole point, but all of its first clause
    point = (
        "Decode is memory-bound on both, so it scales with bandwidth, about 1.6 times faster on the MI300X."
    )
    claims = [target(point, NONE, split=True)]
    wrong = mark_claims(
        claims, analyse("Decode is compute-bound on the matmuls, so the extra FLOPs make it faster.")
    )
    assert wrong.contradicted
    assert not mark_claims(
        [target(point, NONE)], analyse("Decode is compute-bound, so it is faster.")
    ).contradicted
    # the clause said the point's way, or its opposite only denied, is no contradiction
    assert not mark_claims(
        claims, analyse("Decode is memory-bound, so it is about 1.6 times faster.")
    ).contradicted
    assert not mark_claims(
        claims, analyse("Decode is not compute-bound; it scales with bandwidth.")
    ).contradicted
    # nor is a clause that only denies ("not only what the team did") denied by saying it
    own = [target("Says what I did myself to find the cause, not only what the team did.", NONE, split=True)]
    both = analyse("The team did the profiling, and I traced the cause to the data loader myself.")
    assert not mark_claims(own, both).contradicted
    # nor is the opposite said of something else
    assert not mark_claims(
        claims, analyse("Prefill is compute-bound; decode scales with bandwidth.")
    ).contradicted


def test_misspelling_still_matches() -> None:
    found = _said("passed by reference", "by refrence")
    assert found.coverage >= 0.5
    assert found.evidence == ((3, 11),)


def test_question_words_weigh_less() -> None:
    plain = target("decode reads the weights", NONE)
    demoted = target("decode reads the weights", frozenset({"decod"}))
    assert demoted.weights[0] < plain.weights[0]


def test_a_figure_said_up_to_rounding_is_the_figure() -> None:
    claim = target("The weights take 14 GB in 16-bit precision.", NONE)
    rounded = match(claim, analyse("in sixteen bit precision the weights take roughly 13.5 GB"))
    other = match(claim, analyse("in sixteen bit precision the weights take 16 GB"))
    assert rounded.coverage == 1.0
    assert other.coverage < rounded.coverage
    binary = _said("about 1,000 tokens per second", "1024 tokens per second")
    assert binary.coverage == 1.0


def test_small_whole_numbers_must_match_exactly() -> None:
    """Bytes per value and bit widths are not rounding: 2 bytes is not 2.1, 8-bit is not 9."""
    claim = target("FP16 stores each value in 2 bytes", NONE)
    assert match(claim, analyse("FP16 stores each value in 2 bytes")).coverage == 1.0
    assert match(claim, analyse("FP16 stores each value in 2.1 bytes")).coverage < 1.0


def test_words_that_python_reads_as_numbers_are_not_figures() -> None:
    claim = target("the loss goes to infinity and then NaN", NONE)
    assert match(claim, analyse("the loss goes to 12 and then 7")).coverage < 0.5


def test_a_denied_opposite_says_the_claim() -> None:
    """ "Loss scaling isn't needed" says "loss scaling is unnecessary": the claim's word is
    absent, but its opposite is there and denied."""
    claim = target("loss scaling is unnecessary in BF16", NONE)
    denied = match(claim, analyse("in BF16 loss scaling isn't needed"))
    assert not denied.contradicted and denied.coverage == 1
    stated = match(claim, analyse("in BF16 loss scaling is still needed"))
    assert stated.contradiction > 0 and stated.coverage < 1


def test_a_question_that_tells_two_names_apart_keeps_them_apart() -> None:
    """FP16 and BF16 share a concept ("half precision"), so elsewhere either stands for the
    other; in a question that contrasts them, "BF16 has 8 exponent bits" is no FP16 claim."""
    answer = analyse("BF16 has 8 exponent bits")
    claim = "FP16 has few exponent bits"
    joined = match(target(claim, NONE), answer)
    apart = match(
        target(claim, NONE, distinct=distinct_concepts("Why does FP16 need loss scaling and BF16 not?")),
        answer,
    )
    assert joined.coverage == 0.75  # all but "few"
    assert apart.coverage == 0.5  # "exponent bits" only
    assert distinct_concepts("What is mixed precision training in FP16?") == NONE
    assert distinct_concepts("Why use RMSNorm rather than LayerNorm?")  # contrasted, no digits


def test_a_quarter_is_the_figure_a_quarter() -> None:
    claim = target("the derivative peaks at 0.25", NONE)
    assert match(claim, analyse("the derivative peaks at a quarter")).coverage == 1
    assert match(claim, analyse("the derivative peaks at a half")).coverage < 1


def test_per_cent_and_percent_are_one_unit_and_percentage_points_another() -> None:
    claim = target("clicks rose 8 per cent", NONE)
    assert match(claim, analyse("clicks rose 8 percent")).coverage == 1
    assert _said("clicks rose 8 percent", "clicks rose 8 per cent").coverage == 1
    assert match(claim, analyse("clicks rose 8 percentage points")).coverage < 1


def test_a_story_lesson_said_in_other_words() -> None:
    claim = target("I learned", NONE)
    for said in ("The lesson: check features online", "what I took away is to ask early", "it taught me"):
        assert match(claim, analyse(said)).coverage == 1, said
    assert match(claim, analyse("I shipped it and moved on")).coverage == 0


def test_a_claim_of_absence_is_said_by_doing_without() -> None:
    """ "Loss scaling is unnecessary" is what "without loss scaling" and "no loss scaling" say."""
    claim = target("Loss scaling is unnecessary in BF16 training.", NONE)
    for said in ("BF16 training works without loss scaling", "BF16 training needs no loss scaling"):
        found = match(claim, analyse(said))
        assert found.coverage >= 0.75 and not found.contradicted, said
    # a present claim negated is still the reverse
    assert match(claim, analyse("BF16 training doesn't make loss scaling unnecessary")).coverage < 0.75


def test_a_claim_of_loss_agrees_with_a_denial() -> None:
    """ "Word order is lost" is what "it doesn't know the order of the words" says; "the order is
    not lost" is still its reverse."""
    claim = target("Without positions the model sees a bag of tokens, so word order is lost.", NONE)
    said = match(claim, analyse("the model doesn't know what order the words came in"))
    assert not said.contradicted and said.coverage > 0.3
    assert match(claim, analyse("the model sees the tokens and word order is not lost")).contradicted


def test_short_and_long_forms_of_one_word() -> None:
    assert _said("stop at the target vocabulary size", "stop at the target vocab size").coverage == 1
    assert _said("e to the 1,000 overflows to infinity", "e to the 1,000 overflows to inf").coverage == 1


def test_a_wrapped_line_is_one_clause_and_a_blank_line_or_list_item_breaks() -> None:
    """Typed answers and the bank's own wrapped texts break lines mid-sentence: a bare line
    break must not split "that's position\\nbias" into two claims."""
    wrapped = analyse("the top slot gets clicks, that's position\nbias")
    assert len(set(clauses(wrapped))) == 1
    assert len(set(clauses(analyse("position\n\nbias")))) == 2
    assert len(set(clauses(analyse("reasons:\n- position\n- bias")))) == 3


def test_a_comma_before_a_new_subject_and_is_ends_a_clause() -> None:
    """ "X is A, Y is B" is two statements; "X is A, which is B" and "X, a kind of Y, is B" one."""
    spliced = clauses(analyse("prefill is compute-bound, decode is memory-bound"))
    assert len(set(spliced)) == 2
    assert len(set(clauses(analyse("it reads every weight, which is slow")))) == 1
    assert len(set(clauses(analyse("PCA, a linear method, is fast")))) == 1


def test_a_direction_word_alone_is_no_evidence() -> None:
    claim = target("It lowers variance.", NONE)
    assert match(claim, analyse("L2 shrinks every weight smoothly towards zero.")).coverage == 0
    assert match(claim, analyse("Turning it up gives lower variance.")).coverage == 1


def test_a_direction_word_contradicts_only_in_a_clause_with_what_the_claim_is_about() -> None:
    claim = target("It raises bias.", NONE)
    elsewhere = match(claim, analyse("It trades variance for bias: less overfitting."))
    assert not elsewhere.contradicted and elsewhere.coverage > 0
    assert match(claim, analyse("It gives less bias.")).contradicted


def test_a_direction_word_is_read_only_beside_what_the_claim_is_about() -> None:
    claim = target("It lowers variance.", NONE)
    # "reduces" is said of bias; of variance the answer says the opposite
    swapped = match(claim, analyse("It reduces bias and increases variance."))
    assert swapped.coverage < 1 and swapped.contradicted
    assert match(claim, analyse("It increases bias and reduces variance.")).coverage == 1


def test_less_of_what_a_claim_says_none_of_neither_makes_nor_denies_it() -> None:
    claim = target("The scores matrix never goes to HBM.", NONE)
    assert not match(claim, analyse("It cuts the traffic to HBM.")).contradicted
    tiles = target("Attention tiles the blocks in SRAM, so the matrix never goes to HBM.", NONE)
    lessened = match(tiles, analyse("It reduces reads and writes to GPU memory by tiling."))
    assert lessened.coverage > 0 and not lessened.contradicted
    stated = match(claim, analyse("The scores matrix goes to HBM and is read back."))
    assert stated.contradicted


def test_a_particle_after_the_object_says_the_direction() -> None:
    """ "scale the learning rate down" reverses "scale the learning rate up", as the joined
    "scale down" does: the particle belongs to its verb, whatever object comes between."""
    claim = "scale the learning rate up with the batch size"
    assert _said(claim, "scale the learning rate up with the batch size").coverage == 1.0
    down = _said(claim, "scale the learning rate down with the batch size")
    assert down.coverage < 1.0 and down.contradiction > 0
    terms = analyse("combining trees brings the bias down").content_terms()
    assert "#decrease" in next(t for t in terms if t.surface == "brings").keys
    for said in ("turn the learning rate down", "turn down the learning rate"):  # either order
        assert "#decrease" in analyse(said).content_terms()[0].keys, said


def test_two_real_words_are_not_a_misspelling_of_each_other() -> None:
    """ "micro" is one letter from "macro", "context" from "content": both words, so neither is
    the other misspelt. A word form the stemmer keeps apart still is ("noisy" for "noise")."""
    claim = target("micro averaging when rare classes matter", NONE)
    assert match(claim, analyse("micro averaging when rare classes matter")).coverage == 1.0
    assert match(claim, analyse("macro averaging when rare classes matter")).coverage < 1.0
    assert _said("the context window", "the content window").coverage < 1.0
    assert _said("noise in the labels", "noisy labels").coverage == 1.0
    assert _said("the accuracy at the threshold", "how accurate at the threshold").coverage == 1.0


def test_a_particle_says_the_direction() -> None:
    """ "up" and "down" are stopwords, so "scaling up" read as "scaling down"; as a phrase the
    particle is the direction, and the other one reverses the claim."""
    claim = target("the logits need scaling up before the softmax", NONE)
    assert match(claim, analyse("the logits need scaling up before the softmax")).coverage == 1.0
    assert match(claim, analyse("the logits need scaling down before the softmax")).contradicted


def test_the_british_spelling_of_a_word_is_a_word() -> None:
    """ "maximises" is "maximizes" spelt the British way, so a word, and not "minimises" misspelt:
    the two differ in more than their ending."""
    assert _said("it minimises the hinge loss", "it minimises the hinge loss").coverage == 1.0
    assert _said("it minimises the hinge loss", "it maximises the hinge loss").coverage < 1.0
    assert _said("it minimises the hinge loss", "it minimizes the hinge loss").coverage == 1.0


def test_a_phrasing_whose_only_content_word_is_a_number_is_said_word_for_word() -> None:
    """ "one after another" is its small words: "combined into a strong one" does not say it."""
    claims = [target("one after another", NONE, accept=True)]
    assert mark_claims(claims, analyse("the trees are built one after another")).status == "covered"
    assert mark_claims(claims, analyse("weak learners combined into a strong one")).status == "missed"


def test_a_denied_effect_does_not_deny_what_it_acts_on() -> None:
    """ "The extension didn't degrade short-context quality" denies the harm, not the quality: it
    says what the phrasing "short-context quality" says. A claim that names the harm itself is
    still reversed by its denial, and a denial that reaches the words first still denies them."""
    quality = target("short context quality", NONE)
    said = match(quality, analyse("I'd confirm the extension didn't degrade short-context quality"))
    assert said.coverage >= 0.99 and not said.contradicted
    harm = target("The extension degrades short-context quality.", NONE)
    assert match(harm, analyse("The extension didn't degrade short-context quality.")).contradicted
    assert match(quality, analyse("It's not short-context quality that matters here")).contradicted


def test_an_opposite_said_anywhere_and_the_claim_nowhere_is_a_contradiction() -> None:
    """The best-matching window must not hide the answer's own words: "for decode that's an
    advantage" matches "decode" cleanly, but the answer says decode is compute-bound and never
    that it is memory-bound. Saying the claim's way anywhere keeps it, and a direction word
    ("drops") is not read against the claim outside its window: it may be said of another
    quantity (tokens per second falls as time per token rises)."""
    claim = target("Decode is memory-bound.", NONE)
    wrong = (
        "For decode that's an advantage: more headroom for compute. Since decode is compute-bound "
        "on the attention matmuls, extra FLOPs give faster token generation."
    )
    assert match(claim, analyse(wrong)).contradicted
    right = wrong + " Sorry, no: decode is memory-bound."
    assert not match(claim, analyse(right)).contradicted
    rises = target("Each step reads more KV cache and does more work, so every user's TPOT rises.", NONE)
    inverse = (
        "Bigger batches share each weight read, so every user's TPOT barely moves at first. "
        "Aggregate throughput climbs while each user drops to maybe 50 tokens per second."
    )
    assert match(rises, analyse(inverse)).contradiction == 0


def test_a_word_for_word_phrasing_reads_through_stress() -> None:
    """ "Independent" is the question's word, so "aren't independent" must be said word for
    word; "they aren't really independent" says it, "really" only stresses it."""
    keys = prompt_keys("The analyst computed the variance as if each page view were independent.")
    phrasing = target("aren't independent", keys, accept=True)
    assert match(phrasing, analyse("Page views from one user aren't really independent.")).coverage == 1.0
    assert match(phrasing, analyse("They aren't the unit, and independent they're not.")).coverage == 0.0


def test_a_phrasing_that_says_when_needs_its_order_word() -> None:
    """ "After the churn" says when the feature exists; "churn" alone, which every answer to
    the question says, does not."""
    phrasing = target("after the churn", NONE, accept=True)
    assert match(phrasing, analyse("Customers who close accounts are the ones who churn.")).coverage == 0
    assert match(phrasing, analyse("The date is only filled in after they churned.")).coverage == 1.0


def test_a_rival_option_in_the_claims_place_swaps_it() -> None:
    """ "Subtract the mean of each row" has every word of "subtract the maximum of each row"
    but the one that decides it; mean and maximum are rival options of one kind, so the claim is
    swapped, not four-fifths made. Naming the right option, or the rival only to reject it,
    keeps the claim; an option the answer names the claim's way elsewhere ("the mean over the
    batch") is not swapped for a rival that stands nearer ("the row max")."""
    claim = target("Subtract the maximum logit of each row before exponentiating.", NONE)
    swapped = match(claim, analyse("Subtract the mean of each row before exponentiating the logits."))
    assert swapped.swapped and swapped.contradicted
    assert claim_credit(claim, swapped) == 0.0
    right = match(claim, analyse("Subtract the largest logit of each row before exponentiating."))
    assert not right.contradicted and claim_credit(claim, right) == 1.0
    rejected = match(
        claim, analyse("Subtract each row's top value, not its mean, before exponentiating logits.")
    )
    assert not rejected.contradicted and claim_credit(claim, rejected) == 1.0
    phrasing = target("mean over the rows", NONE, accept=True)
    elsewhere = analyse("It subtracts the row max, gathers the targets, and takes the mean over the batch.")
    assert not match(phrasing, elsewhere).contradicted
    told = "It subtracts the row max, gathers the targets, and takes the sum over the batch."
    assert match(phrasing, analyse(told)).contradicted


def test_a_false_negative_is_no_false_positive() -> None:
    """ "False" makes half of "false positive"; positive and negative are rivals, so "a false
    negative hides a real email" swaps the claim rather than three-quarters making it."""
    claim = target("A false positive hides a real email.", NONE)
    assert match(claim, analyse("A false negative hides a real email from the user.")).swapped
    assert not match(claim, analyse("Each false positive hides a real email from the user.")).contradicted
