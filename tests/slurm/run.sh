#!/bin/bash
# run.sh — `make test-slurm`: a parlor tournament on a real, one-node Slurm
# cluster started here on localhost, with one shard requeued mid-run.
#
# As root, without systemd: installs slurm-wlm and munge when missing,
# starts munged (a fresh key), slurmctld and slurmd in the foreground with
# a generated slurm.conf, all state, spool and logs in a temporary
# directory (SLURM_CONF points there; the two Slurm ports are free ones
# the kernel hands out). Then submits a four-shard tournament through
# scripts/slurm/submit-tournament.sh, requeues shard 2 once its journal
# holds a game, waits for the merge job, and checks that the shards'
# journals hold exactly the games of one uninterrupted run with the same
# seed (same keys, same records, no duplicates) and that the ratings are
# byte-identical. Every daemon started here is stopped by its pid, also on
# failure. Waits poll for their event and are bounded only to catch hangs.
#
# Usage: tests/slurm/run.sh [PARLOR_BIN] (default build/parlor);
# KEEP=1 keeps the temporary directory.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${1:-$repo/build/parlor}")
GAME='thirty_one(players=2)'
AGENTS='random,pimc'
DEALS=1000 # about 2 s of play per shard on an idle core
SEED=11
SHARDS=4
REQUEUED=2
HANG=600 # seconds: any wait longer than this is a hang

say() { echo "test-slurm: $*"; }
die() { echo "test-slurm: FAIL: $*" >&2; exit 1; }

# wait_for SECONDS WHAT COMMAND...: polls COMMAND until it succeeds.
wait_for() {
    local limit=$1 what=$2 start=$SECONDS
    shift 2
    until "$@" >/dev/null 2>&1; do
        ((SECONDS - start < limit)) || die "no $what within $limit s"
        sleep 0.2
    done
}

# ---- the cluster ----------------------------------------------------------

[[ $(id -u) == 0 ]] || die "needs root (it starts munged, slurmctld, slurmd)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
    say "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

tmp=$(mktemp -d /tmp/parlor-slurm.XXXXXX)
pids=()
array='' merge=''
cleanup() {
    local rc=$?
    if [[ -n ${SLURM_CONF:-} && -n $array ]]; then
        scancel "$array" ${merge:+"$merge"} 2>/dev/null || true
        local start=$SECONDS
        while ((SECONDS - start < 30)) &&
            [[ -n $(squeue -h -o %i 2>/dev/null) ]]; do sleep 0.2; done
    fi
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2>/dev/null || true
        wait "${pids[i]}" 2>/dev/null || true
    done
    if ((rc)); then
        for f in "$tmp"/log/slurmctld.log "$tmp"/run/slurm/*.out; do
            [[ -f $f ]] && { echo "---- $f"; tail -n 20 "$f"; }
        done >&2
    fi
    if [[ -n ${KEEP:-} ]]; then say "kept $tmp"; else rm -rf "$tmp"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$tmp"/{munge,sock,state,spool,log}
chmod 700 "$tmp/munge"
chmod 755 "$tmp" "$tmp/sock"
mungekey --create --keyfile="$tmp/munge/munge.key"
munged -F -f --socket="$tmp/sock/munge.socket" \
    --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
    --seed-file="$tmp/munge/munged.seed" --log-file="$tmp/log/munged.log" \
    >"$tmp/log/munged.out" 2>&1 &
pids+=($!)
wait_for 30 "munged socket" test -S "$tmp/sock/munge.socket"

read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=parlortest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/sock/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$tmp/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=sched_interval=1
ReturnToService=2
KillWait=5
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 $(slurmd -C | head -n 1 | cut -d' ' -f2-)
PartitionName=parlor Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [[ $(sinfo -h -n "$host" -o %t) == idle ]]; }
wait_for 60 "idle node in sinfo" node_idle
say "cluster up: $host, slurmctld :$ctld_port, slurmd :$slurmd_port"

# ---- the tournament --------------------------------------------------------

opts=(--game "$GAME" --agents "$AGENTS" --deals "$DEALS" --seed "$SEED")
# The uninterrupted run plays while the cluster works.
"$bin" tournament "${opts[@]}" --jobs 1 --quiet --out "$tmp/ref" \
    >"$tmp/ref.out" 2>&1 &
ref=$!
PARLOR_BIN=$bin "$repo/scripts/slurm/submit-tournament.sh" --out "$tmp/run" \
    --shards "$SHARDS" -- "${opts[@]}"
# shellcheck source=/dev/null
source "$tmp/run/slurm/jobs.txt"

# Shard 2 is requeued once its journal holds the header and a game.
journal="$tmp/run/journal.shard-$REQUEUED-of-$SHARDS.jsonl"
has_game() { [[ -f $journal && $(wc -l <"$journal") -ge 2 ]]; }
wait_for "$HANG" "game in $journal" has_game
scontrol requeue "${array}_$REQUEUED"
say "requeued ${array}_$REQUEUED at $(wc -l <"$journal") journal lines"
# Slurm makes a requeued job wait about two minutes before it may start
# again: once the task is back in the queue waiting for that, let it start.
held() { [[ $(squeue -h -j "${array}_$REQUEUED" -o %r) == BeginTime ]]; }
wait_for 60 "requeued task back in the queue" held
scontrol update "JobId=${array}_$REQUEUED" StartTime=now

merge_done() { grep -q "^JobId=$merge .*JobState=[A-Z]" "$tmp/log/jobcomp.txt"; }
wait_for "$HANG" "end of the merge job $merge" merge_done
state=$(grep "^JobId=$merge " "$tmp/log/jobcomp.txt" | tail -n 1 |
    sed 's/.*JobState=\([A-Z_]*\).*/\1/')
[[ $state == COMPLETED ]] || die "merge job $merge ended $state"

# ---- the checks -------------------------------------------------------------

wait "$ref" || die "the uninterrupted run failed: $(cat "$tmp/ref.out")"

log="$tmp/run/slurm/shard-$REQUEUED.out"
if ! grep -q "restart 0" "$log" || ! grep -q "restart 1" "$log"; then
    die "shard $REQUEUED did not start twice: $(cat "$log")"
fi
# The second start found the games of the first on disk and played the
# rest: the requeue struck mid-shard.
grep -Eq '^  [1-9][0-9]* games played now .*, [1-9][0-9]* found there' "$log" ||
    die "shard $REQUEUED was not interrupted mid-run: $(cat "$log")"

/usr/bin/python3 - "$tmp/ref/journal.jsonl" "$tmp/run" "$SHARDS" <<'PY'
import json, sys
ref_path, run_dir, shards = sys.argv[1], sys.argv[2], int(sys.argv[3])

def games(path):
    """The journal's game records by key, wall time left out."""
    out, dups = {}, []
    with open(path) as f:
        lines = f.read().splitlines()[1:]
    for line in lines:
        rec = json.loads(line)
        rec.pop("wall_us")
        key = (rec["deal"], rec["lineup"], rec["rotation"])
        (dups if key in out else []).append(key)
        out[key] = rec
    return out, dups, len(lines)

ref, dups, n = games(ref_path)
assert not dups and len(ref) == n, f"reference run has duplicates {dups[:3]}"
merged, total = {}, 0
for i in range(1, shards + 1):
    part, dups, n = games(f"{run_dir}/journal.shard-{i}-of-{shards}.jsonl")
    assert not dups, f"shard {i} holds games twice: {dups[:3]}"
    both = merged.keys() & part.keys()
    assert not both, f"shard {i} repeats games of another: {sorted(both)[:3]}"
    merged.update(part)
    total += n
missing, extra = ref.keys() - merged.keys(), merged.keys() - ref.keys()
assert not missing, f"{len(missing)} games missing, e.g. {sorted(missing)[:3]}"
assert not extra, f"{len(extra)} games too many, e.g. {sorted(extra)[:3]}"
differ = [k for k in ref if ref[k] != merged[k]]
assert not differ, f"games differ from the reference: {differ[:3]}"
print(f"test-slurm: {total} games in {shards} shards = the {len(ref)} "
      "games of the uninterrupted run, none twice")
PY

"$bin" rate "$tmp/ref" --json >"$tmp/ref/ratings.json"
cmp "$tmp/ref/ratings.json" "$tmp/run/ratings.json" ||
    die "the merged ratings differ from the uninterrupted run's"
[[ -s $tmp/run/ratings.txt ]] || die "no ratings.txt from the merge job"
compgen -G "$tmp/run/plots/*.png" >/dev/null || die "no plots from the merge job"
say "ratings identical to the uninterrupted run's; plots drawn"
say "PASS"
