"""Makes and checks the .npy files of npy-io.test (numpy)."""
import sys

import numpy as np

cmd, args = sys.argv[1], sys.argv[2:]
if cmd == "make":  # make DIR: inputs of sum.mlir and quickstart.mlir
    d = args[0]
    rng = np.random.default_rng(7)
    np.save(d + "/x.npy", rng.standard_normal((4, 8)).astype(np.float32))
    np.save(d + "/x-f64.npy", rng.standard_normal((4, 8)))
    np.save(d + "/x-shape.npy", rng.standard_normal((8, 4)).astype(np.float32))
    np.save(d + "/x-fortran.npy",
            np.asfortranarray(rng.standard_normal((4, 8)).astype(np.float32)))
    np.save(d + "/X.npy", rng.standard_normal((32, 512)).astype(np.float16))
    np.save(d + "/g.npy", (1 + 0.1 * rng.standard_normal(512)).astype(np.float16))
    np.save(d + "/W.npy", (0.02 * rng.standard_normal((512, 256))).astype(np.float16))
elif cmd == "sum":  # sum X.npy S.npy: S holds X's row sums
    x, s = np.load(args[0]), np.load(args[1])
    err = np.abs(s.astype(np.float64) - x.astype(np.float64).sum(axis=1)).max()
    print("sum: %s %s max_err=%.1e %s" % (s.dtype, s.shape, err,
                                          "ok" if err < 1e-5 else "WRONG"))
elif cmd == "rms":  # rms D Y.npy: Y = rms(X, g) @ W of D's inputs
    d, y = args[0], np.load(args[1])
    x = np.load(d + "/X.npy").astype(np.float32)
    g = np.load(d + "/g.npy").astype(np.float32)
    w = np.load(d + "/W.npy").astype(np.float32)
    xn = (x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * g)
    ref = xn.astype(np.float16).astype(np.float32) @ w
    err = np.abs(y.astype(np.float32) - ref).max() / np.abs(ref).max()
    print("rms: %s %s rel_err<1e-2 %s" % (y.dtype, y.shape,
                                          "ok" if err < 1e-2 else "WRONG"))
