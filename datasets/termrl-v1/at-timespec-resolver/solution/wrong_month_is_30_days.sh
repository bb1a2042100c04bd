#!/bin/bash
# Mistake: months and years are added as 30 and 365 days instead of moving the calendar.
set -euo pipefail
sed 's/            base = add_months(base, n \* (12 if u == "year" else 1))/            base += timedelta(days=n * (365 if u == "year" else 30))/' /solution/when.py > /app/when
chmod +x /app/when
