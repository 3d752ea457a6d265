"""gunicorn settings for the `web:` process of the Procfile (`gunicorn --config`).

Every value can be changed from the environment without editing this file. The access log is
the app's own JSON request line (core.observability), so gunicorn writes none of its own.
"""

import os

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = "gthread"
# A whole suggestion list of a 50,000-node plan can take seconds on a cold cache.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
accesslog = None
errorlog = "-"
# Recycle workers now and then: a long-lived worker keeps the peak memory of its largest answer.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = 200
