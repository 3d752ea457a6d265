"""Web pages: registration, login, logout."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods

from accounts.forms import LoginForm, RegistrationForm
from accounts.models import User
from accounts.selectors import security_events_for_user
from accounts.services import user_register
from accounts.throttles import throttled_page
from api.throttling import ClientAddressThrottle


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/plans/"


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
def login_page(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next_url(request))
    form = LoginForm(request=request)
    if request.method == "POST":
        if (limited := throttled_page(request, ClientAddressThrottle())) is not None:
            return limited
        form = LoginForm(request.POST, request=request)
        if form.is_valid() and form.user is not None:
            login(request, form.user)
            return redirect(_next_url(request))
    return render(request, "accounts/login.html", {"form": form, "next": _next_url(request)})


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
def register_page(request: HttpRequest) -> HttpResponse:
    form = RegistrationForm()
    if request.method == "POST":
        if (limited := throttled_page(request, ClientAddressThrottle())) is not None:
            return limited
        form = RegistrationForm(request.POST)
        if form.is_valid():
            try:
                user = user_register(
                    email=form.cleaned_data["email"],
                    password=form.cleaned_data["password"],
                    name=form.cleaned_data["name"],
                )
            except ValidationError as error:  # the same email registered a moment ago
                form.add_error(None, error)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, "Welcome to Maintplan. Your account is ready.")
                return redirect("planning:plan_list")
    return render(request, "accounts/register.html", {"form": form})


def logout_page(request: HttpRequest) -> HttpResponse:
    """POST logs out; GET shows a confirmation button (logging out must not be a link)."""
    if request.method == "POST":
        logout(request)
        messages.info(request, "You have been logged out.")
        return redirect("accounts:login")
    return render(request, "accounts/logout.html")


SECURITY_EVENTS_PER_PAGE = 50


@login_required
@require_http_methods(["GET"])
def security_log_page(request: HttpRequest) -> HttpResponse:
    """Profile > Security log: the user's own events, newest first, 50 a page."""
    assert isinstance(request.user, User)
    events = security_events_for_user(user=request.user, now=timezone.now())
    page = Paginator(events, SECURITY_EVENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "accounts/security_log.html",
        {"page": page, "days": settings.SECURITY_LOG_DAYS},
    )


@require_GET
def home_page(request: HttpRequest) -> HttpResponse:
    """`/`: what Maintplan is, for a visitor; the plan list for someone signed in."""
    if request.user.is_authenticated:
        return redirect("planning:plan_list")
    return render(request, "landing.html")
