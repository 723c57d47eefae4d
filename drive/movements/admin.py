from django.contrib import admin

from drive.movements.models import Entrant, Movement


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("number", "player", "event", "joined_round", "left_after_round", "pinned_table")
    list_filter = ("event",)
    raw_id_fields = ("player", "event")


@admin.register(Movement)
class MovementAdmin(admin.ModelAdmin):
    list_display = ("event", "kind", "players", "rounds", "status", "version", "computed_at")
    list_filter = ("status", "kind")
    readonly_fields = ("requested_at", "computed_at")
