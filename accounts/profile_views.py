"""Profile pages: the account (name, email), the password change, and the links to the
security log and the integrations. Password reset uses Django's own views (accounts/urls.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts.forms import AccountForm
from accounts.models import User
from accounts.services import user_update


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@sensitive_post_parameters("current_password")
@login_required
@require_http_methods(["GET", "POST"])
def profile_page(request: HttpRequest) -> HttpResponse:
    """Profile > Account."""
    user = _user(request)
    form = AccountForm(
        request.POST or None, user=user, initial={"name": user.name, "email": user.email}
    )
    if request.method == "POST" and form.is_valid():
        try:
            user_update(user=user, name=form.cleaned_data["name"], email=form.cleaned_data["email"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Your account was saved.")
            return redirect("profile:account")
    return render(request, "accounts/profile.html", {"form": form})


@sensitive_post_parameters("old_password", "new_password1", "new_password2")
@login_required
@require_http_methods(["GET", "POST"])
def password_change_page(request: HttpRequest) -> HttpResponse:
    """Profile > Password: Django's form (the current password, the new one twice)."""
    user = _user(request)
    form = PasswordChangeForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        update_session_auth_hash(request, form.user)  # this session stays signed in
        messages.success(request, "Your password was changed.")
        return redirect("profile:account")
    return render(request, "accounts/password_change.html", {"form": form})
