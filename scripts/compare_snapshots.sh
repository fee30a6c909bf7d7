#!/usr/bin/env bash
# Usage: scripts/compare_snapshots.sh [--results-only] A B
#
# Compares two snapshots written by scripts/result_snapshot.sh, file by file and recursively, and
# prints one line per file that differs or exists on one side only ("differs: PATH", "only in A:
# PATH", "only in B: PATH"). Exit 0 when they agree, 1 when any file differs, 2 on bad usage.
# --results-only leaves out each case's stderr.txt (progress, warnings and error text), comparing
# the files the commands wrote, what they printed on stdout (the summary; for core-cost and
# validate the result itself) and their exit codes.
#
# What is a clock (or a process's identity) and is therefore left out or masked, and why:
#   timings.yaml, timings.json   every wall-clock reading of a run is there and only there
#                                (README: "The same inputs give byte-identical files, except
#                                timings.*"); also under a sweep's points/<id>/
#   .stream-sweep.lock           a sweep's lock file: the pid, host and start time of the process
#   results.csv, pareto.csv      the sweep rows' wall_s column (seconds the point took) is removed
#   results.jsonl                the rows' "wall_s" key is removed
#   stdout.txt                   `wall time: X s`, the `wall (s)` column of the group table, and
#                                core-cost's per-case `"seconds": X` (the search's time)
#   stderr.txt                   the sweep's progress lines (`N/M points (F failed), R/s, ETA T s`,
#                                `listing points: N/M (T s)`: rates and a count of lines that depend
#                                on time); and for a sweep the lines are compared sorted, since its
#                                points run on two threads and their warnings interleave
# Not clocks but places: each snapshot's own absolute folder (e.g. in optimization_metrics.yaml's
# `model_file:` of an infeasible group, which names model.mps by its absolute path) is replaced by
# <snapshot> before comparing. result_snapshot.sh already wrote <repo>, <stream> and <out> for
# the checkout's, the binary's and the case's folders in stdout.txt and stderr.txt.
set -uo pipefail

results_only=0
if [[ ${1:-} == --results-only ]]; then
  results_only=1
  shift
fi
if [[ $# -ne 2 || ! -d $1 || ! -d $2 ]]; then
  echo "usage: $0 [--results-only] SNAPSHOT_A SNAPSHOT_B (two folders written by result_snapshot.sh)" >&2
  exit 2
fi
root_a=$(realpath "$1")
root_b=$(realpath "$2")

# "HASH PATH" for every file of one snapshot that is compared, PATH relative to its root, sorted
# by path (hashing in one pass costs one process, not one per file).
list_files() {
  (cd "$1" && find . -type f ! -name 'timings.yaml' ! -name 'timings.json' ! -name '.stream-sweep.lock' \
    -print0 | xargs -0 -r md5sum | sed -E 's#^([0-9a-f]+)  \./#\1 #' | LC_ALL=C sort -k2) \
    | if (( results_only )); then grep -v -E ' (.*/)?stderr\.txt$'; else cat; fi
}

# Drops the CSV column named wall_s. It is the last column of the sweep's files, so it is cut off
# as the text after the last comma, which holds even when a quoted reason has commas in it.
drop_wall_column() {
  awk 'NR == 1 { last = ($0 ~ /,wall_s$/) } { if (last) sub(/,[^,]*$/, ""); print }'
}

# Masks the clocks of one kind of file (by its name), reading stdin; COMMAND is the case's
# command.txt, whose first word says whether the case was a sweep.
mask_clocks() {
  local name=$1 command=$2
  case $name in
    results.csv | pareto.csv) drop_wall_column ;;
    results.jsonl) sed -E 's/,"wall_s":[-0-9.eE+]+//; s/"wall_s":[-0-9.eE+]+,?//' ;;
    stdout.txt)
      sed -E -e 's/^wall time: [0-9.]+ s$/wall time: <clock> s/' \
        -e 's/^([0-9]+ +-?[0-9]+ +[0-9.]+% +[-0-9.e+]+) +[0-9.]+ +([A-Za-z_]+)$/\1 <clock> \2/' \
        -e 's/"seconds": [-0-9.eE+]+/"seconds": <clock>/'
      ;;
    stderr.txt)
      grep -v -E '^\[stream sweep\] ([0-9]+/[0-9]+ points \(|listing points: )' \
        | if [[ $(head -n 1 "$command" 2> /dev/null) == sweep ]]; then LC_ALL=C sort; else cat; fi
      ;;
    *) cat ;;
  esac
}

# Prints file ROOT/REL with ROOT replaced by <snapshot> and the clocks of its kind masked.
normalised() {
  local root=$1 rel=$2
  sed "s#${root}#<snapshot>#g" "$root/$rel" | mask_clocks "${rel##*/}" "$(dirname "$root/$rel")/command.txt"
}

status=0
while read -r side rel; do
  case $side in
    A) echo "only in A: $rel"; status=1 ;;
    B) echo "only in B: $rel"; status=1 ;;
    both)
      if ! cmp -s <(normalised "$root_a" "$rel") <(normalised "$root_b" "$rel"); then
        echo "differs: $rel"
        status=1
      fi
      ;;
  esac
done < <(LC_ALL=C join -1 2 -2 2 -a 1 -a 2 -e - -o 0,1.1,2.1 <(list_files "$root_a") <(list_files "$root_b") \
  | awk '$2 == "-" { print "B", $1; next } $3 == "-" { print "A", $1; next } $2 != $3 { print "both", $1 }')
exit $status
