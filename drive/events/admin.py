from django.contrib import admin

from drive.events.models import AuditEntry, Club, Event, Player, Registration


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)
    search_fields = ("name",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "user", "club", "category", "created_at")
    list_filter = ("club", "category")
    search_fields = ("display_name", "user__username", "user__email")
    raw_id_fields = ("user",)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ("player",)
    fields = ("player", "status", "waitlist_position", "walk_in", "fixed_table", "registered_at", "checked_in_at")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("title", "club", "starts_at", "capacity", "published")
    list_filter = ("club", "published", "movement_kind")
    search_fields = ("title", "venue")
    date_hierarchy = "starts_at"
    inlines = [RegistrationInline]
    readonly_fields = ("door_code",)


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("player", "event", "status", "waitlist_position", "walk_in", "registered_at", "checked_in_at")
    list_filter = ("status", "walk_in", "event")
    search_fields = ("player__display_name",)
    raw_id_fields = ("player", "event")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the log is evidence, so nobody edits it here."""

    list_display = ("created_at", "event", "actor_label", "action", "object_repr")
    list_filter = ("action",)
    search_fields = ("action", "actor_label", "object_repr")
    raw_id_fields = ("event", "club", "actor")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
