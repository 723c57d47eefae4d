"""A casual table's invitation: a secret of its own for every table, old ones included."""
from django.db import migrations, models

import drive.games.models


def give_each_its_own(apps, schema_editor):
    PlayTable = apps.get_model("play", "PlayTable")
    for table in PlayTable.objects.only("pk"):
        PlayTable.objects.filter(pk=table.pk).update(invite=drive.games.models.new_invite())


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="playtable",
            name="invite",
            field=models.CharField(default=drive.games.models.new_invite, editable=False,
                                   help_text="The secret of the table's invitation link (/play/<id>/?invite=...).",
                                   max_length=32, verbose_name="invitation"),
        ),
        migrations.RunPython(give_each_its_own, migrations.RunPython.noop),
    ]
