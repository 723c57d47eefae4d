"""REST API of the room's screen, for the organiser: the screen link, the chime and the
announcements. Thin: each view calls one service; the services check the organiser."""
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import errors
from drive.core.api_input import valid_data
from drive.events.access import organised_event, visible_event

from drive.live.services import announcements
from drive.live.selectors import announcements as announcement_reads
from drive.live.services import screen as screens
from drive.live.selectors.screen import chimes, screen_token
from drive.live.models import ANNOUNCEMENT_MAX, Announcement


class AnnouncementSerializer(serializers.ModelSerializer):
    on_screen = serializers.SerializerMethodField()

    class Meta:
        model = Announcement
        fields = ["id", "text", "created_at", "taken_down_at", "on_screen"]

    def get_on_screen(self, announcement) -> bool:
        return announcement.taken_down_at is None


class AnnouncementWriteSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=ANNOUNCEMENT_MAX, help_text="One line for the whole room.")


class ScreenSerializer(serializers.Serializer):
    url = serializers.CharField(allow_null=True, help_text="The screen link (no login needed); null when none.")
    chime = serializers.BooleanField(help_text="Sound a chime when the round clock reaches zero.")
    announcements = AnnouncementSerializer(many=True, help_text="Not taken down, newest first.")


class ScreenWriteSerializer(serializers.Serializer):
    chime = serializers.BooleanField()


def screen_response(request, event, code=status.HTTP_200_OK):
    token = screen_token(event)
    url = request.build_absolute_uri(reverse("screen", args=[token])) if token else None
    data = {"url": url, "chime": chimes(event), "announcements": announcement_reads.current(event=event)}
    return Response(ScreenSerializer(data).data, status=code)


class ScreenView(APIView):
    @extend_schema(responses={200: ScreenSerializer, **errors(403, 404)}, operation_id="screen_retrieve")
    def get(self, request, event_id):
        return screen_response(request, organised_event(request.user, event_id))

    @extend_schema(request=ScreenWriteSerializer, responses={200: ScreenSerializer, **errors(400, 403, 404)},
                   operation_id="screen_update")
    def patch(self, request, event_id):
        event = visible_event(request.user, event_id)
        data = valid_data(ScreenWriteSerializer, request)
        event = screens.set_screen_chime(actor=request.user, event=event, chime=data["chime"])
        return screen_response(request, event)


class ScreenLinkView(APIView):
    @extend_schema(request=None, responses={201: ScreenSerializer, **errors(403, 404)},
                   description="A new screen link; any earlier one stops working at once.")
    def post(self, request, event_id):
        event = screens.issue_screen_link(actor=request.user, event=visible_event(request.user, event_id))
        return screen_response(request, event, status.HTTP_201_CREATED)

    @extend_schema(responses={204: None, **errors(403, 404)}, description="No screen link: open screens go blank.")
    def delete(self, request, event_id):
        screens.revoke_screen_link(actor=request.user, event=visible_event(request.user, event_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class AnnouncementListView(APIView):
    @extend_schema(request=AnnouncementWriteSerializer,
                   responses={201: AnnouncementSerializer, **errors(400, 403, 404)})
    def post(self, request, event_id):
        event = visible_event(request.user, event_id)
        data = valid_data(AnnouncementWriteSerializer, request)
        announcement = announcements.announce(actor=request.user, event=event, text=data["text"])
        return Response(AnnouncementSerializer(announcement).data, status=status.HTTP_201_CREATED)


class AnnouncementView(APIView):
    @extend_schema(responses={204: None, **errors(403, 404)}, description="Take the line off the screens.")
    def delete(self, request, event_id, announcement_id):
        event = visible_event(request.user, event_id)
        announcement = get_object_or_404(Announcement.objects.select_related("event__club"),
                                         pk=announcement_id, event=event)
        announcements.take_down(actor=request.user, announcement=announcement)
        return Response(status=status.HTTP_204_NO_CONTENT)
