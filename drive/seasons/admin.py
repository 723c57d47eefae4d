from django import forms
from django.contrib import admin
from django.db import transaction

from drive.seasons.models import Season, SeasonStanding, SeasonTable
from drive.seasons.services.seasons import SEASON_FIELDS, settings_problems
from drive.seasons.services.table import table_changed


class SeasonForm(forms.ModelForm):
    """The API's rules for a season's settings (services.seasons.settings_problems)."""

    class Meta:
        model = Season
        fields = ["club", *SEASON_FIELDS]

    def clean(self):
        data = super().clean()
        values = {name: data.get(name, getattr(self.instance, name, None)) for name in SEASON_FIELDS}
        for field, message in settings_problems(values).items():
            if field not in self.errors:
                self.add_error(field, message)
        return data


class SeasonStandingInline(admin.TabularInline):
    model = SeasonStanding
    extra = 0
    can_delete = False
    fields = ("position", "place", "player", "evenings", "counted", "score", "qualified")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    form = SeasonForm
    list_display = ("name", "club", "starts_on", "ends_on", "score", "best_of", "min_evenings")
    list_filter = ("club", "score")
    search_fields = ("name",)
    inlines = [SeasonStandingInline]

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            table_changed(obj.pk)  # the table follows a change made here too


@admin.register(SeasonTable)
class SeasonTableAdmin(admin.ModelAdmin):
    """Computed: shown, never edited."""

    list_display = ("season", "computed_at")
    readonly_fields = ("season", "source", "evenings", "computed_at")

    def has_add_permission(self, request):
        return False


@admin.register(SeasonStanding)
class SeasonStandingAdmin(admin.ModelAdmin):
    """Computed: shown, never edited."""

    list_display = ("season", "position", "place", "player", "evenings", "counted", "score", "qualified")
    list_filter = ("season",)
    raw_id_fields = ("season", "player")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
