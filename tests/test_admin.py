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


@pytest.mark.parametrize("old, new", [
    ("/admin/play/playtable/", "/admin/games/playtable/"),
    ("/admin/play/playseat/3/change/?_changelist_filters=x", "/admin/games/playseat/3/change/?_changelist_filters=x"),
])
def test_the_online_tables_old_admin_addresses_lead_to_games(admin_client, old, new):
    """The table models moved from play to games (issue 21): a bookmarked admin page still opens."""
    response = admin_client.get(old)
    assert response.status_code == 301 and response["Location"] == new
    assert admin_client.get("/admin/play/playerdisplay/").status_code == 200  # play keeps its own
