#!/usr/bin/env python3
"""The Slurm recipe of docs/exploring.md (Checkpoints), on a real Slurm (one node, this machine).

Usage: explore_requeue_test.py WEFT WORK_FOLDER CASE, CASE one of:
  requeued  the job is requeued while it explores (scontrol requeue: Slurm sends SIGTERM);
  warned    the batch shell alone gets SIGTERM, as --signal=B:TERM@N sends it before the time
            limit (scancel --signal=TERM --batch), and the job requeues itself.
It copies the sbatch file from docs/exploring.md (so the doc cannot drift), submits it with the
weft executable's folder first on the PATH, stops the job once it has saved a checkpoint, lets
the requeued job start at once, and compares the job's last report with an exploration on this
machine that was never stopped: the same runs, space and verdicts. It needs the Slurm that
scripts/local-slurm starts (WEFT_LOCAL_SLURM and SLURM_CONF set); without it, it exits 77.
"""
import os
import re
import shutil
import sys
import time

from slurm_test import SKIPPED, SOURCE, arguments, run, sbatch_file, state_of, wait_for  # the sweep recipe's test

# readers on 20 cores: 524,288 classes, about 13 s of exploring here, so that a fast machine is
# still exploring when the job is requeued.
EXPLORATION = ["scenarios/readers6.toml", "--set", "topology.cores_per_device=20", "--checkpoint-every", "0.5"]


def reports(text):
    """Each report in the text: from its `explore:` line on."""
    starts = [match.start() for match in re.finditer(r"^explore:  ", text, re.M)]
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]


def line_after(report, prefix):
    match = re.search("^" + re.escape(prefix) + "(.*)$", report, re.M)
    assert match, f"no {prefix!r} line in:\n{report}"
    return match.group(1)


def what_it_found(report):
    """The runs (without the time), the space, and the verdicts with their reports."""
    return (line_after(report, "runs:     ").split(",")[0], line_after(report, "space:    "),
            report[report.index("\nverdicts:"):report.index("\nresult:")])


def main():
    given = arguments(__doc__)
    if given is None:
        return SKIPPED
    weft, work, case = given
    weft = os.path.abspath(weft)
    assert case in ("requeued", "warned"), case
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    scenario = [os.path.join(SOURCE, EXPLORATION[0])] + EXPLORATION[1:]

    started = time.monotonic()
    whole = run(weft, "explore", *scenario, cwd=work)
    one_seconds = time.monotonic() - started

    script = os.path.join(work, "explore-requeue.sbatch")
    with open(script, "w", encoding="utf-8") as file:
        file.write(sbatch_file("exploring.md", "--checkpoint"))
    # The job finds weft on its PATH (sbatch passes its own environment on).
    environment = dict(os.environ, PATH=os.path.dirname(weft) + os.pathsep + os.environ.get("PATH", ""))
    job = run("sbatch", "--parsable", f"--chdir={work}", script, *scenario, env=environment).stdout.strip().split(";")[0]
    checkpoint = os.path.join(work, f"explore-{job}.checkpoint")
    wait_for("the job's first checkpoint", lambda: os.path.exists(checkpoint), 60)
    time.sleep(1)  # a second more of exploring, saved at the stop
    if case == "requeued":
        run("scontrol", "requeue", job)
    else:
        run("scancel", "--signal=TERM", "--batch", job)
    stopped = int(time.time())
    # Slurm holds a requeued job back (its BeginTime); let it start now, but not within the second
    # of the requeue: slurmd revokes the first run's credential at that second and refuses any
    # credential of the same job made at or before it (slurm_test.py says the same).
    wait_for("the job to be pending again", lambda: state_of(job) == "PENDING", 90)
    wait_for("two seconds past the stop", lambda: time.time() >= stopped + 2, 10)
    run("scontrol", "update", f"JobId={job}", "StartTime=now")
    wait_for("the job to end", lambda: state_of(job) == "", 240)

    restarts = re.search(r"Restarts=(\d+)", run("scontrol", "show", "job", job, check=False).stdout)
    with open(os.path.join(work, f"slurm-{job}.out"), encoding="utf-8") as file:
        output = file.read()
    found = reports(output)
    assert len(found) >= 2, f"expected a report per run of the job, found {len(found)}:\n{output}"
    first, last = found[0], found[-1]
    assert line_after(first, "space:    ").startswith("interrupted"), first
    assert f"(go on with --resume {os.path.basename(checkpoint)})" in line_after(first, "checkpoint: "), first
    assert line_after(last, "checkpoint: ").startswith(f"resumed from {os.path.basename(checkpoint)}"), last
    assert line_after(last, "result:   ").startswith("as expected"), last
    assert what_it_found(last) == what_it_found(whole.stdout), f"{last}\n---- never stopped:\n{whole.stdout}"
    runs_before = line_after(first, "runs:     ").split(" ")[0]
    print(f"{case}: stopped after {runs_before} runs, requeued ({restarts.group(1) if restarts else '?'} restarts), "
          f"resumed to {line_after(last, 'runs:     ').split(',')[0]} as on one machine "
          f"({one_seconds:.1f} s never stopped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
