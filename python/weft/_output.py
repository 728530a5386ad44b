"""What a scenario's own code prints (``print`` in a script weft reads, ``pl.debug_print`` in a
kernel body), shown once however many executions run it.

A sweep or an exploration runs the same host code and kernels thousands of times; their prints
would repeat as often. The k-th print of an execution is shown unless an earlier execution of
the same scenario, in this process, printed the same text as its k-th, counting the host
code's prints and each core's apart (a core's k-th print is the same in every interleaving, the
order of two cores' prints is not): ``weft run`` and ``weft replay`` (one execution) show every
print; a sweep shows the first execution's and then only what differs (a seed whose result
prints otherwise). Prints outside an execution (a script
being read, a pytest module's own code) are Python's own. Output to another file than stdout
is never held back.
"""

import builtins
import io
import sys


def script_print(*values, sep=" ", end="\n", file=None, flush=False):
    """``print`` as a script weft reads sees it."""
    execution, origin = _running()
    if execution is None or (file is not None and file is not sys.stdout):
        builtins.print(*values, sep=sep, end=end, file=file, flush=flush)
        return
    text = io.StringIO()
    builtins.print(*values, sep=sep, end=end, file=text)
    show(execution, origin, text.getvalue(), flush)


def show(execution, origin, text, flush=False):
    """Writes `text` to stdout as `origin`'s next print in `execution` ("host", or a core's
    (device, core)), unless an earlier execution of its scenario printed the same text as that
    print."""
    if execution.printed_before(text, origin):
        return
    sys.stdout.write(text)
    if flush:
        sys.stdout.flush()


def kernel_origin(context):
    """The origin of a kernel body's prints: its core."""
    return (context.device, context.core_index)


def _running():
    """The execution whose code runs now and the origin of its prints, or (None, None)."""
    from . import _host, _kernel
    execution = _host.current_execution()
    if execution is not None:
        return execution, "host"
    if _kernel.running():
        context = _kernel.current()
        return context.launch.execution, kernel_origin(context)
    return None, None
