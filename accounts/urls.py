from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.password_reset import PasswordResetConfirmView, PasswordResetRequestView

app_name = "accounts"

urlpatterns = [
    path("login/", views.login_page, name="login"),
    path("register/", views.register_page, name="register"),
    path("logout/", views.logout_page, name="logout"),
    # Password reset by email: Django's views and templates of ours, throttled, with links from
    # SITE_URL, and lifting the login lockouts once done (accounts.password_reset).
    path("password-reset/", PasswordResetRequestView.as_view(), name="password_reset"),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_sent.html"),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("security-log/", views.security_log_page, name="security_log"),
]
