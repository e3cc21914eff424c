"""run.py — `make train`: train agents on several games, rate them against
the built-in bots, draw the curves and ratings; everything into OUT.

    /usr/bin/python3 examples/train/run.py [--bin build/parlor]
        [--out build/train] [--games thirty_one,spoil_five,...]

For each game of GAMES, into OUT/NAME/:
  1. train.py (policy.pt, curve.tsv, throughput.tsv);
  2. levels.tsv: each built-in bot's mean return against random, from a
     short tournament `random,ref=BOT` (the curve's reference lines);
  3. curve.png/.svg through curve.gp;
  4. a tournament of random, pimc, ismcts and the trained agent
     (policy_bot.py as a cmd: bot) in OUT/NAME/tournament;
  5. ratings.json (`parlor rate --json`), ratings.txt, and the plots of
     `parlor plot` in OUT/NAME/plots.
Then OUT/ratings.json maps each game spec to its `parlor rate --json`
object, OUT/summary.tsv has one line per game, and the acceptance check
(the agent's 95% interval wholly above random's on the ACCEPT games) sets
the exit status.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
PY = "/usr/bin/python3"

# name, spec, train.py's options, tournament agents besides the trained
# one, deals of the tournament, deals of each reference level. Training
# stops at its --seconds when the machine is too busy for all the steps.
# Spoil-Five is a game of ten deals settled by net chips; its agents train
# on one deal at a time (deals=1, the same rules, observation and actions),
# so each episode's return is the chips of one deal and its credit is not
# drowned by the nine other deals' luck; the checkpoint plays the
# ten-deal game. The search bots play with fewer samples and iterations
# than their defaults so the tournaments fit the 15-minute budget.
PIMC = "pimc=pimc(samples=10)"
ISMCTS = "ismcts=ismcts(iters=500)"
GAMES = [
    ("thirty_one", "thirty_one(players=2)",
     ["--phase", "random:300000", "--phase", "self:60000",
      "--seconds", "170"], f"random,{PIMC},{ISMCTS}", 60, 20),
    ("spoil_five", "spoil_five(players=2)",
     ["--train-game", "spoil_five(players=2,deals=1)",
      "--phase", "random:400000", "--phase", "self:80000",
      "--seconds", "220", "--lr", "3e-3"], f"random,{PIMC},{ISMCTS}", 40,
     12),
    ("spoil_five_4p", "spoil_five(players=4,partnerships=true)",
     ["--train-game", "spoil_five(players=4,partnerships=true,deals=1)",
      "--phase", "random:200000", "--phase", "self:40000",
      "--seconds", "100", "--lr", "3e-3"],
     "random,pimc=pimc(samples=5),ismcts=ismcts(iters=200)", 12, 8),
]
ACCEPT = ("thirty_one", "spoil_five")  # must rate wholly above random
LEVEL_BOTS = ("random", "pimc", "ismcts")


def sh(cmd, **kw):
    """Runs cmd (a list), echoing it; raises when it fails."""
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, check=True, **kw)


def mean_return(journal, agent):
    """(mean return of agent's seats, games) over a tournament journal."""
    total, games = 0.0, 0
    with open(journal) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("type") != "game" or rec.get("end") != "normal":
                continue
            mine = [r for s, r in zip(rec["seats"], rec["returns"])
                    if s == agent]
            total += sum(mine) / len(mine)
            games += 1
    return total / max(games, 1), games


def levels(binary, spec, bots, deals, out):
    """Writes out/levels.tsv: each bot's mean return against random."""
    rows = []
    for bot in LEVEL_BOTS:
        agent = [a for a in bots.split(",") if a.split("=")[0] == bot]
        spec_of = agent[0].split("=", 1)[-1] if agent else bot
        d = os.path.join(out, "levels", bot)
        sh([binary, "tournament", "--game", spec, "--agents",
            f"random,ref={spec_of}", "--deals", str(deals), "--jobs", "2",
            "--seed", "7", "--out", d, "--quiet"],
           stdout=subprocess.DEVNULL)
        mean, games = mean_return(os.path.join(d, "journal.jsonl"), "ref")
        rows.append(f"{bot}\t{mean:.4f}\t{games}\n")
    with open(os.path.join(out, "levels.tsv"), "w") as f:
        f.write("agent\tmean_return\tgames\n" + "".join(rows))


def one_game(args, name, spec, options, bots, deals, level_deals):
    out = os.path.join(args.out, name)
    os.makedirs(out, exist_ok=True)
    sh([PY, os.path.join(HERE, "train.py"), "--game", spec, "--out", out,
        "--bin", args.bin] + options)
    levels(args.bin, spec, bots, level_deals, out)
    sh(["gnuplot", "-e", f"data='{out}/curve.tsv'; "
        f"levels='{out}/levels.tsv'; out='{out}/curve'; game='{spec}'",
        os.path.join(HERE, "curve.gp")])
    bot = (f"ppo=cmd:{PY} {os.path.join(HERE, 'policy_bot.py')} "
           f"{os.path.join(out, 'policy.pt')}")
    tour = os.path.join(out, "tournament")
    sh([args.bin, "tournament", "--game", spec, "--agents",
        f"{bots},{bot}", "--deals", str(deals), "--jobs", "2", "--seed",
        "1", "--move-time", "30", "--out", tour, "--quiet"])
    with open(os.path.join(out, "ratings.json"), "w") as f:
        sh([args.bin, "rate", tour, "--json"], stdout=f)
    with open(os.path.join(out, "ratings.txt"), "w") as f:
        sh([args.bin, "rate", tour], stdout=f)
    sh([args.bin, "plot", tour, "--out", os.path.join(out, "plots")],
       stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "ratings.json")) as f:
        return json.load(f)


def summarise(name, spec, rating, out):
    """One summary row: the agent's rating and interval, and the bots'."""
    by = {r["agent"]: r for r in rating["ratings"]}
    with open(os.path.join(out, name, "throughput.tsv")) as f:
        keys, values = (line.rstrip("\n").split("\t") for line in f)
    tp = dict(zip(keys, values))
    cells = [name, spec]
    for agent in ("ppo", "random", "pimc", "ismcts"):
        r = by[agent]
        cells.append(f"{r['elo']:.0f} [{r['lo']:.0f}, {r['hi']:.0f}]")
    cells += [tp["decisions_per_s"], tp["env_steps_per_s"],
              f"{100 * float(tp['env_wait_share']):.1f}%"]
    above = by["ppo"]["lo"] > by["random"]["hi"]
    return cells, above


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", default=os.path.join(REPO, "build", "parlor"))
    p.add_argument("--out", default=os.path.join(REPO, "build", "train"))
    p.add_argument("--games", default=",".join(g[0] for g in GAMES))
    args = p.parse_args(argv)
    args.bin, args.out = os.path.abspath(args.bin), os.path.abspath(args.out)
    wanted = args.games.split(",")
    unknown = set(wanted) - {g[0] for g in GAMES}
    if unknown:
        p.error(f"unknown games {sorted(unknown)}; known: "
                f"{', '.join(g[0] for g in GAMES)}")
    start = time.monotonic()
    ratings, rows, ok = {}, [], True
    for game in GAMES:
        if game[0] not in wanted:
            continue
        begun = time.monotonic()
        ratings[game[1]] = one_game(args, *game)
        cells, above = summarise(game[0], game[1], ratings[game[1]],
                                 args.out)
        rows.append(cells + ["yes" if above else "NO",
                             f"{time.monotonic() - begun:.0f}"])
        ok &= above or game[0] not in ACCEPT
    with open(os.path.join(args.out, "ratings.json"), "w") as f:
        json.dump(ratings, f, indent=2)
    header = ["name", "game", "ppo", "random", "pimc", "ismcts",
              "decisions_per_s", "env_steps_per_s", "env_wait",
              "above_random", "wall_s"]
    with open(os.path.join(args.out, "summary.tsv"), "w") as f:
        for row in [header] + rows:
            f.write("\t".join(row) + "\n")
    print("\nElo (random = 0) with 95% intervals:")
    for row in rows:
        print(f"  {row[1]}: ppo {row[2]}, pimc {row[4]}, ismcts {row[5]}; "
              f"{row[6]} decisions/s, env wait {row[8]}; above random: "
              f"{row[9]}; {row[10]} s")
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"run.py: {time.monotonic() - start:.0f} s wall, "
          f"{use.ru_utime + use.ru_stime:.0f} s CPU (all processes); "
          f"{'every' if ok else 'NOT every'} agent of "
          f"{', '.join(ACCEPT)} rates wholly above random", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
