"""/livez: the process answers, whatever the database, broker and layer say (a liveness
probe, and the trivial view bench/evening_load.py measures the live pages against)."""
import pytest


@pytest.mark.django_db
def test_livez_answers_without_touching_anything(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/livez")
    assert response.status_code == 200 and response.content == b"ok"
    assert response["Cache-Control"] == "no-store"
