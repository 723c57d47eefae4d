"""Every model of the project has a working Django admin."""
import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

PROJECT_APPS = [config for config in apps.get_app_configs() if config.name.startswith("drive.")]


def project_models():
    # simple_history's Historical* tables are shown through their model's "History" page.
    return [model for config in PROJECT_APPS for model in config.get_models() if not hasattr(model, "instance_type")]


def test_every_project_model_is_registered():
    missing = [model.__name__ for model in project_models() if not admin.site.is_registered(model)]
    assert missing == []


@pytest.mark.django_db
@pytest.mark.parametrize("model", project_models(), ids=lambda m: m.__name__)
def test_admin_pages_open(admin_client, model, event, make_user):
    from drive.events.services import registration as registration_services

    registration_services.register(actor=make_user(), event=event)
    opts = model._meta
    changelist = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    assert changelist.status_code == 200
    obj = model.objects.first()
    if obj is not None:
        change = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]))
        assert change.status_code == 200
