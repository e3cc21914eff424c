"""pytest set-up: the parlor package of this checkout comes first on the
path (so `pytest protocol/python/tests` needs no install), and the run ends
with the plain line "N passed, N failed, N skipped" that run.py prints
too, after pytest's own summary, so that either runner closes the same way
(errors in setup or teardown count as failed)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

COUNTS = pytest.StashKey()  # the line to print, kept on the config


def pytest_terminal_summary(terminalreporter, config):
    stats = terminalreporter.stats
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    config.stash[COUNTS] = (f"{len(stats.get('passed', []))} passed, "
                            f"{failed} failed, "
                            f"{len(stats.get('skipped', []))} skipped")


def pytest_unconfigure(config):
    if COUNTS in config.stash:
        print(config.stash[COUNTS], flush=True)
