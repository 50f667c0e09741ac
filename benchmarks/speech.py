"""Speech benchmark: espeak-ng reads a topic's model answers; how well does Viva hear them?

For every question in the topic (follow-ups included) the model answer is spoken by
espeak-ng, encoded as the browser would send it, and transcribed twice — without hotwords
and with the question's hotwords. It reports:

* word error rate (jiwer, after a symmetric normalisation: case, punctuation, British
  spellings, number words and letter–digit splits such as ``FP32`` / ``FP 32``);
* real-time factor: transcription seconds per second of audio (decoding included);
* hotword insertions: hotword terms heard more often than the answer says them;
* score retention: the marking score of the transcript over the score of the same answer
  typed (summed over questions), with the default marking backend;
* inflation: the author's weak and partial sample answers, spoken and transcribed with
  hotwords — does biasing ever score a spoken answer above the same answer typed?

    .venv/bin/python benchmarks/speech.py                      # tiny.en (the packaged test model)
    .venv/bin/python benchmarks/speech.py --model /path/to/base.en --threads 2

Needs the speech extra, jiwer and espeak-ng. Targets with tiny.en on 2 cores: WER ≤ 20 %,
RTF ≤ 0.3, retention ≥ 85 %.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import av
import jiwer

from viva.bank import Question, load_bank
from viva.errors import VivaError
from viva.marking import mark
from viva.speech import WhisperEngine, decode_audio, hotwords_for

_ONES = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
]  # fmt: skip
_TENS = {"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80"}
NUMBERS = (
    {w: str(i) for i, w in enumerate(_ONES)} | _TENS | {"ninety": "90", "hundred": "100", "thousand": "1000"}
)


def normalise(text: str) -> str:
    """The same folding on both sides, so it cannot create errors, only forgive spelling."""
    text = text.lower().replace("%", " percent ").replace("×", " x ")
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)  # 65,504 → 65504
    text = re.sub(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])", " ", text)  # fp32 → fp 32
    text = re.sub(r"[^a-z0-9. ]+", " ", text)
    text = re.sub(r"\.(?!\d)", " ", text)  # keep 3.35, drop full stops
    text = re.sub(r"(\w{2,})is(e|ed|es|ing|er|ers|ation|ations)\b", r"\1iz\2", text)
    text = re.sub(r"(\w)our\b", r"\1or", text)
    return " ".join(NUMBERS.get(w, w) for w in text.split())


def speak(text: str, wav: Path, speed: int) -> None:
    subprocess.run(
        ["espeak-ng", "-v", "en-us", "-s", str(speed), "-w", str(wav), " ".join(text.split())],
        check=True,
        capture_output=True,
    )


def to_webm(wav: Path) -> bytes:
    """WebM/Opus at 48 kHz, as Chrome's MediaRecorder sends it."""
    dest = wav.with_suffix(".webm")
    with av.open(str(wav)) as inp, av.open(str(dest), "w", format="webm") as out:
        stream = out.add_stream("libopus", rate=48_000, layout="mono")
        assert isinstance(stream, av.AudioStream)
        for frame in inp.decode(audio=0):
            frame.pts = None
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return dest.read_bytes()


@dataclass
class Run:
    wer: float
    seconds: float
    insertions: list[str]
    score: float


@dataclass
class Row:
    question: Question
    duration_s: float
    typed_score: float
    plain: Run
    biased: Run


def run_once(engine: WhisperEngine, question: Question, data: bytes, hotwords: list[str] | None) -> Run:
    started = time.perf_counter()
    transcript = engine.transcribe(decode_audio(data), hotwords)
    seconds = time.perf_counter() - started
    reference, heard = normalise(question.answer), normalise(transcript.text)
    inserted = [term for term in hotwords_for(question) if _said(term, heard) > _said(term, reference)]
    score = mark(question, transcript.text).score
    return Run(jiwer.wer(reference, heard), seconds, inserted, score)


def _said(term: str, text: str) -> int:
    """How often ``term`` starts at a word boundary (so "matmul" also counts "matmuls")."""
    return len(re.findall(rf"(?<!\S){re.escape(normalise(term))}", text))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--content", default="content")
    parser.add_argument("--topic", default="gpus-and-accelerators")
    parser.add_argument("--model", default="tiny.en", help="whisper model name or folder")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for CTranslate2")
    parser.add_argument("--speed", type=int, default=160, help="espeak-ng words per minute")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    args = parser.parse_args(argv)

    bank, _errors = load_bank(args.content)
    questions = list(bank.topic(args.topic).all_questions())
    questions = questions[: args.limit] if args.limit else questions
    engine = WhisperEngine(args.model, cpu_threads=args.threads)
    engine.prepare()
    print(
        f"# {engine.name} ({engine.source.kind}), {args.threads} threads, "
        f"{len(questions)} answers from {args.topic}, espeak-ng en-us at {args.speed} wpm, WebM/Opus"
    )

    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        engine.transcribe(decode_audio(to_webm(_warm_up(Path(tmp), args.speed))))  # first-call cost
        for question in questions:
            wav = Path(tmp) / f"{question.id}.wav"
            speak(question.answer, wav, args.speed)
            data = to_webm(wav)
            duration = decode_audio(data).duration_s
            typed = mark(question, question.answer).score
            plain = run_once(engine, question, data, None)
            biased = run_once(engine, question, data, hotwords_for(question))
            rows.append(Row(question, duration, typed, plain, biased))
            print(
                f"{question.id:42.42} {duration:5.1f}s  WER {plain.wer:6.1%} → {biased.wer:6.1%}  "
                f"RTF {plain.seconds / duration:.3f}  score {typed:.2f} / {plain.score:.2f} / "
                f"{biased.score:.2f}" + (f"  inserted {biased.insertions}" if biased.insertions else "")
            )
        _summary(rows)
        _inflation(engine, questions, Path(tmp), args.speed)
    return 0


def _inflation(engine: WhisperEngine, questions: list[Question], folder: Path, speed: int) -> None:
    """Weak and partial samples: does a spoken answer ever score above the same answer typed?

    Run without and with hotwords, so a gain that biasing causes is told apart from one
    that mishearing causes (a garbled wrong claim the marker no longer recognises).
    """
    gains: dict[str, list[float]] = {"plain": [], "hotwords": []}
    for question in questions:
        for n, sample in enumerate(s for s in question.samples if s.verdict != "strong"):
            wav = folder / f"{question.id}-sample-{n}.wav"
            speak(sample.answer, wav, speed)
            typed = mark(question, sample.answer).score
            for label, hotwords in (("plain", None), ("hotwords", hotwords_for(question))):
                try:
                    heard = engine.transcribe(decode_audio(to_webm(wav)), hotwords)
                except VivaError as exc:
                    print(f"  skipped a sample of {question.id}: {exc}")
                    continue
                gain = mark(question, heard.text).score - typed
                gains[label].append(gain)
                if gain > 0.05:
                    print(f"  {label}: {question.id} {typed:.2f} → {typed + gain:.2f}  “{heard.text}”")
    print()
    for label, found in gains.items():
        lifted = sum(1 for g in found if g > 0.05)
        print(
            f"inflation ({label}): {len(found)} weak/partial samples spoken; {lifted} scored more than "
            f"0.05 above typed; largest gain {max(found, default=0.0):+.2f}"
        )


def _warm_up(folder: Path, speed: int) -> Path:
    wav = folder / "warm-up.wav"
    speak("Warming up the recogniser.", wav, speed)
    return wav


def _summary(rows: list[Row]) -> None:
    audio = sum(r.duration_s for r in rows)
    typed = sum(r.typed_score for r in rows)
    print()
    print(f"{'':22} {'WER':>7} {'RTF':>6} {'retention':>10} {'min kept':>9} {'inserted':>9}")
    for label in ("plain", "hotwords"):
        runs = [r.plain if label == "plain" else r.biased for r in rows]
        wer = sum(r.wer for r in runs) / len(runs)
        rtf = sum(r.seconds for r in runs) / audio
        kept = sum(r.score for r in runs) / typed if typed else 0.0
        worst = min(
            (run.score / row.typed_score for run, row in zip(runs, rows, strict=True) if row.typed_score),
            default=0.0,
        )
        inserted = sum(len(r.insertions) for r in runs)
        print(f"{label:22} {wer:7.1%} {rtf:6.3f} {kept:10.1%} {worst:9.1%} {inserted:9d}")
    print(
        f"\n{len(rows)} answers, {audio / 60:.1f} min of audio; WER is the mean over answers, "
        "RTF and retention are totals."
    )


if __name__ == "__main__":
    sys.exit(main())
