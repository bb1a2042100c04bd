#!/bin/bash
# Mistake: a time equal to now counts as still to come (>= instead of >), for today and weekdays.
set -euo pipefail
sed -e 's/            base = at(today) if at(today) > now else at(today + timedelta(days=1))/            base = at(today) if at(today) >= now else at(today + timedelta(days=1))/' \
    -e 's/                while d.weekday() != wd or at(d) <= now:/                while d.weekday() != wd or at(d) < now:/' \
    -e 's/    if not relative_ok and base <= now:/    if not relative_ok and base < now:/' /solution/when.py > /app/when
chmod +x /app/when
