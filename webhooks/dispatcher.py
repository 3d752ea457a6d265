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

The jobs stay django-tasks-db jobs (claimed under the same lock, run and marked by its worker
code), so `webhook_deliver` keeps its claim, lease and retry design, and a test can still run
them in-line with `db_worker --queue-name default,webhooks --batch`.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

from django.conf import settings
from django.db import close_old_connections, connections
from django.db.models import BigIntegerField, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.db.utils import DatabaseError, OperationalError
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from planning.tasks import pending_plans_sync
from webhooks.models import DeliveryStatus, WebhookDelivery

logger = logging.getLogger("maintplan.webhooks")

QUEUE_NAME = "webhooks"
BACKEND_NAME = "default"


def delivery_job_claim(
    *, worker_id: str, busy: set[UUID]
) -> tuple[DBTaskResult, UUID | None] | None:
    """Claims the first due delivery job whose endpoint has no attempt in flight (in `busy`, or
    holding a delivery lease anywhere); returns it with its endpoint, or None."""
    leased = WebhookDelivery.objects.filter(
        lease_expires_at__gt=timezone.now(), status=DeliveryStatus.PENDING
    ).values("endpoint_id")
    blocked = WebhookDelivery.objects.filter(
        Q(endpoint_id__in=leased) | Q(endpoint_id__in=busy), status=DeliveryStatus.PENDING
    ).values("pk")
    jobs = (
        DBTaskResult.objects.ready()
        .filter(backend_name=BACKEND_NAME, queue_name=QUEUE_NAME)
        .annotate(
            delivery_pk=Cast(KT("args_kwargs__kwargs__delivery_id"), output_field=BigIntegerField())
        )
        .exclude(delivery_pk__in=blocked)
    )
    try:
        if not jobs.exists():  # idle rounds take no lock (on SQLite a claim locks the database)
            return None
        with exclusive_transaction(jobs.db):
            job = jobs.get_locked()
            if job is None:
                return None
            job.claim(worker_id)
    except OperationalError as error:
        if is_locked_database_exception(error):
            return None  # SQLite busy with another writer: try again on the next round
        raise
    endpoint_id = (
        WebhookDelivery.objects.filter(pk=job.args_kwargs["kwargs"].get("delivery_id"))
        .values_list("endpoint_id", flat=True)
        .first()
    )
    return job, endpoint_id


class Dispatcher:
    """Claims delivery jobs while a thread is free and runs each on the pool."""

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
        # django-tasks-db's own run-and-mark code (signals, success and failure records).
        self._runner = Worker(
            queue_names=[QUEUE_NAME],
            interval=interval,
            batch=False,
            backend_name=BACKEND_NAME,
            startup_delay=False,
            max_tasks=None,
            worker_id=worker_id,
            excluded_queue_names=[],
        )

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
                claimed = self._claim()
                if claimed is None:
                    self._free.release()
                    if batch and self._idle():
                        break
                    self.stopping.wait(self.interval)
                    continue
                self._pool.submit(self._run_job, *claimed)
        finally:
            self.stopping.set()
            if sweeper is not None:
                sweeper.join()
            self._pool.shutdown(wait=True)
            connections.close_all()

    def _idle(self) -> bool:
        with self._lock:
            return self._running == 0

    def _claim(self) -> tuple[DBTaskResult, UUID | None] | None:
        close_old_connections()
        with self._lock:
            busy = set(self._in_flight)
        try:
            claimed = delivery_job_claim(worker_id=self.worker_id, busy=busy)
        except DatabaseError:
            # The database restarting or unreachable: keep going and look again, rather than
            # end the process (each round opens a fresh connection after this).
            logger.warning("webhook dispatcher: the database is unavailable", exc_info=True)
            connections.close_all()
            return None
        if claimed is not None:
            _job, endpoint_id = claimed
            with self._lock:
                self._running += 1
                if endpoint_id is not None:
                    self._in_flight[endpoint_id] = self._in_flight.get(endpoint_id, 0) + 1
        return claimed

    def _run_job(self, job: DBTaskResult, endpoint_id: UUID | None) -> None:
        try:
            self._runner.run_task(job)
        except Exception:
            logger.exception("webhook delivery job %s could not be recorded", job.pk)
        finally:
            connections.close_all()  # this thread's own connection
            with self._lock:
                self._running -= 1
                if endpoint_id is not None:
                    left = self._in_flight.pop(endpoint_id) - 1
                    if left:
                        self._in_flight[endpoint_id] = left
            self._free.release()
