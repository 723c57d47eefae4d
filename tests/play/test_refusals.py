"""A refusal at the online table speaks the reader's language: every reason code the
engine declares (engine.REFUSALS) has a sentence in drive/games/refusals.py naming the
code's values, translated into Russian and Ukrainian; the API answers a revoke with 400,
the sentence in the Accept-Language, the rule (S6.2) and the reason."""
import random
import re

import pytest
from django.utils import translation

from drive.games.models import PlayAction
from drive.games.refusals import SENTENCES, WORDERS, refusal_text
from drive.games.selectors.tables import game_of
from drive.games.services import tables
from engine import REFUSALS
from engine.errors import IllegalAction
from tests.engine.refusal_kit import random_refusals
from tests.play.core_kit import four_people, fresh

PLACEHOLDER = re.compile(r"%\((\w+)\)s")
CYRILLIC = re.compile(r"[а-яА-ЯёЁіІїЇєЄґҐ]")

# a value of each param name, as the engine gives it
SAMPLE = {"card": "QS", "suit": "H", "action": "4 downtown", "to_beat": "5 NT", "phase": "scored",
          "level": 8, "min": 1, "max": 7, "names": "trump", "count": 6}


def refusal(reason, **params):
    return IllegalAction(f"english detail of {reason}", rule="S6.2", reason=reason, seat="N",
                         action="QS", params=params)


def sample_of(reason):
    return refusal(reason, **{name: SAMPLE[name] for name in REFUSALS[reason]})


def test_every_code_the_engine_declares_has_a_sentence_naming_its_params():
    assert set(SENTENCES) == set(REFUSALS), (set(REFUSALS) - set(SENTENCES), set(SENTENCES) - set(REFUSALS))
    for reason, sentence in SENTENCES.items():
        assert set(PLACEHOLDER.findall(str(sentence))) == set(REFUSALS[reason]), reason
    assert {name for names in REFUSALS.values() for name in names} <= set(WORDERS)
    assert set(SAMPLE) == set(WORDERS)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_every_code_is_worded_in_the_language_never_in_the_engine_english(lang):
    for reason in REFUSALS:
        with translation.override(lang):
            text = refusal_text(sample_of(reason))
        assert text != sample_of(reason).detail and "%(" not in text, (reason, text)
        if lang == "en":
            assert not CYRILLIC.search(text), (reason, text)
        else:
            assert CYRILLIC.search(text), (reason, text)
    with translation.override("ru"):
        assert refusal_text(sample_of("must_follow_suit")) == \
            "Нужно ходить в масть (червы): эту карту (Д♠) играть нельзя."
        assert refusal_text(sample_of("bid_too_low")) == "Ваша заявка (4 вниз) не перебивает 5 без козыря."
    with translation.override("uk"):
        assert refusal_text(sample_of("must_follow_suit")) == \
            "Треба ходити в масть (черви): цю карту (Д♠) грати не можна."


def test_the_refusals_of_real_games_are_worded_with_their_values():
    # rule S6.2 and every other refusal: the engine's params of every preset, worded in Russian
    seen = {}
    for exc in random_refusals(seed=5, hands=1):
        seen.setdefault((exc.reason, tuple(sorted(exc.params.items(), key=lambda kv: kv[0]))), exc)
    assert {"must_follow_suit", "not_in_hand", "not_a_call", "not_a_card"} <= {r for r, _ in seen}
    with translation.override("ru"):
        for exc in seen.values():
            text = refusal_text(exc)
            assert text != exc.detail and CYRILLIC.search(text), (exc.reason, exc.params, text)


def test_a_code_without_a_sentence_or_values_it_cannot_word_falls_back_to_the_engine_english():
    with translation.override("ru"):
        assert refusal_text(refusal("a_code_from_tomorrow", card="QS")) == "english detail of a_code_from_tomorrow"
        assert refusal_text(refusal("must_follow_suit", card="QS")) == "english detail of must_follow_suit"
        assert refusal_text(refusal("must_follow_suit", card="QS", suit=None)) == \
            "english detail of must_follow_suit"


# --- the API ---------------------------------------------------------------------------

SUITS = {"en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
         "ru": {"S": "пики", "H": "червы", "D": "бубны", "C": "трефы"},
         "uk": {"S": "піки", "H": "черви", "D": "бубни", "C": "трефи"}}
RANKS = {"en": {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"},
         "ru": {"A": "Т", "K": "К", "Q": "Д", "J": "В", "T": "10"},
         "uk": {"A": "Т", "K": "К", "Q": "Д", "J": "В", "T": "10"}}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
FOLLOW_SUIT = {"en": "You must follow suit ({suit}): this card ({card}) may not be played.",
               "ru": "Нужно ходить в масть ({suit}): эту карту ({card}) играть нельзя.",
               "uk": "Треба ходити в масть ({suit}): цю карту ({card}) грати не можна."}


def _revokes(game):
    """The cards the seat to act holds but may not play now."""
    legal = {str(a) for a in game.legal_actions()}
    return [c for c in game.view(game.to_act)["hand"] if c not in legal]


@pytest.fixture
def revoke_due(make_user, monkeypatch, api):
    """A short-whist table of four people where the first card is led and the second
    player holds a card of the suit led and one that is not (a revoke to try)."""
    monkeypatch.setattr(tables, "new_rng", lambda: random.Random(7))  # the same deal every run
    table, people = four_people(make_user, "short")
    game = game_of(fresh(table))
    lead = next(str(a) for a in game.legal_actions() if _revokes(_after(game, str(a))))
    api.force_authenticate(people[game.to_act])
    assert api.post(f"/api/play/tables/{table.pk}/actions/", {"action": lead, "version": 0},
                    format="json").status_code == 200
    game = game_of(fresh(table))
    api.force_authenticate(people[game.to_act])
    return table, lead, _revokes(game)[0]


def _after(game, action):
    game = game.copy()
    game.apply(action)
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_a_revoke_is_refused_in_the_players_language_with_the_rule(api, revoke_due, lang):
    # rule S6.2: a player who holds the suit led must follow it
    table, lead, revoke = revoke_due
    answer = api.post(f"/api/play/tables/{table.pk}/actions/", {"action": revoke, "version": 1},
                      format="json", HTTP_ACCEPT_LANGUAGE=lang)
    assert answer.status_code == 400
    body = answer.json()
    assert body["rule"] == "S6.2" and body["reason"] == "must_follow_suit"
    card = RANKS[lang].get(revoke[0], revoke[0]) + SYMBOLS[revoke[1]]
    assert body["detail"] == FOLLOW_SUIT[lang].format(suit=SUITS[lang][lead[1]], card=card)
    assert fresh(table).version == 1 and PlayAction.objects.filter(table=table).count() == 1
