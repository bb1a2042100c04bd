import numpy as np
import pandas as pd


def generate(seed, n):
    """Food deliveries: duration with skewed noise whose spread depends on weather, courier and distance."""
    rng = np.random.default_rng(seed)
    dist = np.round(rng.gamma(2.2, 1.6, n) + 0.3, 2)
    hour = rng.choice(np.arange(10, 24), n, p=np.array([2, 5, 9, 8, 4, 3, 3, 5, 9, 10, 8, 5, 3, 2], float) / 76)
    weekday = rng.integers(0, 7, n)
    courier = rng.choice(["bike", "scooter", "car"], n, p=[0.4, 0.35, 0.25])
    weather = rng.choice(["clear", "rain", "snow"], n, p=[0.65, 0.27, 0.08])
    items = rng.integers(1, 9, n)
    prep = np.round(rng.normal(14, 4, n).clip(4, 30), 1)
    speed = np.select([courier == "bike", courier == "scooter"], [14.0, 20.0], 24.0)
    wfac = np.select([weather == "clear", weather == "rain"], [1.0, 1.25], 1.6)
    rush = np.isin(hour, [12, 13, 19, 20]).astype(float)
    base = prep + 0.6 * items + 60 * dist / (speed / wfac) + 4 * rush + 2 * (weekday >= 5)
    spread = (1.5 + 0.9 * dist) * np.select([weather == "clear", weather == "rain"], [0.6, 1.4], 2.6)
    spread *= np.where(courier == "bike", 1.3, 1.0) * (1 + 0.5 * rush)
    noise = rng.gamma(2.0, 1.0, n) - 2.0  # right-skewed, mean 0
    minutes = np.round(base + spread * noise, 1).clip(5, None)
    return pd.DataFrame({"order_id": [f"o{seed % 1000:03d}{i:06d}" for i in range(n)], "distance_km": dist,
                         "hour": hour, "weekday": weekday, "courier": courier, "weather": weather,
                         "items": items, "prep_estimate_min": prep, "minutes": minutes})


if __name__ == "__main__":
    import sys
    generate(20261201, 12000).to_csv(sys.argv[1], index=False)
