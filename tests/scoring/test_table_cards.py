"""Printable table cards: one A6 card per table with its QR code, for the organiser only."""
import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from drive.scoring.models import Table
from drive.scoring.selectors.table import table_for_token
from drive.core.errors import NotFound

pytestmark = pytest.mark.django_db
SVG_NS = "http://www.w3.org/2000/svg"


def cards_url(event):
    return reverse("console-table-cards", args=[event.pk])


def test_the_organiser_gets_a_card_per_table_with_its_qr_code(client, organiser, evening):
    client.force_login(organiser)
    response = client.get(cards_url(evening))
    assert response.status_code == 200
    html = response.content.decode()
    tables = list(Table.objects.filter(event=evening).order_by("number"))
    assert html.count('class="table-card"') == len(tables) == 2
    svgs = re.findall(r"<svg\b.*?</svg>", html, flags=re.S)
    assert len(svgs) == 2
    for svg in svgs:
        root = ET.fromstring(svg)  # well-formed, in the SVG namespace (usable as a file or an <img> too)
        assert root.tag == f"{{{SVG_NS}}}svg" and root.get("viewBox")
    for table in tables:
        entry = f"http://testserver/t/{table.token}/"
        assert html.count(entry) == 3  # the link list: href and text; the card: the address in small print
        assert f'id="table-card-{table.number}"' in html
    assert "Scan the code with your phone" in html
    assert "css/table.css" in html


def test_the_qr_code_holds_the_table_s_entry_address(client, organiser, evening, monkeypatch):
    from drive.core import qr

    encoded = []
    real = qr.segno.make
    monkeypatch.setattr(qr.segno, "make", lambda content, **kw: encoded.append(content) or real(content, **kw))
    client.force_login(organiser)
    client.get(cards_url(evening))
    tokens = [t.token for t in Table.objects.filter(event=evening).order_by("number")]
    assert encoded == [f"http://testserver/t/{token}/" for token in tokens]
    for address in encoded:  # each opens its table's page
        assert client.get(address.removeprefix("http://testserver")).status_code == 200


def test_the_cards_print_one_a6_card_a_page(client, organiser, evening):
    from django.contrib.staticfiles import finders

    client.force_login(organiser)
    # The A6 page size lives in cards.css (no inline style under the CSP), linked by the cards
    # page alone: the entry page must not be sized A6 too.
    cards_css = open(finders.find("css/cards.css"), encoding="utf-8").read()
    assert "@page { size: 105mm 148mm; margin: 0; }" in cards_css
    assert "css/cards.css" in client.get(cards_url(evening)).content.decode()
    entry_page = client.get(reverse("table-entry", args=[Table.objects.first().token])).content.decode()
    assert "css/cards.css" not in entry_page and "@page" not in entry_page
    css = open(finders.find("css/table.css"), encoding="utf-8").read()
    assert re.search(r"\.table-card \{ width: 105mm; height: 148mm;", css)
    assert "break-after: page" in css  # one card a page (the browser test prints it: 2 tables, 2 A6 pages)


@pytest.mark.parametrize("who", ["anonymous", "player", "rival organiser"])
def test_table_cards_are_for_the_event_s_organisers_only(client, make_user, evening, other_club, who):
    if who == "player":
        client.force_login(make_user("player"))
    elif who == "rival organiser":
        client.force_login(other_club.organisers.get())
    response = client.get(cards_url(evening))
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == 403
    tokens = Table.objects.filter(event=evening).values_list("token", flat=True)
    assert not any(token in response.content.decode() for token in tokens)


def test_an_unknown_event_is_404(client, organiser):
    client.force_login(organiser)
    assert client.get(reverse("console-table-cards", args=[999999])).status_code == 404


def test_before_the_evening_there_are_no_tables_yet(client, organiser, event):
    client.force_login(organiser)
    response = client.get(cards_url(event))
    assert response.status_code == 200 and b"The tables are made when the evening starts" in response.content


@pytest.mark.parametrize("token", ["", "x" * 20 + "\x00", "a/b" * 8, "é" * 32, "x" * 65, None])
def test_a_malformed_token_is_not_found_without_asking_the_database(token, django_assert_num_queries):
    with django_assert_num_queries(0), pytest.raises(NotFound):
        table_for_token(token)
