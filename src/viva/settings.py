"""Every setting, declared once with its name, default and help.

The README's settings table and the CLI's ``--help`` are generated from / checked
against :data:`SETTINGS`; nothing reads the environment at import time — call
:func:`Settings.from_env` where the program starts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs


def _default_content_dir() -> Path:
    """The repo's ``content/`` when running from a checkout, else ``./content``."""
    checkout = Path(__file__).resolve().parents[2] / "content"
    return checkout if checkout.is_dir() else Path.cwd() / "content"


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("viva", appauthor=False))


def _setting(default: Any, help: str, env: str, shown: str | None = None) -> Any:
    """Declare a setting; ``shown`` is how docs print a default computed at run time."""
    return field(default=default, metadata={"help": help, "env": env, "shown": shown})


@dataclass(frozen=True)
class Settings:
    content_dir: Path = _setting(
        None, "Folder of topic folders (the question bank).", "VIVA_CONTENT_DIR", "content/ of the checkout"
    )
    data_dir: Path = _setting(
        None, "Where the SQLite database lives.", "VIVA_DATA_DIR", "the user data folder (platformdirs)"
    )
    database_url: str = _setting(
        "", "SQLAlchemy URL; empty means a SQLite file in the data folder.", "VIVA_DATABASE_URL"
    )
    marking_backend: str = _setting(
        "default",
        "Marker backend: default (the lexical rules plus MiniLM token alignment), lexical (the "
        "rules alone), semantic (the rules plus sentence similarity), llm, auto (the LLM when one is "
        "configured and answers, else default), or one a package registers under the "
        "`viva.markers` entry-point group.",
        "VIVA_MARKING_BACKEND",
    )
    semantic_model: str = _setting(
        "sentence-transformers/all-MiniLM-L6-v2",
        "Embedding model of the default and semantic markers: this name is the packaged int8 MiniLM; "
        "else a local folder with model.onnx and tokenizer.json, or a hub repository with an ONNX "
        "export (downloaded only with VIVA_ALLOW_DOWNLOADS).",
        "VIVA_SEMANTIC_MODEL",
    )
    marker_threads: int = _setting(
        2,
        "Cores the embedding model of the default and semantic markers uses for one answer; 2 "
        "suits one person on a laptop, 1 a server running several web workers on few cores.",
        "VIVA_MARKER_THREADS",
    )
    allow_downloads: bool = _setting(
        False,
        "Let a marking model that is neither packaged nor local be downloaded once from its hub; "
        "off, a missing model fails at once with the command that installs it.",
        "VIVA_ALLOW_DOWNLOADS",
    )
    llm_base_url: str = _setting(
        "",
        "OpenAI-compatible API of the llm backend, e.g. http://127.0.0.1:8080/v1 (llama.cpp server, "
        "Ollama, vLLM or a hosted endpoint); empty means no LLM and nothing contacted.",
        "VIVA_LLM_BASE_URL",
    )
    llm_model: str = _setting(
        "", "Model the llm backend asks for; empty means the first one the server lists.", "VIVA_LLM_MODEL"
    )
    llm_api_key: str = _setting(
        "", "Bearer token for the LLM server, if it needs one.", "VIVA_LLM_API_KEY", "(empty)"
    )
    llm_timeout: float = _setting(
        30.0,
        "Seconds the llm backend waits for one marking before it falls back to the local marker.",
        "VIVA_LLM_TIMEOUT",
    )
    whisper_model: str = _setting(
        "auto",
        "Whisper model: auto (the packaged tiny.en if installed, else base.en), a faster-whisper "
        "name such as base.en (downloaded once), or a local model folder.",
        "VIVA_WHISPER_MODEL",
    )
    max_audio_bytes: int = _setting(
        32 * 1024 * 1024,
        "Largest spoken-answer upload, in bytes; larger ones get HTTP 413 before they are read.",
        "VIVA_MAX_AUDIO_BYTES",
        "`33554432` (32 MiB)",
    )
    max_audio_seconds: int = _setting(
        300, "Longest spoken answer, in seconds; longer ones get HTTP 413.", "VIVA_MAX_AUDIO_SECONDS"
    )
    transcription_workers: int = _setting(
        1,
        "Transcriptions one web worker runs at once (threads sharing one loaded model).",
        "VIVA_TRANSCRIPTION_WORKERS",
    )
    transcription_queue: int = _setting(
        8,
        "Uploads one web worker lets wait for transcription; past that they get HTTP 503.",
        "VIVA_TRANSCRIPTION_QUEUE",
    )
    queue_url: str = _setting(
        "",
        "Redis URL of the transcription job queue (`viva serve --queue`); empty means transcribe "
        "inside the web process. With a queue, `viva worker` processes do the transcribing.",
        "VIVA_QUEUE_URL",
    )
    queue_name: str = _setting(
        "viva", "Name of the job queue in Redis, so deployments can share one Redis.", "VIVA_QUEUE_NAME"
    )
    queue_retries: int = _setting(
        2,
        "Times a queued transcription is tried again after its worker died or crashed, before "
        "the candidate is told it failed.",
        "VIVA_QUEUE_RETRIES",
    )
    queue_lease_seconds: int = _setting(
        30,
        "How long a worker's claim on a job lasts unrenewed, in seconds (it renews every third of "
        "this): a killed worker's job is retried after about this long; readyz wants a worker seen "
        "within twice this.",
        "VIVA_QUEUE_LEASE_SECONDS",
    )
    queue_max_waiting: int = _setting(
        200, "Jobs the queue holds before new uploads get HTTP 503.", "VIVA_QUEUE_MAX_WAITING"
    )
    user: str = _setting(
        "me", "Candidate name used by the CLI and by the web app in single-user mode.", "VIVA_USER"
    )
    host: str = _setting("127.0.0.1", "Address `viva serve` binds to.", "VIVA_HOST")
    port: int = _setting(8000, "Port `viva serve` listens on.", "VIVA_PORT")
    workers: int = _setting(1, "Web worker processes (`viva serve`); each is stateless.", "VIVA_WORKERS")
    single_user: bool = _setting(
        False,
        "Sign the candidate VIVA_USER in automatically, with no login (only on a loopback address).",
        "VIVA_SINGLE_USER",
    )
    secret_key: str = _setting(
        "",
        "Key that signs session cookies; every worker must share it.",
        "VIVA_SECRET_KEY",
        "generated once into the data folder",
    )
    session_days: int = _setting(14, "How long a web login lasts, in days.", "VIVA_SESSION_DAYS")
    max_answer_chars: int = _setting(
        10000, "Longest typed answer accepted; longer ones get HTTP 413.", "VIVA_MAX_ANSWER_CHARS"
    )
    login_max_failures: int = _setting(
        5,
        "Failed logins allowed per account or address in the window before HTTP 429.",
        "VIVA_LOGIN_MAX_FAILURES",
    )
    login_window_minutes: int = _setting(
        15, "The login rate limit's window, in minutes.", "VIVA_LOGIN_WINDOW_MINUTES"
    )
    signups_per_hour: int = _setting(
        10, "New accounts one client address may create per hour (HTTP 429 after).", "VIVA_SIGNUPS_PER_HOUR"
    )

    def __post_init__(self) -> None:
        if self.content_dir is None:
            object.__setattr__(self, "content_dir", _default_content_dir())
        if self.data_dir is None:
            object.__setattr__(self, "data_dir", default_data_dir())

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{Path(self.data_dir) / 'viva.sqlite3'}"

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: Any) -> Settings:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f.metadata["env"])
            if raw not in (None, ""):
                values[f.name] = _coerce(f.type, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _coerce(kind: Any, raw: str) -> Any:
    kind = str(kind)
    if "Path" in kind:
        return Path(raw).expanduser()
    if "bool" in kind:
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if "int" in kind:
        return int(raw)
    if "float" in kind:
        return float(raw)
    return raw


def settings_table() -> list[tuple[str, str, str]]:
    """(environment variable, default, help) for every setting, for docs and tests."""
    rows = []
    for f in fields(Settings):
        default = f.metadata["shown"] or (f"`{f.default}`" if f.default != "" else "(empty)")
        rows.append((f.metadata["env"], default, f.metadata["help"]))
    return rows


def settings_markdown() -> str:
    """The README's settings table; ``python -m viva.settings`` prints it."""
    lines = ["| environment variable | default | what it does |", "| --- | --- | --- |"]
    lines += [f"| `{env}` | {default} | {help} |" for env, default, help in settings_table()]
    return "\n".join(lines)


if __name__ == "__main__":
    print(settings_markdown())
