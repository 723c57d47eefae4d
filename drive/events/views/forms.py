from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from drive.core.names import validate_name

from drive.events.models import Event, Player
from drive.events.services.events import EVENT_FIELDS


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class PrizesField(forms.CharField):
    """One prize per line in the form, a list in the model."""

    widget = forms.Textarea(attrs={"rows": 4})

    def prepare_value(self, value):
        return "\n".join(value) if isinstance(value, list) else value

    def to_python(self, value):
        return [line.strip() for line in (value or "").splitlines() if line.strip()]


class EventForm(forms.ModelForm):
    prizes = PrizesField(label=_("Prizes (one per line)"), required=False)

    class Meta:
        model = Event
        fields = [f for f in EVENT_FIELDS]
        widgets = {
            "starts_at": DateTimeInput(),
            "registration_opens_at": DateTimeInput(),
            "registration_closes_at": DateTimeInput(),
        }


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
