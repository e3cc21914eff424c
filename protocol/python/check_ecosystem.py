"""Runs Gymnasium's and PettingZoo's own checkers against a live parlor
server, for every game it serves and every test spec the games declare.

    check_ecosystem.py ENDPOINT GAMES_JSON [SPEC ...]

GAMES_JSON is the output of `parlor games --json` (names and test_specs);
SPECs, when given, replace that list. gymnasium and pettingzoo must be
importable (check-ecosystem.sh puts their source trees on PYTHONPATH).
Prints one line per check and spec, "PASS name spec" or "FAIL name spec:
reason" (what the checkers print themselves is swallowed), then how often
each warning they emitted came up, and last "N passed, N failed". Exits 1
when a check failed.
"""

import contextlib
import io
import json
import os
import sys
import time
import traceback
import warnings

import numpy as np

import gymnasium
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import (FlattenObservation, PassiveEnvChecker,
                                RecordEpisodeStatistics, TimeLimit)
from pettingzoo.test import (api_test, parallel_api_test,
                             parallel_seed_test, seed_test)
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

import parlor
from parlor.registration import env_id

TIMEOUT = 60.0       # seconds any one call may wait for the server
VECTOR_STEPS = 40    # steps of each vector env check
API_CYCLES = 2000    # PettingZoo's num_cycles: enough for a whole game


def name_of(spec):
    return spec.split("(", 1)[0]


def masked(space, info, rng):
    """A legal action drawn from info's mask."""
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


# ---- Gymnasium -------------------------------------------------------------

def gym_make(spec, **kw):
    return gymnasium.make(env_id(name_of(spec)), game=spec, **kw)


def check_gym_env(spec):
    """check_env, with its render and close checks (through a spec)."""
    env = gym_make(spec, disable_env_checker=True)
    try:
        check_env(env.unwrapped)
    finally:
        env.close()


def play_gym(env, seed, rng, unmasked_every=0):
    """One episode with masked random actions (every unmasked_every-th
    step a raw sample); returns (sum of rewards, last info)."""
    _, info = env.reset(seed=seed)
    total, done, k = 0.0, False, 0
    while not done:
        k += 1
        if unmasked_every and k % unmasked_every == 0:
            action = env.action_space.sample()
        else:
            action = masked(env.action_space, info, rng)
        _, reward, term, trunc, info = env.step(action)
        total += reward
        done = term or trunc
    return total, info


def check_passive(spec):
    """PassiveEnvChecker around the raw env, whole episodes, masked and
    with raw samples; the rewards must sum to the final return."""
    env = PassiveEnvChecker(parlor.Env(spec, timeout=TIMEOUT))
    rng = np.random.default_rng(1)
    try:
        for seed, every in ((1, 0), (2, 5)):
            total, info = play_gym(env, seed, rng, every)
            final = info["returns"][env.unwrapped.seat]
            assert abs(total - final) < 1e-9, \
                f"rewards sum to {total}, final return {final}"
    finally:
        env.close()


def check_make(spec):
    """gymnasium.make of the registered id, checker on, one episode."""
    env = gym_make(spec)
    try:
        assert env.spec.id == env_id(name_of(spec))
        play_gym(env, 3, np.random.default_rng(3))
    finally:
        env.close()


def drive_vector(venv, rng):
    """Resets venv (checking the stacked seeds) and steps it with masked
    actions, every seventh step a raw sample (illegal ones forfeit)."""
    _, info = venv.reset(seed=5)
    assert info["seed"].dtype == np.uint64, info["seed"].dtype
    for k in range(VECTOR_STEPS):
        if k % 7 == 6:
            actions = venv.action_space.sample()
        else:
            actions = np.array([int(rng.choice(np.flatnonzero(m)))
                                if m.any() else 0
                                for m in info["action_mask"]])
        _, _, _, _, info = venv.step(actions)


def vector_check(vector_class, n):
    """A check of gymnasium's vector_class over n parlor.Envs."""
    def check(spec):
        venv = vector_class([lambda: parlor.Env(spec, timeout=TIMEOUT)] * n)
        try:
            drive_vector(venv, np.random.default_rng(n))
        finally:
            venv.close()
    return check


def check_wrappers(spec):
    """RecordEpisodeStatistics (its episode return is the final return),
    FlattenObservation and TimeLimit."""
    env = RecordEpisodeStatistics(FlattenObservation(TimeLimit(
        parlor.Env(spec, timeout=TIMEOUT), max_episode_steps=10_000)))
    try:
        _, info = play_gym(env, 8, np.random.default_rng(8))
        seat = env.unwrapped.seat
        assert abs(info["episode"]["r"] - info["returns"][seat]) < 1e-6, \
            f"episode return {info['episode']['r']} != final return " \
            f"{info['returns'][seat]}"
    finally:
        env.close()


# ---- PettingZoo ------------------------------------------------------------

def zoo_check(test, env_class):
    """A check running PettingZoo's test on an env_class env: a seed test
    is given a function that makes one, an api test the env itself."""
    def check(spec):
        def make():
            return env_class(spec, timeout=TIMEOUT)
        if test in (seed_test, parallel_seed_test):
            test(make, num_cycles=API_CYCLES)
            return
        env = make()
        try:
            test(env, num_cycles=API_CYCLES)
        finally:
            env.close()
    return check


def play_parallel(par, seed):
    """Plays par from seed with masked random actions (one rng draw per
    live agent, idle ones too); returns the trajectory."""
    rng = np.random.default_rng(seed)
    obs, _ = par.reset(seed=seed)
    trace = []
    while par.agents:
        actions = {a: (int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                       if obs[a]["action_mask"].any() else 0)
                   for a in par.agents}
        obs, rewards, terms, truncs, _ = par.step(actions)
        trace.append((sorted(actions.items()),
                      {a: o["observation"].tobytes() for a, o in obs.items()},
                      dict(rewards), terms, truncs))
    return trace


def check_round_trips(spec):
    """parallel_to_aec / aec_to_parallel: each way back gives the original
    object, and each conversion plays the same games as the env it
    stands for."""
    par = parlor.ParallelEnv(spec, timeout=TIMEOUT)
    aec = parlor.AECEnv(spec, timeout=TIMEOUT, cycle="rounds")
    try:
        assert aec_to_parallel(parallel_to_aec(par)) is par
        assert parallel_to_aec(aec_to_parallel(aec)) is aec
        wrapped = aec_to_parallel(aec)
        for seed in (11, 12):
            assert play_parallel(wrapped, seed) == play_parallel(par, seed), \
                f"aec_to_parallel(AECEnv) and ParallelEnv differ (seed {seed})"
        parallel_api_test(wrapped, num_cycles=API_CYCLES)
        api_test(parallel_to_aec(par), num_cycles=API_CYCLES)
    finally:
        par.close()
        aec.close()


CHECKS = [
    ("gymnasium.check_env", check_gym_env),
    ("gymnasium.PassiveEnvChecker", check_passive),
    ("gymnasium.make", check_make),
    ("gymnasium.SyncVectorEnv",
     vector_check(gymnasium.vector.SyncVectorEnv, 3)),
    ("gymnasium.AsyncVectorEnv",
     vector_check(gymnasium.vector.AsyncVectorEnv, 2)),
    ("gymnasium.wrappers", check_wrappers),
    ("pettingzoo.api_test", zoo_check(api_test, parlor.AECEnv)),
    ("pettingzoo.seed_test", zoo_check(seed_test, parlor.AECEnv)),
    ("pettingzoo.parallel_api_test",
     zoo_check(parallel_api_test, parlor.ParallelEnv)),
    ("pettingzoo.parallel_seed_test",
     zoo_check(parallel_seed_test, parlor.ParallelEnv)),
    ("pettingzoo.round_trips", check_round_trips),
]


# ---- driver ----------------------------------------------------------------

def specs_of(games):
    for game in games:
        yield game["name"]
        yield from game.get("test_specs", [])


def run(name, check, spec, tally):
    """Runs one check; prints its line; counts the distinct warnings it
    raised in tally; returns whether it passed."""
    start = time.monotonic()
    with warnings.catch_warnings(record=True) as seen, \
            contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        try:
            check(spec)
            verdict = f"PASS {name} {spec}"
        except Exception as e:  # a check's failure, whatever its kind
            where = traceback.extract_tb(e.__traceback__)[-1]
            verdict = (f"FAIL {name} {spec}: {type(e).__name__}: {e} "
                       f"({where.filename.rsplit('/', 1)[-1]}:{where.lineno})")
    if os.environ.get("PARLOR_CHECK_TIMES"):
        verdict += f" [{time.monotonic() - start:.1f} s]"
    print(verdict, flush=True)
    for w in {str(w.message) for w in seen}:
        tally[w] = tally.get(w, 0) + 1
    return verdict.startswith("PASS")


def main(argv):
    endpoint, games_json, only = argv[1], argv[2], argv[3:]
    with open(games_json) as f:
        games = json.load(f)
    parlor.register_envs(endpoint, timeout=TIMEOUT)
    os.environ["PARLOR_ENDPOINT"] = endpoint  # for the envs made here
    specs = only or list(specs_of(games))
    passed = failed = 0
    tally = {}
    for spec in specs:
        for name, check in CHECKS:
            if run(name, check, spec, tally):
                passed += 1
            else:
                failed += 1
    for warning, checks in sorted(tally.items()):
        print(f"warning in {checks} checks: {warning}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
