#!/usr/bin/env python3
"""`weft-mpi explore` over 3 MPI ranks against `weft explore --jobs 1` (docs/exploring.md).

Usage: mpi_test.py WEFT WEFT_MPI WORK_FOLDER CASE, CASE one of:
  ok          readers on 13 cores (4,096 classes): the same complete runs, verdicts and result
  failing     a deadlocking ring: the verdict one thread finds, its reproduce line printed once,
              naming the plain weft, and replaying the deadlock
  keep-going  the same ring explored to its end: the same runs and verdict tallies; and
              `weft-mpi --help` and `--version` answered once (status 0), another command
              refused (status 2)
  slurm       the sbatch file of docs/exploring.md (srun --mpi=pmix) on the local Slurm of
              scripts/local-slurm, as 3 tasks: the ok case's figures in its output
WEFT_MPI is empty when the build has no weft-mpi (CMake found no MPI): then it exits 77
(skipped), as it does without mpirun, or for `slurm` without the local Slurm. scripts/with-mpi
installs OpenMPI and builds weft-mpi first.
"""
import os
import re
import shutil
import subprocess
import sys

SKIPPED = 77
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
RANKS = 3
# mpirun as root needs its consent; --oversubscribe lets 3 ranks share fewer cores.
MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(RANKS)]

OK = [os.path.join(SOURCE, "scenarios", "readers6.toml"), "--set", "topology.cores_per_device=13"]
DEADLOCK = [os.path.join(SOURCE, "scenarios", "barrier_deadlock.toml")]


def run(command, **options):
    return subprocess.run(command, capture_output=True, text=True, timeout=240, **options)


def fail(message, *results):
    for result in results:
        message += f"\n--- {' '.join(result.args)}: exit {result.returncode}\n{result.stdout}{result.stderr}"
    sys.exit(message)


def figures(text):
    """What must not depend on how many ranks ran: complete runs, verdict lines, result line."""
    complete = re.search(r"^runs:\s+(\d+) complete", text, re.M)
    verdicts = re.findall(r"^  (\w+): (\d+) runs?$", text, re.M)
    result = re.search(r"^result:.*$", text, re.M)
    if not complete or not verdicts or not result:
        sys.exit(f"not an explore report:\n{text}")
    return int(complete.group(1)), sorted(verdicts), result.group(0)


def reproduce_lines(text):
    return [line.strip() for line in text.splitlines() if re.match(r"^\s+\S*weft replay ", line)]


def compare(weft, weft_mpi, arguments):
    one = run([weft, "explore", *arguments, "--jobs", "1"])
    shared = run([*MPIRUN, weft_mpi, "explore", *arguments])
    if shared.returncode != one.returncode:
        fail("weft-mpi's exit status is not one thread's", one, shared)
    if figures(shared.stdout) != figures(one.stdout):
        fail("weft-mpi's runs and verdicts are not one thread's", one, shared)
    ranks = re.search(r"^ranks:\s+(\d+) ranks", shared.stdout, re.M)
    if not ranks or int(ranks.group(1)) != RANKS:
        fail(f"weft-mpi's report does not say {RANKS} ranks shared it", shared)
    return one, shared


def case_ok(weft, weft_mpi):
    _, shared = compare(weft, weft_mpi, OK)
    complete, verdicts, _ = figures(shared.stdout)
    if complete != 4096 or verdicts != [("ok", "4096")]:
        fail("readers on 13 cores has 4,096 classes, all ok", shared)


def case_failing(weft, weft_mpi):
    all_of = run([weft, "explore", *DEADLOCK, "--keep-going"])
    shared = run([*MPIRUN, weft_mpi, "explore", *DEADLOCK])
    if shared.returncode != 0 or "stopped at the first failure" not in shared.stdout:
        fail("weft-mpi did not stop at the expected deadlock", shared)
    found = [name for name, _ in figures(shared.stdout)[1]]
    if found != ["deadlock"] or "deadlock" not in [name for name, _ in figures(all_of.stdout)[1]]:
        fail("weft-mpi found another verdict than one thread's", all_of, shared)
    one = run([weft, "explore", *DEADLOCK])
    lines = sorted(set(reproduce_lines(shared.stdout)))
    if len(lines) != 1 or len(reproduce_lines(shared.stdout)) != len(reproduce_lines(one.stdout)):
        fail("weft-mpi printed its reproduce line other than one thread does (once by rank 0)", one, shared)
    command = lines[0].split()
    if os.path.realpath(command[0]) != os.path.realpath(weft):
        fail(f"the reproduce line names {command[0]}, not the plain weft {weft}", shared)
    replay = run(command)
    if replay.returncode != 0 or not re.search(r"^verdict:\s+deadlock", replay.stdout, re.M):
        fail("the reproduce line does not replay the deadlock", shared, replay)


def case_keep_going(weft, weft_mpi):
    compare(weft, weft_mpi, [*DEADLOCK, "--keep-going"])
    helped = run([*MPIRUN, weft_mpi, "--help"])
    if helped.returncode != 0 or helped.stdout.count("Usage: mpirun -np N weft-mpi explore") != 1:
        fail("weft-mpi --help is not answered once with status 0", helped)
    version = run([*MPIRUN, weft_mpi, "--version"])
    if version.returncode != 0 or not re.fullmatch(r"weft-mpi \S+\n", version.stdout):
        fail("weft-mpi --version is not answered once with status 0", version)
    refused = run([weft_mpi, "sweep", *DEADLOCK])
    if refused.returncode != 2 or "only `weft-mpi explore SCENARIO" not in refused.stderr:
        fail("weft-mpi does not refuse another command with status 2", refused)


def case_slurm(weft, weft_mpi, work):
    if not os.environ.get("WEFT_LOCAL_SLURM"):
        print("skipped: needs the Slurm of scripts/local-slurm (scripts/local-slurm ctest -L slurm)")
        sys.exit(SKIPPED)
    with open(os.path.join(SOURCE, "docs", "exploring.md"), encoding="utf-8") as doc:
        blocks = [b for b in re.findall(r"```sh\n(.*?)```", doc.read(), re.S) if "#SBATCH" in b and "weft-mpi" in b]
    if len(blocks) != 1:
        sys.exit(f"docs/exploring.md holds {len(blocks)} sbatch files running weft-mpi, not 1")
    script = os.path.join(work, "explore.sbatch")
    with open(script, "w", encoding="utf-8") as file:
        file.write(blocks[0])
    environment = dict(os.environ, PATH=os.path.dirname(weft_mpi) + os.pathsep + os.environ["PATH"])
    # --overcommit: the local Slurm has as many CPUs as this machine (2), the job asks for 3 tasks.
    output = os.path.join(work, "explore.out")
    submitted = run(["sbatch", "--wait", "--overcommit", f"--ntasks={RANKS}", "--chdir", work, "--output", output,
                     script, *OK], env=environment)
    if submitted.returncode != 0:
        fail("the Slurm job failed", submitted)
    with open(output, encoding="utf-8") as file:
        output = file.read()
    one = run([weft, "explore", *OK])
    if figures(output) != figures(one.stdout) or not re.search(rf"^ranks:\s+{RANKS} ranks", output, re.M):
        sys.exit(f"the Slurm job's exploration is not one thread's:\n{output}\n--- one thread:\n{one.stdout}")


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    weft, weft_mpi, work, case = sys.argv[1:]
    weft, work = os.path.abspath(weft), os.path.abspath(work)
    weft_mpi = os.path.abspath(weft_mpi) if weft_mpi else ""
    if not weft_mpi or shutil.which("mpirun") is None:
        print("skipped: this build has no weft-mpi, or there is no mpirun (scripts/with-mpi installs OpenMPI and builds it)")
        sys.exit(SKIPPED)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    cases = {"ok": case_ok, "failing": case_failing, "keep-going": case_keep_going}
    if case == "slurm":
        case_slurm(weft, weft_mpi, work)
    elif case in cases:
        cases[case](weft, weft_mpi)
    else:
        sys.exit(__doc__)
    print(f"{case}: ok")


if __name__ == "__main__":
    main()
