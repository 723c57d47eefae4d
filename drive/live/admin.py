from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from drive.live.models import Announcement, Screen


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ("event", "text", "created_by", "created_at", "taken_down_at")
    list_filter = ("event",)
    raw_id_fields = ("event", "created_by")


@admin.register(Screen)
class ScreenAdmin(admin.ModelAdmin):
    list_display = ("event", "has_link", "chime", "updated_at")
    list_filter = ("chime",)
    raw_id_fields = ("event",)
    # The token is a key to the room's screen: the console shows it to the event's organisers.
    readonly_fields = ("created_at", "updated_at")

    @admin.display(boolean=True, description=_("screen link"))
    def has_link(self, screen):
        return bool(screen.token)
