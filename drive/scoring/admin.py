from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from drive.scoring.models import HandResult, OnlineTables, Round, Seat, SeatClaim, Standing, StandingsState, Table


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "state", "started_at", "deadline", "closed_at")
    list_filter = ("state", "event")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("event", "number")
    list_filter = ("event",)
    readonly_fields = ("token",)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("round", "table", "position", "entrant")
    list_filter = ("round__event",)
    raw_id_fields = ("round", "table", "entrant")


@admin.register(SeatClaim)
class SeatClaimAdmin(admin.ModelAdmin):
    """Who holds which seat; the secret itself is never stored, only its hash."""

    list_display = ("round", "table", "position", "user", "claimed_at")
    list_filter = ("round__event",)
    raw_id_fields = ("round", "table", "user")
    readonly_fields = ("secret_hash", "claimed_at")


@admin.register(HandResult)
class HandResultAdmin(SimpleHistoryAdmin):
    list_display = ("round", "table", "hand_number", "ns_tricks", "trump", "status", "change_kind", "updated_at")
    list_filter = ("status", "change_kind", "round__event")
    raw_id_fields = ("round", "table")


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ("event", "place", "entrant", "total", "hands_played", "hands_won")
    list_filter = ("event",)
    raw_id_fields = ("entrant",)


@admin.register(StandingsState)
class StandingsStateAdmin(admin.ModelAdmin):
    """Read-only: the versions are the services' business (a stale one is recomputed by the sweep)."""

    list_display = ("event", "results_version", "computed_version", "computed_at")
    readonly_fields = ("event", "results_version", "computed_version", "computed_at")

    def has_add_permission(self, request):
        return False


@admin.register(OnlineTables)
class OnlineTablesAdmin(admin.ModelAdmin):
    list_display = ("event", "mode", "tables", "robot", "updated_at")
    list_filter = ("mode",)
