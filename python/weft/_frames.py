"""Where in the user's code something happened: the first frame outside the libraries it went
through (weft's own package, numpy's, Python's standard library), so a report names the host
code's line, not ``numpy/testing/...``, ``contextlib.py`` or weft's."""

import os
import sys

import numpy as np

def _folder(module_file):
    return os.path.dirname(os.path.abspath(module_file)) + os.sep


_PACKAGES = (_folder(__file__), _folder(np.__file__))
_STANDARD_LIBRARY = _folder(os.__file__)  # packages installed beneath it are not part of it


def in_library(filename):
    """Whether `filename` is a file of weft's package, numpy's or the standard library's."""
    path = os.path.abspath(filename)
    if path.startswith(_PACKAGES):
        return True
    beneath = path[len(_STANDARD_LIBRARY):] if path.startswith(_STANDARD_LIBRARY) else None
    return beneath is not None and not beneath.startswith(("site-packages", "dist-packages"))


def caller():
    """(file, line) of the first frame of the calling stack outside the libraries."""
    frame = sys._getframe(1)
    while frame is not None and in_library(frame.f_code.co_filename):
        frame = frame.f_back
    return (frame.f_code.co_filename, frame.f_lineno) if frame is not None else ("<unknown>", 0)
