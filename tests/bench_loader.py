"""A script of ``benchmarks/`` (not a package) for the tests: loaded as a module, for the tests of its
functions, or run as a user runs it, for the tests of what it prints."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as the module ``name``, registered in ``sys.modules`` (pydantic resolves
    a script's models' annotations through it)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def run_benchmark(name: str, *args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``benchmarks/<name>.py`` run in a process of its own from the repository's root, with ``args``;
    its output captured as text."""
    script = ROOT / "benchmarks" / f"{name}.py"
    cmd = [sys.executable, str(script), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=timeout)
