#!/usr/bin/env python3
"""Prints `N passed, N failed, N skipped` from lit's xunit output.

Usage: summarize-tests.py RESULTS.xml LIT_EXIT_STATUS
Exits non-zero when a test failed, when lit failed without reporting a failed
test, or when no test ran at all.
"""
import sys
import xml.etree.ElementTree as ET


def main() -> int:
    path, lit_status = sys.argv[1], int(sys.argv[2])
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except (OSError, ET.ParseError) as err:
        print(f"test.sh: no test results ({err})")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    passed = failed = skipped = 0
    for case in cases:
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    if lit_status != 0 and failed == 0:
        print(f"test.sh: lit exited with status {lit_status}")
        failed = 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
