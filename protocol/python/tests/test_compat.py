"""Gymnasium and PettingZoo integration. Where the real libraries are
installed, the env classes must be their subclasses with their spaces;
without them, the same is checked against fake_libs' stand-ins (just the
names parlor imports) in a child interpreter, so the import wiring is
exercised on every machine. A short game is played either way."""

import os
import subprocess
import sys
import unittest

from helpers import CALL_TIMEOUT, HERE, ServerCase
from parlor import HAVE_GYMNASIUM, HAVE_PETTINGZOO

CHECK = r"""
import sys
import numpy as np
import gymnasium, pettingzoo
import parlor

endpoint, timeout = sys.argv[1], float(sys.argv[2])
assert parlor.HAVE_GYMNASIUM and parlor.HAVE_PETTINGZOO
env = parlor.Env("thirty_one", endpoint=endpoint, timeout=timeout)
assert isinstance(env, gymnasium.Env)
assert isinstance(env.action_space, gymnasium.spaces.Discrete)
assert isinstance(env.observation_space, gymnasium.spaces.Box)
obs, info = env.reset(seed=3)
assert env.np_random is not None  # gymnasium.Env.reset ran
done = False
while not done:
    a = env.action_space.sample(mask=info["action_mask"])
    obs, r, term, trunc, info = env.step(a)
    done = term or trunc
env.close()
aec = parlor.AECEnv("thirty_one", endpoint=endpoint, timeout=timeout)
assert isinstance(aec, pettingzoo.AECEnv)
assert isinstance(aec.observation_space("player_0"), gymnasium.spaces.Dict)
aec.reset(seed=4)
for agent in aec.agent_iter():
    obs, r, term, trunc, info = aec.last()
    aec.step(None if term or trunc else
             aec.action_space(agent).sample(mask=obs["action_mask"]))
aec.close()
par = parlor.ParallelEnv("trix_football", endpoint=endpoint, timeout=timeout)
assert isinstance(par, pettingzoo.ParallelEnv)
obs, infos = par.reset(seed=6)
while par.agents:
    obs, *_ = par.step({a: par.action_space(a).sample(
        mask=obs[a]["action_mask"]) for a in par.agents})
par.close()
ids = parlor.register_envs(endpoint, timeout=timeout)
assert "parlor/spoil_five-v0" in ids and len(ids) >= 18, ids
made = gymnasium.make("parlor/thirty_one-v0", game="thirty_one(players=2)")
assert isinstance(made, parlor.Env) and made.players == 2
made.close()
venv = parlor.VectorEnv("spoil_five", 4, endpoint=endpoint, timeout=timeout)
assert isinstance(venv, gymnasium.vector.VectorEnv)
assert isinstance(venv.action_space, gymnasium.spaces.MultiDiscrete)
assert venv.metadata["autoreset_mode"] == \
    gymnasium.vector.AutoresetMode.SAME_STEP
obs, info = venv.reset(seed=5)
venv.step([venv.single_action_space.sample(mask=m)
           for m in info["action_mask"]])
venv.close()
print("ok")
"""


class Integration(ServerCase):
    def run_check(self, extra_path):
        path = [extra_path] if extra_path else []
        path.append(os.path.dirname(HERE))  # the parlor package
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
        out = subprocess.run(
            [sys.executable, "-c", CHECK, self.endpoint, str(CALL_TIMEOUT)],
            env=env, capture_output=True, text=True,
            timeout=10 * CALL_TIMEOUT)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), "ok")

    @unittest.skipUnless(HAVE_GYMNASIUM and HAVE_PETTINGZOO,
                         "gymnasium or pettingzoo not installed")
    def test_real_libraries(self):
        self.run_check(None)

    @unittest.skipIf(HAVE_GYMNASIUM or HAVE_PETTINGZOO,
                     "the real libraries are installed")
    def test_stand_in_libraries(self):
        self.run_check(os.path.join(HERE, "fake_libs"))


if __name__ == "__main__":
    unittest.main()
