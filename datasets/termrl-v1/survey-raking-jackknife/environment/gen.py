import csv, json, random
rng = random.Random(99)
ages = ["18-34", "35-54", "55+"]
regions = ["north", "south", "east", "west"]
rows = []
for i in range(1, 2401):
    psu = rng.randint(1, 30)
    region = regions[(psu - 1) % 4]
    age = rng.choices(ages, [0.2, 0.35, 0.45])[0]
    sex = rng.choices(["F", "M"], [0.58, 0.42])[0]
    p = 0.12 + 0.1 * (age == "18-34") + 0.05 * (sex == "M") + 0.04 * (region == "east")
    smoker = "yes" if rng.random() < p else "no"
    income = "" if rng.random() < 0.15 else f"{rng.lognormvariate(10.6 + 0.2 * (age == '35-54'), 0.5):.0f}"
    bw = f"{rng.choice([1.0, 1.0, 1.5, 2.0, 4.0]) * rng.uniform(0.8, 1.2):.4f}"
    rows.append([f"R{i:05d}", psu, region, age, sex, smoker, income, bw])
with open("/app/survey.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["resp_id", "psu", "region", "age_group", "sex", "smoker", "income", "base_weight"])
    w.writerows(rows)
json.dump({"population": 1000000, "order": ["age_group", "sex", "region"],
           "margins": {"age_group": {"18-34": 0.31, "35-54": 0.34, "55+": 0.35},
                       "sex": {"F": 0.51, "M": 0.49},
                       "region": {"north": 0.22, "south": 0.31, "east": 0.27, "west": 0.20}},
           "trim_factor": 3.0}, open("/app/margins.json", "w"), indent=2)
