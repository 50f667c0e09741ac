from viva.marking.lexicon import ANTONYMS, CONCEPTS, SLIPS


def test_antonyms_name_known_concepts() -> None:
    for a, b in ANTONYMS:
        assert a in CONCEPTS and b in CONCEPTS


def test_speech_vocabulary_is_covered() -> None:
    assert {"fp16", "bf16", "half precision", "16 bit"} <= set(CONCEPTS["half-precision"])
    assert {"hbm", "dram", "memory bandwidth"} <= set(CONCEPTS["memory-bandwidth"])
    assert "kv cache" in CONCEPTS["kv-cache"]
    assert SLIPS["bite"] == "byte"
