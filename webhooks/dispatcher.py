"""The delivery dispatcher (`manage.py deliver_webhooks`): the webhook delivery jobs, on their
own queue, run by a small pool of threads with at most one attempt in flight per endpoint.

`manage.py db_worker` runs its jobs one at a time, so on it one slow receiver (an attempt may
take the whole 10 s deadline, and an account may queue several test events) delayed every other
endpoint's events behind it. Here the claim skips the jobs of endpoints that have an attempt in
flight, in this process (`Dispatcher._in_flight`) or in another (a delivery of the endpoint
holds its attempt's lease), so a slow or busy receiver occupies at most one thread and every other
endpoint's next job is taken by a free one: it waits for no one unless every thread is busy with
a different slow endpoint (docs/subsystems/webhooks.md "Dispatcher: one slow receiver delays nobody
else").

The jobs stay django-tasks-db jobs, claimed under its lock in runs of one endpoint's due jobs
(webhooks.delivery_runs: their leases taken with the claim, posted over one kept-alive
connection, recorded together), and a test can still run them one at a time in-line, through
`webhook_deliver`, with `db_worker --queue-name default,webhooks --batch`.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

from django.conf import settings
from django.db import close_old_connections, connections
from django.db.utils import DatabaseError

from planning.tasks import pending_plans_sync
from webhooks.delivery_runs import Run, delivery_run, delivery_run_claim

logger = logging.getLogger("maintplan.webhooks")


class Dispatcher:
    """Claims runs of one endpoint's delivery jobs while a thread is free and runs each on the
    pool (webhooks.delivery_runs)."""

    def __init__(self, *, threads: int, interval: float, worker_id: str) -> None:
        self.threads = threads
        self.interval = interval
        self.worker_id = worker_id
        self.stopping = threading.Event()
        self._free = threading.Semaphore(threads)
        self._lock = threading.Lock()
        self._in_flight: dict[UUID, int] = {}
        self._running = 0
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="webhooks")
        # Set when a run ends: its endpoint's next jobs are claimed at once, not a round later.
        self._ended = threading.Event()

    def sweep(self) -> None:
        """The sweeper thread: every PENDING_SYNC_SWEEP_SECONDS, syncs the plans with changes no
        sync has taken in (planning.tasks.pending_plans_sync), so a change made in the admin, a
        shell or raw SQL has its events delivered within seconds without anyone listing."""
        while not self.stopping.wait(settings.PENDING_SYNC_SWEEP_SECONDS):
            try:
                pending_plans_sync()
            except Exception:
                logger.exception("the sweep for pending changes failed; the next one retries")
            finally:
                connections.close_all()  # this thread's own connection

    def run(self, *, batch: bool = False) -> None:
        """Dispatches until `stopping` is set (or, with `batch`, until no job is due and none is
        running); then waits for the attempts in flight (each ends within its deadline). Without
        `batch`, a sweeper thread syncs plans with pending changes meanwhile (`sweep`)."""
        sweeper = None if batch else threading.Thread(target=self.sweep, name="sweep", daemon=True)
        if sweeper is not None:
            sweeper.start()
        try:
            while not self.stopping.is_set():
                if not self._free.acquire(timeout=self.interval):
                    continue
                self._ended.clear()
                with self._lock:
                    busy, idle = set(self._in_flight), self._running == 0
                run = self._claim(busy)
                if run is None:
                    self._free.release()
                    if batch and idle:  # idle before the claim: a run ending meanwhile
                        break  # would have left its endpoint out of it

                    self._ended.wait(self.interval)
                    continue
                self._pool.submit(self._run, run)
        finally:
            self.stopping.set()
            if sweeper is not None:
                sweeper.join()
            self._pool.shutdown(wait=True)
            connections.close_all()

    def _claim(self, busy: set[UUID]) -> Run | None:
        close_old_connections()
        try:
            run = delivery_run_claim(worker_id=self.worker_id, busy=busy)
        except DatabaseError:
            # The database restarting or unreachable: keep going and look again, rather than
            # end the process (each round opens a fresh connection after this).
            logger.warning("webhook dispatcher: the database is unavailable", exc_info=True)
            connections.close_all()
            return None
        if run is not None:
            endpoint_id = run.endpoint_id
            with self._lock:
                self._running += 1
                if endpoint_id is not None:
                    self._in_flight[endpoint_id] = self._in_flight.get(endpoint_id, 0) + 1
        return run

    def _run(self, run: Run) -> None:
        endpoint_id = run.endpoint_id
        try:
            delivery_run(run, stopping=self.stopping)
        except Exception:
            logger.exception("a run of webhook deliveries to %s could not be recorded", endpoint_id)
        finally:
            connections.close_all()  # this thread's own connection
            with self._lock:
                self._running -= 1
                if endpoint_id is not None:
                    left = self._in_flight.pop(endpoint_id) - 1
                    if left:
                        self._in_flight[endpoint_id] = left
            self._free.release()
            self._ended.set()
