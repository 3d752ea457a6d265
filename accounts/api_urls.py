from django.urls import path

from accounts import api

urlpatterns = [
    path("auth/register/user", api.UserRegisterApi.as_view(), name="api-register-user"),
    path("auth/login/user", api.UserLoginApi.as_view(), name="api-login-user"),
]
