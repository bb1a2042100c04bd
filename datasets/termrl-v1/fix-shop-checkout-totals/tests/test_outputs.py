import importlib
import random
import sys
from decimal import ROUND_HALF_UP, Decimal

import pytest

sys.path.insert(0, "/app")


@pytest.fixture(scope="module")
def shop():
    import shop as m
    importlib.import_module("shop.catalog")
    return m


@pytest.fixture()
def catalog(tmp_path, shop):
    p = tmp_path / "c.csv"
    p.write_text("sku,price\nA,0.125\nB,1.005\nC,19.99\nD,0.10\nE,3.3333\n")
    return shop.catalog.load_catalog(str(p))


def r(v):
    return Decimal(v).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def ref(lines, prices, coupon, tax):
    sub = Decimal(0)
    for sku, qty in lines:
        amt = r(prices[sku] * qty)
        if qty >= 10:
            amt = r(amt * Decimal("0.9"))
        sub += amt
    disc = r(sub * Decimal(coupon) / 100)
    t = r((sub - disc) * Decimal(tax))
    return {"subtotal": f"{sub:.2f}", "discount": f"{disc:.2f}", "tax": f"{t:.2f}", "total": f"{sub - disc + t:.2f}"}


def test_catalog_exact_decimals(catalog):
    assert catalog["B"] == Decimal("1.005")
    assert catalog["E"] == Decimal("3.3333")


def test_carts_are_independent(shop):
    a = shop.Cart()
    a.add("A", 1)
    b = shop.Cart()
    assert b.lines() == []
    b.add("C", 2)
    assert a.lines() == [("A", 1)]


def test_cart_merges_and_removes(shop):
    c = shop.Cart()
    c.add("A", 2)
    c.add("B", 1)
    c.add("A", 3)
    assert c.lines() == [("A", 5), ("B", 1)]
    c.remove("A", 5)
    assert c.lines() == [("B", 1)]
    with pytest.raises(ValueError):
        c.remove("B", 2)
    with pytest.raises(ValueError):
        c.remove("Z", 1)


def test_half_up_rounding(shop, catalog):
    c = shop.Cart()
    c.add("A", 1)  # 0.125 -> 0.13
    assert shop.checkout(c, catalog)["subtotal"] == "0.13"
    c2 = shop.Cart()
    c2.add("B", 1)  # 1.005 -> 1.01
    assert shop.checkout(c2, catalog)["total"] == "1.01"


def test_bulk_threshold_inclusive(shop, catalog):
    c = shop.Cart()
    c.add("C", 10)
    assert shop.checkout(c, catalog)["subtotal"] == "179.91"


def test_tax_after_coupon(shop, catalog):
    c = shop.Cart()
    c.add("C", 5)
    out = shop.checkout(c, catalog, coupon_percent=20, tax_rate="0.0825")
    assert out == {"subtotal": "99.95", "discount": "19.99", "tax": "6.60", "total": "86.56"}


def test_unknown_sku(shop, catalog):
    c = shop.Cart()
    c.add("NOPE", 1)
    with pytest.raises(KeyError):
        shop.checkout(c, catalog)


def test_random_carts(shop, catalog):
    rng = random.Random(2024)
    for _ in range(200):
        c = shop.Cart()
        lines = {}
        for _ in range(rng.randint(1, 6)):
            sku = rng.choice("ABCDE")
            q = rng.randint(1, 8)
            c.add(sku, q)
            lines[sku] = lines.get(sku, 0) + q
        coupon = rng.choice([0, 5, 10, 15, 33])
        tax = rng.choice(["0", "0.07", "0.0825", "0.19"])
        want = ref(list(lines.items()), catalog, coupon, tax)
        assert shop.checkout(c, catalog, coupon_percent=coupon, tax_rate=tax) == want
