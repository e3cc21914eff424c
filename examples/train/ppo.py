"""ppo.py — proximal policy optimisation with invalid-action masking over a
parlor.VectorEnv: rollouts, advantages, updates.

A Collector steps one vector env for T steps per rollout, the learner's
policy choosing for the learner's seats and, in a multi-agent env
(self-play), an opponent policy for the others. Every env has a learner
team (env i: team i % teams, so the learner sits on every side equally);
its seats share one policy and the team's reward.

Rewards reach the learner's last decision in the env: in a single-agent
env every step is the learner's, in a multi-agent env the opponents'
moves in between add their reward changes to it. When an episode ends
(the vector env resets it in the same step) that decision is marked done.
Advantages are GAE(lambda) along each env's own sequence of learner
decisions; a rollout's unfinished tail bootstraps from the value of the
env's current row when the learner is to act there, and is left out of
the update otherwise (it has no row of its own to bootstrap from).
"""

import time

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from policy import MASKED


class Uniform(nn.Module):
    """The uniformly random legal policy, shaped like policy.Policy."""

    def forward(self, obs, mask):
        logits = torch.zeros(mask.shape).masked_fill(~mask, MASKED)
        return logits, torch.zeros(mask.shape[0])


def sample(policy, obs, mask):
    """(actions, log-probabilities, values) for rows obs under mask,
    sampled from policy without gradients."""
    with torch.no_grad():
        logits, value = policy(obs, mask)
        logp = torch.log_softmax(logits, dim=-1)
        act = torch.multinomial(logp.exp(), 1)
        return act.squeeze(1), logp.gather(1, act).squeeze(1), value


class Collector:
    """Collector(env, policy, multi, team, reward_scale, seed, gamma, lam):
    rollouts of policy on a parlor.VectorEnv (multi: made with
    opponents=None). team lists each seat's team (describe's "team");
    rewards are multiplied by reward_scale for learning (returns are
    reported unscaled); gamma discounts per learner decision, lam is
    GAE's lambda."""

    def __init__(self, env, policy, *, multi, team, reward_scale, seed,
                 gamma=1.0, lam=0.95):
        self.env, self.policy, self.multi = env, policy, multi
        self.gamma, self.lam = gamma, lam
        n = env.num_envs
        self.team = np.asarray(team)
        teams = int(self.team.max()) + 1
        self.learner_team = np.arange(n) % teams if multi else None
        # The reward column of each env's learner: its team's first seat.
        self.rew_col = (np.array([int(np.argmax(self.team == t))
                                  for t in self.learner_team])
                        if multi else None)
        self.scale = reward_scale
        self.ep_ret = np.zeros(n)
        self.env_time = 0.0       # seconds spent in env calls
        self.env_steps = 0        # env steps taken (n per vector step)
        self.decisions = 0        # learner decisions among them
        t0 = time.perf_counter()
        self.obs, self.info = env.reset(seed=seed)
        self.env_time += time.perf_counter() - t0

    def _learner_rows(self):
        if not self.multi:
            return np.ones(self.env.num_envs, dtype=bool)
        return self.team[self.info["seat"]] == self.learner_team

    def collect(self, steps, opponent=None):
        """Steps every env `steps` times; opponent (a policy, multi-agent
        only) plays the other seats. Returns (batch, returns): the learner
        decisions that go into the update as flat tensors (obs, mask, act,
        logp, adv, ret) and the learner's final returns of the episodes
        that ended."""
        n = self.env.num_envs
        shape = (steps, n)
        obs_b = torch.zeros(shape + self.obs.shape[1:])
        mask_b = torch.zeros(shape + self.info["action_mask"].shape[1:],
                             dtype=torch.bool)
        act_b = torch.zeros(shape, dtype=torch.long)
        logp_b, val_b = torch.zeros(shape), torch.zeros(shape)
        rew = np.zeros(shape)
        done = np.zeros(shape, dtype=bool)
        mine = np.zeros(shape, dtype=bool)
        last = np.full(n, -1)   # step of each env's last learner decision
        envs = np.arange(n)
        finished = []
        for t in range(steps):
            obs = torch.from_numpy(np.array(self.obs, dtype=np.float32))
            mask = torch.from_numpy(self.info["action_mask"].astype(bool))
            act, logp, val = sample(self.policy, obs, mask)
            mine[t] = self._learner_rows()
            if self.multi and not mine[t].all():
                other, _, _ = sample(opponent, obs, mask)
                act = torch.where(torch.from_numpy(mine[t]), act, other)
            obs_b[t], mask_b[t], act_b[t] = obs, mask, act
            logp_b[t], val_b[t] = logp, val
            last[mine[t]] = t
            t0 = time.perf_counter()
            self.obs, r, term, trunc, self.info = self.env.step(act.numpy())
            self.env_time += time.perf_counter() - t0
            if self.multi:
                r = r[envs, self.rew_col]
            self.ep_ret += r
            seen = last >= 0
            rew[last[seen], envs[seen]] += r[seen] * self.scale
            for i in np.flatnonzero(term | trunc):
                if last[i] >= 0:
                    done[last[i], i] = True
                finished.append(float(self.ep_ret[i]))
                self.ep_ret[i] = 0.0
                last[i] = -1
        self.env_steps += steps * n
        self.decisions += int(mine.sum())
        return self._advantages(obs_b, mask_b, act_b, logp_b, val_b, rew,
                                done, mine), finished

    def _bootstrap(self):
        """Values of the current rows, and where they may bootstrap."""
        ok = self._learner_rows()
        obs = torch.from_numpy(np.array(self.obs, dtype=np.float32))
        mask = torch.from_numpy(self.info["action_mask"].astype(bool))
        with torch.no_grad():
            _, value = self.policy(obs, mask)
        return np.where(ok, value.numpy(), 0.0), ok

    def _advantages(self, obs_b, mask_b, act_b, logp_b, val_b, rew, done,
                    mine):
        gamma, lam = self.gamma, self.lam
        val = val_b.numpy().astype(np.float64)
        next_v, usable = self._bootstrap()
        next_adv = np.zeros_like(next_v)
        adv = np.zeros_like(val)
        use = np.zeros_like(mine)
        for t in range(val.shape[0] - 1, -1, -1):
            m, d = mine[t], done[t]
            nv = np.where(d, 0.0, next_v)
            na = np.where(d, 0.0, next_adv)
            a = rew[t] + gamma * nv - val[t] + gamma * lam * na
            adv[t] = np.where(m, a, 0.0)
            use[t] = m & (d | usable)
            usable = usable | (m & d)
            next_v = np.where(m, val[t], next_v)
            next_adv = np.where(m, a, next_adv)
        keep = torch.from_numpy(use.reshape(-1))
        flat = lambda x: x.reshape((-1,) + x.shape[2:])[keep]
        adv_t = torch.from_numpy(adv).float()
        return {"obs": flat(obs_b), "mask": flat(mask_b), "act": flat(act_b),
                "logp": flat(logp_b), "adv": flat(adv_t),
                "ret": flat(adv_t + val_b)}


class PPO:
    """The clipped-surrogate update of a policy.Policy."""

    def __init__(self, policy, *, lr=3e-4, clip=0.2, epochs=3,
                 minibatch=1024, ent_coef=0.01, vf_coef=0.5, max_grad=0.5):
        self.policy = policy
        self.opt = torch.optim.Adam(policy.parameters(), lr=lr, eps=1e-5)
        self.clip, self.epochs, self.minibatch = clip, epochs, minibatch
        self.ent_coef, self.vf_coef, self.max_grad = ent_coef, vf_coef, \
            max_grad

    def update(self, b):
        """Trains on batch b (Collector.collect's); returns the mean
        entropy and approximate KL of the last epoch."""
        size = len(b["act"])
        if size == 0:
            return {"entropy": 0.0, "kl": 0.0}
        adv = (b["adv"] - b["adv"].mean()) / (b["adv"].std() + 1e-8)
        for _ in range(self.epochs):
            ents, kls = [], []
            for mb in torch.randperm(size).split(self.minibatch):
                logits, value = self.policy(b["obs"][mb], b["mask"][mb])
                dist = Categorical(logits=logits, validate_args=False)
                logp = dist.log_prob(b["act"][mb])
                ratio = torch.exp(logp - b["logp"][mb])
                surr = torch.min(ratio * adv[mb], ratio.clamp(
                    1 - self.clip, 1 + self.clip) * adv[mb])
                ent = dist.entropy().mean()
                loss = (-surr.mean() + self.vf_coef *
                        (b["ret"][mb] - value).pow(2).mean() / 2 -
                        self.ent_coef * ent)
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(),
                                         self.max_grad)
                self.opt.step()
                ents.append(float(ent))
                kls.append(float((b["logp"][mb] - logp).mean()))
        return {"entropy": float(np.mean(ents)), "kl": float(np.mean(kls))}
