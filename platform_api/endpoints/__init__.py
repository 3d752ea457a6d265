"""Every route of the public API, one module per resource. Each module is a leaf: only
platform_api.urls imports it, and what two of them share lives in a module meant for it
(platform_api.base, .params, .paging, .idempotency, .serializers)."""
