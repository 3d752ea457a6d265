"""gzip for API answers whose client accepts it (`Accept-Encoding: gzip`).

Only bodies over `GZIP_MIN_BYTES` are compressed: below that the gzip header and the client's
work cost more than the bytes saved. Level 1: why, in docs/subsystems/integrator-api.md
"ETag, compression, rendering".

Every answer that may be compressed says `Vary: Accept-Encoding`, compressed or not, so a cache
never hands a gzip body to a client that did not ask for one.

A body whose start is the same for many answers (a whole suggestion list: everything up to the
request's trace id) can be compressed once: `gzip_start` deflates that start and ends it on a
byte boundary, and `gzip_finish` appends each answer's own end, compressed on its own, and the
gzip trailer (the CRC-32 continued over the end, the total length). The result is one ordinary
gzip member, which decompresses to the whole body.
"""

from __future__ import annotations

import gzip
import struct
import zlib
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

GZIP_MIN_BYTES = 1024
GZIP_LEVEL = 1
# The gzip header (RFC 1952): deflate, no flags, no time, level 1 ("fastest"), system unknown.
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x04\xff"


def gzip_accepted(request: HttpRequest) -> bool:
    """Whether `Accept-Encoding` allows gzip: named (or `*`) without `q=0`."""
    qualities: dict[str, float] = {}
    for item in request.headers.get("Accept-Encoding", "").split(","):
        coding, _, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        qualities[coding.strip().lower()] = quality
    if "gzip" in qualities:
        return qualities["gzip"] > 0
    return qualities.get("*", 0.0) > 0


def gzip_response(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Compresses the rendered `response` in place when the client accepts gzip and the body is
    over GZIP_MIN_BYTES."""
    patch_vary_headers(response, ("Accept-Encoding",))
    if (
        response.streaming
        or response.has_header("Content-Encoding")
        or len(response.content) <= GZIP_MIN_BYTES
        or not gzip_accepted(request)
    ):
        return response
    response.content = gzip.compress(response.content, compresslevel=GZIP_LEVEL, mtime=0)
    response["Content-Length"] = str(len(response.content))
    response["Content-Encoding"] = "gzip"
    return response


@dataclass(frozen=True)
class GzipStart:
    """The start of gzip bodies, compressed once: raw deflate blocks (none of them the last)
    ending on a byte boundary, with the CRC-32 and the length of what they hold."""

    deflated: bytes
    crc: int
    size: int


def _deflater() -> zlib._Compress:
    return zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)


def gzip_start(plain: bytes) -> GzipStart:
    deflater = _deflater()
    # A sync flush ends the blocks on a byte boundary without ending the stream, so other
    # blocks may follow.
    deflated = deflater.compress(plain) + deflater.flush(zlib.Z_SYNC_FLUSH)
    return GzipStart(deflated=deflated, crc=zlib.crc32(plain), size=len(plain))


def gzip_finish(start: GzipStart, end: bytes) -> bytes:
    """The gzip body of `start`'s bytes followed by `end`. `end` is compressed without the
    start's history (its back-references stay within it), so the kept blocks are reused as
    they are."""
    deflater = _deflater()
    trailer = struct.pack("<II", zlib.crc32(end, start.crc), (start.size + len(end)) & 0xFFFFFFFF)
    return b"".join(
        (_GZIP_HEADER, start.deflated, deflater.compress(end), deflater.flush(), trailer)
    )
