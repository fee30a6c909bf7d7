#!/usr/bin/env bash
# `stream sweep submit --slurm` on a real Slurm, on this machine: installs Debian's slurm-wlm and
# munge if missing, starts munged, slurmctld and slurmd (in the foreground, as background jobs of
# this script, whose pids it keeps) with a generated one-node configuration in a temporary folder
# (its own ports, socket, state and spool; SLURM_CONF points at it), submits a 4-point sweep as a
# 2-task array plus its merge job, waits for them (squeue, at most STREAM_SLURM_WAIT_S s, default
# 180), and checks the merged results.csv against a local `stream sweep` of the same file (rows
# sorted, wall_s left out). Every daemon it started is stopped on exit, and the folder removed.
# Needs root (to install and to run slurmd); exits 77 (ctest: skipped) with the reason otherwise.
# The out folder's name holds a blank and a quote, so sbatch's own reader of #SBATCH lines and
# the job's shell both see the quoting.
# Usage: tests/slurm/run_slurm_test.sh path/to/stream
set -euo pipefail
stream=$(readlink -f "$1")
t0=$SECONDS
say() { echo "[slurm test] $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
  say "skipped: needs root, to install slurm-wlm and munge and to run slurmd as SlurmUser=root"
  exit 77
fi

# --- Packages --------------------------------------------------------------------------------
missing=()
for p in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >&2; }
  install || { apt-get update -qq </dev/null >&2 && install; } || { say "FAIL: apt-get could not install ${missing[*]}"; exit 1; }
  say "installed in $((SECONDS - t0)) s"
fi

# --- A private cluster -----------------------------------------------------------------------
tmp=$(mktemp -d /tmp/stream-slurm.XXXXXX)
chmod 755 "$tmp"  # munged wants its socket's folder reachable by all
pids=()
ids=()
cleanup() {
  local rc=$?
  [ ${#ids[@]} -gt 0 ] && scancel "${ids[@]}" 2>/dev/null || true
  for ((k = ${#pids[@]} - 1; k >= 0; k--)); do kill "${pids[k]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ $rc -ne 0 ]; then
    for f in "$tmp"/log/*.log; do [ -f "$f" ] && { echo "--- ${f#"$tmp"/}" >&2; tail -n 20 "$f" >&2; }; done
  fi
  rm -rf "$tmp"
  exit $rc
}
trap cleanup EXIT
fail() { say "FAIL: $*"; exit 1; }
# Polls `$@` every half second until it succeeds, for at most $1 seconds.
wait_for() {
  local limit=$1; shift
  local until=$((SECONDS + limit))
  until "$@"; do
    [ $SECONDS -lt $until ] || return 1
    sleep 0.5
  done
}

# Two ports nothing listens on, from a start that differs between concurrent runs.
port=$((20000 + $$ % 20000))
next_free_port() {
  port=$((port + 1))
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
}
next_free_port
ctld_port=$port
next_free_port
slurmd_port=$port

mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 755 "$tmp/munge"
head -c 1024 /dev/urandom > "$tmp/munge/key"
chmod 400 "$tmp/munge/key"
munged -F --socket="$tmp/munge/socket" --key-file="$tmp/munge/key" --pid-file="$tmp/munge/pid" \
  --seed-file="$tmp/munge/seed" --log-file="$tmp/log/munged.log" >>"$tmp/log/munged.log" 2>&1 &
pids+=($!)
wait_for 10 munge -S "$tmp/munge/socket" -n -o /dev/null 2>/dev/null || fail "munged did not start"

node=$(hostname -s 2>/dev/null || uname -n)
node=${node%%.*}
export SLURM_CONF="$tmp/slurm.conf"
# Nothing from an enclosing Slurm job may steer the client commands.
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SLURM|SBATCH|SQUEUE|SALLOC|SRUN)_' | grep -v '^SLURM_CONF$' || true)
# A container has no systemd or cgroup delegation: Linux process tracking, no task binding, no
# accounting; config_overrides keeps CPUs=2 on a machine that has fewer.
cat > "$SLURM_CONF" <<CONF
ClusterName=streamtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i >>"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" >>"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" = idle ]; }
wait_for 60 node_idle || fail "node $node not idle after 60 s (sinfo: $(sinfo -h -o '%T %E' 2>&1))"
say "cluster up in $((SECONDS - t0)) s"

# --- The sweep -------------------------------------------------------------------------------
mkdir -p "$tmp/sweep files"
sweep="$tmp/sweep files/four.yaml"
cat > "$sweep" <<'YAML'
axes:
  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]
  workload: [2conv_1_8_32_32_16_32_3.onnx]
  cast: [none, bf16]
YAML
out="$tmp/results a'b"
submitted=$("$stream" sweep submit "$sweep" --slurm --out "$out" --array-size 2) || fail "stream sweep submit failed"
echo "$submitted" >&2
array_id=$(sed -n 's/^array job \([0-9]*\):.*/\1/p' <<<"$submitted")
merge_id=$(sed -n 's/^merge job \([0-9]*\),.*/\1/p' <<<"$submitted")
[ -n "$array_id" ] && [ -n "$merge_id" ] || fail "no job ids in the output of stream sweep submit"
ids=("$array_id" "$merge_id")
queue_empty() { [ -z "$(squeue -h -o %i 2>/dev/null)" ] && squeue >/dev/null 2>&1; }
wait_for "${STREAM_SLURM_WAIT_S:-180}" queue_empty || fail "jobs still queued after ${STREAM_SLURM_WAIT_S:-180} s: $(squeue 2>&1)"
ids=()
state=$(scontrol show job "$merge_id" 2>&1 | grep -o 'JobState=[A-Z_]*' || true)
[ "$state" = JobState=COMPLETED ] || fail "merge job $merge_id ended with ${state:-no state}; logs: $(cat "$out"/logs/*.out 2>&1)"

"$stream" sweep "$sweep" --out "$tmp/local" --jobs 2 >/dev/null 2>&1 || fail "the local stream sweep failed"
# Each file's rows without wall_s, sorted; the local run's must be 4 points, all ok.
python3 - "$out/results.csv" "$tmp/local/results.csv" <<'PY' || fail "the merged results differ from the local run's"
import csv, sys
def rows(path):
    with open(path, newline="") as f:
        r = list(csv.DictReader(f))
    for row in r:
        row.pop("wall_s")
    return sorted(tuple(sorted(row.items())) for row in r)
merged, local = rows(sys.argv[1]), rows(sys.argv[2])
assert len(local) == 4 and all(dict(row)["status"] == "ok" for row in local), local
if merged != local:
    sys.exit("merged:\n%s\nlocal:\n%s" % ("\n".join(map(str, merged)), "\n".join(map(str, local))))
PY
for i in 0 1; do [ -s "$out/shard-$i/results.jsonl" ] || fail "no results in shard-$i"; done
say "ok: array job $array_id (2 tasks) and merge job $merge_id give the local run's 4 rows; $((SECONDS - t0)) s in all"
