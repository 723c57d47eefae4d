"""Backup of a 400-player evening: export and import time against the standings recompute
of the same evening, the document's size, and that the imported rows give the same standings.

    .venv/bin/python bench/backup.py [--corrections N]

The evening of tests/integration/test_evening_load.py (400 players, 100 tables, 8 rounds
of 3 hands, all played), with N corrections (each keeps a history row and an audit
entry). On PostgreSQL when DATABASE_URL is set (a throwaway `<name>_bench` database),
else on a temporary SQLite file.
"""
import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.standings import prepare_database, setup_django  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corrections", type=int, default=100)
    args = parser.parse_args()
    engine, throw_away = prepare_database()
    try:
        setup_django()
        run(engine, args.corrections)
    finally:
        throw_away()


def _standings(event):
    from drive.scoring.models import Standing

    return sorted((s.entrant.player.display_name, s.place, s.total, s.hands_won)
                  for s in Standing.objects.filter(event=event).select_related("entrant__player"))


def run(engine, corrections):
    from django.contrib.auth import get_user_model

    from drive.backup.services.backup import export_event, import_event
    from drive.scoring.services import ranking
    from drive.scoring.services import results
    from drive.scoring.models import HandResult
    from tests.integration.test_evening_load import ROUNDS, build_evening

    event, _ = build_evening(played_rounds=ROUNDS, title="Backup Drive")
    organiser = get_user_model().objects.create_user("bench-organiser")
    event.club.organisers.add(organiser)
    for result in HandResult.objects.filter(round__event=event).select_related("table", "round")[:corrections]:
        results.correct_result(actor=organiser, table=result.table, round_number=result.round.number,
                               hand_number=result.hand_number, ns_tricks=(result.ns_tricks + 1) % 14,
                               reason="bench correction")
    started = time.perf_counter()
    ranking.recompute_standings(event_id=event.pk)
    recompute = time.perf_counter() - started

    started = time.perf_counter()
    text = json.dumps(export_event(event_id=event.pk))
    export = time.perf_counter() - started
    started = time.perf_counter()
    copy = import_event(document=json.loads(text))
    imported = time.perf_counter() - started
    ranking.recompute_standings(event_id=copy.pk)
    same = _standings(copy) == _standings(event)
    rows = sum(len(part) for part in json.loads(text)["rows"].values())
    print(f"{engine}: {rows} rows, {len(text) / 1e6:.1f} MB of JSON")
    print(f"  standings recompute (baseline) {recompute * 1000:7.0f} ms")
    print(f"  export                         {export * 1000:7.0f} ms  ({export / recompute:.1f}x the baseline)")
    print(f"  import                         {imported * 1000:7.0f} ms  ({imported / recompute:.1f}x the baseline)")
    print(f"  standings from the imported rows identical: {same}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
