"""Trick counts are ASCII digits only ("٧" was taken as 7). The API's
entry and correction, the console's correction form and the table page refuse other
scripts' digits, signs, spaces, decimals and booleans with the field's message."""
import pytest

from drive.core.errors import Invalid
from drive.core.numbers import ascii_whole
from drive.scoring.services import results
from drive.scoring.api.console import CorrectionSerializer
from drive.scoring.api.table import TRICKS_MESSAGE, TableEntryRequestSerializer
from drive.scoring.views.console import CorrectionForm
from drive.scoring.views.table import _number

REFUSED = ["٧", "۷", "७", "７", "+7", " 7", "7 ", "7.0", 7.0, True, False, "", "seven", None, [7], "0x7"]
TAKEN = [7, "7", 0, "13"]


@pytest.mark.parametrize("value", REFUSED)
def test_the_api_entry_refuses_them_with_the_field_message(value):
    serializer = TableEntryRequestSerializer(data={"seat": "N", "hand_number": 1, "ns_tricks": value})
    assert not serializer.is_valid()
    assert [str(m) for m in serializer.errors["ns_tricks"]] in ([str(TRICKS_MESSAGE)], ["This field may not be null."])


@pytest.mark.parametrize("value", TAKEN)
def test_the_api_entry_takes_ascii_whole_numbers(value):
    serializer = TableEntryRequestSerializer(data={"seat": "N", "hand_number": 1, "ns_tricks": value})
    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data["ns_tricks"] == int(value)


@pytest.mark.parametrize("value", ["٧", "+7", " 7", "7.0", True])
def test_the_api_correction_refuses_them(value):
    serializer = CorrectionSerializer(data={"round": 1, "table": 1, "hand_number": 1, "ns_tricks": value,
                                                   "reason": "typo"})
    assert not serializer.is_valid() and "ns_tricks" in serializer.errors


@pytest.mark.parametrize("value", ["٧", "+7", " 7", "7.0", "７"])
def test_the_console_correction_form_refuses_them(value):
    form = CorrectionForm(data={"ns_tricks": value, "kind": "correction", "reason": "typo"})
    assert not form.is_valid() and "ns_tricks" in form.errors
    assert CorrectionForm(data={"ns_tricks": "7", "kind": "correction", "reason": "typo"}).is_valid()


@pytest.mark.parametrize("value", ["٧", "+7", " 7", "7.0", "７"])
def test_the_table_page_passes_them_on_as_text_and_the_service_refuses_them(value):
    posted = _number(value)
    assert not isinstance(posted, int)
    with pytest.raises(Invalid) as refused:
        results._tricks(posted)
    assert refused.value.field == "ns_tricks"
    assert _number("7") == 7


@pytest.mark.parametrize("value, expected", [("7", 7), (7, 7), ("-1", -1), ("٧", None), (True, None), (7.0, None)])
def test_ascii_whole(value, expected):
    assert ascii_whole(value) == expected
