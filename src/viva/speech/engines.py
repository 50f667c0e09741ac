"""Speech engines behind one small protocol: decoded audio in, :class:`Transcript` out.

:class:`WhisperEngine` is the real one (faster-whisper on CTranslate2, int8 on the CPU; no
PyTorch). :class:`ScriptedEngine` is the deterministic one for tests of the layers above,
which should not spend seconds loading a model.

Hotwords bias the recogniser toward the question's vocabulary so that "HBM" is not heard
as "H B M" or "a gem". They never enter the transcript by any other route: the text that
is marked is exactly what the recogniser decoded.

How a recording is decoded, and why:

1. Voice activity detection cuts the speech into chunks of at most 30 s at its pauses;
   silence is never decoded, which is where a prompted Whisper invents text.
2. The chunks are decoded independently, in a batch (faster-whisper's batched pipeline:
   about twice as fast on a CPU as the sequential decoder, and one bad chunk cannot
   derail the next as a lost 30 s window can).
3. A chunk the decoder got wrong by its own measures — text that compresses too well
   (a repetition loop, ratio over 2.4) or average log probability under -1 — is decoded
   again on its own by the sequential decoder, which retries at higher temperatures.
   Those retries sample, so CTranslate2's generators are seeded (:data:`SAMPLING_SEED`):
   the same recording gives the same transcript in every fresh process.
4. A segment still undecodable whose words have no duration (text aligned to no sound)
   is dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from viva.errors import InvalidInput, Unavailable
from viva.settings import Settings
from viva.speech.audio import SAMPLE_RATE, Audio
from viva.speech.models import ModelSource, resolve_model
from viva.speech.transcript import Transcript, Word

if TYPE_CHECKING:
    from faster_whisper import BatchedInferencePipeline, WhisperModel
    from faster_whisper.transcribe import Segment

# At most this many characters of hotwords: Whisper's prompt holds ~220 tokens.
MAX_HOTWORD_CHARS = 400
BATCH_SIZE = 4
MAX_COMPRESSION_RATIO = 2.4  # faster-whisper's own threshold for a failed decode
MIN_AVG_LOGPROB = -1.0  # likewise

TimedPiece = tuple[str, float, float]  # a word as decoded (leading space kept), start, end


Progress = Callable[[float], None]


class SpeechEngine(Protocol):
    """Anything that turns decoded audio into a timed transcript."""

    @property
    def name(self) -> str: ...

    def transcribe(
        self,
        audio: Audio,
        hotwords: Sequence[str] | None = None,
        on_progress: Progress | None = None,
    ) -> Transcript:
        """What was said; ``on_progress`` hears the share of the audio done so far (0–1)."""
        ...


class WhisperEngine:
    """faster-whisper with word timestamps; the model loads on first use (or :meth:`prepare`).

    Safe to share between threads: the model is loaded once under a lock, and CTranslate2
    runs up to ``num_workers`` transcriptions at the same time.
    """

    def __init__(self, model: str, *, cpu_threads: int = 0, num_workers: int = 1) -> None:
        self.model_setting = model
        self.cpu_threads = cpu_threads
        self.num_workers = num_workers
        self._source: ModelSource | None = None
        self._model: tuple[WhisperModel, BatchedInferencePipeline] | None = None
        self._lock = threading.Lock()

    @property
    def source(self) -> ModelSource:
        if self._source is None:
            self._source = resolve_model(self.model_setting)
        return self._source

    @property
    def name(self) -> str:
        return f"faster-whisper/{self.source.label}"

    def prepare(self) -> None:
        """Load the model now (downloading it first if it has to be), not on first use."""
        self._loaded()

    def transcribe(
        self,
        audio: Audio,
        hotwords: Sequence[str] | None = None,
        on_progress: Progress | None = None,
    ) -> Transcript:
        model, batched = self._loaded()
        prompt = hotword_prompt(hotwords or ()) or None
        segments, _info = batched.transcribe(
            audio.samples,
            language="en",
            beam_size=5,
            word_timestamps=True,
            hotwords=prompt,
            batch_size=BATCH_SIZE,
        )
        pieces: list[TimedPiece] = []
        for segment in segments:
            if _failed(segment):
                pieces.extend(_decode_again(model, audio, segment, prompt))
            else:
                pieces.extend(_pieces(segment))
            if on_progress is not None:
                on_progress(min(float(segment.end) / max(audio.duration_s, 0.001), 1.0))
        words = [Word(word=w.strip(), start=start, end=end) for w, start, end in pieces if w.strip()]
        if not words:
            raise InvalidInput("no speech was heard in the recording", hint="speak closer to the microphone")
        text = "".join(w for w, _, _ in pieces).strip()  # the pieces join to the decoded text
        return Transcript.from_words(
            words, duration_s=round(audio.duration_s, 3), engine=self.name, text=text
        )

    def _loaded(self) -> tuple[WhisperModel, BatchedInferencePipeline]:
        with self._lock:
            if self._model is None:
                self._model = self._load()
            return self._model

    def _load(self) -> tuple[WhisperModel, BatchedInferencePipeline]:
        try:
            import ctranslate2
            from faster_whisper import BatchedInferencePipeline, WhisperModel
        except ImportError:
            raise Unavailable("speech needs the speech extra", hint="pip install 'viva[speech]'") from None
        # each decoding thread seeds its generator from this on first use; unset, from the OS
        ctranslate2.set_random_seed(SAMPLING_SEED)
        source = self.source
        path = source.location if source.kind != "download" else _download(source.location)
        model = WhisperModel(
            path,
            device="cpu",
            compute_type="int8",
            cpu_threads=self.cpu_threads,
            num_workers=self.num_workers,
        )
        return model, BatchedInferencePipeline(model)


SAMPLING_SEED = 20_13  # any fixed value: it only has to be the same in every process


def _failed(segment: Segment) -> bool:
    return bool(segment.compression_ratio > MAX_COMPRESSION_RATIO or segment.avg_logprob < MIN_AVG_LOGPROB)


def _decode_again(
    model: WhisperModel, audio: Audio, segment: Segment, prompt: str | None
) -> list[TimedPiece]:
    """Decode one failed chunk alone with the sequential decoder's temperature fallback."""
    offset = float(segment.start)
    clip = audio.samples[int(offset * SAMPLE_RATE) : int(float(segment.end) * SAMPLE_RATE) + 1]
    retried, _info = model.transcribe(
        clip,
        language="en",
        beam_size=5,
        word_timestamps=True,
        vad_filter=False,
        condition_on_previous_text=False,
        hotwords=prompt,
    )
    pieces: list[TimedPiece] = []
    for again in retried:
        if not (_failed(again) and _unaligned(again)):
            pieces.extend((w, round(s + offset, 3), round(e + offset, 3)) for w, s, e in _pieces(again))
    return pieces


def _unaligned(segment: Segment) -> bool:
    """Most words under 20 ms long: text that sits on no sound."""
    words = segment.words or ()
    return sum(1 for w in words if w.end - w.start < 0.02) * 2 > len(words)


def _pieces(segment: Segment) -> list[TimedPiece]:
    return [(w.word, round(float(w.start), 3), round(float(w.end), 3)) for w in segment.words or ()]


def engine_from_settings(settings: Settings, *, workers: int = 1) -> WhisperEngine:
    """The engine the settings choose (not loaded until first use)."""
    return WhisperEngine(settings.whisper_model, num_workers=workers)


def hotword_prompt(hotwords: Sequence[str]) -> str:
    """The hotwords as one comma-separated hint, cut to fit Whisper's prompt."""
    prompt = ""
    for term in hotwords:
        candidate = f"{prompt}, {term}" if prompt else term
        if len(candidate) > MAX_HOTWORD_CHARS:
            break
        prompt = candidate
    return prompt


def _download(name: str) -> str:
    """Fetch a model once into the user's Hugging Face cache, showing progress on stderr."""
    import huggingface_hub
    from faster_whisper import utils

    # faster-whisper's own download_model() hides its progress bar; this keeps it visible.
    repo_id = name if "/" in name else utils._MODELS[name]
    try:
        return huggingface_hub.snapshot_download(
            repo_id,
            allow_patterns=[
                "config.json", "preprocessor_config.json", "model.bin", "tokenizer.json",
                "vocabulary.*",
            ],
        )  # fmt: skip
    except Exception as exc:  # any network or hub failure means the same to the user
        raise Unavailable(
            f"could not download the Whisper model {name!r}",
            hint=f"{type(exc).__name__}; or set VIVA_WHISPER_MODEL to a model folder",
        ) from None


class ScriptedEngine:
    """A deterministic engine for tests: says the given text, spread over the recording."""

    def __init__(self, text: str, name: str = "scripted") -> None:
        self.text = text
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def transcribe(
        self,
        audio: Audio,
        hotwords: Sequence[str] | None = None,
        on_progress: Progress | None = None,
    ) -> Transcript:
        tokens = self.text.split()
        if not tokens:
            raise InvalidInput("no speech was heard in the recording")
        duration = len(audio.samples) / SAMPLE_RATE
        step = duration / len(tokens)
        words = [
            Word(word=t, start=round(i * step, 3), end=round((i + 0.8) * step, 3))
            for i, t in enumerate(tokens)
        ]
        if on_progress is not None:
            on_progress(1.0)
        return Transcript.from_words(words, duration_s=round(duration, 3), engine=self.name)
