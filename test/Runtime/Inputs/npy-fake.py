"""Inputs for, and the check of, fake-driver-npy.test (numpy)."""
import sys

import numpy as np

cmd, d = sys.argv[1], sys.argv[2]
if cmd == "make":
    np.save(d + "/A.npy", np.arange(32, dtype=np.float32).reshape(4, 8))
    np.save(d + "/B.npy", np.full((4, 8), 0.5, dtype=np.float32))
    np.save(d + "/Kc.npy", np.ones((8, 4), dtype=np.float32))
    np.save(d + "/A-f16.npy", np.zeros((4, 8), dtype=np.float16))
else:
    c, kc = np.load(d + "/out/C.npy"), np.load(d + "/out/Kc.npy")
    want = np.arange(32, dtype=np.float32).reshape(4, 8) + 0.5
    k = np.ones((8, 4), dtype=np.float32)
    k[1] *= 2
    print("C = A + B: %s" % bool((c == want).all()))
    print("Kc row 1 doubled: %s" % bool((kc == k).all()))
