"""Validation for registration and login, shared by the web pages and the JSON routes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import authenticate, password_validation
from django.http import HttpRequest

from accounts.models import DUPLICATE_EMAIL, User
from accounts.selectors import user_get_by_email


class RegistrationForm(forms.Form):
    email = forms.EmailField(
        max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    name = forms.CharField(
        max_length=150, required=False, widget=forms.TextInput(attrs={"autocomplete": "name"})
    )
    password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}), strip=False
    )

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if user_get_by_email(email=email) is not None:
            raise forms.ValidationError(DUPLICATE_EMAIL, code="duplicate")
        return email

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        password = cleaned.get("password")
        if password:
            candidate = User(email=cleaned.get("email", ""), name=cleaned.get("name", ""))
            try:
                password_validation.validate_password(password, candidate)
            except forms.ValidationError as error:
                self.add_error("password", error)
        return cleaned


class LoginForm(forms.Form):
    email = forms.EmailField(
        max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "username"})
    )
    password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}), strip=False
    )

    error_messages = {"invalid_login": "The email or password is not correct."}

    def __init__(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        self.request = request
        self.user: User | None = None
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        email, password = cleaned.get("email"), cleaned.get("password")
        if email and password:
            user = authenticate(self.request, username=email, password=password)
            if user is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_login"], code="invalid_login"
                )
            self.user = user  # type: ignore[assignment]
        return cleaned

    @property
    def credentials_rejected(self) -> bool:
        """True when the fields were well-formed but did not match an active account."""
        return any(e.code == "invalid_login" for e in self.non_field_errors().as_data())


class AccountForm(forms.Form):
    """Profile > Account: name and email; a new email needs the current password."""

    name = forms.CharField(
        max_length=150, required=False, widget=forms.TextInput(attrs={"autocomplete": "name"})
    )
    email = forms.EmailField(
        max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    current_password = forms.CharField(
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="Needed only to change your email address.",
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        other = user_get_by_email(email=email)
        if other is not None and other.pk != self.user.pk:
            raise forms.ValidationError(DUPLICATE_EMAIL, code="duplicate")
        return email

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        email = cleaned.get("email")
        changed = bool(email) and email != self.user.email.lower()
        if changed and not self.user.check_password(cleaned.get("current_password") or ""):
            self.add_error("current_password", "Enter your current password to change your email.")
        return cleaned
