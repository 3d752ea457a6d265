"""What an uploaded file is and what is kept of it (docs/subsystems/surveys-and-files.md
"Photos and documents"): its type read from its bytes (never its name or the browser's word), its
size against the limit of its kind, a photo without its location and with a thumbnail.

Memory: one file at a time, and never a whole photo decoded at full size for a JPEG. A JPEG keeps
its own bytes: its EXIF segment is rewritten without the GPS directory and XMP packets are left
out (a segment walk, copied to a temporary file), so nothing is re-encoded and its orientation
tag still turns it; its thumbnail is decoded at an eighth of the size or less (Pillow's
`draft()`, libjpeg's DCT scaling), which also reads every byte and so refuses a truncated file.
A PNG is decoded (PNG has no reduced decoding), turned upright and written again without its
metadata; a HEIC is converted to a JPEG the same way (pillow-heif).
"""

from __future__ import annotations

import io
import shutil
import tempfile
import warnings
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

from django.core.exceptions import ValidationError
from PIL import Image, ImageOps, UnidentifiedImageError

MIB = 1024 * 1024
IMAGE_MAX_BYTES = 20 * MIB
DOCUMENT_MAX_BYTES = 50 * MIB
# A photo of more pixels than this is refused before it is decoded (a 20 MB file can claim
# billions of pixels).
IMAGE_MAX_PIXELS = 120_000_000
THUMBNAIL_SIZE = 320
ACCEPTED = "JPEG, PNG or HEIC photos of at most 20 MB; PDF, XLSX or DOCX documents of at most 50 MB"

JPEG = "image/jpeg"
PNG = "image/png"
HEIC = "image/heic"
PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
EXTENSIONS = {JPEG: ".jpg", PNG: ".png", PDF: ".pdf", XLSX: ".xlsx", DOCX: ".docx"}
IMAGE_TYPES = (JPEG, PNG, HEIC)
_HEIC_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")
_GPS_IFD = 0x8825
_XMP_PREFIXES = (b"http://ns.adobe.com/xap/1.0/\x00", b"http://ns.adobe.com/xmp/extension/\x00")


@dataclass(frozen=True)
class Prepared:
    """What is stored of an upload: the file (a temporary file, or the upload itself), its
    content type and extension, and a thumbnail's JPEG bytes for a photo."""

    file: IO[bytes]
    content_type: str
    extension: str
    is_image: bool
    thumbnail: bytes | None


def _refuse(message: str) -> ValidationError:
    return ValidationError({"file": message}, code="invalid")


def content_type_sniff(upload: IO[bytes]) -> str | None:
    """The type of a file by its first bytes (and, for a ZIP, the parts Office puts in it);
    None for any other file."""
    upload.seek(0)
    head = upload.read(16)
    upload.seek(0)
    if head.startswith(b"\xff\xd8\xff"):
        return JPEG
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if head[4:8] == b"ftyp" and head[8:12] in _HEIC_BRANDS:
        return HEIC
    if head.startswith(b"%PDF-"):
        return PDF
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(upload) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError, ValueError):
            return None
        finally:
            upload.seek(0)
        if "[Content_Types].xml" in names and "xl/workbook.xml" in names:
            return XLSX
        if "[Content_Types].xml" in names and "word/document.xml" in names:
            return DOCX
    return None


def upload_prepare(upload: Any) -> Prepared:
    """Checks an upload and prepares what is stored of it; raises ValidationError ({"file":
    message}) on a file of another type, too large, or a corrupt or oversized photo."""
    size = int(upload.size or 0)
    if size <= 0:
        raise _refuse("The file is empty.")
    content_type = content_type_sniff(upload)
    if content_type is None:
        raise _refuse(f"This file is of a type Maintplan does not keep: upload {ACCEPTED}.")
    is_image = content_type in IMAGE_TYPES
    limit = IMAGE_MAX_BYTES if is_image else DOCUMENT_MAX_BYTES
    if size > limit:
        what = "A photo" if is_image else "A document"
        raise _refuse(
            f"{what} may be at most {limit // MIB} MB; this file has {size / MIB:.1f} MB."
        )
    if not is_image:
        upload.seek(0)
        return Prepared(upload, content_type, EXTENSIONS[content_type], False, None)
    with _image_errors():
        if content_type == JPEG:
            cleaned = _jpeg_without_location(upload)
            return Prepared(cleaned, JPEG, ".jpg", True, _thumbnail(cleaned, draft=True))
        return _decoded_again(upload, heic=content_type == HEIC)


@contextmanager
def _image_errors() -> Iterator[None]:
    """A corrupt or oversized photo as a ValidationError."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            yield
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise _refuse(
                f"This photo has too many pixels (at most {IMAGE_MAX_PIXELS:,})."
            ) from None
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as error:
            raise _refuse(
                "This photo could not be read: the file is damaged or incomplete."
            ) from error


def _opened(file: IO[bytes]) -> Image.Image:
    file.seek(0)
    image = Image.open(file)
    width, height = image.size
    if width * height > IMAGE_MAX_PIXELS:
        raise Image.DecompressionBombError("too many pixels")
    return image


def _thumbnail(file: IO[bytes], *, draft: bool) -> bytes:
    image = _opened(file)
    if draft:  # decode at 1/2..1/8 of the size, just above twice the thumbnail
        image.draft("RGB", (THUMBNAIL_SIZE * 2, THUMBNAIL_SIZE * 2))
    image.load()
    return _thumbnail_of(image)


def _thumbnail_of(image: Image.Image) -> bytes:
    upright = ImageOps.exif_transpose(image)
    small = upright.convert("RGB") if upright.mode != "RGB" else upright.copy()
    small.thumbnail((THUMBNAIL_SIZE, THUMBNAIL_SIZE))
    out = io.BytesIO()
    small.save(out, "JPEG", quality=80)
    return out.getvalue()


def _decoded_again(upload: IO[bytes], *, heic: bool) -> Prepared:
    """A PNG, or a HEIC as a JPEG: decoded, turned upright, written again without metadata."""
    if heic:
        import pillow_heif  # its opener is needed for HEIC uploads only

        pillow_heif.register_heif_opener()
    image = _opened(upload)
    image.load()
    upright = ImageOps.exif_transpose(image)
    out = tempfile.TemporaryFile()  # noqa: SIM115 - handed to the storage, closed by the service
    if heic:
        upright.convert("RGB").save(out, "JPEG", quality=90)
    else:
        upright.save(out, "PNG")
    out.seek(0)
    thumbnail = _thumbnail_of(upright)
    return Prepared(out, JPEG if heic else PNG, ".jpg" if heic else ".png", True, thumbnail)


def _exif_without_gps(payload: bytes) -> bytes | None:
    """An EXIF segment's payload without its GPS directory; None when it cannot be read (the
    segment is then left out whole)."""
    try:
        exif = Image.Exif()
        exif.load(payload)
        if _GPS_IFD not in exif:
            return payload
        del exif[_GPS_IFD]
        data = exif.tobytes()
    except Exception:  # an unreadable EXIF is dropped, never kept
        return None
    return data if len(data) + 2 <= 0xFFFF else None


def _jpeg_without_location(upload: IO[bytes]) -> IO[bytes]:
    """The JPEG's bytes, with its EXIF GPS directory and XMP packets left out, in a temporary
    file; the image data after the start of scan is copied as it is."""
    upload.seek(0)
    if upload.read(2) != b"\xff\xd8":
        raise OSError("no JPEG start")
    out = tempfile.TemporaryFile()  # noqa: SIM115 - handed to the storage, closed by the service
    out.write(b"\xff\xd8")
    while True:
        marker = upload.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            raise OSError("broken JPEG segment")
        code = marker[1]
        while code == 0xFF:  # fill bytes
            code = (upload.read(1) or b"\x00")[0]
        marker = bytes((0xFF, code))
        if code in (0xDA, 0xD9):  # start of scan (or end): the rest is image data
            out.write(marker)
            shutil.copyfileobj(upload, out, 1024 * 1024)
            break
        if code == 0x01 or 0xD0 <= code <= 0xD7:
            out.write(marker)
            continue
        length = int.from_bytes(upload.read(2), "big")
        payload = upload.read(max(length - 2, 0))
        if length < 2 or len(payload) != length - 2:
            raise OSError("truncated JPEG segment")
        if code == 0xE1 and payload.startswith(b"Exif\x00\x00"):
            kept = _exif_without_gps(payload)
            if kept is None:
                continue
            payload = kept
        elif code == 0xE1 and payload.startswith(_XMP_PREFIXES):
            continue  # XMP may repeat the location
        out.write(marker + (len(payload) + 2).to_bytes(2, "big") + payload)
    out.seek(0)
    return out
