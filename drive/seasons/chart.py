"""The grade over time on a player's history page: where every line, dot and label of the
SVG goes, for `templates/seasons/_grade_chart.html` to draw (drawn on the server: no
script, and classes, not style attributes, for the colours: drive/static/css/history.css).

Pure: the grade after each evening in, numbers out. x is the evenings' dates (time runs
evenly, a long gap shows as one), y the grade, from a multiple of 5 under the lowest to
one over the highest, never narrower than 45..55 so that a few tenths do not look like a
cliff; a dashed line marks 50, the average. A provisional grade's dot is hollow.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

WIDTH, HEIGHT = 360, 200  # the viewBox: about a phone's width, the page scales it
LEFT, RIGHT, TOP, BOTTOM = 34, 12, 10, 32  # room for the figures (left) and the dates (below)
FONT = 14
DOT = 3.5
AVERAGE = 50.0


@dataclass(frozen=True)
class Step:
    day: date
    value: float
    provisional: bool


def fmt(value: float) -> str:
    """A coordinate for the SVG (never localised: "12.5", not "12,5")."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def y_range(values: Sequence[float]) -> tuple[int, int, int]:
    """(low, high, step) of the y axis: multiples of the step around the values and 50."""
    low = min(45, 5 * math.floor((min(values) - 0.5) / 5))
    high = max(55, 5 * math.ceil((max(values) + 0.5) / 5))
    step = 5 if high - low <= 30 else 10
    low, high = step * math.floor(low / step), step * math.ceil(high / step)
    return low, high, step


def chart(steps: Sequence[Step]) -> dict[str, Any] | None:
    """Everything `_grade_chart.html` draws, or None without a step."""
    if not steps:
        return None
    low, high, step = y_range([s.value for s in steps])
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    first, last = steps[0].day.toordinal(), steps[-1].day.toordinal()
    span = last - first

    def x_of(day: date) -> float:
        if span == 0:
            return (left + right) / 2
        return left + (right - left) * (day.toordinal() - first) / span

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    points = [(x_of(s.day), y_of(s.value)) for s in steps]
    dates = [{"day": steps[0].day, "x": fmt(points[0][0]), "anchor": "middle" if span == 0 else "start"}]
    if span:
        dates.append({"day": steps[-1].day, "x": fmt(points[-1][0]), "anchor": "end"})
    return {
        "width": WIDTH, "height": HEIGHT, "font": FONT,
        "left": fmt(left), "right": fmt(right), "top": fmt(top), "bottom": fmt(bottom),
        "ticks": [{"value": v, "y": fmt(y_of(v)), "average": v == AVERAGE}
                  for v in range(low, high + 1, step)],
        "tick_x": fmt(left - 5), "date_y": fmt(bottom + FONT + 6),
        "average_y": fmt(y_of(AVERAGE)),
        "d": "M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in points),
        "dots": [{"x": fmt(x), "y": fmt(y), "r": fmt(DOT), "provisional": s.provisional, "value": s.value,
                  "day": s.day} for (x, y), s in zip(points, steps, strict=True)],
        "dates": dates,
        "latest": steps[-1],
    }
