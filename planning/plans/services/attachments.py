"""Photos and documents on nodes and actions (docs/subsystems/surveys-and-files.md "Photos and
documents").

A file is checked and prepared first (planning.plans.uploads: its type by its bytes, its size,
a photo without its location and with a thumbnail), then saved to Django's default storage
under a name of its own, then its row is written in one `plan_write` (the history triggers
record the upload). A refused file stores nothing; a row that cannot be written takes its
stored files with it. A deleted row's files leave the storage once the transaction commits,
whatever deleted it (a node's or a plan's deletion cascades): `attachment_files_forget` is
connected to the row's `post_delete` in planning's AppConfig.ready()."""

from __future__ import annotations

import os
import uuid
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction

from planning.core.writes import plan_write
from planning.models import (
    Action,
    Attachment,
    AttachmentKind,
    ConditionSurvey,
    Plan,
    StructureNode,
)
from planning.plans.uploads import upload_prepare


def _original_name(upload: Any, extension: str) -> str:
    name = os.path.basename(str(getattr(upload, "name", "") or "")).strip() or "file"
    stem, own = os.path.splitext(name)
    if own.lower() != extension and not (extension == ".jpg" and own.lower() == ".jpeg"):
        name = f"{stem}{extension}"  # a HEIC kept as a JPEG says so
    return name[-255:]


def attachment_add(
    *,
    plan: Plan,
    node: StructureNode | None = None,
    action: Action | None = None,
    upload: Any,
    by: Any,
    survey: ConditionSurvey | None = None,
) -> Attachment:
    """Attaches `upload` (a Django UploadedFile) to `node` or `action` of `plan` (exactly one),
    optionally as a photo of `survey` (of the same node; an image only). Raises ValidationError
    with a message for the person on a file of another type, too large or damaged, storing
    nothing."""
    if (node is None) == (action is None):
        raise ValidationError("Attach the file to a node or to an action.")
    target: StructureNode | Action = node if node is not None else action  # type: ignore[assignment]
    if target.plan_id != plan.pk:
        raise ValidationError("The node or action belongs to another plan.")
    if survey is not None and (node is None or survey.node_id != node.pk):
        raise ValidationError("A survey's photo belongs to the survey's component.")
    prepared = upload_prepare(upload)
    if survey is not None and not prepared.is_image:
        raise ValidationError("A survey's photo must be an image (JPEG, PNG or HEIC).")
    attachment = Attachment(
        id=uuid.uuid4(),
        plan=plan,
        node=node,
        action=action,
        survey=survey,
        kind=AttachmentKind.IMAGE if prepared.is_image else AttachmentKind.DOCUMENT,
        original_name=_original_name(upload, prepared.extension),
        content_type=prepared.content_type,
        uploaded_by=by if getattr(by, "pk", None) is not None else None,
    )
    base = f"attachments/{plan.pk}/{attachment.id}"
    saved: list[str] = []
    try:
        prepared.file.seek(0, os.SEEK_END)
        attachment.size = prepared.file.tell()
        prepared.file.seek(0)
        attachment.file.name = default_storage.save(
            f"{base}{prepared.extension}", File(prepared.file)
        )
        saved.append(attachment.file.name)
        if prepared.thumbnail is not None:
            attachment.thumbnail.name = default_storage.save(
                f"{base}.thumb.jpg", ContentFile(prepared.thumbnail)
            )
            saved.append(attachment.thumbnail.name)
        with plan_write(plan_id=plan.pk, data_changed=False):
            if not type(target).objects.filter(pk=target.pk, plan_id=plan.pk).exists():
                raise ValidationError("The node or action no longer exists.")
            attachment.save(force_insert=True)
    except BaseException:
        for name in saved:
            default_storage.delete(name)
        raise
    finally:
        if prepared.file is not upload:
            prepared.file.close()
    return attachment


def attachment_delete(attachment: Attachment, *, by: Any) -> None:
    """Deletes the attachment; its files leave the storage when the transaction commits. `by`
    is who asked (the history reads the actor of the request)."""
    with plan_write(plan_id=attachment.plan_id, data_changed=False):
        Attachment.objects.filter(pk=attachment.pk).delete()


def attachment_files_forget(sender: Any, instance: Attachment, **kwargs: Any) -> None:
    """`post_delete` of an Attachment: its file and thumbnail leave the storage once the
    transaction that deleted the row commits (never when it rolls back)."""
    names = [name for name in (instance.file.name, instance.thumbnail.name) if name]
    if names:
        transaction.on_commit(lambda: _files_delete(names))


def _files_delete(names: list[str]) -> None:
    for name in names:
        default_storage.delete(name)
