from django.urls import path

from integrations import views

app_name = "integrations"

urlpatterns = [
    path("api-keys/", views.api_key_list, name="api_key_list"),
]
