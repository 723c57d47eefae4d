from django.db import migrations

MOVED = {"play.playtable": "games.playtable", "play.playseat": "games.playseat",
         "play.playaction": "games.playaction", "play.playhandreview": "games.playhandreview"}


def name_games(apps, schema_editor):
    """Audit entries about an online table or seat name its model by its new app label, so
    the log still finds the object (issue 21: the models moved from play to games)."""
    AuditEntry = apps.get_model("events", "AuditEntry")
    for old, new in MOVED.items():
        AuditEntry.objects.filter(object_type=old).update(object_type=new)


def name_play(apps, schema_editor):
    AuditEntry = apps.get_model("events", "AuditEntry")
    for old, new in MOVED.items():
        AuditEntry.objects.filter(object_type=new).update(object_type=old)


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0011_screen_moved_to_live'),
        ('games', '0002_playtable_clock_stopped'),
    ]

    operations = [
        migrations.RunPython(name_games, name_play),
    ]
