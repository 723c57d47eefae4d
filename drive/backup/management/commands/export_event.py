"""manage.py export_event <id> [-o <file>.json]: the whole event as JSON (stdout by default)."""
import json
import sys

from django.core.management.base import BaseCommand, CommandError

from drive.backup.services.backup import export_event
from drive.events.models import Event


class Command(BaseCommand):
    help = "Export one event (players, evening, results with their history, audit log) as versioned JSON."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, event_id, output=None, **options):
        try:
            document = export_event(event_id=event_id)
        except Event.DoesNotExist:
            raise CommandError(f"No event {event_id}.") from None
        text = json.dumps(document, ensure_ascii=False, indent=1)
        if output:
            with open(output, "w", encoding="utf-8") as out:
                out.write(text)
            self.stderr.write(f"Event {event_id} written to {output}.")
        else:
            sys.stdout.write(text + "\n")
