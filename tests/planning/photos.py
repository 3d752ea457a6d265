"""Photos and documents made in tests: a JPEG with an EXIF location and orientation, a PNG, and
the uploads a browser would send."""

from __future__ import annotations

import io
import zipfile

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

GPS_IFD = 0x8825
ORIENTATION = 0x0112


def jpeg_bytes(
    size: tuple[int, int] = (640, 480), *, gps: bool = True, orientation: int = 1
) -> bytes:
    """A JPEG whose EXIF holds a GPS position (Oslo) and `orientation`."""
    image = Image.new("RGB", size, (180, 60, 40))
    for x in range(0, size[0], 40):  # something to compress
        image.paste((30, 90, 200), (x, 0, x + 10, size[1]))
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    exif[0x010F] = "Test camera"
    if gps:
        position = exif.get_ifd(GPS_IFD)
        position[1] = "N"
        position[2] = (59.0, 54.0, 41.0)
        position[3] = "E"
        position[4] = (10.0, 45.0, 7.0)
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, quality=90)
    return out.getvalue()


def png_bytes(size: tuple[int, int] = (300, 200)) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", size, (0, 120, 0, 255)).save(out, "PNG")
    return out.getvalue()


def xlsx_bytes() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
    return out.getvalue()


def photo_upload(name: str, content: bytes, content_type: str = "image/jpeg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type=content_type)
