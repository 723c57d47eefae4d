from django.contrib import admin

from drive.live.models import Announcement


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ("event", "text", "created_by", "created_at", "taken_down_at")
    list_filter = ("event",)
    raw_id_fields = ("event", "created_by")
