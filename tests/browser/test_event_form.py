"""The organiser's event form: Save sits below the form's fields (never in a cell of their
grid), full width on a phone."""
import pytest

from tests.browser.test_csp import PASSWORD, log_in

pytestmark = pytest.mark.browser

LAYOUT = """() => {
  const form = document.querySelector('main form[method=post]');
  const save = [...form.querySelectorAll('button[type=submit]')].find(b => b.textContent.trim() === 'Save');
  const lowest = Math.max(...[...form.querySelectorAll('.field, fieldset')].map(e => e.getBoundingClientRect().bottom));
  const box = save.getBoundingClientRect(), formBox = form.getBoundingClientRect();
  return {inGrid: !!save.closest('.grid-form'), top: box.top, lowest, width: box.width, formWidth: formBox.width};
}"""


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_save_is_below_the_fields_and_full_width_on_a_phone(new_page, transactional_db, club, organiser, shoot,
                                                           width, height):
    organiser.set_password(PASSWORD)
    organiser.save()
    page = new_page("organiser")
    page.set_viewport_size({"width": width, "height": height})
    log_in(page, "organiser")
    page.goto(f"/console/clubs/{club.pk}/events/new/")
    page.wait_for_load_state("load")  # measured with the stylesheets in
    layout = page.evaluate(LAYOUT)
    shoot(page, f"event-form-{width}")
    assert not layout["inGrid"], "Save is a cell of the fields' grid"
    assert layout["top"] >= layout["lowest"], layout  # below every field
    if width < 600:
        assert layout["width"] >= layout["formWidth"] - 1, layout  # the whole width on a phone
    else:
        assert layout["width"] < layout["formWidth"] / 2, layout  # a button, not a bar, on a laptop
