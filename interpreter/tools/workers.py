"""Where a batch's chunks are played: in this process, in worker processes on this machine
(`--jobs N`), or on a Dask cluster (`--dask ADDRESS`, `--dask local`). Each backend takes chunks
(`submit`) and gives back their results (`result`) in the order asked for."""
from __future__ import annotations

import gc
import importlib
import multiprocessing
import signal
import sys
import time

from ..errors import UsageError, WorkerError
from .chunks import play_chunk
from .output import err

WINDOW = 3                  # chunks in flight per worker: nobody waits while the next one is sent


def ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and keeps what they finished."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Processes:
    """`--jobs N`: N worker processes on this machine (forked where that is safe: they start with the
    program the parent compiled)."""

    def __init__(self, jobs: int):
        method = "fork" if sys.platform.startswith("linux") else "spawn"
        gc.freeze()         # the parent's objects are left alone by the workers' collector: fewer copied pages
        try:
            self.pool = multiprocessing.get_context(method).Pool(jobs, initializer=ignore_sigint)
        finally:
            gc.unfreeze()
        self.workers, self.window = jobs, WINDOW * jobs
        # the pool's own list: a worker that dies is replaced there, and its chunk never comes back
        self.started = list(self.pool._pool)

    def submit(self, batch, first: int, stop: int):
        return self.pool.apply_async(play_chunk, (batch, first, stop))

    @staticmethod
    def ready(handle) -> bool:
        return handle.ready()

    def wait(self, handle, seconds: float) -> bool:
        """Wait at most `seconds` for the chunk; is it done? A worker gone is an error, not a wait for ever."""
        handle.wait(seconds)
        if handle.ready():
            return True
        for worker in self.started:
            if worker.exitcode is not None:
                raise WorkerError(lost(worker.exitcode))
        return False

    @staticmethod
    def result(handle):
        return handle.get()

    def close(self, interrupted: bool = False) -> None:
        if interrupted:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()


def lost(code: int) -> str:
    """What a worker's exit code says happened, and what to do."""
    how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
    why = ", perhaps for lack of memory" if code == -9 else ""
    return (f"a worker process stopped ({how}{why}) before its games were done: run again, with fewer "
            "--jobs if memory is short (with --results and --resume, the games finished are kept)")


class DaskCluster:
    """`--dask ADDRESS`: a running Dask scheduler; `--dask local`: a LocalCluster of `jobs` worker
    processes on 127.0.0.1, for trying it."""

    def __init__(self, address: str, jobs: int):
        try:                # an optional extra: imported only when a batch asks for it
            distributed = importlib.import_module("dask.distributed")
        except ImportError:
            raise UsageError("--dask needs Dask: pip install -e '.[dask]' (dask[distributed])") from None
        self.cluster = None
        try:
            if address == "local":
                self.cluster = distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address=None)
                self.client = distributed.Client(self.cluster)
            else:
                self.client = distributed.Client(address, timeout=20)
        except (OSError, TimeoutError, ValueError) as exc:
            self.close()
            raise UsageError(f"--dask {address}: cannot reach the Dask scheduler ({exc}); start one with "
                             "`dask scheduler` and workers with `dask worker ADDRESS --nthreads 1`") from None
        threads = sum(w.get("nthreads", 1) for w in self.client.scheduler_info()["workers"].values())
        if not threads:
            err(f"--dask {address}: the scheduler has no workers yet; the games start when one connects "
                "(`dask worker ADDRESS --nthreads 1`)")
        self.workers = max(1, threads)
        self.window = WINDOW * self.workers

    def submit(self, batch, first: int, stop: int):
        return self.client.submit(play_chunk, batch, first, stop, pure=False)

    @staticmethod
    def ready(handle) -> bool:
        return handle.done()

    @staticmethod
    def wait(handle, seconds: float) -> bool:
        """Wait at most `seconds` for the chunk; is it done?"""
        if not handle.done():
            time.sleep(seconds)
        return handle.done()

    @staticmethod
    def result(handle):
        return handle.result()

    def close(self, interrupted: bool = False) -> None:
        if getattr(self, "client", None) is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
