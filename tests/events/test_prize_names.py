"""Prize names as the room reads them: the usual names in the reader's language, the
organiser's own names (and gifts) as typed; the event page lists names, not stored rows."""
import pytest
from django.conf import settings
from django.utils import translation

from drive.events.prizes import shown_name

pytestmark = pytest.mark.embedded  # run in pass 2 too: it is about what the embedded default does

PRIZES = [{"name": "First prize: hamper", "kind": "overall"}, {"name": "Booby prize", "kind": "booby"},
          {"name": "Regent Street voucher", "kind": "ladies"}]


@pytest.mark.parametrize("lang, first, booby", [
    ("en", "First prize: hamper", "Booby prize"),
    ("ru", "Первый приз: hamper", "Утешительный приз"),
    ("uk", "Перший приз: hamper", "Втішний приз"),
])
def test_usual_names_read_in_the_readers_language(lang, first, booby):
    with translation.override(lang):
        assert [shown_name(p["name"]) for p in PRIZES] == [first, booby, "Regent Street voucher"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang, listed", [
    ("en", "First prize: hamper, Booby prize, Regent Street voucher"),
    ("uk", "Перший приз: hamper, Втішний приз, Regent Street voucher"),
])
def test_the_event_page_lists_the_prizes_by_name(client, make_event, lang, listed):
    event = make_event(prizes=PRIZES)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert listed in page
    main = page.split("<main>")[1]  # the head carries the scripts' constants (JSON, its own "kinds")
    assert "kind" not in main and "{" not in main  # no stored rows shown as they are
