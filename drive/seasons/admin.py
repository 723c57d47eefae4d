from django import forms
from django.contrib import admin
from django.db import transaction

from drive.seasons.models import GradeBook, GradedEvening, GradePoint, PlayerGrade, Season, SeasonStanding, SeasonTable
from drive.seasons.services.seasons import SEASON_FIELDS, settings_problems
from drive.seasons.services.table import table_changed


class SeasonForm(forms.ModelForm):
    """The API's rules for a season's settings (services.seasons.settings_problems)."""

    class Meta:
        model = Season
        fields = ["club", *SEASON_FIELDS]

    def clean(self):
        super().clean()
        data = self.cleaned_data  # what ModelForm.clean returns
        values = {name: data.get(name, getattr(self.instance, name, None)) for name in SEASON_FIELDS}
        for field, message in settings_problems(values=values).items():
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
            table_changed(season_id=obj.pk)  # the table follows a change made here too


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


class ComputedAdmin(admin.ModelAdmin):
    """The whist grade's stored computation (drive.seasons.services.grades): shown, never
    edited; a wrong one is recomputed from the evenings, not typed in."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PlayerGrade)
class PlayerGradeAdmin(ComputedAdmin):
    list_display = ("player", "mu", "sigma", "hands", "updated_at")
    search_fields = ("player__display_name",)
    raw_id_fields = ("player",)


@admin.register(GradedEvening)
class GradedEveningAdmin(ComputedAdmin):
    list_display = ("event", "starts_at", "results_version", "hands", "average")
    raw_id_fields = ("event",)


@admin.register(GradePoint)
class GradePointAdmin(ComputedAdmin):
    list_display = ("player", "evening", "mu", "sigma", "hands")
    raw_id_fields = ("player", "evening")


@admin.register(GradeBook)
class GradeBookAdmin(ComputedAdmin):
    list_display = ("pk", "evenings", "computed_at")
