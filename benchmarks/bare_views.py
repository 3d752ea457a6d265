"""The baseline of the session-check benchmark: a plain Django view doing one indexed query.

It does the least a key check must do (hash the bearer token, fetch key and owner through the
unique index) with none of the product's checks, DRF, throttling or envelope, behind the same
middleware. The session check is measured against it.
"""

import hashlib

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from apikeys.models import ApiKey


@csrf_exempt
def bare_api_key_lookup(request: HttpRequest) -> JsonResponse:
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    digest = hashlib.sha256(token.encode()).hexdigest()
    try:
        api_key = ApiKey.objects.select_related("owner").get(key_hash=digest)
    except ApiKey.DoesNotExist:
        return JsonResponse({"found": False}, status=401)
    return JsonResponse({"found": True, "id": str(api_key.pk), "email": api_key.owner.email})
