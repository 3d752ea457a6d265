"""Photos and documents of nodes and actions: upload, download, thumbnail, delete
(docs/subsystems/surveys-and-files.md "Serving files"). A file is never at a public URL: every
byte goes through these views, which check the plan access first (a stranger or another
organisation gets the 404 of a missing plan; a viewer may download; only editors upload or
delete, others get 403)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from planning.core.access import PlanAccess
from planning.models import Action, Attachment, AttachmentKind, StructureNode
from planning.plans import selectors
from planning.plans.services.attachments import attachment_add, attachment_delete
from planning.web.access import plan_member_required, request_user
from planning.web.forms.surveys import AttachmentUploadForm

# Shown inline by the browser (never HTML or SVG: those are not accepted at all).
INLINE_TYPES = ("image/jpeg", "image/png", "application/pdf")


def _page_of(attachment: Attachment | None, *, node: Any = None, action: Any = None) -> str:
    if attachment is not None:
        node, action = attachment.node, attachment.action
    if node is not None:
        return reverse("planning:node_detail", args=[node.plan.number, node.pk])
    assert action is not None
    return reverse("planning:action_edit", args=[action.plan.number, action.pk])


def _upload(
    request: HttpRequest, access: PlanAccess, *, node: StructureNode | None, action: Action | None
) -> HttpResponse:
    form = AttachmentUploadForm(request.POST, request.FILES)
    page = _page_of(None, node=node, action=action)
    if not form.is_valid():
        messages.error(request, "Choose a photo or document to upload.")
        return redirect(f"{page}#attachments")
    try:
        attachment = attachment_add(
            plan=access.plan,
            node=node,
            action=action,
            upload=form.cleaned_data["file"],
            by=request_user(request),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(f"{page}#attachments")
    messages.success(request, f"“{attachment.original_name}” uploaded.")
    return redirect(f"{page}#attachments")


@plan_member_required(edit=True)
@require_POST
def node_attachment_upload(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    return _upload(request, access, node=node, action=None)


@plan_member_required(edit=True)
@require_POST
def action_attachment_upload(
    request: HttpRequest, access: PlanAccess, action_id: Any
) -> HttpResponse:
    action = selectors.action_get(plan=access.plan, action_id=action_id)
    return _upload(request, access, node=None, action=action)


def _served(name: str | None, *, content_type: str, filename: str, inline: bool) -> FileResponse:
    if not name:
        raise Http404("No file")
    try:
        stream = default_storage.open(name, "rb")
    except OSError:
        raise Http404("The file is missing from the storage") from None
    response = FileResponse(stream, content_type=content_type)
    disposition = "inline" if inline else "attachment"
    ascii_name = filename.encode("ascii", "replace").decode().replace('"', "'")
    response["Content-Disposition"] = (
        f"{disposition}; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"
    )
    response["Cache-Control"] = "private, max-age=0"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@plan_member_required()
@require_http_methods(["GET"])
def attachment_download(
    request: HttpRequest, access: PlanAccess, attachment_id: Any
) -> FileResponse:
    attachment = selectors.attachment_get(plan=access.plan, attachment_id=attachment_id)
    return _served(
        attachment.file.name,
        content_type=attachment.content_type,
        filename=attachment.original_name,
        inline=attachment.content_type in INLINE_TYPES,
    )


@plan_member_required()
@require_http_methods(["GET"])
def attachment_thumbnail(
    request: HttpRequest, access: PlanAccess, attachment_id: Any
) -> FileResponse:
    attachment = selectors.attachment_get(plan=access.plan, attachment_id=attachment_id)
    if attachment.kind != AttachmentKind.IMAGE or not attachment.thumbnail:
        raise Http404("No thumbnail")
    return _served(
        attachment.thumbnail.name,
        content_type="image/jpeg",
        filename=f"thumbnail-{attachment.original_name}",
        inline=True,
    )


@plan_member_required(edit=True)
@require_POST
def attachment_remove(request: HttpRequest, access: PlanAccess, attachment_id: Any) -> HttpResponse:
    attachment = selectors.attachment_get(plan=access.plan, attachment_id=attachment_id)
    page = _page_of(attachment)
    attachment_delete(attachment, by=request_user(request))
    messages.success(request, f"“{attachment.original_name}” deleted.")
    return redirect(f"{page}#attachments")
