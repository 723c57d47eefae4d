from django.contrib import admin

from drive.games.models import PlayAction, PlayHandReview, PlaySeat, PlayTable


class PlaySeatInline(admin.TabularInline):
    model = PlaySeat
    extra = 0
    raw_id_fields = ("user",)


@admin.register(PlayTable)
class PlayTableAdmin(admin.ModelAdmin):
    list_display = ("id", "rules", "phase", "version", "created_by", "created_at", "event", "finished_at")
    list_filter = ("phase",)
    raw_id_fields = ("created_by", "event")
    readonly_fields = ("record", "version", "created_at", "changed_at")
    inlines = [PlaySeatInline]


@admin.register(PlayAction)
class PlayActionAdmin(admin.ModelAdmin):
    list_display = ("table", "version", "seat", "action", "by_robot", "created_at")
    raw_id_fields = ("table",)


@admin.register(PlaySeat)
class PlaySeatAdmin(admin.ModelAdmin):
    list_display = ("table", "seat", "user", "robot", "standin", "last_seen")
    list_filter = ("robot", "standin")
    raw_id_fields = ("table", "user")


@admin.register(PlayHandReview)
class PlayHandReviewAdmin(admin.ModelAdmin):
    list_display = ("table", "hand", "created_at")
    raw_id_fields = ("table",)
    readonly_fields = ("review", "created_at")
