"""NUL characters and unpaired surrogates are a field error or a listed import problem
everywhere text comes in: JSON bodies, HTML forms, imports, commands. Never a 500, never stored.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from core.text import printable, text_problem
from integrations.models import ApiKey
from planning.models import Plan, StructureNode
from planning.transfer.imports.csv_pair import plan_import_csv
from planning.transfer.imports.json_file import plan_import
from planning.transfer.imports.problems import ImportRejected
from tests.envelope import assert_envelope
from tests.planning.test_views import EDIT_POSTS, OWNER_POSTS, World, _state, _urls, world

pytestmark = pytest.mark.django_db
User = get_user_model()
REGISTER = "/api/v1/auth/register/user"
SESSION = "/api/v1/auth/session/api-key"
__all__ = ["world"]  # the fixture, imported for the form tests


def test_text_problem_names_nul_and_lone_surrogates_only():
    assert text_problem("Dach\x00") is not None
    assert text_problem("\ud800") is not None
    assert text_problem("x\udfff") is not None
    assert text_problem("Dämmung 😀 \u2028") is None
    assert printable("a\x00\ud800ä") == "a\\x00\\ud800ä"


# --- JSON bodies -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw_body",
    [
        '{"email": "a@example.com", "password": "plum-orchard-ladder-77", "name": "Ada\\u0000"}',
        '{"email": "a@example.com", "password": "plum-orchard-ladder-77", "name": "\\ud800"}',
        '{"email": "a@example.com", "password": "plum-orchard-ladder-77", "name": ["\\udfff"]}',
    ],
)
def test_json_body_with_unstorable_text_is_a_field_error(client, raw_body):
    response = client.post(REGISTER, raw_body, content_type="application/json")

    body = assert_envelope(response, 400, "validation.failed")
    assert list(body["data"]["errors"]) == ["name"]
    assert not User.objects.exists()


def test_a_bad_key_is_named_escaped(client):
    response = client.post(REGISTER, '{"\\ud800x": 1}', content_type="application/json")

    body = assert_envelope(response, 400, "validation.failed")
    assert list(body["data"]["errors"]) == ["\\ud800x"]


@pytest.mark.parametrize("body", ['{"note": "\\u0000"}', '{"\\u0000": 1}', '{"\\ud800": []}'])
def test_session_check_takes_any_object_and_ignores_it(client, raw_key, body):
    """Its body is any JSON object (the schema says so) and is never kept: text no database
    can store is no reason to refuse it (schemathesis sent a NUL in a key)."""
    response = client.post(
        SESSION, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {raw_key}"
    )

    assert_envelope(response, 200, "auth.api_key_valid")


# --- HTML forms --------------------------------------------------------------------------------


def test_register_page_reports_nul_as_a_field_error(client):
    response = client.post(
        "/accounts/register/",
        {"email": "a@example.com", "name": "Ada\x00", "password": "plum-orchard-ladder-77"},
    )

    assert response.status_code == 200
    assert "name" in response.context["form"].errors
    assert not User.objects.exists()


def test_node_rename_reports_nul_as_a_field_error(client, world: World):
    client.force_login(world.owner.user)

    response = client.post(_urls(world)["node_rename"][1], {"rename-name": "Roof\x00"})

    assert response.status_code == 200
    assert "Null characters are not allowed." in response.content.decode()
    world.component.refresh_from_db()
    assert world.component.name == "Old roof"


# The forms that take input (the others are confirmation buttons).
NO_INPUT = {
    "node_delete",
    "node_code_clear",
    "action_cancel",
    "action_done",
    "member_remove",
    "project_action_remove",
    "project_delete",
}


@pytest.mark.parametrize("page_name", sorted(set(EDIT_POSTS + OWNER_POSTS) - NO_INPUT))
def test_every_plan_form_refuses_nul_in_every_field(client, world: World, page_name):
    """Every field name any plan page renders, each holding a NUL, posted to every form."""
    client.force_login(world.owner.user)
    urls = _urls(world)
    names: set[str] = set()
    for method, url in urls.values():
        if method == "GET":
            page = client.get(url)
            if page["Content-Type"].startswith("text/html"):  # not the exports
                names |= set(re.findall(r'name="([^"]+)"', page.content.decode()))
    names.discard("csrfmiddlewaretoken")
    before = _state(world)

    response = client.post(urls[page_name][1], {name: "x\x00y" for name in names})

    assert response.status_code in (200, 302, 400, 404)
    assert _state(world) == before


def test_catalog_search_with_nul_is_a_field_error(client, world: World):
    client.force_login(world.owner.user)

    response = client.get(_urls(world)["node_detail"][1], {"q": "roof\x00"})

    assert response.status_code == 200


def test_api_key_name_with_nul_is_a_field_error(client, user):
    client.force_login(user)

    response = client.post("/profile/integrations/api-keys/new/", {"name": "ERP\x00"})

    assert response.status_code == 200
    assert "Null characters are not allowed." in response.content.decode()
    assert not ApiKey.objects.exists()


# --- imports -----------------------------------------------------------------------------------


def _json_problems(owner, document: str) -> list[str]:
    with pytest.raises(ImportRejected) as rejected:
        plan_import(owner=owner, content=document.encode(), filename="plan.json")
    return [str(problem) for problem in rejected.value.problems]


def test_import_lists_nul_and_lone_surrogates_as_problems(user):
    document = (
        '{"name": "Campus", "nodes": ['
        '{"ref": "s", "name": "Site\\u0000", "kind": "site"},'
        '{"ref": "b", "parent_ref": "s", "name": "Hall", "kind": "building", "code": "\\ud800"}'
        '], "actions": [{"node_ref": "b", "title": "\\udc00", "kind": "repair", '
        '"planned_year": 2030}], "\\ud83dx": 1}'
    )

    problems = _json_problems(user, document)

    assert problems == [
        "\\ud83dx: unknown field (the fields are: name, nodes, actions, description, currency, "
        "price_base_year, index_rate_percent, markups, overhead_percent, vat_percent, "
        "annual_budget)",
        'node 1 (ref "s"): name: must not contain NUL characters (\\x00)',
        'node 2 (ref "b"): code: must not contain unpaired surrogates (\\ud800-\\udfff), '
        "which are not Unicode text",
        "action 1: title: must not contain unpaired surrogates (\\ud800-\\udfff), "
        "which are not Unicode text",
    ]
    assert not Plan.objects.exists()


def test_a_bad_value_quoted_in_a_problem_is_escaped(user):
    document = json.dumps(
        {"name": "P", "nodes": [{"ref": "s", "name": "S", "kind": "site", "quantity": "1\x00"}]}
    )

    problems = _json_problems(user, document)

    assert problems == ['node 1 (ref "s"): quantity: must be a number, got "1\\x00"']


def test_csv_import_lists_nul_bytes_as_problems(user):
    nodes = b"ref,parent_ref,name,kind\ns,,Site\x00,site\n"
    actions = b"node_ref,title,kind,planned_year\ns,Check,inspection,2030\n"

    with pytest.raises(ImportRejected) as rejected:
        plan_import_csv(owner=user, nodes_csv=nodes, actions_csv=actions, name="P")

    assert [str(p) for p in rejected.value.problems] == [
        'nodes.csv line 2 (ref "s"): name: must not contain NUL characters (\\x00)'
    ]
    assert not StructureNode.objects.exists()


def test_import_command_lists_the_problem_without_a_traceback(user, tmp_path):
    path = tmp_path / "plan.json"
    path.write_text('{"name": "P", "nodes": [{"ref": "s", "name": "\\ud800", "kind": "site"}]}')
    stderr = io.StringIO()

    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_plan", str(path), "--owner", user.email, stderr=stderr)

    assert 'node 1 (ref "s"): name: must not contain unpaired surrogates' in stderr.getvalue()
    assert not Plan.objects.exists()


# --- commands ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["issue_api_key", "{email}", "--name", "ERP\udcff"],
        ["issue_api_key", "{email}\x00", "--name", "ERP"],
        ["grant_api_access", "\udcff{email}"],
        ["import_plan", "plan.json", "--owner", "{email}", "--name", "P\x00"],
    ],
)
def test_commands_refuse_unstorable_arguments(user, args):
    args = [arg.replace("{email}", user.email) for arg in args]

    with pytest.raises(CommandError, match="must not contain"):
        call_command(*args, stdout=io.StringIO(), stderr=io.StringIO())

    assert not ApiKey.objects.exists()
