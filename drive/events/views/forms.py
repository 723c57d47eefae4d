from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from drive.core.names import validate_name

from drive.events.models import Event, Player
from drive.events.prizes import MOST, NAME_MAX, PrizeKind, prize_list
from drive.events.services.events import EVENT_FIELDS


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class PrizeForm(forms.Form):
    """One prize: its name and who it goes to (rule D4). A row left without a name is dropped."""

    name = forms.CharField(label=_("Prize"), max_length=NAME_MAX, required=False)
    kind = forms.ChoiceField(label=_("Goes to"), choices=PrizeKind.choices, initial=PrizeKind.OVERALL)


PRIZE_ROWS_PREFIX = "prize"
PrizeRows = forms.formset_factory(PrizeForm, extra=3, max_num=MOST, validate_max=True)


class EventForm(forms.ModelForm):
    """The event's settings, and its prizes as rows of name and kind (`prize_rows`):
    simple on a phone, no script; three empty rows to add more, a name cleared to remove one."""

    class Meta:
        model = Event
        fields = [f for f in EVENT_FIELDS if f != "prizes"]
        widgets = {
            "starts_at": DateTimeInput(),
            "registration_opens_at": DateTimeInput(),
            "registration_closes_at": DateTimeInput(),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A post without the rows (an older page) leaves the prizes as they are.
        posted = self.is_bound and f"{PRIZE_ROWS_PREFIX}-TOTAL_FORMS" in self.data
        self.prize_rows = PrizeRows(self.data if posted else None, prefix=PRIZE_ROWS_PREFIX,
                                    initial=prize_list(self.instance) if self.instance.pk else [])
        self.prizes_posted = posted

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data  # what ModelForm.clean returns
        if self.prizes_posted:
            if self.prize_rows.is_valid():
                cleaned["prizes"] = [{"name": row["name"].strip(), "kind": row["kind"]}
                                     for row in self.prize_rows.cleaned_data if (row.get("name") or "").strip()]
            else:
                self.add_error(None, _("Check the prizes below."))
        return cleaned

    def changed_fields(self) -> dict:
        """The cleaned values that differ from the event's, for `update_event`."""
        fields = {name: self.cleaned_data[name] for name in self.changed_data}
        if "prizes" in self.cleaned_data and self.cleaned_data["prizes"] != prize_list(self.instance):
            fields["prizes"] = self.cleaned_data["prizes"]
        return fields


class WalkInForm(forms.Form):
    display_name = forms.CharField(label=_("Name"), max_length=80, validators=[validate_name])
    category = forms.ChoiceField(label=_("Category"), choices=Player.Category.choices, required=False)


class FixedTableForm(forms.Form):
    # Empty clears it; the service checks the range.
    table = forms.IntegerField(label=_("Fixed table"), required=False)


class SignupForm(UserCreationForm):
    display_name = forms.CharField(label=_("Your name as shown on the standings"), max_length=80,
                                   validators=[validate_name])
    email = forms.EmailField(label=_("Email (for waitlist news)"), required=False)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "display_name", "email")

    def clean_username(self):
        username = super().clean_username()
        if username:
            validate_name(username)
        return username
