// Shared by gemvmma.cu and gemvstrips.cu: CUDA error checks and the median
// time of one launch sequence, captured in a CUDA graph and replayed.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e));      \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// Microseconds per call of `body(r)`: 10 calls (r = 0 .. 9, so that a body
// can alternate inputs) captured on `st` as one graph, 3 warm-up replays,
// then the median of `samples` replays timed with events.
template <class Body>
float graphMedianUs(cudaStream_t st, int samples, Body body) {
  const int reps = 10;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
  for (int r = 0; r < reps; ++r)
    body(r);
  CK(cudaStreamEndCapture(st, &graph));
  CK(cudaGraphInstantiate(&exec, graph, 0));
  for (int w = 0; w < 3; ++w)
    CK(cudaGraphLaunch(exec, st));
  std::vector<float> ts;
  for (int s = 0; s < samples; ++s) {
    CK(cudaEventRecord(e0, st));
    CK(cudaGraphLaunch(exec, st));
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    ts.push_back(ms * 1000 / reps);
  }
  CK(cudaGetLastError());
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(graph));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}
