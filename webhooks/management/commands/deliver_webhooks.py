"""`manage.py deliver_webhooks [--threads N] [--interval S] [--batch]`: the delivery dispatcher
(webhooks/dispatcher.py), the second process beside `manage.py db_worker` (Procfile,
`make run`). SIGTERM or Ctrl-C stops claiming and waits for the attempts in flight, each of
which ends within its 10 s deadline."""

from __future__ import annotations

import signal
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils.crypto import get_random_string

from webhooks.dispatcher import Dispatcher


class Command(BaseCommand):
    help = "Runs the webhook delivery jobs: a few at once, at most one per endpoint."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--threads",
            type=int,
            default=settings.WEBHOOK_DELIVERY_THREADS,
            help="attempts in flight at once (default: WEBHOOK_DELIVERY_THREADS)",
        )
        parser.add_argument(
            "--interval", type=float, default=0.5, help="seconds between looks when idle"
        )
        parser.add_argument(
            "--batch",
            action="store_true",
            help="run the due jobs, then exit once none is due and none is in flight",
        )

    def handle(
        self, *args: Any, threads: int, interval: float, batch: bool, **options: Any
    ) -> None:
        dispatcher = Dispatcher(
            threads=max(threads, 1),
            interval=max(interval, 0.05),
            worker_id="webhooks-" + get_random_string(16),
        )

        def stop(signum: int, frame: FrameType | None) -> None:
            dispatcher.stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        dispatcher.run(batch=batch)
