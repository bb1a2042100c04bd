"""/app/when on specifications generated here from a structured description; the expected time is
computed from that description by the instruction's rules (not by parsing the text)."""
import calendar
import os
import random
import subprocess
from datetime import date, datetime, timedelta

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/when"
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def when(spec, now):
    r = subprocess.run([TOOL, spec, "--now", now.strftime("%Y-%m-%d %H:%M")], capture_output=True, text=True,
                       timeout=30)
    return r


def case(s):
    return "".join(c.upper() if RNG.random() < 0.3 else c for c in s)


def render_time(h, mi):
    forms = [f"{h:02d}:{mi:02d}", f"{h:02d}{mi:02d}"]
    if h < 10:
        forms.append(f"{h}:{mi:02d}")
    h12, ap = (h % 12 or 12), ("am" if h < 12 else "pm")
    hm = f"{h12}" if mi == 0 and RNG.random() < 0.6 else f"{h12}:{mi:02d}"
    forms += [f"{hm}{ap}", f"{hm} {ap}"]
    named = {(12, 0): "noon", (0, 0): "midnight", (16, 0): "teatime"}
    if (h, mi) in named:
        forms.append(named[(h, mi)])
    return case(RNG.choice(forms))


def add_months(dt, n):
    y, m = divmod(dt.month - 1 + n, 12)
    y += dt.year
    return dt.replace(year=y, month=m + 1, day=min(dt.day, calendar.monthrange(y, m + 1)[1]))


def random_case(now):
    """Returns (spec text, expected 'YYYY-MM-DD HH:MM' or None for an error)."""
    at = lambda d, h, mi: datetime(d.year, d.month, d.day, h, mi)
    today = now.date()
    if RNG.random() < 0.15:
        text, base, is_now = case("now"), now, True
    else:
        is_now = False
        if RNG.random() < 0.2:
            h, mi = RNG.choice([(12, 0), (0, 0), (16, 0)])
        else:
            h, mi = RNG.randint(0, 23), RNG.choice([0, 0, 5, 30, 59, RNG.randint(0, 59)])
        if RNG.random() < 0.15:
            h, mi = now.hour, now.minute
        text = render_time(h, mi)
        kind = RNG.choice(["none", "none", "today", "tomorrow", "weekday", "monthday", "us", "eu", "iso"])
        if kind == "none":
            base = at(today, h, mi) if at(today, h, mi) > now else at(today + timedelta(days=1), h, mi)
        elif kind == "today":
            text += " " + case("today")
            base = at(today, h, mi)
        elif kind == "tomorrow":
            text += " " + case("tomorrow")
            base = at(today + timedelta(days=1), h, mi)
        elif kind == "weekday":
            wd = RNG.randrange(7)
            text += " " + case(DAYS[wd] if RNG.random() < 0.5 else DAYS[wd][:3])
            d = today
            while d.weekday() != wd or at(d, h, mi) <= now:
                d += timedelta(days=1)
            base = at(d, h, mi)
        else:
            d = today + timedelta(days=RNG.randint(-200, 500))
            if kind == "monthday":
                m = MONTHS[d.month - 1]
                word = case(m if RNG.random() < 0.5 else m[:3])
                if RNG.random() < 0.5:
                    text += f" {word} {d.day}"
                    base = at(date(today.year, d.month, d.day), h, mi) if d.month != 2 or d.day != 29 else None
                    if d.month == 2 and d.day == 29 and calendar.isleap(today.year):
                        base = at(date(today.year, 2, 29), h, mi)
                    if base is None or base <= now:
                        try:
                            base = at(date(today.year + 1, d.month, d.day), h, mi)
                        except ValueError:
                            base = "error"
                else:
                    text += f" {word} {d.day}{RNG.choice(['', ','])} {RNG.choice([str(d.year), str(d.year)[2:]])}"
                    base = at(d, h, mi)
            elif kind == "us":
                text += f" {d.month:02d}/{d.day:02d}/{RNG.choice([str(d.year), str(d.year)[2:]])}"
                base = at(d, h, mi)
            elif kind == "eu":
                text += f" {d.day}.{d.month}.{RNG.choice([str(d.year), str(d.year)[2:]])}"
                base = at(d, h, mi)
            else:
                text += f" {d.isoformat()}"
                base = at(d, h, mi)
    if base != "error" and RNG.random() < 0.6:
        unit = RNG.choice(["minute", "hour", "day", "week", "month", "year"])
        n = 1 if RNG.random() < 0.3 else RNG.randint(1, 40)
        if n == 1 and RNG.random() < 0.5:
            text += " " + case(f"next {unit}")
        else:
            text += " " + RNG.choice([f"+ {n}", f"+{n}"]) + " " + case(unit + ("s" if n > 1 or RNG.random() < 0.3 else ""))
        if unit in ("month", "year"):
            base = add_months(base, n * (12 if unit == "year" else 1))
        else:
            base = base + timedelta(**{unit + "s": n})
    if base == "error" or (not is_now and base <= now):
        return text, None
    return text, base.strftime("%Y-%m-%d %H:%M")


def check(spec, now, want):
    r = when(spec, now)
    if want is None:
        assert r.returncode == 1 and r.stderr.startswith("error:"), (spec, now, r.stdout, r.stderr)
    else:
        assert r.returncode == 0, (spec, now, r.stderr)
        assert r.stdout.strip() == want, (spec, now)


@pytest.mark.parametrize("round_", range(3))
def test_random_specs(round_):
    for _ in range(20):
        now = datetime(RNG.randint(2026, 2031), RNG.randint(1, 12), RNG.randint(1, 28), RNG.randint(0, 23),
                       RNG.randint(0, 59))
        spec, want = random_case(now)
        check(spec, now, want)


NOW = datetime(2027, 1, 29, 16, 0)  # a Friday


@pytest.mark.parametrize("spec,want", [
    ("12am", "2027-01-30 00:00"), ("12pm", "2027-01-30 12:00"), ("12:01 AM", "2027-01-30 00:01"),
    ("1pm", "2027-01-30 13:00"), ("11:59pm", "2027-01-29 23:59"), ("teatime", "2027-01-30 16:00"),
    ("4:01 pm", "2027-01-29 16:01"), ("1600", "2027-01-30 16:00"), ("7:05", "2027-01-30 07:05"),
    ("midnight", "2027-01-30 00:00"), ("noon fri", "2027-02-05 12:00"), ("5pm FRIDAY", "2027-01-29 17:00"),
    ("teatime fri", "2027-02-05 16:00"), ("9am sat", "2027-01-30 09:00"),
])
def test_times_and_rollover(spec, want):
    check(spec, NOW, want)


@pytest.mark.parametrize("spec,want", [
    ("noon jan 31 + 1 month", "2027-02-28 12:00"), ("noon 28.01.27 + 1 month", "2027-02-28 12:00"),
    ("noon 2027-01-28", None), ("5pm 2027-01-31 next month", "2027-02-28 17:00"),
    ("8am 29.02.2028 + 1 year", "2029-02-28 08:00"), ("8am 02/29/2028 + 4 years", "2032-02-29 08:00"),
    ("noon feb 29", "2028-02-29 12:00"), ("noon oct 31 + 4 months", "2028-02-29 12:00"),
    ("now + 1 month", "2027-02-28 16:00"), ("now", "2027-01-29 16:00"), ("now next minute", "2027-01-29 16:01"),
    ("3:59pm + 1 minute", "2027-01-30 16:00"), ("4pm jan 29", "2028-01-29 16:00"), ("4:01pm Jan 29", "2027-01-29 16:01"),
    ("4pm + 2 hours", "2027-01-30 18:00"), ("noon dec 25, 27", "2027-12-25 12:00"), ("0800 + 3 weeks", "2027-02-20 08:00"),
])
def test_calendar_arithmetic(spec, want):
    check(spec, NOW, want)


@pytest.mark.parametrize("spec", [
    "", "4", "13pm", "0pm", "24:00", "12:60", "930", "noon feb 30 2027", "noon 02/30/27", "noon 30.02.27",
    "noon 2027-13-01", "noon dec", "noon + 0 days", "noon + 2", "noon + 2 fortnights", "noon next", "now tomorrow",
    "noon today extra", "3pm today", "noon 2026-12-31", "tomorrow", "noon 4.4.4", "9:00am", "1600 pm",
])
def test_invalid_and_past(spec):
    if spec == "9:00am":
        check(spec, NOW, "2027-01-30 09:00")
        return
    check(spec, NOW, None)
