"""The console's season form: it only parses what the organiser typed. The rules (the end not
before the start, the points non-increasing...) are the service's, and their messages come
back from it per field, the same words as the API's."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy as _

from drive.seasons.models import Season
from drive.seasons.services.seasons import MOST_EVENINGS, SEASON_FIELDS


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)


class PointsField(forms.Field):
    """'10, 8, 6' (commas or spaces) -> [10, 8, 6]; empty -> []."""

    def to_python(self, value: Any) -> list[int]:
        text = "" if value in self.empty_values else str(value).strip()
        parts = [part for part in text.replace(",", " ").replace(";", " ").split() if part]
        try:
            return [int(part) for part in parts]
        except ValueError:
            raise forms.ValidationError(_("Give the points as a list of whole numbers."), code="invalid") from None

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return ", ".join(str(item) for item in value)
        return value


class EveningsField(forms.IntegerField):
    """A whole number of evenings, or None when left empty (the service says what is wanted)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, min_value=None, max_value=None, **kwargs)


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("name"), required=False, strip=False)
    starts_on = forms.DateField(label=_("starts on"), required=False, widget=DateInput(),
                                error_messages={"invalid": _("Give a date.")})
    ends_on = forms.DateField(label=_("ends on"), required=False, widget=DateInput(),
                              help_text=_("The last day of the season, included."),
                              error_messages={"invalid": _("Give a date.")})
    score = forms.ChoiceField(label=_("an evening scores"), choices=Season.Score.choices, widget=forms.RadioSelect,
                              initial=Season.Score.PLACING_POINTS,
                              error_messages={
                                  "invalid_choice": _("Choose how an evening scores: placing_points, total or average."),
                                  "required": _("Choose how an evening scores: placing_points, total or average.")})
    placing_points = PointsField(label=_("points per placing"), required=False,
                                 help_text=_("For points per placing only: the points for 1st, 2nd, 3rd... place, "
                                             "e.g. 10, 8, 6, 5, 4, 3, 2, 1 (0 beyond the list)."))
    best_of = EveningsField(label=_("best evenings counted"), help_text=_("Empty: every evening counts."))
    min_evenings = EveningsField(label=_("evenings to qualify"), initial=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The service's words for a number that is none, in the language of this request.
        self.fields["best_of"].error_messages["invalid"] = gettext(
            "Give a whole number of evenings from 1 to %(n)s, or nothing for every evening.") % {"n": MOST_EVENINGS}
        self.fields["min_evenings"].error_messages["invalid"] = gettext(
            "Give a whole number of evenings from 1 to %(n)s.") % {"n": MOST_EVENINGS}

    @classmethod
    def of(cls, season: Season, data: Any = None) -> SeasonForm:
        return cls(data, initial={name: getattr(season, name) for name in SEASON_FIELDS})

    def values(self) -> dict[str, Any]:
        """The cleaned settings as the services take them."""
        return {name: self.cleaned_data.get(name) for name in SEASON_FIELDS}

    def changed_values(self, season: Season) -> dict[str, Any]:
        """Only the settings that differ from the season's, for `update_season`."""
        values = self.values()
        return {name: value for name, value in values.items() if value != getattr(season, name)}

    def show_problems(self, problems: dict[str, list[str]]) -> None:
        """The service's refusal ({field: [message]}) beside each field."""
        for field, messages in problems.items():
            for message in messages:
                self.add_error(field if field in self.fields else None, message)
