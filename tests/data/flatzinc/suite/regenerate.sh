#!/bin/sh
# Regenerates the FlatZinc fixtures of tests/flatzinc.rs from ../shared/data/minizinc:
# each instance listed below is compiled with bitcsp's MiniZinc library
# (share/minizinc/bitcsp), and reference.csv's answer is copied into expected.csv.
#
#   tests/data/flatzinc/suite/regenerate.sh [OUT_DIR]     (default: this folder)
#
# Needs `minizinc`. tests/flatzinc.rs runs this into a temporary folder, when minizinc is
# installed, and fails if the files differ from the checked-in ones.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
data=${MZN_DATA:-$repo/../shared/data/minizinc}
out=${1:-$here}
export MZN_SOLVER_PATH="$repo/share/minizinc/solvers"
# family model data: instances whose FlatZinc stays small, answered within a few
# seconds (jobshop la01: Gecode's best in 60 s is the reference, bitcsp proves better).
instances="
QCP qcp-10-67-0_ext.mzn -
QCP qcp-15-120-0_ext.mzn -
black-hole black-hole.mzn 1.dzn
black-hole black-hole.mzn 10.dzn
carseq carseq.mzn car_test_0.dzn
costas-array CostasArray.mzn 14.dzn
golomb golomb.mzn 09.dzn
jobshop jobshop.mzn jobshop_ft06.dzn
jobshop jobshop.mzn jobshop_la01.dzn
kakuro kakuro.mzn kakuro_6_6_hard.dzn
kakuro kakuro.mzn kakuro_8_8_super.dzn
langford langford.mzn l_2_08.dzn
latin-squares latin-squares-fd2.mzn 10.dzn
magicseq magicseq.mzn 050.dzn
magicseq magicseq.mzn 100.dzn
open_stacks open_stacks_01.mzn problem_10_10_1.dzn
open_stacks open_stacks_01.mzn wbo_10_10_1.dzn
quasigroup7 quasigroup7.mzn 05.dzn
quasigroup7 quasigroup7.mzn 07.dzn
rcpsp rcpsp.mzn 02.dzn
rcpsp rcpsp.mzn 03.dzn
talent_scheduling talent_scheduling_alt.mzn concert.dzn
"
mkdir -p "$out"
echo "file,kind,status,objective" > "$out/expected.csv"
echo "$instances" | while read -r family model dzn; do
    [ -n "$family" ] || continue
    base=$(basename "$model" .mzn)
    if [ "$dzn" = "-" ]; then
        name="$family-$base"
        data_file=""
        key="$family,$model,"
    else
        name="$family-$base-$(basename "$dzn" .dzn)"
        data_file="$data/$family/$dzn"
        key="$family,$model,$dzn,"
    fi
    # shellcheck disable=SC2086
    minizinc --solver bitcsp -c "$data/$family/$model" $data_file -o "$out/$name.fzn" \
        --no-output-ozn
    grep "^$key" "$data/reference.csv" \
        | awk -F, -v f="$name.fzn" '{ print f "," $4 "," $5 "," $6 }' >> "$out/expected.csv"
done
