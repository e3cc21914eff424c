"""train.py — trains a masked-action PPO agent on one parlor game.

    /usr/bin/python3 examples/train/train.py --game 'thirty_one(players=2)' \
        --out build/train/thirty_one --phase random:200000 --phase self:200000

Starts its own `parlor serve` on an ipc:// endpoint in a private temporary
directory (or uses --endpoint), then runs the phases in order, each
OPPONENT:ENV_STEPS on one parlor.VectorEnv batched on the wire:

  - an agent spec (random, pimc(...), ...): single-agent env, the server's
    built-in agents play the other seats;
  - self: self-play in a multi-agent env; the other side is drawn every
    rollout from a pool of the learner's past snapshots and the uniformly
    random policy (so part of the curve stays measured against random).

With --seconds the phases stop early when the wall-clock budget runs out
(each phase owns its share, in proportion to its steps), so a loaded
machine trains less rather than longer.

Writes OUT/policy.pt (policy.py's checkpoint), OUT/curve.tsv (per update:
env steps, phase, opponent, mean return of the episodes that ended, their
count, wall seconds) and OUT/throughput.tsv (env steps and learner
decisions per second, and the share of wall time spent waiting on the
environment), and prints the same summary.
"""

import argparse
import copy
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "protocol", "python"))

import parlor  # noqa: E402
import policy as pol  # noqa: E402
from ppo import PPO, Collector, Uniform  # noqa: E402

SERVER_START_TIMEOUT = 30.0  # seconds for `parlor serve` to say where
POOL_MAX = 8                 # snapshots kept as self-play opponents
SNAPSHOT_EVERY = 5           # updates between snapshots
RANDOM_SHARE = 0.25          # self-play rollouts against the random policy
SELF_MAX_STEPS = 200         # self-play episodes are truncated after this


class Server:
    """A private `parlor serve` on ipc:// in a fresh temporary directory;
    stop() (or leaving a with block) ends it and removes the directory."""

    def __init__(self, binary):
        self.tmp = tempfile.mkdtemp(prefix="parlor-train-")
        bind = "ipc://" + os.path.join(self.tmp, "serve.sock")
        self.proc = subprocess.Popen([binary, "serve", "--bind", bind,
                                      "--quiet"], stdout=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL)
        ready, _, _ = select.select([self.proc.stdout], [], [],
                                    SERVER_START_TIMEOUT)
        line = self.proc.stdout.readline().decode() if ready else ""
        if "listening on " not in line:
            self.stop()
            raise RuntimeError(f"{binary} serve did not start within "
                               f"{SERVER_START_TIMEOUT:.0f} s")
        self.endpoint = line.split("listening on ", 1)[1].strip()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def parse_phase(text):
    """(opponent, env steps) of an OPPONENT:STEPS phase argument."""
    opponent, sep, steps = text.rpartition(":")
    if not sep or not opponent or not steps.isdigit() or int(steps) <= 0:
        raise argparse.ArgumentTypeError(
            f"phase {text!r}: expected OPPONENT:STEPS, e.g. random:100000 "
            f"or self:100000")
    return opponent, int(steps)


def layout(desc):
    """What a policy's input and output depend on in a describe reply."""
    return (desc["obs_size"], desc["num_actions"], desc["team"],
            [(f["name"], f["size"]) for f in desc.get("obs_layout") or []])


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True, help="game spec")
    p.add_argument("--train-game", help="train on this variant of --game "
                   "(e.g. fewer deals of a multi-deal game, for a reward "
                   "each deal); it must have --game's observation and "
                   "action layout; the checkpoint plays --game")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--phase", action="append", type=parse_phase,
                   required=True, help="OPPONENT:ENV_STEPS (repeatable)")
    p.add_argument("--envs", type=int, default=64, help="envs in the batch")
    p.add_argument("--rollout", type=int, default=64,
                   help="vector steps per update")
    p.add_argument("--hidden", default="128,128", help="MLP widths")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--gamma", type=float, default=1.0,
                   help="discount per learner decision")
    p.add_argument("--lam", type=float, default=0.95, help="GAE lambda")
    p.add_argument("--reward-scale", type=float,
                   help="rewards are multiplied by this for learning "
                   "(default: 1 / the largest |return| the game allows)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--bin", default=os.path.join(REPO, "build", "parlor"),
                   help="the parlor binary (for the server)")
    p.add_argument("--endpoint", help="use this server instead of starting "
                   "one")
    p.add_argument("--seconds", type=float, default=0,
                   help="wall-clock budget of the training (0: none); "
                   "each phase gets its share, in proportion to its "
                   "steps, and ends early when that runs out")
    return p.parse_args(argv)


class Trainer:
    """The state of one training run: policy, optimiser, curve, clocks."""

    def __init__(self, args, endpoint):
        self.args, self.endpoint = args, endpoint
        self.client = parlor.Client(endpoint)
        self.desc = self.client.describe(args.game)
        self.spec = self.desc["spec"]
        self.train_game = args.train_game or args.game
        trained = self.client.describe(self.train_game)
        if layout(trained) != layout(self.desc):
            self.client.close()
            raise SystemExit(f"train.py: --train-game {self.train_game} "
                             f"has another observation or action layout "
                             f"than --game {self.spec}")
        bound = max(abs(trained["ret_low"]), abs(trained["ret_high"]))
        self.scale = args.reward_scale or (1.0 / bound if bound > 0
                                           else 1.0)
        hidden = [int(h) for h in args.hidden.split(",")]
        self.policy = pol.Policy(self.desc["obs_size"],
                                 self.desc["num_actions"], hidden)
        self.ppo = PPO(self.policy, lr=args.lr)
        self.pool = []
        self.steps = 0
        self.env_time = self.learn_time = 0.0
        self.decisions = 0
        self.start = time.perf_counter()
        os.makedirs(args.out, exist_ok=True)
        self.curve = open(os.path.join(args.out, "curve.tsv"), "w")
        self.curve.write("env_steps\tphase\topponent\tmean_return\t"
                         "episodes\twall_s\n")

    def run_phase(self, index, opponent, budget, deadline=None):
        multi = opponent == "self"
        env = parlor.VectorEnv(self.train_game, self.args.envs,
                               opponents=None if multi else opponent,
                               max_steps=SELF_MAX_STEPS if multi else 0,
                               client=self.client)
        try:
            col = Collector(env, self.policy, multi=multi,
                            team=self.desc["team"], reward_scale=self.scale,
                            seed=self.args.seed * 1000 + index,
                            gamma=self.args.gamma, lam=self.args.lam)
            if multi and not self.pool:
                self.pool.append(copy.deepcopy(self.policy))
            done, updates = 0, 0
            while done < budget and (deadline is None or
                                     time.perf_counter() < deadline):
                other, label = self.pick_opponent(multi, opponent)
                batch, finished = col.collect(self.args.rollout, other)
                t0 = time.perf_counter()
                self.ppo.update(batch)
                self.learn_time += time.perf_counter() - t0
                done += self.args.rollout * env.num_envs
                self.steps += self.args.rollout * env.num_envs
                updates += 1
                if multi and updates % SNAPSHOT_EVERY == 0:
                    self.pool = (self.pool + [copy.deepcopy(self.policy)])[
                        -POOL_MAX:]
                self.log(index, label, finished)
            self.env_time += col.env_time
            self.decisions += col.decisions
        finally:
            env.close()

    def pick_opponent(self, multi, opponent):
        if not multi:
            return None, opponent
        if random.random() < RANDOM_SHARE:
            return Uniform(), "random"
        return random.choice(self.pool), "self"

    def log(self, phase, label, finished):
        if not finished:
            return
        self.curve.write(f"{self.steps}\t{phase}\t{label}\t"
                         f"{np.mean(finished):.4f}\t{len(finished)}\t"
                         f"{time.perf_counter() - self.start:.1f}\n")
        self.curve.flush()

    def summary(self):
        wall = time.perf_counter() - self.start
        return {"env_steps": self.steps, "decisions": self.decisions,
                "wall_s": wall, "env_steps_per_s": self.steps / wall,
                "decisions_per_s": self.decisions / wall,
                "env_wait_share": self.env_time / wall,
                "update_share": self.learn_time / wall}


def main(argv=None):
    args = parse_args(argv)
    # SIGTERM unwinds like an exception, so the server is stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    server = None if args.endpoint else Server(args.bin)
    try:
        trainer = Trainer(args, args.endpoint or server.endpoint)
        total, upto = sum(steps for _, steps in args.phase), 0
        for i, (opponent, budget) in enumerate(args.phase):
            upto += budget
            deadline = (trainer.start + args.seconds * upto / total
                        if args.seconds > 0 else None)
            trainer.run_phase(i, opponent, budget, deadline)
        trainer.curve.close()
        stats = trainer.summary()
        pol.save(os.path.join(args.out, "policy.pt"), trainer.policy,
                 trainer.spec, trainer.desc, extra={"phases": args.phase,
                                                    "trained_on":
                                                    trainer.train_game,
                                                    "throughput": stats})
        trainer.client.close()
    finally:
        if server:
            server.stop()
    with open(os.path.join(args.out, "throughput.tsv"), "w") as f:
        f.write("\t".join(stats) + "\n")
        f.write("\t".join(f"{v:.4g}" for v in stats.values()) + "\n")
    print(f"train.py: {trainer.spec}: {stats['env_steps']} env steps "
          f"({stats['decisions']} learner decisions) in "
          f"{stats['wall_s']:.1f} s: {stats['env_steps_per_s']:.0f} env "
          f"steps/s, {stats['decisions_per_s']:.0f} decisions/s; waiting on "
          f"the env {100 * stats['env_wait_share']:.1f}% of the wall time, "
          f"updating {100 * stats['update_share']:.1f}%", flush=True)


if __name__ == "__main__":
    main()
