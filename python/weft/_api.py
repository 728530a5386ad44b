"""weft from Python: the command line, and run / replay / sweep / explore of a scenario, each
returning a Result (verdict, report, exit status)."""

import inspect
import os
import tempfile

from . import _weft
from ._scenario import toml_value

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def main(argv):
    """weft's command line over `argv` (argv[0] the program's name); returns the exit status."""
    return _weft.main([str(word) for word in argv], _PACKAGE)


class Result:
    """What a command found: `ok` (every execution gave the expected verdict), the exit status
    and the report as the command line prints it."""

    def __init__(self, status, report):
        self.status = status
        self.report = report
        self.ok = status == 0

    def __repr__(self):
        return f"Result(ok={self.ok}, status={self.status})"


def _scenario_argument(scenario):
    if isinstance(scenario, str):
        return scenario
    spec = getattr(scenario, "weft_scenario", None)
    if spec is None:
        raise TypeError("a @weft.scenario function, or a 'path.py::name' string")
    return f"{inspect.getsourcefile(scenario)}::{spec.name}"


def _command(verb, scenario, options):
    with tempfile.TemporaryFile(mode="w+b") as captured:
        saved = os.dup(1)
        try:
            os.dup2(captured.fileno(), 1)
            status = main(["weft", verb, _scenario_argument(scenario), *options])
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        captured.seek(0)
        return Result(status, captured.read().decode("utf-8", "replace"))


def _common(config, expect):
    """--set for each configuration key, and --expect."""
    options = []
    for key, value in (config or {}).items():
        options += ["--set", f"{key}={toml_value(value)}"]
    return options + (["--expect", expect] if expect is not None else [])


def run(scenario, seed=0, config=None, expect=None):
    """One execution (`weft run`)."""
    return _command("run", scenario, ["--seed", str(seed), *_common(config, expect)])


def replay(scenario, seed=None, schedule=None, config=None, expect=None):
    """One execution by seed or schedule string (`weft replay`)."""
    chosen = ["--seed", str(seed)] if schedule is None else ["--schedule", schedule]
    return _command("replay", scenario, [*chosen, *_common(config, expect)])


def sweep(scenario, seeds="0..99", jobs=1, config=None, keep_going=False, expect=None):
    """Executions over a range of seeds (`weft sweep`)."""
    options = ["--seeds", str(seeds), "--jobs", str(jobs), *_common(config, expect)]
    return _command("sweep", scenario, options + (["--keep-going"] if keep_going else []))


def explore(scenario, max_executions=0, config=None, expect=None):
    """Every interleaving up to equivalence (`weft explore`)."""
    return _command("explore", scenario, ["--max-executions", str(max_executions), *_common(config, expect)])
