"""Each event's screen link and chime, kept on the event until now, move to its room
screen (live.Screen); the events app then drops the two fields (events 0011)."""
from django.db import migrations


def screens_from_events(apps, schema_editor):
    """A screen for every event, with its link and chime."""
    Event, Screen = apps.get_model("events", "Event"), apps.get_model("live", "Screen")
    db = schema_editor.connection.alias
    rows = Event.objects.using(db).filter(screen__isnull=True).values_list("pk", "screen_token", "screen_chime")
    Screen.objects.using(db).bulk_create(
        (Screen(event_id=pk, token=token, chime=chime) for pk, token, chime in rows.iterator()), batch_size=500)


def events_from_screens(apps, schema_editor):
    """Back: the link and chime onto their events (whose fields events 0011 gave back), and
    no screen rows left behind to go stale."""
    Event, Screen = apps.get_model("events", "Event"), apps.get_model("live", "Screen")
    db = schema_editor.connection.alias
    screens = Screen.objects.using(db)
    Event.objects.using(db).filter(pk__in=screens.filter(chime=True).values("event_id")).update(screen_chime=True)
    for event_id, token in screens.filter(token__isnull=False).values_list("event_id", "token").iterator():
        Event.objects.using(db).filter(pk=event_id).update(screen_token=token)
    screens.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("live", "0002_screen"),
    ]

    operations = [
        migrations.RunPython(screens_from_events, events_from_screens, elidable=False),
    ]
