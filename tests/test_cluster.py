"""Beyond one machine (manual, "Every core and a cluster"): a batch sent to a Dask cluster gives the
numbers of `--jobs 1`, on a LocalCluster and on a scheduler and workers started by hand on
127.0.0.1, whose workers have no copy of the ruleset file. Behind the `cluster` marker (needs the
dask extra: pip install -e '.[dask]')."""
import importlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

from interpreter.tools.cli import main

pytestmark = pytest.mark.cluster

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R_ECO = os.path.join(ROOT, "rulesets", "r_eco.yaml")
LIXO = os.path.join(ROOT, "rulesets", "lixo.yaml")
TIMING = ("seconds", "games_per_second", "timing")
DASK = os.path.join(os.path.dirname(sys.executable), "dask")


def simulated(capsys, *args) -> dict:
    code = main(["simulate", *map(str, args), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    return doc


def untimed(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in TIMING}


def test_a_batch_on_a_local_cluster_of_two_worker_processes_gives_the_numbers_of_jobs_1(capsys):
    args = (R_ECO, "-n", 4, "--games", 120, "--seed", 7, "--bots", "greedy,random,random,random", "--track")
    on_cluster = simulated(capsys, *args, "--dask", "local", "--jobs", 2)
    assert untimed(on_cluster) == untimed(simulated(capsys, *args, "--jobs", 1))
    assert len(on_cluster["timing"]["workers"]) == 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def cluster_by_hand(tmp_path):
    """`dask scheduler` and two `dask worker` processes on 127.0.0.1, started in an empty folder; they
    stop by themselves (the scheduler when idle, the workers when the scheduler is gone)."""
    assert os.path.exists(DASK), "the dask extra is not installed: pip install -e '.[dask]'"
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"cwd": tmp_path, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
                               "--idle-timeout", "300"], **quiet)]
    procs += [subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard",
                                "--death-timeout", "30"], **quiet) for _ in range(2)]
    try:
        yield address, procs
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            p.wait(timeout=30)


def wait_for_workers(address: str, n: int) -> None:
    distributed = importlib.import_module("dask.distributed")
    with distributed.Client(address, timeout=60) as client:
        client.wait_for_workers(n, timeout=60)


def test_a_batch_on_a_scheduler_and_workers_started_by_hand_gives_the_numbers_of_jobs_1(capsys, tmp_path,
                                                                                       cluster_by_hand):
    address, procs = cluster_by_hand
    wait_for_workers(address, 2)
    here = tmp_path / "rules"               # the file exists only on the client: the workers get its text
    here.mkdir()
    shutil.copy(os.path.join(ROOT, "rulesets", "lixo.yaml"), here / "lixo.yaml")
    (here / "variant.yaml").write_text("extends: lixo.yaml\n")
    os.chdir(here)
    try:
        args = ("variant.yaml", "-n", 3, "--games", 90, "--seed", 2)
        on_cluster = simulated(capsys, *args, "--dask", address)
        alone = simulated(capsys, *args, "--jobs", 1)
    finally:
        os.chdir(ROOT)
    assert untimed(on_cluster) == untimed(alone)
    assert len(on_cluster["timing"]["workers"]) == 2 and all(p.poll() is None for p in procs)


def test_jobs_with_a_cluster_address_is_said_to_be_unused(capsys, cluster_by_hand):
    address, procs = cluster_by_hand
    wait_for_workers(address, 2)
    assert main(["simulate", R_ECO, "-n", "2", "--games", "4", "--jobs", "3", "--dask", address]) == 0
    assert f"--jobs 3 is not used with --dask {address}" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_a_usage_error(capsys):
    start = time.monotonic()
    code = main(["simulate", R_ECO, "-n", "2", "--games", "3", "--dask", f"tcp://127.0.0.1:{free_port()}"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot reach the Dask scheduler" in err and "Traceback" not in err
    assert time.monotonic() - start < 60
