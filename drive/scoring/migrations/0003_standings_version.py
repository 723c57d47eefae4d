import django.db.models.deletion
from django.db import migrations, models


def mark_running_evenings_stale(apps, schema_editor):
    """Evenings under way when this arrives: their stored standings carry no version, so
    they count as stale once (the sweep recomputes them)."""
    Event = apps.get_model("events", "Event")
    StandingsState = apps.get_model("scoring", "StandingsState")
    running = Event.objects.filter(phase__in=["in_progress", "finished"]).values_list("pk", flat=True)
    StandingsState.objects.bulk_create(StandingsState(event_id=pk, results_version=1) for pk in running)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0002_seat_claims"),
    ]

    operations = [
        migrations.CreateModel(
            name="StandingsState",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("results_version", models.PositiveIntegerField(default=0, verbose_name="results version")),
                ("computed_version", models.PositiveIntegerField(default=0, verbose_name="version of the standings")),
                ("computed_at", models.DateTimeField(blank=True, null=True, verbose_name="computed at")),
                ("event", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE,
                                               related_name="standings_state", to="events.event",
                                               verbose_name="whist drive")),
            ],
            options={
                "verbose_name": "standings version",
                "verbose_name_plural": "standings versions",
            },
        ),
        migrations.RunPython(mark_running_evenings_stale, migrations.RunPython.noop),
    ]
