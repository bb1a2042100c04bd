import csv
from decimal import Decimal


def load_catalog(path):
    prices = {}
    with open(path, newline="") as f:
        reader = csv.reader(f)
        next(reader)
        for row in reader:
            if not row:
                continue
            sku, price = row[0].strip(), row[1].strip()
            prices[sku] = Decimal(float(price))
    return prices
