#!/bin/bash
# submit-tournament.sh — runs a parlor tournament on Slurm: a job array of
# shards (tournament.sbatch) and, once they have all succeeded, a merge
# job (merge.sbatch: ratings and plots). Prints the job ids and where the
# results appear, and keeps them in OUT/slurm/jobs.txt.
#
#   scripts/slurm/submit-tournament.sh --out /shared/runs/t1 --shards 8 \
#       [--cpus 4] [--arena-port-base 5600] [--sbatch '--partition=short'] \
#       -- --game 'thirty_one(players=2)' --agents random,pimc --deals 2000
#
# OUT must be on a filesystem every node sees (see README, "Scaling out").
# Options after -- go to every `parlor tournament` shard; --out, --shard,
# --resume and --jobs are set here. PARLOR_BIN names the parlor binary
# (default: build/parlor of this checkout).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage() {
    sed -n '7,10p' "$0" | sed 's/^# \{0,3\}//' >&2
    [[ -n ${1:-} ]] && echo "submit-tournament.sh: $1" >&2
    exit 2
}

out='' shards='' cpus=1 port_base='' extra=''
while [[ $# -gt 0 ]]; do
    case $1 in
    --out) out=${2:-}; shift 2 || usage "--out wants a directory" ;;
    --shards) shards=${2:-}; shift 2 || usage "--shards wants a number" ;;
    --cpus) cpus=${2:-}; shift 2 || usage "--cpus wants a number" ;;
    --arena-port-base) port_base=${2:-}; shift 2 || usage "--arena-port-base wants a port" ;;
    --sbatch) extra=${2:-}; shift 2 || usage "--sbatch wants sbatch options" ;;
    --) shift; break ;;
    -h | --help) usage ;;
    *) usage "unknown option '$1' (tournament options go after --)" ;;
    esac
done
[[ -n $out ]] || usage "--out DIR is required"
[[ $shards =~ ^[1-9][0-9]{0,5}$ ]] || usage "--shards wants a number from 1 to 999999, got '$shards'"
[[ $cpus =~ ^[1-9][0-9]{0,2}$ && $cpus -le 256 ]] || usage "--cpus wants a number from 1 to 256, got '$cpus'"
[[ -z $port_base || ( $port_base =~ ^[1-9][0-9]{0,4}$ && $((port_base + shards)) -le 65535 ) ]] ||
    usage "--arena-port-base wants a port such that port + shards <= 65535, got '$port_base'"
for a in "$@"; do
    case $a in
    --out* | --shard* | --resume | --jobs*)
        usage "$a: this script sets --out, --shard, --resume and --jobs (from --cpus)" ;;
    esac
done
[[ $# -gt 0 ]] || usage "no tournament options after -- (--game, --agents, ...)"
command -v sbatch >/dev/null || { echo "submit-tournament.sh: sbatch not found: is this a Slurm login node?" >&2; exit 1; }

given=${PARLOR_BIN:-$here/../../build/parlor}
bin=$(realpath -e "$given" 2>/dev/null || true)
if [[ ! -x $bin ]]; then
    echo "submit-tournament.sh: no parlor binary at $given (make, or set PARLOR_BIN)" >&2
    exit 1
fi
mkdir -p "$out/slurm"
out=$(realpath "$out")
env="ALL,PARLOR_BIN=$bin"
[[ -n $port_base ]] && env+=",PARLOR_ARENA_PORT_BASE=$port_base"

# shellcheck disable=SC2086 # $extra is a list of sbatch options
array=$(sbatch --parsable --array="1-$shards" --cpus-per-task="$cpus" \
    --output="$out/slurm/shard-%a.out" --export="$env" $extra \
    "$here/tournament.sbatch" "$out" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes --output="$out/slurm/merge.out" \
    --export="$env" $extra "$here/merge.sbatch" "$out")
merge=${merge%%;*}
printf 'array=%s\nmerge=%s\nshards=%s\n' "$array" "$merge" "$shards" \
    > "$out/slurm/jobs.txt"

cat <<MSG
shards: job array $array, tasks 1-$shards (squeue -j $array)
  journals  $out/journal.shard-I-of-$shards.jsonl
  logs      $out/slurm/shard-I.out
merge:  job $merge, once every shard has succeeded
  ratings   $out/ratings.txt, $out/ratings.json
  plots     $out/plots/
  log       $out/slurm/merge.out
MSG
[[ -z $port_base ]] || echo "arenas: tcp://NODE:$((port_base + 1))..$((port_base + shards)), each written to $out/arena.shard-I.txt"
