"""Whole numbers typed by people (trick counts): ASCII digits only.

Python's int() takes "٧" (Arabic-Indic seven), " 7", "+7" and DRF's IntegerField also
"7.0" and true; a trick count that a phone sends must be what a phone's number pad
types, so anything else is refused with the field's own message.
"""
from __future__ import annotations

import re
from typing import Any

from django import forms
from rest_framework import serializers

ASCII_WHOLE = re.compile(r"-?[0-9]{1,9}")


def ascii_whole(value: object) -> int | None:
    """`value` as an int if it is an int or ASCII digits; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and ASCII_WHOLE.fullmatch(value):
        return int(value)
    return None


class StrictIntegerField(serializers.IntegerField):
    """DRF's IntegerField, taking only a JSON integer or a string of ASCII digits."""

    def to_internal_value(self, data: Any) -> int:
        number = ascii_whole(data)
        if number is None:
            self.fail("invalid")
        return super().to_internal_value(number)


class StrictIntegerFormField(forms.IntegerField):
    """Django's IntegerField, taking only ASCII digits (no spaces, signs or other scripts)."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if ascii_whole(value) is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)
