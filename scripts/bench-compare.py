#!/usr/bin/python3
"""bench-compare.py — `parlor bench all` as medians of rounds, against goals.

Runs `parlor bench all --json` ROUNDS times with each binary given (old and
new alternate, so that machine noise hits both alike), and prints, per game,
the median over rounds of each figure that the performance goals name:

    dec    ns per decision / the 52-card shuffle baseline of the same run
    env    env_step_ns / ns per decision
    ovh    env_step_ns / decision_observe_ns (what the env adds to the
           game's own legal + apply + observe)
    obs    observe / baseline
    view   ns per msgpack view
    det    determinize / baseline

A ratio is taken within one run before the median is taken, so load that
changes between runs cancels. With two binaries each cell reads
`old -> new`, and the last column says whether the game's actions_hash
(the same random play) is unchanged. A figure over its goal is marked `!`.

usage: scripts/bench-compare.py [--rounds 3] [--seconds 1] [--old BIN] NEW
"""
import argparse
import json
import statistics
import subprocess

GOALS = {"dec": 2.0, "env": 1.5, "ovh": 1.25, "obs": 0.5, "view": 1000.0}


def figures(o):
    b = o["baseline_ns"]
    return {"dec": o["ns_per_decision"] / b,
            "env": o["env_step_ratio"],
            "ovh": o["env_step_overhead"],
            "obs": o["obs_ns"] / b,
            "view": o["view_ns"],
            "det": o["determinize_ns"] / b}


def bench(binary, seconds):
    """One `bench all` run: {game: (figures, actions_hash)}."""
    out = subprocess.run([binary, "bench", "all", "--seconds", str(seconds),
                          "--json"], check=True, capture_output=True,
                         text=True).stdout
    dec = json.JSONDecoder()
    runs, i = {}, 0
    while True:
        while i < len(out) and out[i].isspace():
            i += 1
        if i == len(out):
            return runs
        o, i = dec.raw_decode(out, i)
        runs[o["game"]] = (figures(o), o["actions_hash"])


def medians(rounds):
    games = rounds[0].keys()
    return {g: ({k: statistics.median(r[g][0][k] for r in rounds)
                 for k in rounds[0][g][0]}, rounds[0][g][1]) for g in games}


def cell(key, v):
    text = f"{v:.0f}" if key == "view" else f"{v:.2f}"
    return text + ("!" if key in GOALS and v > GOALS[key] else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1)
    ap.add_argument("--old", help="the binary to compare against")
    ap.add_argument("new", nargs="?", default="build/parlor")
    a = ap.parse_args()
    bins = [a.old, a.new] if a.old else [a.new]
    rounds = {b: [] for b in bins}
    for r in range(a.rounds):
        for b in bins:
            rounds[b].append(bench(b, a.seconds))
        print(f"round {r + 1} of {a.rounds} done", flush=True)
    med = {b: medians(rounds[b]) for b in bins}
    keys = ["dec", "env", "ovh", "obs", "view", "det"]
    print(f"medians of {a.rounds} rounds; goals: "
          + ", ".join(f"{k} <= {v:g}" for k, v in GOALS.items()))
    print(f"{'game':20s} " + " ".join(f"{k:>13s}" for k in keys)
          + ("  hash" if a.old else ""))
    for g in med[a.new]:
        new, h_new = med[a.new][g]
        if a.old and g in med[a.old]:
            old, h_old = med[a.old][g]
            cells = [f"{cell(k, old[k])}->{cell(k, new[k])}" for k in keys]
            tail = "  same" if h_old == h_new else "  CHANGED"
        else:
            cells = [cell(k, new[k]) for k in keys]
            tail = ""
        print(f"{g:20s} " + " ".join(f"{c:>13s}" for c in cells) + tail)


if __name__ == "__main__":
    main()
