"""Test helpers: claim a seat as a phone does, then enter a hand from it.

`enter(table=..., seat="N", ...)` stands for the phone at that seat: the first entry
claims the seat, later ones reuse the claim (its secret is looked up by the stored
hash, so a claim made in another test, or released, is never reused by mistake).
"""
from drive.scoring.services import claims
from drive.scoring.selectors import claims as claim_selectors
from drive.scoring.services import results
from drive.scoring.models import SeatClaim

_SECRETS = {}  # secret hash -> secret, for the claims made here


def claim(table, seat, user=None):
    """The secret of the phone at `seat` of the table for its current round (claimed now
    if this helper has not claimed it yet)."""
    round_ = claim_selectors.claim_round(table)
    held = SeatClaim.objects.filter(round=round_, table=table, position=seat).first()
    if held is not None and held.secret_hash in _SECRETS:
        return _SECRETS[held.secret_hash]
    made, secret, _created = claims.claim_seat(table=table, position=seat, user=user)
    _SECRETS[made.secret_hash] = secret
    return secret


def enter(*, table, seat, **entry):
    """`results.submit_result` from the phone holding `seat` (claimed first if needed)."""
    return results.submit_result(table=table, claim=claim(table, seat), **entry)


def api_enter(client, table, seat, **body):
    """POST a hand to the table API from the phone at `seat`: claims through the API first."""
    secret = api_claim(client, table, seat)
    return client.post(f"/api/tables/{table.token}/results/", body, format="json", HTTP_X_SEAT_CLAIM=secret)


def api_claim(client, table, seat):
    round_ = claim_selectors.claim_round(table)
    held = SeatClaim.objects.filter(round=round_, table=table, position=seat).first()
    if held is not None and held.secret_hash in _SECRETS:
        return _SECRETS[held.secret_hash]
    response = client.post(f"/api/tables/{table.token}/claims/", {"seat": seat}, format="json")
    assert response.status_code == 201, response.content
    secret = response.json()["claim"]
    _SECRETS[SeatClaim.objects.get(round=round_, table=table, position=seat).secret_hash] = secret
    return secret
