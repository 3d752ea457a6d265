"""The /api/v1 platform every app builds on: the envelope, the error catalog and its handler,
the JSON parser, the request-body limit, the throttles, the catch-all 404, the public-schema
helpers and the base view of the integrator operations. It imports only the ground-floor
`core` app (docs/architecture.md "Layers")."""
