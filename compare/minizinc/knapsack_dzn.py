"""Turns a knapsack instance (`n capacity`, then `weight value` lines) into MiniZinc data.

python3 compare/minizinc/knapsack_dzn.py ../shared/data/knapsack/uncorrelated_40.txt > k.dzn
minizinc --solver gecode -t 60000 compare/minizinc/knapsack.mzn k.dzn
"""
import sys

lines = [line.split() for line in open(sys.argv[1]) if line.strip()]
n, capacity = lines[0]
weights = ",".join(line[0] for line in lines[1:])
values = ",".join(line[1] for line in lines[1:])
print(f"n={n};\ncapacity={capacity};\nweight=[{weights}];\nvalue=[{values}];")
