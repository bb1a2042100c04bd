import numpy as np
import pandas as pd


def generate(seed, n_queries, price_shift=0.0, dist_shift=0.0):
    """Hotel search result lists: per-query price level and distance scale differ by city; relevance depends
    on a hotel's price and distance relative to the other results of the same query."""
    rng = np.random.default_rng(seed)
    frames = []
    for q in range(n_queries):
        n = int(rng.integers(20, 41))
        city_price = float(np.exp(rng.normal(4.6 + price_shift, 0.6)))
        city_scale = float(np.exp(rng.normal(0.8 + dist_shift, 0.7)))
        price = city_price * np.exp(rng.normal(0, 0.35, n))
        dist = city_scale * rng.gamma(2.0, 1.0, n)
        stars = rng.integers(1, 6, n)
        rating = np.clip(rng.normal(6.5 + 0.45 * stars, 1.0, n), 1, 10).round(1)
        reviews = rng.poisson(np.exp(rng.normal(4, 1.2, n)))
        rel_price = np.log(price) - np.median(np.log(price))
        rel_dist = dist / np.median(dist)
        latent = (-1.6 * rel_price + 0.55 * (rating - rating.mean()) - 0.9 * np.log1p(rel_dist) * 2
                  + 0.25 * np.log1p(reviews) * (rating > 7.5) + 0.3 * stars * (rel_price < 0)
                  + rng.normal(0, 0.45, n))
        z = (latent - latent.mean()) / (latent.std() + 1e-9)
        label = np.digitize(z, [0.3, 1.0, 1.7])
        qid = f"q{seed % 997:03d}-{q:05d}"
        frames.append(pd.DataFrame({
            "qid": qid, "hotel_id": [f"h{int(x)}" for x in rng.choice(900000, n, replace=False) + 100000],
            "price": price.round(2), "distance_km": dist.round(2), "stars": stars, "rating": rating,
            "reviews": reviews, "relevance": label}))
    df = pd.concat(frames, ignore_index=True)
    return df


if __name__ == "__main__":
    import sys
    generate(20261201, 1200).to_csv(sys.argv[1], index=False)
