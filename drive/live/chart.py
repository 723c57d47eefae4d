"""The leaders' chart on the room's screen: where every line, mark and label of
the SVG goes, for `templates/live/_chart.html` to draw (the template escapes the names).

Pure: the runs (`drive.scoring.standings.Run`, from the `leaders` selector) in, numbers
out. Drawn for a projector read from ten metres: a fixed viewBox the page scales, thick
lines, and nothing told by colour alone: each line has its own colour, dash and mark, and
its label at its end (the mark again, the total, the name) in the line's colour, nudged
apart when totals are close and never onto the axis below.
"""
import math
from dataclasses import dataclass
from decimal import Decimal

# The five leaders' lines, best first: dash pattern (round caps, so "1 15" is dots), mark and
# colour. The colours are light and far apart in hue (white, yellow, sky blue, orange, pink:
# no red against green), so they stay apart on a washed-out projector and for the colour-blind;
# in greyscale the dashes and marks still tell the lines apart.
DASHES = ("", "30 18", "10 17", "30 16 1 16", "1 15")
MARKS = ("circle", "square", "triangle", "diamond", "triangle-down")
COLOURS = ("#ffffff", "#ffd84d", "#5cc8ff", "#ff9a3c", "#ff7ad9")
LABEL_HALF = 0.6  # a label's half height, in ems of its font (ascenders and descenders)
AXIS_STROKE = 4  # the x axis's line
# Character widths in ems, from DejaVu Sans Bold (the widest of the usual screen fonts), so
# a name shortened to fit never runs off the chart whatever the projector's laptop has.
NARROW = {**dict.fromkeys("iljIJ.,:;'!|іїІЇ", 0.37), **dict.fromkeys("ftr-()", 0.48), " ": 0.35}
WIDE = set("mwMWжшщюфыЖШЩЮФЫ")


@dataclass(frozen=True)
class Frame:
    """The chart's viewBox and type sizes, in the SVG's own units."""

    width: int
    height: int
    font: int  # the labels at the lines' ends
    small: int  # the axis figures and the rounds
    name_ems: float  # a label's name at most, in ems (a longer one ends in "…")
    stroke: int = 7


FRAMES = {
    "side": Frame(width=800, height=640, font=36, small=30, name_ems=8.4),  # beside the standings
    "wide": Frame(width=1800, height=420, font=40, small=32, name_ems=13),  # under the prizes
}


def fmt(value):
    """A coordinate for the SVG (never localised: "12.5", not "12,5")."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def nice_step(top, most=5):
    """The step of the y axis's figures: 1, 2 or 5 times a power of ten, at most `most` steps."""
    if top <= 0:
        return 1
    step = 10 ** math.floor(math.log10(top / most))
    for factor in (1, 2, 5, 10):
        if top / (step * factor) <= most:
            return max(1, step * factor)
    return max(1, step * 10)


def spread(targets, gap, low, high):
    """Label positions near `targets` (y, downwards), in that order, at least `gap` apart
    and within [low, high] as far as room allows: pushed down past each other, then back up
    from the bottom edge."""
    order = sorted(range(len(targets)), key=lambda i: (targets[i], i))
    placed = [min(max(targets[i], low), high) for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    if placed and placed[-1] > high:
        placed[-1] = high
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    result = [0.0] * len(targets)
    for k, i in enumerate(order):
        result[i] = placed[k]
    return result


def ems(text):
    """About how wide `text` prints, in ems (bold; a character unknown counts a full em)."""
    def width(c):
        if c in NARROW:
            return NARROW[c]
        if c.isdigit():
            return 0.7
        if c in WIDE or not c.isalpha():
            return 1.0 if c not in "&<>" else 0.87
        return 0.82 if c.isupper() else 0.7
    return sum(width(c) for c in text)


def short(name, room):
    """`name`, or as much of it as fits in `room` ems followed by "…"."""
    if ems(name) <= room:
        return name
    while name and ems(name) + 1 > room:
        name = name[:-1]
    return name.rstrip() + "…"


def total_text(total):
    """How wide the total prints (the template formats it the way the standings do)."""
    total = Decimal(total)
    return str(int(total)) if total == total.to_integral_value() else f"{total:.2f}"


def mark_path(shape, x, y, r):
    """An SVG path for a mark of `shape` centred on (x, y), about 2r across."""
    if shape == "circle":
        return (f"M{fmt(x - r)} {fmt(y)}a{fmt(r)} {fmt(r)} 0 1 0 {fmt(2 * r)} 0"
                f"a{fmt(r)} {fmt(r)} 0 1 0 {fmt(-2 * r)} 0Z")
    if shape == "square":
        s = r * 0.9
        return f"M{fmt(x - s)} {fmt(y - s)}H{fmt(x + s)}V{fmt(y + s)}H{fmt(x - s)}Z"
    if shape == "diamond":
        s = r * 1.3
        return f"M{fmt(x)} {fmt(y - s)}L{fmt(x + s)} {fmt(y)}L{fmt(x)} {fmt(y + s)}L{fmt(x - s)} {fmt(y)}Z"
    s = r * 1.25
    flip = -1 if shape == "triangle-down" else 1
    return (f"M{fmt(x)} {fmt(y - flip * s)}L{fmt(x + s)} {fmt(y + flip * s * 0.75)}"
            f"L{fmt(x - s)} {fmt(y + flip * s * 0.75)}Z")


def chart(runs, *, rounds, hands_per_round, frame="side"):
    """Everything `_chart.html` draws, or None when no hand is played yet.

    x: the hands of the whole evening (so a hand stays where it is as the evening goes on),
    the rounds marked R1, R2, ...; y: the running total, from 0 to a round figure above
    the best. The labels sit just right of where the lines end now.
    """
    if not runs:
        return None
    f = FRAMES[frame]
    hands = max(rounds * hands_per_round, max(run.points[-1][0] for run in runs), 1)
    best = max(float(run.total) for run in runs)
    step = nice_step(best)
    top_value = max(step, math.ceil(best / step) * step)
    figures = len(str(int(top_value)))

    totals = [total_text(run.total) for run in runs]
    r = f.font * 0.3  # a mark's "radius"
    total_w = max(ems(t) for t in totals) * f.font
    label_w = 2 * r + f.font * 0.4 + total_w + f.font * 0.35 + f.name_ems * f.font
    left = figures * 0.7 * f.small + f.small * 0.6
    top, bottom = f.font * 0.7, f.height - f.small * 1.7
    right = f.width - label_w - f.font * 0.8  # the plot's right edge: the labels' room beyond it

    def x_of(hand):
        return left + (right - left) * hand / hands

    def y_of(value):
        return bottom - (bottom - top) * float(value) / top_value

    per_hand = (right - left) / hands
    every_hand = per_hand >= 4 * r  # room for a mark at every hand, else at the rounds' ends
    lines = []
    for i, run in enumerate(runs):
        shape = MARKS[i % len(MARKS)]
        points = [(x_of(x), y_of(y)) for x, y in run.points]
        last_hand = run.points[-1][0]
        marked = [(px, py) for (hand, _), (px, py) in zip(run.points, points, strict=True)  # the end's is the label's
                  if 0 < hand < last_hand and (every_hand or hand % hands_per_round == 0)]
        lines.append({
            "rank": i + 1, "name": short(run.name, f.name_ems), "full_name": run.name, "total": run.total,
            "place": run.place, "shared": run.shared, "shape": shape, "dash": DASHES[i % len(DASHES)],
            "colour": COLOURS[i % len(COLOURS)],
            "d": "M" + "L".join(f"{fmt(px)} {fmt(py)}" for px, py in points),
            "marks": [mark_path(shape, px, py, r) for px, py in marked],
            "end": points[-1],
        })

    end_x = max(line["end"][0] for line in lines)
    label_x = end_x + f.font * 0.8
    # Labels stay clear of each other and of the x axis (its line and the rounds' names below):
    # the lowest sits a half label above the axis line.
    low, high = max(top, f.font * LABEL_HALF), bottom - f.font * LABEL_HALF - AXIS_STROKE
    gap = min(f.font * 1.2, (high - low) / max(len(lines) - 1, 1))  # five lines always have room
    ys = spread([line["end"][1] for line in lines], gap=gap, low=low, high=high)
    for line, y in zip(lines, ys, strict=True):
        ex, ey = line["end"]
        line["label_y"] = fmt(y)
        line["label_mark"] = mark_path(line["shape"], label_x + r, y, r)
        line["text_x"] = fmt(label_x + 2 * r + f.font * 0.4)
        line["lead"] = f"M{fmt(ex)} {fmt(ey)}L{fmt(label_x - 4)} {fmt(y)}"  # from the line's end to its label

    ticks = [{"value": v, "y": fmt(y_of(v))} for v in range(0, int(top_value) + 1, int(step))]
    span = per_hand * hands_per_round
    label_every = max(1, math.ceil(f.small * (ems(f"R{rounds}") + 0.6) / max(span, 1)))
    round_marks = [{"n": n, "x": fmt(x_of((n - 1) * hands_per_round)), "label_x": fmt(x_of((n - 0.5) * hands_per_round)),
                    "labelled": (n - 1) % label_every == 0} for n in range(1, rounds + 1)]
    return {
        "frame": frame, "width": f.width, "height": f.height, "font": f.font, "small": f.small, "stroke": f.stroke,
        "axis_stroke": AXIS_STROKE,
        "left": fmt(left), "right": fmt(right), "top": fmt(top), "bottom": fmt(bottom),
        "tick_x": fmt(left - f.small * 0.4), "round_y": fmt(bottom + f.small * 1.2), "name_gap": fmt(f.font * 0.35),
        "ticks": ticks, "rounds": round_marks, "lines": lines,
    }
