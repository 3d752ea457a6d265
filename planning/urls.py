from django.urls import path

from planning import views

app_name = "planning"

urlpatterns = [
    path("", views.plan_list, name="plan_list"),
]
