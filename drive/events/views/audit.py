"""The console's audit log page: who did what to the evening, newest first."""
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render

from drive.events import access

from drive.events.selectors import events as selectors
from drive.events.services.audit import action_label, place, readable_changes

PAGE_SIZE = 50


@login_required
def audit_log(request, event_id):
    event = access.organised_event(request.user, event_id)
    page = Paginator(selectors.audit_log(event), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [{"entry": e, "label": action_label(action=e.action), "place": place(entry=e), "changes": readable_changes(entry=e)}
            for e in page.object_list]
    return render(request, "console/audit.html", {"event": event, "page": page, "rows": rows})
