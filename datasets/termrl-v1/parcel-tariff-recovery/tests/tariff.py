from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal as D

FIX = {"standard": D("4.90"), "express": D("9.50")}
PERKG = {"standard": [D("0.85"), D("1.10"), D("1.45"), D("1.95"), D("2.60"), D("3.40")],
         "express": [D("1.60"), D("2.05"), D("2.70"), D("3.55"), D("4.65"), D("6.10")]}


def price(zone, service, weight_g, l, w, h, residential, declared):
    actual = D(weight_g) / 1000
    vol = D(l * w * h) / 5000
    billable = max((max(actual, vol) * 2).to_integral_value(rounding=ROUND_CEILING) / 2, D("0.5"))
    base = FIX[service] + PERKG[service][zone - 1] * billable
    oversize = D("18.00") if max(l, w, h) > 100 else D(0)
    fuel = (base + oversize) * D("0.075")
    res = D("2.75") if residential else D(0)
    dv = D(declared)
    ins = (dv - 250) * D("0.012") if dv > 250 else D(0)
    return (base + oversize + fuel + res + ins).quantize(D("0.01"), rounding=ROUND_HALF_UP)
