"""Password reset by email: Django's views and form, with three changes (docs/subsystems/web-app.md
"Email" and docs/subsystems/limits.md "Password reset requests"):

- requests are throttled per client address and per email as typed, before any mail is sent,
  and the answer is the same whether or not an account has the email;
- the link in the email is built from ``SITE_URL`` (core.mail.site_link), never from the
  request's ``Host``;
- a completed reset lifts the account's login lockouts (accounts.lockout), so an attacker who
  locked the account out cannot keep its owner out.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.http import HttpResponse
from django.urls import reverse_lazy

from accounts.lockout import login_lockout_lift
from accounts.throttles import (
    PasswordResetAccountThrottle,
    PasswordResetAddressThrottle,
    throttled_page,
)
from api.throttling import client_address


class SiteUrlPasswordResetForm(PasswordResetForm):
    """Django's form, whose every address in the email comes from ``SITE_URL``."""

    def save(self, **kwargs: Any) -> None:  # type: ignore[override]
        site = urlsplit(settings.SITE_URL)
        kwargs.update(
            # The domain, site name and protocol Django would take from the request.
            domain_override=site.netloc,
            use_https=site.scheme == "https",
            extra_email_context={"site_url": settings.SITE_URL},
        )
        super().save(**kwargs)


class PasswordResetRequestView(auth_views.PasswordResetView):
    form_class = SiteUrlPasswordResetForm
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        # Counted once the form is valid: a form with errors sends nothing.
        limited = throttled_page(
            self.request,
            PasswordResetAddressThrottle(),
            PasswordResetAccountThrottle(email=form.cleaned_data["email"]),
        )
        return limited or super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:  # type: ignore[type-arg]
        response = super().form_valid(form)
        login_lockout_lift(email=form.user.email, address=client_address(self.request))
        return response
