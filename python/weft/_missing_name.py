"""A name of jax or Pallas that weft does not have: weft's gap, not the kernel's fault.

It is an AttributeError, so `hasattr` and `getattr(module, name, default)` go on as with JAX.
Host code that uses one after its program ran does not get a verdict: the command stops with
exit status 2 naming the name and the line (python/native/python_scenario.cpp), as a use before
the first launch does.
"""


class MissingName(AttributeError):
    """`namespace` (as the script names it, e.g. "jax.lax") has no `name` in weft."""

    def __init__(self, namespace, name, hint="docs/python.md lists what it has"):
        super().__init__(f"weft's {namespace} has no '{name}' ({hint})")
        self.namespace = namespace
        self.name = name
