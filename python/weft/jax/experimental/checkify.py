"""``jax.experimental.checkify`` on weft: ``checkify.check(pred, msg)`` in host code a
``checkify.checkify``-wrapped function calls, and in kernel bodies.

A wrapped function returns ``(error, result)``: ``error.get()`` is the first failed check's
message (None when every check held) and ``error.throw()`` raises it as JAX's
``JaxRuntimeError``. A check outside a wrapped function raises at once. In a kernel body a failed
check raises, so the execution's verdict is ``kernel_error`` naming the core, the message and
its line, as a failed check stops a TPU kernel. Checks run on the values at hand, when they are
made (host code's inputs, a body's loaded values): weft traces nothing.
"""

import functools

import greenlet
import numpy as np

from ... import _kernel

user_checks = frozenset({"user"})
nan_checks = frozenset({"nan"})
index_checks = frozenset({"index"})
div_checks = frozenset({"div"})
float_checks = nan_checks | div_checks
automatic_checks = float_checks | index_checks
all_checks = automatic_checks | user_checks


class JaxRuntimeError(RuntimeError):
    """A failed check, raised by ``Error.throw()`` (or at once, outside a wrapped function)."""


class Error:
    """What a ``checkify``-wrapped function's checks found."""

    def __init__(self, message=None):
        self._message = message

    def get(self):
        return self._message

    def throw(self):
        if self._message is not None:
            raise JaxRuntimeError(self._message)


def _open_checks():
    """The messages of the wrapped calls running on this greenlet, innermost last."""
    current = greenlet.getcurrent()
    if not hasattr(current, "weft_checkify"):
        current.weft_checkify = []
    return current.weft_checkify


def checkify(f, errors=user_checks):
    """`f` returning ``(Error, result)``: the first of its checks that failed, if any."""
    @functools.wraps(f)
    def checked(*args, **kwargs):
        open_checks = _open_checks()
        open_checks.append(None)
        try:
            result = f(*args, **kwargs)
        finally:
            message = open_checks.pop()
        return Error(message), result
    return checked


def check(pred, msg, *fmt_args, **fmt_kwargs):
    """Holds when every element of `pred` is true; else the failure `msg` (formatted with the
    arguments) is the wrapped call's error, or raised where no call is wrapped or in a body."""
    if bool(np.all(np.asarray(pred))):
        return
    message = msg.format(*fmt_args, **fmt_kwargs)
    open_checks = [] if _kernel.running() else _open_checks()
    if not open_checks:
        raise JaxRuntimeError(message)
    if open_checks[-1] is None:
        open_checks[-1] = message
