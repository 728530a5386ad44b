"""The Python package's tests: run from ctest (PYTHONPATH=build/python, WEFT_BINARY the weft
executable) or by hand after an install."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def run_command(*words, cwd=None):
    """Runs a command line; returns (status, stdout, stderr)."""
    done = subprocess.run(list(words), cwd=cwd or HERE, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def weft_binary():
    binary = os.environ.get("WEFT_BINARY") or shutil.which("weft")
    if not binary:
        pytest.skip("no weft executable (WEFT_BINARY or on the PATH)")
    return binary


@pytest.fixture
def python_weft():
    return [sys.executable, "-m", "weft"]


@pytest.fixture
def kernels():
    return os.path.join(HERE, "kernels.py")
