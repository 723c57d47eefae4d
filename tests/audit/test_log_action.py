"""log_action: one row per organiser write, readable after the fact."""
import datetime

from drive.events.services.audit import changed, log_action, snapshot
from drive.events.models import AuditEntry


def test_log_action_keeps_who_what_before_and_after(event, organiser):
    entry = log_action(actor=organiser, event=event, action="event.changed",
                       before={"title": "Old"}, after={"title": "New"}, obj=event)
    entry.refresh_from_db()
    assert entry.club_id == event.club_id
    assert entry.actor == organiser and entry.actor_label == "organiser"
    assert entry.object_type == "events.event" and entry.object_id == str(event.pk)
    assert (entry.before, entry.after) == ({"title": "Old"}, {"title": "New"})
    assert list(AuditEntry.objects.filter(event=event)) == [entry]


def test_snapshot_and_changed_hold_json_values(event):
    before = snapshot(obj=event, fields=["title", "starts_at", "club"])
    assert isinstance(before["starts_at"], str) and before["club"] == event.club_id
    old, new = changed(before={"a": 1, "b": datetime.date(2026, 1, 1).isoformat()}, after={"a": 1, "b": "2026-01-02"})
    assert (old, new) == ({"b": "2026-01-01"}, {"b": "2026-01-02"})


def test_an_anonymous_actor_leaves_an_unnamed_entry(event):
    entry = log_action(actor=None, event=event, action="event.changed")
    assert entry.actor is None and entry.actor_label == ""
