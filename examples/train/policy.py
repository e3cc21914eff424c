"""policy.py — the masked-action policy that train.py learns and
policy_bot.py plays, and its checkpoints.

One network over a seat's observation row (PROTOCOL.md §6.1): a shared
MLP trunk, a policy head with one logit per action id and a value head.
Illegal actions are masked by setting their logits to MASKED (a large
negative float) before the softmax, so they get probability exactly 0 in
float32 and never enter the gradient through the log-probabilities of the
actions played (invalid-action masking, Huang and Ontañón 2020).

A checkpoint is a torch.save'd dict: the state dict, the network's sizes,
the canonical game spec it was trained on and the game's observation
layout and teams (from `describe`), so that a bot can refuse a checkpoint
for another game. Needs PyTorch (Debian: python3-torch).
"""

import torch
from torch import nn

MASKED = -1.0e9  # logit of an illegal action: exp underflows to 0
CHECKPOINT_FORMAT = 1


class Policy(nn.Module):
    """Policy(obs_size, num_actions, hidden=(128, 128)): logits and value
    of observation rows."""

    def __init__(self, obs_size, num_actions, hidden=(128, 128)):
        super().__init__()
        self.obs_size = int(obs_size)
        self.num_actions = int(num_actions)
        self.hidden = tuple(int(h) for h in hidden)
        layers, width = [], self.obs_size
        for h in self.hidden:
            layers += [nn.Linear(width, h), nn.Tanh()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.pi = nn.Linear(width, self.num_actions)
        self.v = nn.Linear(width, 1)
        # Small initial policy logits: the first policy is near uniform
        # over the legal actions.
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs, mask):
        """(masked logits, value) for obs (B, obs_size) float and mask
        (B, num_actions) bool, True where legal."""
        z = self.trunk(obs)
        logits = self.pi(z).masked_fill(~mask, MASKED)
        return logits, self.v(z).squeeze(-1)


def masked_probs(logits):
    """The action probabilities of masked logits (0 where masked)."""
    return torch.softmax(logits, dim=-1)


def greedy(policy, obs_row, legal):
    """The most probable legal action id for one observation row (a
    sequence of floats) and the legal ids (a sequence of ints)."""
    obs = torch.as_tensor(obs_row, dtype=torch.float32).reshape(1, -1)
    mask = torch.zeros(1, policy.num_actions, dtype=torch.bool)
    mask[0, torch.as_tensor(list(legal), dtype=torch.long)] = True
    with torch.no_grad():
        logits, _ = policy(obs, mask)
    return int(logits.argmax(dim=-1))


def save(path, policy, spec, desc, extra=None):
    """Writes a checkpoint of policy, trained on the canonical game spec,
    with desc (the `describe` reply) supplying its layout and teams."""
    torch.save({
        "format": CHECKPOINT_FORMAT,
        "state_dict": policy.state_dict(),
        "obs_size": policy.obs_size,
        "num_actions": policy.num_actions,
        "hidden": list(policy.hidden),
        "game": spec,
        "obs_layout": desc.get("obs_layout"),
        "team": desc.get("team"),
        "extra": extra or {},
    }, path)


def load(path):
    """(policy in eval mode, checkpoint dict) from a checkpoint file;
    ValueError when the file is not one of ours."""
    ckpt = torch.load(path, map_location="cpu")
    if not isinstance(ckpt, dict) or ckpt.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path}: not a parlor policy checkpoint "
                         f"(format {CHECKPOINT_FORMAT})")
    policy = Policy(ckpt["obs_size"], ckpt["num_actions"], ckpt["hidden"])
    policy.load_state_dict(ckpt["state_dict"])
    policy.eval()
    return policy, ckpt
