import hashlib
import json
from pathlib import Path

import pytest

SUMMARY = Path("/app/summary.json")
SALES = Path("/app/sales.csv")

EXPECTED = {
    "North": {"orders": 4, "units": 71, "revenue": 78.25},
    "South": {"orders": 4, "units": 205, "revenue": 101.21},
    "East": {"orders": 4, "units": 126, "revenue": 59.99},
    "West": {"orders": 4, "units": 97, "revenue": 83.00},
}
SALES_SHA256 = "3b3f8c88484baa5334b28c614ede38427bd799569d82a8f5b4d56ea40ec15895"


@pytest.fixture(scope="module")
def summary():
    assert SUMMARY.is_file(), "/app/summary.json was not written"
    data = json.loads(SUMMARY.read_text())
    assert isinstance(data, dict), "summary.json must hold a JSON object"
    return data


def test_regions(summary):
    assert sorted(summary) == sorted(EXPECTED)


def test_region_fields(summary):
    for region, values in summary.items():
        assert isinstance(values, dict), region
        assert sorted(values) == ["orders", "revenue", "units"], region


def test_order_counts_exclude_cancelled(summary):
    for region, expected in EXPECTED.items():
        assert summary[region]["orders"] == expected["orders"], region
        assert isinstance(summary[region]["orders"], int), region


def test_units(summary):
    for region, expected in EXPECTED.items():
        assert summary[region]["units"] == expected["units"], region
        assert isinstance(summary[region]["units"], int), region


def test_revenue(summary):
    for region, expected in EXPECTED.items():
        revenue = summary[region]["revenue"]
        assert isinstance(revenue, (int, float)) and not isinstance(revenue, bool), region
        assert revenue == pytest.approx(expected["revenue"], abs=0.005), region
        assert round(revenue, 2) == pytest.approx(revenue, abs=1e-9), f"{region}: not rounded to 2 places"


def test_input_untouched():
    assert hashlib.sha256(SALES.read_bytes()).hexdigest() == SALES_SHA256
