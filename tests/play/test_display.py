"""A person's display preference (issue 20): a four-colour deck and high contrast, set
by the service and GET/PUT /api/play/display/, the caller's own only; the table page and
the hand history draw the cards so from the first paint."""
import pytest

from drive.core.errors import Forbidden, Invalid
from drive.play.models import PlayerDisplay
from drive.play.selectors.display import display_of
from drive.games.services import tables
from drive.play.services.display import set_display

pytestmark = pytest.mark.django_db

URL = "/api/play/display/"


def test_nobody_has_chosen_yet_the_usual_deck(make_user):
    assert display_of(user=make_user()) == {"four_colour": False, "high_contrast": False}
    assert display_of(user=None) == {"four_colour": False, "high_contrast": False}


def test_the_service_sets_and_keeps_what_is_left_out(make_user):
    me = make_user()
    assert set_display(actor=me, four_colour=True) == {"four_colour": True, "high_contrast": False}
    assert set_display(actor=me, high_contrast=True) == {"four_colour": True, "high_contrast": True}
    assert set_display(actor=me, four_colour=False) == {"four_colour": False, "high_contrast": True}
    assert PlayerDisplay.objects.filter(user=me).count() == 1


def test_the_service_refuses_anonymous_another_person_and_non_booleans(make_user):
    me, other = make_user(), make_user()
    with pytest.raises(Forbidden):
        set_display(actor=None, four_colour=True)
    with pytest.raises(Forbidden):
        set_display(actor=me, owner=other, four_colour=True)
    with pytest.raises(Invalid) as refused:
        set_display(actor=me, four_colour="yes")
    assert refused.value.field == "four_colour"
    assert display_of(user=other) == {"four_colour": False, "high_contrast": False}
    assert not PlayerDisplay.objects.filter(user=other).exists()
    assert set_display(actor=me, owner=me, high_contrast=True)["high_contrast"] is True


def test_the_api_reads_and_sets_the_callers_own(api, make_user):
    me = make_user()
    api.force_authenticate(me)
    assert api.get(URL).json() == {"four_colour": False, "high_contrast": False}
    answer = api.put(URL, {"four_colour": True, "high_contrast": True}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"four_colour": True, "high_contrast": True}
    assert api.get(URL).json() == {"four_colour": True, "high_contrast": True}
    assert api.put(URL, {"high_contrast": False}, format="json").json() == {"four_colour": True,
                                                                             "high_contrast": False}


def test_the_api_refuses_anonymous(api):
    assert api.get(URL).status_code == 403
    refused = api.put(URL, {"four_colour": True}, format="json")
    assert refused.status_code == 403
    assert "detail" in refused.json()
    assert not PlayerDisplay.objects.exists()


@pytest.mark.parametrize("body, field", [({"four_colour": "purple"}, "four_colour"),
                                         ({"high_contrast": [1]}, "high_contrast"),
                                         ({"four_colour": None}, "four_colour")])
def test_a_bad_value_is_a_400_with_the_fields_message(api, make_user, body, field):
    me = make_user()
    api.force_authenticate(me)
    refused = api.put(URL, body, format="json")
    assert refused.status_code == 400, refused.content
    assert field in refused.json() and refused.json()[field]
    assert display_of(user=me) == {"four_colour": False, "high_contrast": False}


def test_one_person_cannot_change_anothers(api, make_user):
    me, other = make_user(), make_user()
    set_display(actor=other, four_colour=True)
    api.force_authenticate(me)
    # The body names no one: a PUT changes the caller's own and nobody else's.
    answer = api.put(URL, {"four_colour": False, "high_contrast": True, "user": other.pk}, format="json")
    assert answer.status_code == 200
    assert display_of(user=other) == {"four_colour": True, "high_contrast": False}
    assert display_of(user=me) == {"four_colour": False, "high_contrast": True}


def test_the_session_needs_the_csrf_token(make_user):
    from django.test import Client

    me = make_user()
    client = Client(enforce_csrf_checks=True)
    client.force_login(me)
    refused = client.put(URL, {"four_colour": True}, content_type="application/json")
    assert refused.status_code == 403
    assert display_of(user=me)["four_colour"] is False


def test_the_pages_draw_the_preference_from_the_first_paint(client, make_user):
    me = make_user()
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"})
    client.force_login(me)
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert 'class="play" data-table' in page
    assert 'name="four_colour">' in page and 'id="play-announce"' in page
    set_display(actor=me, four_colour=True, high_contrast=True)
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert 'class="play deck-four high-contrast" data-table' in page
    assert 'name="four_colour" checked>' in page and 'name="high_contrast" checked>' in page
    assert 'data-api="/api/play/display/"' in page
    history = client.get(f"/play/{table.pk}/hands/").content.decode()
    assert 'class="play hand-history deck-four high-contrast"' in history
    assert "css/deck.css" in history and "css/deck.css" in page
