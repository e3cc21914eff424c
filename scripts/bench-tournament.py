#!/usr/bin/python3
"""bench-tournament.py — the tournament harness's overhead, measured.

For each game, alternates in one run: `parlor bench GAME` (random playouts
calling the game directly: episodes per second, one thread per process) and
`parlor tournament` of two random agents over enough deals for about the
same time, with 1 and with 2 jobs. The baseline for J jobs is J bench
processes run at once (their episodes/s summed): on machines whose CPUs
share a core, two threads do not run twice as fast as one, and that is
not the harness's doing. Prints, per round and as the median over rounds,
the tournament's whole-command throughput (process start to summary
printed, journal on disk) over the baseline:

    efficiency = games/s of the tournament / episodes/s of J benches

so 1.00 means no overhead, and the overhead is 1 - efficiency. Slices
alternate so that machine noise hits both sides alike: the baseline is
measured in two halves, just before and just after its tournament (their
mean), so that a load that changes while the tournament runs moves both.

usage: scripts/bench-tournament.py [--bin build/parlor] [--rounds 3]
                                   [--seconds 2] [GAME ...]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time


def bench(binary, game, seconds, jobs):
    """episodes/s of jobs bench processes running at once, summed."""
    procs = [subprocess.Popen([binary, "bench", game, "--seconds",
                               str(seconds), "--json"],
                              stdout=subprocess.PIPE, text=True)
             for _ in range(jobs)]
    total = 0.0
    for p in procs:
        out, _ = p.communicate()
        if p.returncode:
            raise SystemExit(f"parlor bench {game} failed")
        total += json.loads(out)["episodes_per_sec"]
    return total


def tournament(binary, game, deals, jobs, scratch):
    out_dir = os.path.join(scratch, "t")
    shutil.rmtree(out_dir, ignore_errors=True)
    t0 = time.monotonic()
    subprocess.run([binary, "tournament", "--game", game, "--agents",
                    "a=random,b=random", "--deals", str(deals), "--jobs",
                    str(jobs), "--out", out_dir, "--quiet"], check=True,
                   capture_output=True)
    wall = time.monotonic() - t0
    with open(os.path.join(out_dir, "journal.jsonl")) as f:
        games = sum(1 for _ in f) - 1
    return games / wall, games


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/parlor")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2)
    ap.add_argument("games", nargs="*",
                    default=["thirty_one(players=2)", "spoil_five"])
    a = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="parlor-bench-tour-")
    try:
        for game in a.games:
            # Games per deal (line-ups x rotations) from a one-deal run.
            _, per_deal = tournament(a.bin, game, 1, 1, scratch)
            eff = {1: [], 2: []}
            for r in range(a.rounds):
                line = f"{game} round {r + 1}:"
                for jobs in (1, 2):
                    before = bench(a.bin, game, a.seconds / 2, jobs)
                    deals = max(1, int(before * a.seconds / per_deal))
                    rate, _ = tournament(a.bin, game, deals, jobs, scratch)
                    after = bench(a.bin, game, a.seconds / 2, jobs)
                    base = (before + after) / 2
                    eff[jobs].append(rate / base)
                    line += (f" {jobs} job(s): bench {base:,.0f} episodes/s, "
                             f"tournament {rate:,.0f} games/s, efficiency "
                             f"{eff[jobs][-1]:.3f};")
                print(line, flush=True)
            print(f"{game}: median efficiency 1 job "
                  f"{statistics.median(eff[1]):.3f}, 2 jobs "
                  f"{statistics.median(eff[2]):.3f} "
                  f"({os.cpu_count()} CPUs)", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
