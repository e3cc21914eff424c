"""Runs every test_*.py here with unittest, for machines without pytest,
and ends with the line "N passed, N failed, N skipped" (a test counts once
however many of its subtests fail). Exits 1 on any failure or when no test
ran."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]  # this checkout's parlor first


def main():
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py",
                                                top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    bad = {getattr(test, "test_case", test).id()
           for test, _ in result.failures + result.errors}
    bad.update(t.id() for t in result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = max(0, result.testsRun - len(bad) - skipped)
    print(f"{passed} passed, {len(bad)} failed, {skipped} skipped")
    return 1 if bad or result.testsRun == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
