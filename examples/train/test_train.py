"""test_train.py — tests of the training example (examples/train).

    /usr/bin/python3 examples/train/test_train.py    (make test runs it)

Without PyTorch (python3-torch; CI does not install it) every test is
skipped with a message and the run succeeds. With it:
  - masking: illegal actions get probability exactly 0, are never
    sampled or chosen greedily even when their raw logit is the largest,
    and receive no gradient;
  - credit: a scripted two-seat self-play env checks, by hand-worked
    numbers, which decision each reward reaches, where episodes end, and
    which unfinished decisions the update leaves out;
  - smoke (needs the parlor binary, $PARLOR_BIN or build/parlor): a tiny
    train.py run against its own server writes a curve and a checkpoint,
    and the checkpoint plays a tournament through policy_bot.py both as a
    cmd: bot and as a bot:NAME bot without forfeiting;
  - train game: --train-game trains on a variant (Spoil-Five, one deal an
    episode) while the checkpoint plays --game (ten deals), and a variant
    with another layout is refused.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

try:
    import torch
except ImportError:
    torch = None

NO_TORCH = "PyTorch is not installed (Debian: python3-torch)"
BOT_TIMEOUT = 120  # seconds a smoke tournament may take at most


def parlor_bin():
    return os.environ.get("PARLOR_BIN") or os.path.join(REPO, "build",
                                                        "parlor")


@unittest.skipIf(torch is None, NO_TORCH)
class Masking(unittest.TestCase):
    def setUp(self):
        import policy as pol
        self.pol = pol
        torch.manual_seed(3)
        self.net = pol.Policy(6, 5, (8,))
        with torch.no_grad():
            self.net.pi.bias[3] = 50.0   # the best raw logit, but illegal
        self.mask = torch.tensor([[True, False, True, False, True]] * 4)
        self.obs = torch.rand(4, 6)

    def test_illegal_probability_is_zero(self):
        logits, _ = self.net(self.obs, self.mask)
        probs = self.pol.masked_probs(logits)
        self.assertTrue(torch.all(probs[~self.mask] == 0.0))
        self.assertTrue(torch.allclose(probs.sum(-1), torch.ones(4)))

    def test_sampled_and_greedy_actions_are_legal(self):
        from ppo import sample
        for _ in range(50):
            act, logp, _ = sample(self.net, self.obs, self.mask)
            self.assertTrue(bool(self.mask.gather(1, act[:, None]).all()))
            self.assertTrue(bool(torch.isfinite(logp).all()))
        self.assertIn(self.pol.greedy(self.net, self.obs[0], [0, 2, 4]),
                      (0, 2, 4))

    def test_no_gradient_through_illegal_logits(self):
        from torch.distributions import Categorical
        raw = []
        self.net.pi.register_forward_hook(lambda m, i, o: raw.append(o) or
                                          o.retain_grad())
        logits, _ = self.net(self.obs, self.mask)
        dist = Categorical(logits=logits, validate_args=False)
        (dist.log_prob(torch.tensor([0, 2, 4, 0])).sum() +
         dist.entropy().sum()).backward()
        grad = raw[0].grad
        self.assertTrue(torch.all(grad[~self.mask] == 0.0))
        self.assertTrue(torch.any(grad[self.mask] != 0.0))


class ScriptedEnv:
    """One env of a two-seat turn-based game, multi-agent: SCRIPT lists,
    per step, the seat to act, the rewards (seat 0, seat 1) the step
    gives and whether it ends the episode (the next row is then the next
    episode's first)."""

    num_envs = 1
    SCRIPT = [(0, (0, 0), False), (1, (1, -1), False), (0, (0, 0), False),
              (1, (2, -2), True), (1, (0, 0), False), (0, (-1, 1), False),
              (1, (0, 0), False)]

    def __init__(self, then_seat):
        self.t = 0
        self.then_seat = then_seat  # the seat to act after the script

    def _now(self):
        seat = (self.SCRIPT[self.t][0] if self.t < len(self.SCRIPT)
                else self.then_seat)
        mask = np.array([[1, 1, 0]], dtype=np.int8)
        return (np.full((1, 4), float(self.t), np.float32),
                {"action_mask": mask, "seat": np.array([seat], np.int32)})

    def reset(self, seed=None):
        return self._now()

    def step(self, actions):
        assert actions[0] in (0, 1), "an illegal action was played"
        _, reward, end = self.SCRIPT[self.t]
        self.t += 1
        obs, info = self._now()
        return (obs, np.array([reward], np.float64), np.array([end]),
                np.array([False]), info)


@unittest.skipIf(torch is None, NO_TORCH)
class Credit(unittest.TestCase):
    """Value head zeroed: V = 0 everywhere, so with gamma = 1 and lambda =
    0.95 an advantage is the reward plus 0.95 times the next decision's
    advantage in the same episode. The learner (seat 0) decides at steps
    0, 2 and 5. Step 0 gets step 1's reward 1, step 2 gets 2 and ends the
    episode (return 3): adv(2) = 2, adv(0) = 1 + 0.95 * 2 = 2.9. Step 5
    gets -1 and its episode is unfinished: it bootstraps from V = 0 when
    the learner is to act next (adv -1), and is left out otherwise."""

    def collect(self, then_seat):
        import policy as pol
        from ppo import Collector, Uniform
        net = pol.Policy(4, 3, (8,))
        with torch.no_grad():
            net.v.weight.zero_()
            net.v.bias.zero_()
        col = Collector(ScriptedEnv(then_seat), net, multi=True,
                        team=[0, 1], reward_scale=1.0, seed=1)
        return col.collect(7, Uniform()) + (col,)

    def test_learner_to_act_bootstraps(self):
        batch, finished, col = self.collect(then_seat=0)
        self.assertEqual(finished, [3.0])
        self.assertEqual(batch["obs"][:, 0].tolist(), [0.0, 2.0, 5.0])
        self.assertTrue(torch.allclose(
            batch["adv"], torch.tensor([2.9, 2.0, -1.0])))
        self.assertTrue(torch.allclose(batch["ret"], batch["adv"]))
        self.assertEqual((col.env_steps, col.decisions), (7, 3))

    def test_opponent_to_act_drops_the_tail(self):
        batch, _, _ = self.collect(then_seat=1)
        self.assertEqual(batch["obs"][:, 0].tolist(), [0.0, 2.0])
        self.assertTrue(torch.allclose(batch["adv"],
                                       torch.tensor([2.9, 2.0])))


@unittest.skipIf(torch is None, NO_TORCH)
@unittest.skipUnless(os.access(parlor_bin(), os.X_OK),
                     "no parlor binary (run make first)")
class Smoke(unittest.TestCase):
    GAME = "thirty_one(players=2)"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="parlor-train-test-")
        cls.out = os.path.join(cls.tmp.name, "run")
        import train
        train.main(["--game", cls.GAME, "--out", cls.out, "--bin",
                    parlor_bin(), "--envs", "8", "--rollout", "16",
                    "--phase", "random:256", "--phase", "self:256",
                    "--threads", "1"])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_curve_and_throughput(self):
        with open(os.path.join(self.out, "curve.tsv")) as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
        self.assertEqual(rows[0], ["env_steps", "phase", "opponent",
                                   "mean_return", "episodes", "wall_s"])
        self.assertEqual(max(int(r[0]) for r in rows[1:]), 512)
        with open(os.path.join(self.out, "throughput.tsv")) as f:
            keys, values = (line.split() for line in f)
        stats = dict(zip(keys, map(float, values)))
        self.assertEqual(stats["env_steps"], 512)
        self.assertTrue(0 < stats["env_wait_share"] < 1)

    def test_checkpoint_round_trip(self):
        import policy as pol
        net, ckpt = pol.load(os.path.join(self.out, "policy.pt"))
        self.assertEqual(ckpt["game"], self.GAME)
        self.assertEqual((net.obs_size, net.num_actions), (380, 55))
        self.assertEqual(ckpt["obs_layout"][0]["name"], "hand")
        self.assertIn(pol.greedy(net, [0.0] * 380, [0, 2]), (0, 2))

    def test_tournament_as_cmd_and_bot(self):
        bot = [sys.executable, os.path.join(HERE, "policy_bot.py"),
               os.path.join(self.out, "policy.pt")]
        arena = "ipc://" + os.path.join(self.tmp.name, "arena")
        tour = os.path.join(self.tmp.name, "tour")
        with subprocess.Popen(bot + [arena, "pb"]) as connected:
            done = subprocess.run(
                [parlor_bin(), "tournament", "--game", self.GAME,
                 "--agents", f"random,c=cmd:{' '.join(bot)},b=bot:pb",
                 "--deals", "1", "--jobs", "2", "--move-time", "60",
                 "--bot-wait", "60", "--arena", arena, "--out", tour,
                 "--quiet"], timeout=BOT_TIMEOUT, capture_output=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            connected.wait(BOT_TIMEOUT)  # bye ends it
        with open(os.path.join(tour, "journal.jsonl")) as f:
            games = [json.loads(line) for line in f][1:]
        self.assertEqual(len(games), 6)  # 3 line-ups, 2 seatings
        self.assertEqual([g["end"] for g in games], ["normal"] * 6)


@unittest.skipIf(torch is None, NO_TORCH)
@unittest.skipUnless(os.access(parlor_bin(), os.X_OK),
                     "no parlor binary (run make first)")
class TrainGame(unittest.TestCase):
    GAME = "spoil_five(players=2)"
    ONE_DEAL = "spoil_five(players=2,deals=1)"

    def train(self, train_game, out):
        import train
        train.main(["--game", self.GAME, "--train-game", train_game,
                    "--out", out, "--bin", parlor_bin(), "--envs", "8",
                    "--rollout", "32", "--phase", "random:256",
                    "--threads", "1"])

    def test_one_deal_episodes_and_checkpoint_for_the_game(self):
        with tempfile.TemporaryDirectory(prefix="parlor-train-") as tmp:
            self.train(self.ONE_DEAL, tmp)
            with open(os.path.join(tmp, "curve.tsv")) as f:
                rows = [line.split("\t") for line in f][1:]
            # A ten-deal game takes at least 60 steps (six cards a deal),
            # more than the 32 each env makes here: episodes that ended
            # are single deals, worth at most the 3 chips of one pool.
            self.assertGreater(sum(int(r[4]) for r in rows), 0)
            self.assertTrue(all(abs(float(r[3])) <= 3 for r in rows))
            import policy as pol
            _, ckpt = pol.load(os.path.join(tmp, "policy.pt"))
        self.assertEqual(ckpt["game"], self.GAME)
        self.assertEqual(ckpt["extra"]["trained_on"], self.ONE_DEAL)

    def test_other_layout_is_refused(self):
        with tempfile.TemporaryDirectory(prefix="parlor-train-") as tmp:
            with self.assertRaises(SystemExit) as caught:
                self.train("thirty_one(players=2)", tmp)
        self.assertIn("another observation or action layout",
                      str(caught.exception))


if __name__ == "__main__":
    if torch is None:
        print(f"examples/train: tests skipped: {NO_TORCH}")
    unittest.main(verbosity=1)
