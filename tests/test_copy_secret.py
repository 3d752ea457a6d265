"""The Copy buttons of secrets shown once (static/js/copy-secret.js), in Chromium: they answer
within a second whatever the clipboard does. A page script times the answer in the page itself
(from the click to the status text), so a busy machine slows the test, not the verdict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HINT = "Selected: press Ctrl+C (⌘C on a Mac) to copy."

# Records when the Copy button is clicked and when its status first says something.
_TIMING_SCRIPT = """
window.__copy = {};
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-copy-target]")) window.__copy.clicked = performance.now();
}, true);
new MutationObserver(() => {
  const status = document.querySelector("[data-copy-status]");
  if (status && status.textContent && window.__copy.answered === undefined) {
    window.__copy.answered = performance.now();
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
# A clipboard whose promise neither succeeds nor fails.
_SILENT_CLIPBOARD_SCRIPT = """
Object.defineProperty(Navigator.prototype, "clipboard", {
  get: () => ({writeText: () => new Promise(() => {})}),
});
"""
# A clipboard that refuses, as a browser does when the permission is denied.
_REFUSING_CLIPBOARD_SCRIPT = """
Object.defineProperty(Navigator.prototype, "clipboard", {
  get: () => ({writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError"))}),
});
"""


def _show_new_api_key(page: Any, user: Any) -> str:
    browser_login(page, user.email)
    page.goto("/profile/integrations/api-keys/")
    page.fill("input[name=name]", "Copied key")
    page.click("button:has-text('Create key')")
    return str(page.locator("[data-testid=new-api-key]").inner_text()).strip()


def _show_new_webhook_secret(page: Any, user: Any) -> str:
    browser_login(page, user.email)
    page.goto("/profile/integrations/webhooks/new/")
    page.fill("input[name=url]", "http://127.0.0.1:9/hook")
    page.click("button:has-text('Add endpoint')")
    return str(page.locator("[data-testid=new-webhook-secret]").inner_text()).strip()


BUTTONS = [
    pytest.param(_show_new_api_key, "Copy key", id="api-key"),
    pytest.param(_show_new_webhook_secret, "Copy secret", id="webhook-secret"),
]


@pytest.fixture
def _private_targets(settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True  # the webhook form takes a loopback URL


def _click_copy(page: Any, label: str) -> None:
    page.click(f"button:has-text('{label}')")


def _answer_ms(page: Any) -> float:
    from playwright.sync_api import expect

    expect(page.locator("[data-copy-status]")).not_to_be_empty()
    timing = page.evaluate("window.__copy")
    return float(timing["answered"] - timing["clicked"])


@pytest.mark.usefixtures("_private_targets")
@pytest.mark.parametrize(("show", "label"), BUTTONS)
def test_copy_with_the_clipboard_granted_copies_the_secret(
    new_page: Callable[..., Any], user: Any, show: Any, label: str
) -> None:
    from playwright.sync_api import expect

    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.add_init_script(_TIMING_SCRIPT)
    secret = show(page, user)
    page.bring_to_front()
    _click_copy(page, label)
    expect(page.locator("[data-copy-status]")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == secret


@pytest.mark.usefixtures("_private_targets")
@pytest.mark.parametrize(("show", "label"), BUTTONS)
@pytest.mark.parametrize(
    "clipboard",
    [
        pytest.param(None, id="permission-denied"),
        pytest.param(_REFUSING_CLIPBOARD_SCRIPT, id="clipboard-refuses"),
        pytest.param(_SILENT_CLIPBOARD_SCRIPT, id="clipboard-never-answers"),
    ],
)
def test_copy_without_a_clipboard_selects_the_secret_with_a_hint_within_a_second(
    new_page: Callable[..., Any], user: Any, show: Any, label: str, clipboard: str | None
) -> None:
    from playwright.sync_api import expect

    # No permission granted: Chromium refuses the write (or, unfocused, never answers).
    page = new_page(permissions=[])
    page.add_init_script(_TIMING_SCRIPT)
    if clipboard:
        page.add_init_script(clipboard)
    secret = show(page, user)
    _click_copy(page, label)
    expect(page.locator("[data-copy-status]")).to_have_text(HINT)
    assert _answer_ms(page) < 1000
    assert page.evaluate("window.getSelection().toString()").strip() == secret
