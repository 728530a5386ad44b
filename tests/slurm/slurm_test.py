#!/usr/bin/env python3
"""The Slurm recipe of docs/sweeping.md, run on a real Slurm (one node, on this machine).

Usage: slurm_test.py WEFT WORK_FOLDER CASE, CASE one of: array, step, throttled, cancelled, requeued.
It copies the sbatch file from docs/sweeping.md (so the doc cannot drift), submits it as a job
array, merges the shards' JSON lines with `weft merge` and compares them with a one-machine sweep
of the same seeds: the failure lines must be equal byte for byte after sorting. It needs the Slurm
that scripts/local-slurm starts (WEFT_LOCAL_SLURM and SLURM_CONF set); without it, it exits 77
(skipped), so the README's test command needs no services.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

SKIPPED = 77
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# A kernel that loads a DMA's target before waiting for it, race detection off: the load sees
# stale data (wrong_result) at most seeds, not all, so the merged failing seeds must be exactly
# the one-machine sweep's, not just as many.
SCENARIO = """kernel = "dma_read_before_wait"
expect = "ok"
[race_detection]
enabled = false
[params]
read_before_wait = 1
"""


def sbatch_file(page="sweeping.md", holding="#SBATCH"):
    """The one sh block of docs/PAGE that is an sbatch file holding HOLDING, verbatim."""
    with open(os.path.join(SOURCE, "docs", page), encoding="utf-8") as doc:
        blocks = re.findall(r"```sh\n(.*?)```", doc.read(), re.S)
    files = [block for block in blocks if block.startswith("#!/bin/bash\n") and "#SBATCH" in block and holding in block]
    if len(files) != 1:
        sys.exit(f"docs/{page} holds {len(files)} sbatch files with {holding}, not 1")
    return files[0]


def run(*command, check=True, **options):
    result = subprocess.run(command, capture_output=True, text=True, **options)
    if check and result.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {result.returncode}\n{result.stdout}{result.stderr}")
    return result


def failure_lines(text):
    lines = [line for line in text.splitlines() if line and '"header":true' not in line and '"summary":true' not in line]
    return sorted(lines)


def whole_lines(path):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    assert text.endswith("\n"), f"{path}: the last line has no newline"
    for number, line in enumerate(text.splitlines(), 1):
        json.loads(line)  # raises on a line cut short
    return text


class Sweep:
    def __init__(self, weft, work, seeds):
        self.weft = os.path.abspath(weft)
        self.work = work
        self.seeds = seeds
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        self.scenario = os.path.join(work, "mixed.toml")
        with open(self.scenario, "w", encoding="utf-8") as file:
            file.write(SCENARIO)
        self.script = os.path.join(work, "sweep.sh")
        with open(self.script, "w", encoding="utf-8") as file:
            file.write(sbatch_file())

    def one_machine(self):
        """The same sweep on this machine, in one process: its failure lines and seconds."""
        folder = os.path.join(self.work, "one")
        os.makedirs(folder)
        started = time.monotonic()
        result = run(self.weft, "sweep", self.scenario, "--seeds", self.seeds, "--keep-going", "--jsonl", "one.jsonl",
                     cwd=folder, check=False)
        seconds = time.monotonic() - started
        assert result.returncode == 1, f"the one-machine sweep exited {result.returncode}: {result.stderr}"
        return failure_lines(whole_lines(os.path.join(folder, "one.jsonl"))), seconds

    def submit(self, array, *options):
        """Submits sweep.sh as an array; returns the job id and the folder the shards go to."""
        folder = os.path.join(self.work, "array-" + re.sub(r"\W", "_", array))
        os.makedirs(folder, exist_ok=True)
        # The variables go through sbatch's own environment: --export=ALL,NAME=VALUE would make
        # Slurm build the job's environment from a login shell of root (--get-user-env), seconds each.
        environment = dict(os.environ, WEFT=self.weft, SCENARIO=self.scenario, SEEDS=self.seeds)
        result = run("sbatch", "--parsable", f"--array={array}", f"--chdir={folder}", *options, self.script,
                     env=environment)
        return result.stdout.strip().split(";")[0], folder

    def merge(self, folder, pattern="shard-*.jsonl"):
        files = sorted(glob.glob(os.path.join(folder, pattern)))
        assert files, f"no {pattern} in {folder}"
        return run(self.weft, "merge", *files, check=False)


def wait_until_gone(job, seconds=240):
    deadline = time.monotonic() + seconds
    while run("squeue", "--noheader", "--array", f"--jobs={job}", check=False).stdout.strip():
        assert time.monotonic() < deadline, f"job {job} still queued after {seconds} s"
        time.sleep(0.2)


def state_of(task):
    return run("squeue", "--noheader", "--array", f"--jobs={task}", "--format=%T", check=False).stdout.strip()


def wait_for(what, ready, seconds=120):
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.1)


def lines_in(path):
    try:
        with open(path, encoding="utf-8") as file:
            return file.read().count("\n")
    except FileNotFoundError:
        return 0


def summary_of(merged):
    return json.loads(merged.stdout.splitlines()[-1])


def check_same_as_one_machine(sweep, folder, expected):
    for path in glob.glob(os.path.join(folder, "shard-*.jsonl")):
        whole_lines(path)
    merged = sweep.merge(folder)
    assert merged.returncode == 1, f"merge exited {merged.returncode}: {merged.stderr}"
    assert merged.stderr == "", merged.stderr
    summary = summary_of(merged)
    assert summary["complete"] is True, summary
    got = failure_lines(merged.stdout)
    assert got == expected, f"{len(got)} merged failure lines differ from the one-machine sweep's {len(expected)}"
    return summary


def case_arrays(sweep, array):
    expected, one_seconds = sweep.one_machine()
    started = time.monotonic()
    job, folder = sweep.submit(array)
    wait_until_gone(job)
    array_seconds = time.monotonic() - started
    summary = check_same_as_one_machine(sweep, folder, expected)
    print(f"array {array}: {summary['shard_count']} shards, {summary['failures']} failures of {summary['executions']} "
          f"seeds, {array_seconds:.1f} s from sbatch to the last task's end; one machine, one process: "
          f"{one_seconds:.1f} s")


def case_cancelled(sweep):
    # A task cancelled before it starts: its shard is missing.
    job, folder = sweep.submit("0-3", "--hold")
    run("scancel", f"{job}_2")
    run("scontrol", "release", job)
    wait_until_gone(job)
    assert not glob.glob(os.path.join(folder, "shard-2.jsonl*")), "the cancelled task wrote a file"
    merged = sweep.merge(folder)
    assert merged.returncode == 1, f"merge exited {merged.returncode}"
    assert "1 of 4 shards missing (no file holds them): [\"2/4\"]" in merged.stderr, merged.stderr
    summary = summary_of(merged)
    assert summary["complete"] is False and summary["missing_shards"] == ["2/4"], summary

    # Tasks cancelled while they run: SIGTERM; each writes its summary, incomplete.
    long = Sweep(sweep.weft, os.path.join(sweep.work, "long"), "0..99999999")
    job, folder = long.submit("0-1")
    for task in (0, 1):
        wait_for(f"task {task} to write failures",
                 lambda: lines_in(os.path.join(folder, f"shard-{task}.jsonl.partial")) >= 3)
    run("scancel", job)
    wait_until_gone(job)
    merged = long.merge(folder)
    assert merged.returncode == 1, f"merge exited {merged.returncode}"
    summary = summary_of(merged)
    assert summary["complete"] is False and summary["unfinished_shards"] == ["0/2", "1/2"], summary
    assert summary["interrupted"] is True, summary
    for task in (0, 1):
        shard = json.loads(whole_lines(os.path.join(folder, f"shard-{task}.jsonl")).splitlines()[-1])
        assert shard["interrupted"] is True and "incomplete" in shard, shard
    print(f"cancelled: a pending task's shard is missing; running tasks stopped by SIGTERM after "
          f"{summary['executions']} seeds, their summaries incomplete")


def case_requeued(sweep):
    expected, one_seconds = sweep.one_machine()
    started = time.monotonic()
    job, folder = sweep.submit("0-3", "--requeue")
    partial = os.path.join(folder, "shard-1.jsonl.partial")
    wait_for("task 1 to write failures", lambda: lines_in(partial) >= 3)
    run("scontrol", "requeue", f"{job}_1")
    requeued = time.monotonic()
    requeued_second = int(time.time())
    # Slurm holds a requeued job back for two minutes (its BeginTime); let it start now, but not
    # within the second of the requeue: slurmd revokes the first run's credential at that second
    # and refuses any credential of the same job made at or before it ("Job credential revoked",
    # the task then fails without running; seen in CI).
    wait_for("task 1 to be pending again", lambda: state_of(f"{job}_1") == "PENDING", 60)
    wait_for("two seconds past the requeue", lambda: time.time() >= requeued_second + 2, 10)
    run("scontrol", "update", f"JobId={job}_1", "StartTime=now")
    wait_until_gone(job)
    print(f"requeue: {requeued - started:.1f} s to task 1's requeue, {time.monotonic() - requeued:.1f} s more to the end; "
          f"one machine: {one_seconds:.1f} s")
    restarts = re.search(r"Restarts=(\d+)", run("scontrol", "show", "job", f"{job}_1").stdout)
    assert restarts and int(restarts.group(1)) >= 1, "task 1 was not requeued"
    assert not os.path.exists(partial), "the requeued task left its .partial"
    summary = check_same_as_one_machine(sweep, folder, expected)
    print(f"requeued: task 1 ran {int(restarts.group(1)) + 1} times; merged {summary['executions']} seeds once")


def arguments(usage):
    """WEFT, WORK_FOLDER and CASE from the command line; None when there is no local Slurm."""
    if len(sys.argv) != 4:
        sys.exit(usage)
    if not os.environ.get("WEFT_LOCAL_SLURM") or not shutil.which("sbatch"):
        print("skipped: no local Slurm (run the slurm label under scripts/local-slurm)")
        return None
    return sys.argv[1:]


def main():
    given = arguments(__doc__)
    if given is None:
        return SKIPPED
    weft, work, case = given
    # Seeds per case: enough that a task runs a while (to be cancelled or requeued mid-way).
    seeds = {"array": "0..3999", "step": "0..3999", "throttled": "0..3999", "cancelled": "0..3999",
             "requeued": "0..39999"}[case]
    sweep = Sweep(weft, work, seeds)
    if case == "array":
        case_arrays(sweep, "0-3")
    elif case == "step":
        case_arrays(sweep, "0-12:4")
    elif case == "throttled":
        case_arrays(sweep, "0-3%1")
    elif case == "cancelled":
        case_cancelled(sweep)
    else:
        case_requeued(sweep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
