"""A player's pages say what happens in plain words: no rule numbers ("rule D5") on the
player's evening, the standings, the results or the score cards, in any language. The
rule a line follows is cited in the code beside it, for the people who maintain it."""
import re

import pytest
from django.conf import settings

from .test_results_pages import played, publish  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

CITATION = re.compile(r"\b(rule|rules|правило|правила)\s+[A-Z]\d", re.IGNORECASE)
SAT_OUT = {"en": "an average is credited", "ru": "начисляется среднее", "uk": "нараховується середнє"}


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
def test_no_rule_numbers_on_a_players_pages(client, played, organiser, language):  # noqa: F811
    event = played["event"]
    publish(event)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(played["users"]["P9"])  # sat out round 1: credited an average
    pages = {url: client.get(url).content.decode() for url in (
        f"/events/{event.pk}/my-evening/", f"/events/{event.pk}/standings/", f"/events/{event.pk}/results/")}
    client.force_login(organiser)
    pages["score cards"] = client.get(f"/console/events/{event.pk}/scorecards/").content.decode()
    for where, html in pages.items():
        assert SAT_OUT[language] in html, where  # the sit-out is explained...
        assert not CITATION.search(html), (where, CITATION.search(html).group(0))  # ...without a rule number
