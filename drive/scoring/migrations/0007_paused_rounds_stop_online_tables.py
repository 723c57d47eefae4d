from django.db import migrations


def stop_paused_tables(apps, schema_editor):
    """A round paused while the database is upgraded keeps its online tables waiting: the
    tables learn of the pause themselves now (drive.games, issue 21)."""
    Round = apps.get_model("scoring", "Round")
    PlayTable = apps.get_model("games", "PlayTable")
    for event_id, number in Round.objects.filter(state="playing", paused_at__isnull=False).values_list(
            "event_id", "number"):
        PlayTable.objects.filter(event_id=event_id, round_number=number, finished_at__isnull=True).update(
            clock_stopped=True)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0006_online_tables'),
        ('games', '0002_playtable_clock_stopped'),
    ]

    operations = [
        migrations.RunPython(stop_paused_tables, migrations.RunPython.noop),
    ]
