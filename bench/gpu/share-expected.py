#!/usr/bin/env python3
"""Deduplicates the expected-output files of artifact directories.

Variants of one workload (other tile sizes, lowering options or programs)
have identical expected outputs: same reference, same seed. This keeps one
copy of each distinct file under ROOT/_expected/<sha256>.bin and points every
manifest's `output NAME dense|sparse FILE` line at it (`../_expected/...`),
so that many variants fit in one transfer to the GPU machine.

Usage: bench/gpu/share-expected.py ROOT
"""
import hashlib
import os
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    shared = os.path.join(root, "_expected")
    os.makedirs(shared, exist_ok=True)
    saved = 0
    for name in sorted(os.listdir(root)):
        art = os.path.join(root, name)
        manifest = os.path.join(art, "manifest.txt")
        if name == "_expected" or not os.path.isfile(manifest):
            continue
        lines = open(manifest).read().split("\n")
        for i, line in enumerate(lines):
            t = line.split()
            if len(t) != 4 or t[0] != "output" or t[2] not in ("dense", "sparse"):
                continue
            path = os.path.normpath(os.path.join(art, t[3]))
            if os.path.dirname(path) == os.path.normpath(shared):
                continue
            data = open(path, "rb").read()
            digest = hashlib.sha256(data).hexdigest()[:24]
            target = os.path.join(shared, digest + ".bin")
            if os.path.exists(target):
                saved += len(data)
            else:
                with open(target, "wb") as f:
                    f.write(data)
            os.remove(path)
            t[3] = "../_expected/" + digest + ".bin"
            lines[i] = " ".join(t)
        with open(manifest, "w") as f:
            f.write("\n".join(lines))
    print("share-expected: %.1f MB saved" % (saved / 1e6))


if __name__ == "__main__":
    main()
