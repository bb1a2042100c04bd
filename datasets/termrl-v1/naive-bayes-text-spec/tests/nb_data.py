import csv
import random

TOPICS = {
    "sports": "match goal team coach league season score win player referee stadium",
    "tech": "software chip cloud data server code release bug startup network device",
    "food": "recipe dinner sauce bake chef flavor spicy menu kitchen taste dessert",
}
COMMON = "the a of and to in is it this that with for on today really very new".split()


def make(path, seed, n, labelled=True):
    rng = random.Random(seed)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "text", "label"] if labelled else ["id", "text"])
        for i in range(n):
            lab = rng.choice(sorted(TOPICS))
            words = []
            for _ in range(rng.randint(3, 25)):
                r = rng.random()
                if r < 0.45:
                    words.append(rng.choice(TOPICS[lab].split()))
                elif r < 0.6:
                    words.append(rng.choice(TOPICS[rng.choice(sorted(TOPICS))].split()))
                elif r < 0.95:
                    words.append(rng.choice(COMMON))
                else:
                    words.append(rng.choice(["Don't", "GOAL!!!", "e-mail", "3D", "café", "x86_64", "it's"]))
            words = [w.upper() if rng.random() < 0.1 else w for w in words]
            text = " ".join(words) + rng.choice([".", "!", " :)", ""])
            w.writerow([f"d{seed}_{i}", text, lab] if labelled else [f"d{seed}_{i}", text])
