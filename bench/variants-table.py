"""Issue 17's variant benches: per figure, each variant's value in every round, and each variant's
median over the first variant's (the baseline). Reads OUT/r<round>-<variant>.json, hostside's
--json, keeping figures of a GPU or a folder scope (each key once).
  python3 bench/variants-table.py OUT ROUNDS KEY,KEY... VARIANT=LABEL VARIANT=LABEL...
"""
import json
import statistics
import sys

out, rounds, keys = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
variants = [a.split("=", 1) for a in sys.argv[4:]]
got = {}
for r in range(1, rounds + 1):
    for v, _ in variants:
        try:
            d = json.load(open(f"{out}/r{r}-{v}.json"))
        except (OSError, ValueError):
            continue
        for f in d.get("figures", []):
            if f["key"] in keys and f["scope"].split(":")[0] in ("gpu", "dir"):
                got.setdefault((f["key"], v), []).append(f["value"])


def cells(xs):
    return " ".join(f"{x:,.0f}" if x > 1000 else f"{x:.2f}" for x in xs) or "-"


base, base_label = variants[0]
print("| figure | " + " | ".join(label for _, label in variants) + " | "
      + " | ".join(f"{label} / {base_label}" for _, label in variants[1:]) + " |")
print("|---" * (1 + len(variants)) + "|---:" * (len(variants) - 1) + "|")
for k in keys:
    b = got.get((k, base), [])
    ratios = []
    for v, _ in variants[1:]:
        x = got.get((k, v), [])
        ratios.append(f"{statistics.median(x) / statistics.median(b):.3f}" if x and b else "-")
    print(f"| {k} | " + " | ".join(cells(got.get((k, v), [])) for v, _ in variants) + " | " + " | ".join(ratios) + " |")
