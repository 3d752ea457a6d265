"""Photos and documents: an upload kept with a thumbnail and without its EXIF location, a bad
file refused with a message and nothing stored, the files gone with their node or plan, the
history of uploads and deletions, and the pages (access per role: tests/test_access_matrix.py)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import transaction
from django.urls import reverse
from PIL import Image

from planning.models import Attachment, HistoryEntry, NodeKind, PlanRole
from planning.plans.services.attachments import attachment_add, attachment_delete
from planning.plans.services.nodes import node_delete
from planning.plans.services.plans import plan_delete
from planning.plans.services.surveys import survey_record
from planning.plans.uploads import DOCUMENT_MAX_BYTES, IMAGE_MAX_BYTES
from tests.factories import (
    ActionFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)
from tests.planning.photos import (
    GPS_IFD,
    ORIENTATION,
    jpeg_bytes,
    photo_upload,
    png_bytes,
    xlsx_bytes,
)

pytestmark = pytest.mark.django_db


def _stored(name: str | None) -> bool:
    return bool(name) and default_storage.exists(str(name))


def _read(name: str | None) -> bytes:
    assert name
    with default_storage.open(name, "rb") as stored:
        return stored.read()


def test_a_photo_is_kept_with_a_thumbnail_and_without_its_location() -> None:
    node = StructureNodeFactory.create()
    original = jpeg_bytes((1600, 1200), orientation=6)
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(GPS_IFD)  # it had one

    attachment = attachment_add(
        plan=node.plan, node=node, upload=photo_upload("roof.jpg", original), by=None
    )

    assert attachment.kind == "image"
    assert attachment.content_type == "image/jpeg"
    assert attachment.original_name == "roof.jpg"
    kept = Image.open(io.BytesIO(_read(attachment.file.name)))
    exif = kept.getexif()
    assert not exif.get_ifd(GPS_IFD)
    assert exif[ORIENTATION] == 6  # still turned the right way when shown
    assert exif[0x010F] == "Test camera"
    assert kept.size == (1600, 1200)
    thumbnail = Image.open(io.BytesIO(_read(attachment.thumbnail.name)))
    assert thumbnail.format == "JPEG"
    assert thumbnail.size == (240, 320)  # upright (orientation 6 turns it) within 320 px
    assert attachment.size == default_storage.size(str(attachment.file.name))


def test_a_png_is_kept_with_a_thumbnail() -> None:
    node = StructureNodeFactory.create()
    attachment = attachment_add(
        plan=node.plan, node=node, upload=photo_upload("plan.png", png_bytes((900, 600))), by=None
    )
    assert attachment.content_type == "image/png"
    assert Image.open(io.BytesIO(_read(attachment.file.name))).format == "PNG"
    assert Image.open(io.BytesIO(_read(attachment.thumbnail.name))).size == (320, 213)


def test_a_heic_photo_is_kept_as_a_jpeg_without_its_location() -> None:
    pillow_heif = pytest.importorskip("pillow_heif")
    image = Image.new("RGB", (400, 300), (10, 200, 30))
    exif = Image.Exif()
    exif.get_ifd(GPS_IFD)[2] = (59.0, 54.0, 41.0)
    out = io.BytesIO()
    pillow_heif.from_pillow(image).save(out, format="HEIF", exif=exif.tobytes())
    node = StructureNodeFactory.create()
    attachment = attachment_add(
        plan=node.plan, node=node, upload=photo_upload("IMG_1.HEIC", out.getvalue()), by=None
    )
    assert attachment.content_type == "image/jpeg"
    assert attachment.original_name == "IMG_1.jpg"
    kept = Image.open(io.BytesIO(_read(attachment.file.name)))
    assert kept.format == "JPEG"
    assert not kept.getexif().get_ifd(GPS_IFD)


def test_a_document_is_kept_as_it_is() -> None:
    action = ActionFactory.create()
    content = b"%PDF-1.7\n" + b"0" * 2000
    attachment = attachment_add(
        plan=action.plan,
        action=action,
        upload=photo_upload("offer.pdf", content, "application/pdf"),
        by=None,
    )
    assert attachment.kind == "document"
    assert not attachment.thumbnail
    assert _read(attachment.file.name) == content
    workbook = attachment_add(
        plan=action.plan, action=action, upload=photo_upload("costs.xlsx", xlsx_bytes()), by=None
    )
    assert workbook.content_type.endswith("spreadsheetml.sheet")


class _Sized(io.BytesIO):
    """An upload that says it is `size` bytes long (a real one of 50 MB is not needed)."""

    def __init__(self, content: bytes, *, name: str, size: int) -> None:
        super().__init__(content)
        self.name = name
        self.size = size


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (photo_upload("notes.jpg", b"just some text, not a photo"), "type Maintplan does not keep"),
        (photo_upload("page.html", b"<html><script>alert(1)</script>"), "does not keep"),
        (photo_upload("cut.jpg", jpeg_bytes((800, 600))[:3000]), "damaged or incomplete"),
        (photo_upload("broken.png", png_bytes()[:60]), "damaged or incomplete"),
        (
            _Sized(jpeg_bytes(), name="huge.jpg", size=IMAGE_MAX_BYTES + 1),
            "A photo may be at most 20 MB",
        ),
        (
            _Sized(b"%PDF-1.7\n", name="huge.pdf", size=DOCUMENT_MAX_BYTES + 1),
            "A document may be at most 50 MB",
        ),
        (photo_upload("empty.pdf", b""), "empty"),
    ],
    ids=["text", "html", "truncated-jpeg", "truncated-png", "big-photo", "big-pdf", "empty"],
)
def test_a_bad_file_is_refused_with_a_message_and_nothing_stored(
    upload: Any, message: str, tmp_path: Path
) -> None:
    node = StructureNodeFactory.create()
    files_before = sorted(_all_files())
    with pytest.raises(ValidationError) as raised:
        attachment_add(plan=node.plan, node=node, upload=upload, by=None)
    assert message in " ".join(raised.value.messages)
    assert not Attachment.objects.exists()
    assert sorted(_all_files()) == files_before


def _all_files() -> list[str]:
    root = Path(default_storage.location)  # type: ignore[attr-defined]
    return [str(path) for path in root.rglob("*") if path.is_file()]


def test_deleting_a_node_deletes_its_files_and_its_subtrees(
    django_capture_on_commit_callbacks: Any,
) -> None:
    building = StructureNodeFactory.create(kind=NodeKind.BUILDING)
    component = StructureNodeFactory.create(plan=building.plan, parent=building)
    action = ActionFactory.create(node=component)
    kept = StructureNodeFactory.create(plan=building.plan)
    photos = [
        attachment_add(
            plan=building.plan, node=node, upload=photo_upload("a.jpg", jpeg_bytes()), by=None
        )
        for node in (building, component)
    ]
    offer = attachment_add(
        plan=building.plan, action=action, upload=photo_upload("b.jpg", jpeg_bytes()), by=None
    )
    other = attachment_add(
        plan=building.plan, node=kept, upload=photo_upload("c.jpg", jpeg_bytes()), by=None
    )
    names = [n for a in (*photos, offer) for n in (a.file.name, a.thumbnail.name)]
    assert all(_stored(name) for name in names)

    with django_capture_on_commit_callbacks(execute=True):
        node_delete(node=building)

    assert not any(_stored(name) for name in names)
    assert _stored(other.file.name) and _stored(other.thumbnail.name)
    assert list(Attachment.objects.values_list("pk", flat=True)) == [other.pk]


def test_deleting_a_plan_deletes_its_files(django_capture_on_commit_callbacks: Any) -> None:
    node = StructureNodeFactory.create()
    attachment = attachment_add(
        plan=node.plan, node=node, upload=photo_upload("a.jpg", jpeg_bytes()), by=None
    )
    with django_capture_on_commit_callbacks(execute=True):
        plan_delete(plan=node.plan)
    assert not _stored(attachment.file.name)
    assert not _stored(attachment.thumbnail.name)


def test_a_rolled_back_deletion_keeps_the_files(django_capture_on_commit_callbacks: Any) -> None:
    node = StructureNodeFactory.create()
    attachment = attachment_add(
        plan=node.plan, node=node, upload=photo_upload("a.jpg", jpeg_bytes()), by=None
    )
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        attachment_delete(attachment, by=None)
        raise RuntimeError("the request failed after the deletion")
    assert callbacks == []  # rolled back: nothing ran at a commit
    assert _stored(attachment.file.name)
    assert Attachment.objects.filter(pk=attachment.pk).exists()


def test_the_history_records_an_upload_and_a_deletion() -> None:
    node = StructureNodeFactory.create()
    attachment = attachment_add(
        plan=node.plan, node=node, upload=photo_upload("roof.jpg", jpeg_bytes()), by=None
    )
    attachment_delete(attachment, by=None)
    entries = HistoryEntry.objects.filter(entity="attachment").order_by("id")
    assert [(e.operation, e.entity_label, e.subject_uuid) for e in entries] == [
        ("create", "roof.jpg", node.pk),
        ("delete", "roof.jpg", node.pk),
    ]


def test_a_survey_photo_belongs_to_its_component() -> None:
    node = StructureNodeFactory.create()
    other = StructureNodeFactory.create(plan=node.plan)
    survey, _ = survey_record(
        node=node,
        grade=1,
        consequence=None,
        note="",
        assessed_on=node.plan.created_at.date(),
        by=None,
    )
    photo = attachment_add(
        plan=node.plan,
        node=node,
        upload=photo_upload("a.jpg", jpeg_bytes()),
        by=None,
        survey=survey,
    )
    assert list(survey.attachments.all()) == [photo]
    with pytest.raises(ValidationError, match="survey's component"):
        attachment_add(
            plan=node.plan,
            node=other,
            upload=photo_upload("a.jpg", jpeg_bytes()),
            by=None,
            survey=survey,
        )


# --- the pages --------------------------------------------------------------------------------


def _editor_client(client: Any, role: PlanRole = PlanRole.OWNER) -> tuple[Any, Any]:
    membership = PlanMembershipFactory.create(role=role)
    client.force_login(membership.user)
    return client, membership


def test_the_node_page_uploads_lists_and_serves_a_photo(client: Any) -> None:
    client, membership = _editor_client(client)
    node = StructureNodeFactory.create(plan=membership.plan, name="Roof")
    number = membership.plan.number
    upload_url = reverse("planning:node_attachment_upload", args=[number, node.pk])

    response = client.post(
        upload_url, {"file": photo_upload("roof.jpg", jpeg_bytes())}, follow=True
    )

    assert "“roof.jpg” uploaded." in response.content.decode()
    attachment = Attachment.objects.get()
    page = response.content.decode()
    assert reverse("planning:attachment_thumbnail", args=[number, attachment.pk]) in page
    download = client.get(reverse("planning:attachment_download", args=[number, attachment.pk]))
    assert download["Content-Type"] == "image/jpeg"
    assert download["X-Content-Type-Options"] == "nosniff"
    assert b"".join(download.streaming_content) == _read(attachment.file.name)


def test_the_page_says_why_a_file_was_refused(client: Any) -> None:
    client, membership = _editor_client(client)
    node = StructureNodeFactory.create(plan=membership.plan)
    url = reverse("planning:node_attachment_upload", args=[membership.plan.number, node.pk])
    response = client.post(url, {"file": photo_upload("virus.exe", b"MZ\x90\x00")}, follow=True)
    assert "type Maintplan does not keep" in response.content.decode()
    assert not Attachment.objects.exists()


def test_a_viewer_downloads_but_cannot_upload_or_delete(client: Any) -> None:
    owner = PlanMembershipFactory.create(role=PlanRole.OWNER)
    viewer = PlanMembershipFactory.create(plan=owner.plan, role=PlanRole.VIEWER)
    node = StructureNodeFactory.create(plan=owner.plan)
    attachment = attachment_add(
        plan=owner.plan, node=node, upload=photo_upload("a.jpg", jpeg_bytes()), by=owner.user
    )
    client.force_login(viewer.user)
    number = owner.plan.number
    page = client.get(reverse("planning:node_detail", args=[number, node.pk])).content.decode()
    assert "attachment-upload" not in page
    download = client.get(reverse("planning:attachment_download", args=[number, attachment.pk]))
    assert download.status_code == 200
    delete = client.post(reverse("planning:attachment_delete", args=[number, attachment.pk]))
    assert delete.status_code == 403
    assert Attachment.objects.filter(pk=attachment.pk).exists()


def test_a_file_of_another_plan_is_missing(client: Any) -> None:
    client, membership = _editor_client(client)
    elsewhere = StructureNodeFactory.create()
    attachment = attachment_add(
        plan=elsewhere.plan, node=elsewhere, upload=photo_upload("a.jpg", jpeg_bytes()), by=None
    )
    url = reverse("planning:attachment_download", args=[membership.plan.number, attachment.pk])
    assert client.get(url).status_code == 404


def test_the_history_tab_names_the_file_and_its_action(client: Any) -> None:
    client, membership = _editor_client(client)
    action = ActionFactory.create(node=StructureNodeFactory.create(plan=membership.plan))
    action.title = "New gutter"
    action.save()
    attachment_add(
        plan=membership.plan,
        action=action,
        upload=photo_upload("offer.pdf", b"%PDF-1.7\n%%EOF\n", "application/pdf"),
        by=membership.user,
    )
    page = client.get(reverse("planning:plan_history", args=[membership.plan.number]))
    text = " ".join(page.content.decode().split())
    assert "offer.pdf" in text
    assert "New gutter" in text
    assert "Document" in text
