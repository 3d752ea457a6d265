"""The public integrator API under /api/v1/: every `/api/v1/platform` endpoint and the key check."""
