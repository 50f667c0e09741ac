"""Size of what `make run` installs: site-packages of a fresh venv with ``.[speech-offline]``.

    python3 benchmarks/install_size.py [REV ...]   # default: HEAD

For each git revision, exports the tree (``git archive``) to a throwaway folder under /tmp,
creates a fresh venv there, installs ``<tree>[speech-offline]`` (non-editable) from PyPI and
prints the size of its site-packages in MiB, and the largest packages. Needs PyPI access and a
few minutes per revision; everything it makes is removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def measure(rev: str) -> dict[str, object]:
    root = Path(tempfile.mkdtemp(prefix="viva-size-"))
    try:
        tree = root / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "archive", rev], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        venv = root / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        subprocess.run([*pip, f"{tree}[speech-offline]"], check=True)
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        site = venv / "lib" / version / "site-packages"
        biggest = sorted(((_size(p), p.name) for p in site.iterdir() if p.is_dir()), reverse=True)[:8]
        return {
            "rev": rev,
            "site_packages_mib": round(_size(site) / 2**20, 1),
            "largest_mib": {name: round(size / 2**20, 1) for size, name in biggest},
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="*", default=["HEAD"])
    args = parser.parse_args()
    for rev in args.revs:
        print(json.dumps(measure(rev)), flush=True)


if __name__ == "__main__":
    main()
