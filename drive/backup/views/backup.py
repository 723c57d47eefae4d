"""The organiser's download of a whole event as JSON: a console link and an API endpoint."""
import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.views import APIView

from drive.core.api_docs import errors
from drive.events import access

from drive.backup.services.backup import export_for_organiser


def _download(user, event_id):
    event = access.organised_event(user, event_id)
    document = export_for_organiser(actor=user, event=event)
    response = HttpResponse(json.dumps(document, ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.json"'
    return response


@login_required
def console_export(request, event_id):
    return _download(request.user, event_id)


class EventExportView(APIView):
    @extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT, **errors(403, 404)},
                   description="The whole event as a versioned JSON document (manage.py import_event reads it). "
                               "Organisers only; each download is recorded in the audit log.")
    def get(self, request, event_id):
        return _download(request.user, event_id)
