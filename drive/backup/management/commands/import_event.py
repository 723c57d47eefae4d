"""manage.py import_event <file>.json: recreate an exported event here, with new ids."""
import json

from django.core.management.base import BaseCommand, CommandError

from drive.backup.services.backup import import_event
from drive.core.errors import ServiceError


class Command(BaseCommand):
    help = "Import an event exported by export_event (into an empty database or beside other events)."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as source:
                document = json.load(source)
            event = import_event(document=document)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from None
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"Imported as event {event.pk}: {event.title}")
