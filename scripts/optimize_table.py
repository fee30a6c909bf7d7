#!/usr/bin/env python3
"""The mapping optimizer's table (issue 39): runs bench_mapping_optimize (the 8 reference systems x
6 workloads, one `stream run --mapping optimize?evaluations=N&jobs=2&seed=1` each) and prints a
markdown table of system, workload, automatic and optimized latency, ratio, evaluations, wall time
and the process's CPU time (wall time depends on the machine's load, CPU time much less), then the geomean ratio, the longest case and whether no case came out worse than automatic.

    scripts/optimize_table.py [--build build] [--evaluations 2000] [--filter REGEX] [--json FILE]
    scripts/optimize_table.py --from-json FILE     # the table of an earlier run's JSON

The benchmark's own progress goes to stderr, the table to stdout. Exit status: 0 when every case
ran and none is worse than automatic, 1 otherwise, 2 for bad arguments or a missing benchmark.
The issue's targets (geomean ratio <= 0.90, every case under 60 s) are reported, not enforced:
wall times depend on the machine's load.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

GEOMEAN_TARGET = 0.90
WALL_TARGET_S = 60.0
UNIT_S = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def run_benchmark(build, evaluations, name_filter, json_path):
    """Runs the benchmark program, its JSON into json_path; False when it could not be started."""
    program = os.path.join(build, "bin", "bench_mapping_optimize")
    if not os.access(program, os.X_OK):
        print(f"optimize_table: {program} not found; build it with "
              f"`cmake --build {build} --target stream-program bench_mapping_optimize`", file=sys.stderr)
        return False
    env = dict(os.environ, STREAM_OPTIMIZE_EVALUATIONS=str(evaluations))
    cmd = ["nice", "-n", "10", program, f"--benchmark_out={json_path}", "--benchmark_out_format=json"]
    if name_filter:
        cmd.append(f"--benchmark_filter={name_filter}")
    # The console report goes to stderr, as progress; the table is made from the JSON file.
    subprocess.run(cmd, env=env, stdout=sys.stderr, check=False)
    return os.path.exists(json_path)


def case_row(bench):
    """(system, workload, figures or None, error message or None) of one benchmark entry."""
    parts = bench["run_name"].split("/")
    system, workload = parts[1], parts[2]
    if bench.get("error_occurred"):
        return system, workload, None, bench.get("error_message", "error").strip()
    wall = bench["real_time"] * UNIT_S[bench.get("time_unit", "ns")]
    return system, workload, dict(automatic=bench["automatic"], optimized=bench["optimized"], ratio=bench["ratio"],
                                  evaluations=bench["evaluations"], wall=wall, cpu=bench["cpu_s"]), None


def print_table(benchmarks):
    """Prints the table and its summary; returns True when every case ran and none is worse."""
    print("| system | workload | automatic (cycles) | optimized (cycles) | ratio | evaluations | wall (s) | cpu (s) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    ratios, walls, errors, worse = [], [], 0, 0
    for bench in benchmarks:
        system, workload, fig, error = case_row(bench)
        if fig is None:
            errors += 1
            worse += "> automatic" in error
            one_line = " ".join(error.split())[-300:].replace("|", "\\|")
            print(f"| {system} | {workload} | error: {one_line} | | | | | |")
            continue
        ratios.append(fig["ratio"])
        walls.append(fig["wall"])
        print(f"| {system} | {workload} | {fig['automatic']:.0f} | {fig['optimized']:.0f} | {fig['ratio']:.3f} | "
              f"{fig['evaluations']:.0f} | {fig['wall']:.1f} | {fig['cpu']:.1f} |")
    print()
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geomean ratio: {geomean:.3f} over {len(ratios)} cases "
              f"({(1 - geomean) * 100:.1f} % lower latency; target <= {GEOMEAN_TARGET:.2f}: "
              f"{'met' if geomean <= GEOMEAN_TARGET else 'NOT met'})")
        print(f"max wall time: {max(walls):.1f} s (target < {WALL_TARGET_S:.0f} s: "
              f"{'met' if max(walls) < WALL_TARGET_S else 'NOT met'}; "
              f"{sum(w >= WALL_TARGET_S for w in walls)} cases over)")
    if errors:
        print(f"errors: {errors} of {len(benchmarks)} cases did not run to a result")
    never_worse = worse == 0 and all(r <= 1.0 for r in ratios)
    print(f"never worse: {'yes' if never_worse else 'no'}")
    return never_worse and errors == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="the build directory (default: build)")
    parser.add_argument("--evaluations", type=int, default=2000, help="the budget per case (default: 2000)")
    parser.add_argument("--filter", default="", help="a --benchmark_filter regex (default: all 48 cases)")
    parser.add_argument("--json", help="also keep the benchmark's JSON in this file")
    parser.add_argument("--from-json", help="print the table of this JSON file instead of running")
    args = parser.parse_args()
    if args.evaluations < 1:
        parser.error("--evaluations must be at least 1")
    if args.from_json:
        path = args.from_json
    else:
        path = args.json or os.path.join(tempfile.mkdtemp(prefix="stream-optimize-table."), "bench.json")
        if not run_benchmark(args.build, args.evaluations, args.filter, path):
            return 2
    try:
        with open(path, encoding="utf-8") as f:
            benchmarks = json.load(f)["benchmarks"]
    except (OSError, ValueError, KeyError) as e:
        print(f"optimize_table: {path}: cannot read the benchmark's JSON: {e}", file=sys.stderr)
        return 2
    return 0 if print_table(benchmarks) else 1


if __name__ == "__main__":
    sys.exit(main())
