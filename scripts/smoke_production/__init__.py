"""Smoke test of the production shape (`make test-production`, run by `.ci/run`).

A throwaway PostgreSQL cluster and Redis server, two gunicorn instances (debug off, behind a
pretend TLS proxy) and one job worker; then, over HTTP only, the steps of the topology issue:
a rate limit shared by both servers, a session shared by both, concurrent first lists, a web
import on one server seen on the other, a worker killed mid-import, a server killed under load,
Redis stopped, PostgreSQL restarted. Each step prints what it measured; any failed check ends
the run with exit status 1. Everything it starts is stopped and removed at the end.

Run: `.venv/bin/python -m scripts.smoke_production` (needs initdb/pg_ctl/postgres and
redis-server on PATH; as root, PostgreSQL runs as the `postgres` user).
"""
