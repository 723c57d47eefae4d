from django.contrib import admin

from drive.play.models import PlayerDisplay


@admin.register(PlayerDisplay)
class PlayerDisplayAdmin(admin.ModelAdmin):
    list_display = ("user", "four_colour", "high_contrast", "changed_at")
    list_filter = ("four_colour", "high_contrast")
    raw_id_fields = ("user",)
