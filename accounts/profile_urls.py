from django.urls import path

from accounts import profile_views

app_name = "profile"

urlpatterns = [
    path("", profile_views.profile_page, name="account"),
    path("password/", profile_views.password_change_page, name="password"),
]
