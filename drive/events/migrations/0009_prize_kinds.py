"""Prizes become {name, kind}: the names saved so far get the kind the results page
guessed from them until now (the guess is copied here, as it stood, so that this
migration keeps converting the same way whatever becomes of the code)."""
from django.db import migrations, models

BOOBY_WORDS = ("booby", "утеш", "втіш")
HALF_WORDS = ("half", "полов")
LADY_WORDS = ("lady", "ladies", "дам", "женщ", "жін")
GENT_WORDS = ("gent", "джент", "мужч", "чолов")


def guessed_kind(name):
    lowered = name.lower()
    if any(w in lowered for w in BOOBY_WORDS):
        return "booby"
    if any(w in lowered for w in HALF_WORDS):
        return "half_time"
    if any(w in lowered for w in LADY_WORDS):
        return "ladies"
    if any(w in lowered for w in GENT_WORDS):
        return "gents"
    return "overall"


def names_to_prizes(apps, schema_editor):
    Event = apps.get_model("events", "Event")
    for event in Event.objects.only("pk", "prizes").iterator():
        prizes = event.prizes if isinstance(event.prizes, list) else []
        if any(isinstance(p, str) for p in prizes):
            event.prizes = [{"name": p, "kind": guessed_kind(p)} if isinstance(p, str) else p for p in prizes]
            Event.objects.filter(pk=event.pk).update(prizes=event.prizes)


def prizes_to_names(apps, schema_editor):
    Event = apps.get_model("events", "Event")
    for event in Event.objects.only("pk", "prizes").iterator():
        names = [p["name"] if isinstance(p, dict) else p for p in event.prizes or []]
        Event.objects.filter(pk=event.pk).update(prizes=names)


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0008_audit_log"),
    ]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="prizes",
            field=models.JSONField(blank=True, default=list,
                                   help_text="Prizes in order, each with its name and kind, e.g. first, second, booby.",
                                   verbose_name="prizes"),
        ),
        migrations.RunPython(names_to_prizes, prizes_to_names),
    ]
