"""The hand history's review in words, in the page's language (issue 20: "The review
speaks code": "Trump D", "N KD: -3", "Calls: ... S: trump D"; two- and three-handed
games reviewed as "NS 10 · EW 3" while the hand says "E 10 · S+N 3"; "Tricks given
away by the cards played: 14" in a 13-trick hand; face-up hands labelled "open seat").

Each variant is played with robots to the end of a hand with a stored review (eager
Celery runs the review's task at once), then its page is read in English and Russian:
cards as the table shows them (rank letter of the language and suit symbol), the trump
a suit's name, calls in words, sides as the variant names them, every count at most
the hand's tricks."""
import re

import pytest
from django.test import Client

from drive.games.models import PlayHandReview
from drive.games.selectors.tables import table_view
from drive.games.services import actions, tables

pytestmark = pytest.mark.django_db

ROBOTS = {
    "short": {"E": "rules", "S": "rules", "W": "rules"},
    "siberian": {"E": "rules", "S": "rules", "W": "rules"},
    "dummy": {"E": "rules", "S": "rules"},
    "two_handed": {"E": "rules"},
    "three_handed": {"E": "rules", "S": "rules"},
}
TRUMP = {"en": r"Trump (?:[♠♥♦♣] (?:Spades|Hearts|Diamonds|Clubs)|No trump)",
         "ru": r"Козырь (?:[♠♥♦♣] (?:Пики|Червы|Бубны|Трефы)|Без козыря)"}
REVIEW = {"en": "Double-dummy review", "ru": "Разбор в открытую"}
CODE_CARD = re.compile(r"(?<![\w♠♥♦♣])(?:[2-9TJQKA][SHDC]|10[SHDC])(?![\w♠♥♦♣])")  # "KD", "TH", "AS"
CODE_TRUMP = re.compile(r"(?:Trump|Козырь)\s+[SHDC]\b")                               # "Trump D"
RAW_CALL = re.compile(r"\b(?:trump [SHDC]|discard [2-9TJQKA][SHDC]|pass)\b")          # "S: trump D", "pass"
PAIRS = re.compile(r"(?<!\w)(?:NS|EW|N-S|E-W|С-Ю|В-З)(?!\w)")


def reviewed_hand(me, rules, capture) -> tuple[int, int]:
    """A table of `rules` with `me` and robots, played until a hand with a stored review
    is over (Siberian hands all passed out have none): the table and that hand's number."""
    with capture(execute=True):
        table = tables.create_table(user=me, rules=rules, robots=ROBOTS[rules])
    for _ in range(2000):
        found = PlayHandReview.objects.filter(table=table).exclude(review=None).first()
        if found is not None:
            return table.pk, found.hand
        table.refresh_from_db()
        view = table_view(me, table)
        with capture(execute=True):
            actions.apply_action(user=me, table_id=table.pk, action=view["legal"][0], version=view["version"])
    raise AssertionError(f"no {rules} hand was reviewed")


def page_text(me, table_id, hand, language, capture) -> tuple[str, int]:
    """The shown hand's article as text (tags out: a card's code in its title is no
    reader's word) and its number of tricks."""
    client = Client()
    client.force_login(me)
    client.cookies["django_language"] = language
    with capture(execute=True):
        page = client.get(f"/play/{table_id}/hands/?hand={hand}")
    assert page.status_code == 200
    html = page.content.decode()
    start = html.index(f'id="hand-{hand}"')
    article = html[start:html.index("</article>", start)]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", article))
    return text, article.count('class="trick-row"')


def review_part(text, language) -> str:
    return text[text.index(REVIEW[language]):]


@pytest.mark.parametrize("rules", list(ROBOTS))
def test_the_review_speaks_the_pages_language(rules, make_user, django_capture_on_commit_callbacks):
    me = make_user(f"host-{rules}")
    table_id, hand = reviewed_hand(me, rules, django_capture_on_commit_callbacks)
    for language in ("en", "ru"):
        text, tricks = page_text(me, table_id, hand, language, django_capture_on_commit_callbacks)
        assert tricks == 13
        review = review_part(text, language)
        assert not CODE_CARD.findall(text), (language, CODE_CARD.findall(text))
        assert not CODE_TRUMP.search(text) and not RAW_CALL.search(text), text
        assert re.search(TRUMP[language], text), text                           # "Козырь ♦ Бубны"
        assert re.search(r"[2-9AKQJТКДВ]0?[♠♥♦♣]", review) or "−" not in review   # marked cards by face
        assert "open seat" not in text and "свободное место" not in text
        # Every count of the review at most the hand's tricks (cards' ranks set aside).
        counts = [int(n) for n in re.findall(r"\d+", re.sub(r"10[♠♥♦♣]|\d[♠♥♦♣]", "", review))]
        assert counts and max(counts) <= tricks, review


@pytest.mark.parametrize("rules", ["two_handed", "three_handed", "dummy"])
def test_two_and_three_players_are_reviewed_by_their_sides(rules, make_user, django_capture_on_commit_callbacks):
    """The review names the sides as the hand's tricks do ("N+E", "S"), never NS/EW; a
    dummy is named with the player who plays it."""
    me = make_user(f"host-{rules}")
    table_id, hand = reviewed_hand(me, rules, django_capture_on_commit_callbacks)
    for language in ("en", "ru"):
        text, _ = page_text(me, table_id, hand, language, django_capture_on_commit_callbacks)
        assert not PAIRS.search(text), (language, PAIRS.findall(text))
        taken = re.search(r"(?:Tricks|Взятки) ?: (.*?) (?:Calls|Заявки|The deal|Сдача и)", text).group(1)
        sides = {side for side, _ in re.findall(r"(\S+) (\d+)", taken)}
        best = re.search(r": (.*?)\. ", review_part(text, language)).group(1)      # "N+E 11 · S 2"
        assert {side for side, _ in re.findall(r"(\S+) (\d+)", best)} == sides, (taken, best)
        assert re.search(r"(?:dummy|болван) \(", text)                             # "dummy (N)"
