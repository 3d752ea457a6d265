"""Survey mode's endpoints (planning.web.views.survey_entries, planning.web.views.survey): an entry
replayed with its key is one survey, a grade out of range is refused with a clear message and
nothing stored, a viewer is refused, another organisation sees no plan; the component list in
tree order and pages; a photo sent twice is stored once."""

from __future__ import annotations

import datetime
import io
import json
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from planning.models import Attachment, ConditionSurvey, NodeKind, PlanRole, StructureNode
from tests.conftest import TEST_PASSWORD
from tests.factories import (
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

TODAY = datetime.date.today().isoformat()


@pytest.fixture(autouse=True)
def _files_in_tmp(settings: Any, tmp_path: Any) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path), "base_url": None},
        },
    }


class Site:
    def __init__(self, role: PlanRole = PlanRole.EDITOR) -> None:
        self.plan = PlanFactory.create()
        self.user = UserFactory.create(password=TEST_PASSWORD)
        PlanMembershipFactory.create(plan=self.plan, user=self.user, role=role)
        self.building = StructureNodeFactory.create(
            plan=self.plan, kind=NodeKind.BUILDING, name="Town hall"
        )
        self.roof = StructureNodeFactory.create(
            plan=self.plan, parent=self.building, kind=NodeKind.SYSTEM, name="Roof"
        )
        self.tiles = StructureNodeFactory.create(plan=self.plan, parent=self.roof, name="Tiles")
        self.client = Client()
        self.client.force_login(self.user)

    def post_entry(self, client: Client | None = None, **overrides: Any) -> Any:
        body = {
            "key": str(uuid.uuid4()),
            "node": str(self.tiles.pk),
            "grade": 2,
            "consequence": 3,
            "note": "Cracked by the gutter",
            "assessed_on": TODAY,
            **overrides,
        }
        return (client or self.client).post(
            reverse("planning:survey_entry", args=[self.plan.number]),
            json.dumps(body),
            content_type="application/json",
        )


def _jpeg() -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 40, 40)).save(buffer, "JPEG")
    buffer.seek(0)
    buffer.name = "roof.jpg"
    return buffer


def test_an_entry_sent_twice_with_its_key_is_one_survey() -> None:
    site = Site()
    key = str(uuid.uuid4())
    first = site.post_entry(key=key)
    again = site.post_entry(key=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert first.json()["risk"] == 6
    assert ConditionSurvey.objects.filter(node=site.tiles).count() == 1
    site.tiles.refresh_from_db()
    assert (site.tiles.condition_grade, site.tiles.condition_consequence) == (2, 3)


def test_a_grade_out_of_range_is_refused_with_a_message_and_nothing_stored() -> None:
    site = Site()
    response = site.post_entry(grade=7)
    assert response.status_code == 400
    assert response.json()["message"] == (
        "The entry was not recorded: Enter a condition grade from 0 to 3."
    )
    assert "grade" in response.json()["errors"]
    assert not ConditionSurvey.objects.exists()
    site.tiles.refresh_from_db()
    assert site.tiles.condition_grade is None


@pytest.mark.parametrize("date", [5, True, {"year": 2026}, ["2026-05-01"]])
def test_a_date_that_is_no_text_is_its_fields_error_not_a_crash(date: object) -> None:
    site = Site()
    response = site.post_entry(assessed_on=date)
    assert response.status_code == 400
    assert "assessed_on" in response.json()["errors"]
    assert not ConditionSurvey.objects.exists()


def test_a_body_that_is_no_json_object_is_refused_with_a_message() -> None:
    site = Site()
    response = site.client.post(
        reverse("planning:survey_entry", args=[site.plan.number]),
        "grade=2",
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["message"] == "The entry could not be read: send it as a JSON object."


def test_a_system_is_no_component_to_grade() -> None:
    site = Site()
    response = site.post_entry(node=str(site.roof.pk))
    assert response.status_code == 404
    assert "no longer in the plan" in response.json()["message"]
    assert not ConditionSurvey.objects.exists()


def test_a_viewer_is_refused_with_a_message() -> None:
    site = Site(role=PlanRole.VIEWER)
    response = site.post_entry()
    assert response.status_code == 403
    assert "You can view this plan but not change it" in response.json()["message"]
    assert not ConditionSurvey.objects.exists()


def test_another_organisation_sees_no_plan() -> None:
    site = Site()
    stranger = UserFactory.create()
    PlanMembershipFactory.create(plan=PlanFactory.create(), user=stranger, role=PlanRole.EDITOR)
    client = Client()
    client.force_login(stranger)
    response = site.post_entry(client=client)
    assert response.status_code == 404
    assert response.json()["message"] == "No such plan."
    components = client.get(
        reverse("planning:survey_components", args=[site.plan.number, site.building.pk])
    )
    assert components.status_code == 404
    page = client.get(
        reverse("planning:survey_building", args=[site.plan.number, site.building.pk])
    )
    assert page.status_code == 404
    assert not ConditionSurvey.objects.exists()


def test_a_signed_out_sender_is_asked_to_sign_in_again() -> None:
    site = Site()
    response = site.post_entry(client=Client())
    assert response.status_code == 401
    assert response.json()["message"] == "Sign in again to send this."


def test_the_component_list_walks_the_tree_in_pages() -> None:
    site = Site()
    walls = StructureNodeFactory.create(
        plan=site.plan, parent=site.building, kind=NodeKind.SYSTEM, name="Walls"
    )
    for name in ("Window 10", "Window 2"):
        StructureNodeFactory.create(plan=site.plan, parent=walls, name=name)
    StructureNodeFactory.create(plan=site.plan, parent=site.roof, name="Gutter")
    url = reverse("planning:survey_components", args=[site.plan.number, site.building.pk])
    first = site.client.get(url, {"offset": 0, "limit": 2}).json()
    rest = site.client.get(url, {"offset": first["next"], "limit": 10}).json()
    rows = [dict(zip(first["fields"], row, strict=True)) for row in first["rows"] + rest["rows"]]
    assert first["total"] == 4
    assert rest["next"] is None
    assert [(row["place"], row["name"]) for row in rows] == [
        ("Roof", "Gutter"),
        ("Roof", "Tiles"),
        ("Walls", "Window 2"),
        ("Walls", "Window 10"),
    ]
    bad = site.client.get(url, {"limit": 5000})
    assert bad.status_code == 400
    assert "limit 1 to 500" in bad.json()["message"]


def test_a_photo_sent_twice_is_stored_once() -> None:
    site = Site()
    entry_key = str(uuid.uuid4())
    site.post_entry(key=entry_key)
    photo_key = str(uuid.uuid4())
    url = reverse("planning:survey_photo", args=[site.plan.number])
    answers = [
        site.client.post(url, {"entry": entry_key, "key": photo_key, "file": _jpeg()})
        for _ in range(2)
    ]
    assert [answer.status_code for answer in answers] == [201, 200]
    assert answers[0].json()["photo"] == answers[1].json()["photo"]
    photo = Attachment.objects.select_related("survey").get()
    assert photo.survey is not None
    assert (photo.node_id, photo.survey.idempotency_key) == (site.tiles.pk, entry_key)


def test_a_photo_that_is_no_image_is_refused_and_nothing_stored() -> None:
    site = Site()
    entry_key = str(uuid.uuid4())
    site.post_entry(key=entry_key)
    text = io.BytesIO(b"not a photo at all")
    text.name = "roof.jpg"
    response = site.client.post(
        reverse("planning:survey_photo", args=[site.plan.number]),
        {"entry": entry_key, "key": str(uuid.uuid4()), "file": text},
    )
    assert response.status_code == 400
    assert response.json()["message"].startswith("The photo was not kept:")
    assert not Attachment.objects.exists()


def test_a_document_is_no_survey_photo() -> None:
    site = Site()
    entry_key = str(uuid.uuid4())
    site.post_entry(key=entry_key)
    document = io.BytesIO(b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")
    document.name = "offer.pdf"
    response = site.client.post(
        reverse("planning:survey_photo", args=[site.plan.number]),
        {"entry": entry_key, "key": str(uuid.uuid4()), "file": document},
    )
    assert response.status_code == 400
    assert "must be an image" in response.json()["message"]
    assert not Attachment.objects.exists()


def test_a_photo_of_an_entry_never_recorded_is_refused() -> None:
    site = Site()
    response = site.client.post(
        reverse("planning:survey_photo", args=[site.plan.number]),
        {"entry": str(uuid.uuid4()), "key": str(uuid.uuid4()), "file": _jpeg()},
    )
    assert response.status_code == 404
    assert "its entry was not recorded" in response.json()["message"]
    assert not StructureNode.objects.filter(attachments__isnull=False).exists()


def test_the_building_list_is_searched_and_paged() -> None:
    site = Site()
    for number in range(1, 31):
        StructureNodeFactory.create(plan=site.plan, kind=NodeKind.BUILDING, name=f"House {number}")
    url = reverse("planning:survey_buildings", args=[site.plan.number])
    page = site.client.get(url).content.decode()
    assert "31 buildings." in page
    assert "House 2<" in page and "House 10<" in page and "Town hall" not in page
    found = site.client.get(url, {"q": "town"}).content.decode()
    assert "Town hall" in found and "House 2<" not in found


def test_the_worker_is_served_under_plans_for_its_scope() -> None:
    response = Client().get(reverse("planning:survey_worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert reverse("planning:survey_worker").startswith(reverse("planning:plan_list"))
    assert "/static/js/survey.js" in response.content.decode()


def test_a_viewer_sees_the_survey_page_read_only() -> None:
    site = Site(role=PlanRole.VIEWER)
    page = site.client.get(
        reverse("planning:survey_building", args=[site.plan.number, site.building.pk])
    ).content.decode()
    assert 'data-can-edit="false"' in page
    assert "only an editor records a survey" in page
    assert "Start a new survey" not in page
