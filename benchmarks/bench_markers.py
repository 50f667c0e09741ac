"""The marker a benchmark runs, from ``--backend`` (and, for the llm backend, the server).

    --backend llm --base-url http://127.0.0.1:8080/v1 [--model NAME] [--timeout S]

Built with :func:`viva.marking.build_marker` as the app builds it, from the environment's
settings with these options on top. The llm backend gets a fresh, empty reply cache in a
temp folder, so every answer is really sent to the server; markings that fell back to the
local marker are counted (:func:`fallbacks`), since their quality is not the LLM's.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterable

from viva.marking import Marker, Marking, build_marker
from viva.settings import Settings


def add_marker_options(parser: argparse.ArgumentParser, default: str | None = "default") -> None:
    parser.add_argument("--backend", default=default, help="default, semantic, llm, auto, or a plugin's")
    parser.add_argument("--base-url", help="the llm backend's OpenAI-compatible API, e.g. .../v1")
    parser.add_argument("--model", help="the model the llm backend asks for (default: the server's first)")
    parser.add_argument("--timeout", type=float, help="seconds the llm backend waits per answer")


def marker_from(args: argparse.Namespace) -> Marker:
    settings = Settings.from_env().with_(
        marking_backend=args.backend,
        llm_base_url=args.base_url,
        llm_model=args.model,
        llm_timeout=args.timeout,
    )
    if args.backend in {"llm", "auto"}:
        settings = settings.with_(data_dir=tempfile.mkdtemp(prefix="viva-bench-"))
    return build_marker(settings)


def fallbacks(markings: Iterable[Marking]) -> int:
    """How many markings the local marker made because the configured one failed."""
    return sum(m.fallback_reason is not None for m in markings)
