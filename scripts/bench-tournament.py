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

Both sides are on the wall clock. `parlor bench` times its playouts on
its thread's CPU time, which leaves out the slices other processes take,
while the tournament's wall time counts them: on a machine shared with
other work, that alone took a fifth to a half off the efficiency. So each
bench process's rate is scaled by the share of a CPU it got over its
life (its CPU time over its wall time, from wait4; one thread, so at most
1): episodes per second of wall time at the load of the moment. On an
idle machine the share is 1 and nothing changes. The tournament keeps its
whole wall time (start, waiting, writing, the end): nothing of it is
excused. The shares are printed, the bench's and the tournament's (its
CPU time over its wall time, over all its threads).

Under a changing load the shares still move between the bench's slices
and the tournament's, so the efficiency in CPU time is printed beside
it: games per CPU second of all the tournament's threads (the writer's
too, with one job) over a bench's episodes per CPU second. It is steadier
under load, and strict about work (every cycle of the harness counts),
but blind to waiting: a tournament whose threads sit idle loses only in
the wall-clock figure, which stays the one the goals are set on.

usage: scripts/bench-tournament.py [--bin build/parlor] [--rounds 3]
                                   [--seconds 2] [GAME ...]
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time


def timed(args):
    """Runs args; returns (stdout, wall seconds, CPU seconds), the wall
    time from start to exit, the CPU time (user + system) from wait4."""
    t0 = time.monotonic()
    p = subprocess.Popen(args, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stdout.close()
    if p.returncode:
        raise SystemExit(f"{' '.join(args)} failed")
    return out, wall, ru.ru_utime + ru.ru_stime


def bench(binary, game, seconds, jobs):
    """episodes per second of wall time of jobs bench processes running at
    once, summed (each one's CPU-time rate times its share of a CPU), their
    mean share, and their mean episodes per CPU second."""
    args = [binary, "bench", game, "--seconds", str(seconds), "--json"]
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        runs = list(ex.map(lambda _: timed(args), range(jobs)))
    total = shares = cpu_rate = 0.0
    for out, wall, cpu in runs:
        share = min(1.0, cpu / wall)
        total += json.loads(out)["episodes_per_sec"] * share
        cpu_rate += json.loads(out)["episodes_per_sec"]
        shares += share
    return total, shares / jobs, cpu_rate / jobs


def tournament(binary, game, deals, jobs, scratch):
    """games per second of wall time, games, the CPU share (all threads),
    and games per CPU second (all threads)."""
    out_dir = os.path.join(scratch, "t")
    shutil.rmtree(out_dir, ignore_errors=True)
    _, wall, cpu = timed([binary, "tournament", "--game", game, "--agents",
                          "a=random,b=random", "--deals", str(deals),
                          "--jobs", str(jobs), "--out", out_dir, "--quiet"])
    with open(os.path.join(out_dir, "journal.jsonl")) as f:
        games = sum(1 for _ in f) - 1
    return games / wall, games, cpu / wall, games / cpu


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
            _, per_deal, _, _ = tournament(a.bin, game, 1, 1, scratch)
            eff = {1: [], 2: []}
            eff_cpu = {1: [], 2: []}
            for r in range(a.rounds):
                line = f"{game} round {r + 1}:"
                for jobs in (1, 2):
                    before, s0, c0 = bench(a.bin, game, a.seconds / 2, jobs)
                    deals = max(1, int(before * a.seconds / per_deal))
                    rate, _, ts, tc = tournament(a.bin, game, deals, jobs,
                                                 scratch)
                    after, s1, c1 = bench(a.bin, game, a.seconds / 2, jobs)
                    base = (before + after) / 2
                    eff[jobs].append(rate / base)
                    eff_cpu[jobs].append(tc / ((c0 + c1) / 2))
                    line += (f" {jobs} job(s): bench {base:,.0f} episodes/s "
                             f"(CPU share {(s0 + s1) / 2:.2f}), tournament "
                             f"{rate:,.0f} games/s (CPU {ts:.2f}), "
                             f"efficiency {eff[jobs][-1]:.3f} (in CPU "
                             f"time {eff_cpu[jobs][-1]:.3f});")
                print(line, flush=True)
            print(f"{game}: median efficiency 1 job "
                  f"{statistics.median(eff[1]):.3f}, 2 jobs "
                  f"{statistics.median(eff[2]):.3f}; in CPU time 1 job "
                  f"{statistics.median(eff_cpu[1]):.3f}, 2 jobs "
                  f"{statistics.median(eff_cpu[2]):.3f} "
                  f"({os.cpu_count()} CPUs)", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
