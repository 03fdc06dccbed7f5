"""A batch as it is played on a backend: the chunks sent out, their tallies merged, their records
kept in game order, the progress shown, and where the time went. Ctrl-C keeps what finished."""
from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections import deque

from ..analysis.tally import Tally
from .chunks import Batch, play_chunk
from .options import usable_cores
from .output import err
from .workers import DaskCluster, Processes

CHUNK_MAX = 500             # games per chunk at most: progress moves, and an interruption loses little
CHUNKS_PER_WORKER = 32      # enough chunks that the last ones finish together: no worker waits long at the end
PARALLEL_FROM = 20          # fewer games than this are played in-process whatever --jobs says
POLL = 0.01                 # seconds between two looks at the next chunk (and at Ctrl-C)


class InProcess:
    """`--jobs 1`: every game in this process, tallied straight into the run."""

    workers, window = 1, 1

    def close(self, interrupted: bool = False) -> None:
        pass


@contextlib.contextmanager
def backend_for(jobs: int | None, dask: str | None, games: int | None):
    """The backend of a batch of `games` (None: not known yet) for --jobs (None: every usable core)
    and --dask."""
    if jobs is not None and dask and dask != "local":
        err(f"warning: --jobs {jobs} is not used with --dask {dask}: the cluster's workers play the games")
    jobs = usable_cores() if jobs is None else jobs
    if dask:
        backend = DaskCluster(dask, jobs)
    elif jobs > 1 and (games is None or games >= PARALLEL_FROM):
        backend = Processes(jobs)
    else:
        backend = InProcess()
    backend.interrupted = False             # set by a batch stopped with Ctrl-C
    failed = True
    try:
        yield backend
        failed = False
    finally:
        backend.close(failed or backend.interrupted)    # stop the workers at once, not after the queue


class Run:
    """What a batch has played so far: the tally, the records handed on, the work of every worker."""

    def __init__(self, batch: Batch, tally: Tally | None = None, records=None, progress=None,
                 started: float | None = None):
        self.batch, self.records, self.progress = batch, records, progress
        self.tally = tally or Tally(batch.players, list(batch.bots))
        self.before = self.tally.games  # games of a results file resumed: not played by this run
        self.work: dict = {}            # worker → [games, seconds]
        self.asked = lambda: False      # has Ctrl-C come (while playing)?
        self.start = time.perf_counter() if started is None else started

    def play(self, backend, spans: list) -> None:
        """Play the games of `spans` ([(first, stop)]). Ctrl-C raises KeyboardInterrupt only between two
        games or chunks, once every finished one is tallied and handed on: nothing is half-kept."""
        with deferred_ctrl_c() as asked:
            self.asked = asked
            if isinstance(backend, InProcess):
                for first, stop in spans:
                    self.note_work(play_chunk(self.batch, first, stop, into=self.tally, each=self.one))
            else:
                self.play_chunks(backend, spans)

    def play_chunks(self, backend, spans: list) -> None:
        """The spans cut into chunks, a window of them in flight, taken in game order."""
        chunks = iter(chunked(spans, chunk_size(sum(b - a for a, b in spans), backend.workers)))
        pending: deque = deque()
        while True:
            while len(pending) < backend.window and (span := next(chunks, None)) is not None:
                pending.append(backend.submit(self.batch, *span))
            if not pending:
                return
            while not backend.wait(pending[0], POLL):
                if self.asked():
                    self.stop(backend, pending)
            self.take(backend.result(pending.popleft()))

    def stop(self, backend, pending: deque) -> None:
        """Ctrl-C: keep the chunks that finished out of order too (a resume fills the gaps), then stop."""
        for handle in pending:
            if backend.ready(handle):
                self.take(backend.result(handle))
        raise KeyboardInterrupt

    def one(self, record: dict) -> None:
        """One game played in-process (already in the tally); Ctrl-C stops here, between two games."""
        if self.records is not None:
            self.records(record)
        if self.progress is not None:
            self.progress(self.tally.games)
        if self.asked():
            raise KeyboardInterrupt

    def take(self, chunk) -> None:
        """A worker's chunk into the run, in the order they are taken."""
        self.note_work(chunk)
        self.tally.merge(chunk.tally)
        for record in chunk.records or ():
            self.records(record)
        if self.progress is not None:
            self.progress(self.tally.games)

    def note_work(self, chunk) -> None:
        work = self.work.setdefault(chunk.worker, [0, 0.0])
        work[0] += chunk.stop - chunk.first
        work[1] += chunk.seconds

    def timing(self, workers: int) -> dict:
        """Seconds and games per second in all and per worker, and the share of the time outside games."""
        wall = time.perf_counter() - self.start
        rows = [{"worker": name, "games": g, "seconds": s, "games_per_second": g / max(s, 1e-9)}
                for name, (g, s) in sorted(self.work.items())]
        busy = sum(r["seconds"] for r in rows)
        slots = max(workers, len(rows), 1)
        played = self.tally.games - self.before
        return {"seconds": wall, "games": played, "games_per_second": played / max(wall, 1e-9),
                "workers": rows, "outside_games": max(0.0, 1 - busy / (slots * max(wall, 1e-9)))}


@contextlib.contextmanager
def deferred_ctrl_c():
    """Within: Ctrl-C (SIGINT) is noted, not raised; yields a function that tells whether it came.
    Outside the main thread (a library caller's thread) signals cannot be caught: nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    came = []
    before = signal.signal(signal.SIGINT, lambda *_: came.append(True))
    try:
        yield lambda: bool(came)
    finally:
        signal.signal(signal.SIGINT, before)


def chunk_size(games: int, workers: int) -> int:
    return max(1, min(CHUNK_MAX, math.ceil(games / (workers * CHUNKS_PER_WORKER))))


def chunked(spans: list, size: int):
    """The spans cut into chunks of at most `size` games, in game order."""
    for first, stop in spans:
        for a in range(first, stop, size):
            yield a, min(stop, a + size)


def spans_missing(done, first: int, stop: int) -> list:
    """The runs of consecutive game indexes in [first, stop) that are not in `done`."""
    out, start = [], None
    for g in range(first, stop):
        if g in done:
            if start is not None:
                out.append((start, g))
                start = None
        elif start is None:
            start = g
    if start is not None:
        out.append((start, stop))
    return out
