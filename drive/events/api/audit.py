"""GET /api/events/<id>/audit/: the event's audit log for its organisers, newest first, paged."""
from django.core.paginator import Paginator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import errors

from drive.events import access

from drive.events.selectors import events as selectors
from drive.events.services.audit import action_label

PAGE_SIZE = 50


class AuditEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    actor = serializers.IntegerField(source="actor_id", allow_null=True)
    actor_label = serializers.CharField()
    action = serializers.CharField(help_text="A dotted code, e.g. registration.checked_in.")
    action_display = serializers.SerializerMethodField()
    object_type = serializers.CharField()
    object_id = serializers.CharField()
    object_repr = serializers.CharField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)

    def get_action_display(self, entry) -> str:
        return action_label(action=entry.action)


class AuditPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    results = AuditEntrySerializer(many=True)


class EventAuditView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("page", OpenApiTypes.INT, description="1 is the newest entries.")],
        responses={200: AuditPageSerializer, **errors(403, 404)},
        description="Every organiser write on the event (who, when, what, before and after). Organisers only.",
    )
    def get(self, request, event_id):
        event = access.organised_event(request.user, event_id)
        page = Paginator(selectors.audit_log(event), PAGE_SIZE).get_page(request.query_params.get("page"))
        return Response(AuditPageSerializer({
            "count": page.paginator.count, "page": page.number, "pages": page.paginator.num_pages,
            "results": page.object_list,
        }).data)
