// Read-bandwidth microbenchmark of GEMV-like weight streaming (16 x K x N, fp16 weights).
#include <cstdio>
#include <cuda_fp16.h>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

// ROWS: weight rows one warp load instruction covers (32/ROWS lanes per row, 16 B each).
template <int ROWS, int UNROLL, bool CHUNK_FAST>
__global__ void readW(const uint4 *__restrict__ W, int N8, int K, int kChunk, int warpsPerBlock, float *out) {
  int lane = threadIdx.x & 31;
  int warp = blockIdx.x * warpsPerBlock + threadIdx.x / 32;
  constexpr int LPR = 32 / ROWS;            // lanes per row
  int colTiles = N8 / LPR;                  // warp covers LPR*8 columns
  int chunks = K / kChunk;
  int tile, chunk;
  if (CHUNK_FAST) { chunk = warp % chunks; tile = warp / chunks; }
  else { tile = warp % colTiles; chunk = warp / colTiles; }
  if (tile >= colTiles) return;
  int r = lane / LPR, c = tile * LPR + lane % LPR;
  __half2 acc = __float2half2_rn(0.f);
  const uint4 *p = W + (size_t)(chunk * kChunk + r) * N8 + c;
  for (int k = 0; k < kChunk; k += ROWS * UNROLL) {
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = __ldg(p + (size_t)(k + u * ROWS) * N8);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const __half2 *h = reinterpret_cast<const __half2 *>(&v[u]);
      acc = __hadd2(acc, __hadd2(__hadd2(h[0], h[1]), __hadd2(h[2], h[3])));
    }
  }
  atomicAdd(out + (c % 4096), __low2float(acc) + __high2float(acc));
}

template <int ROWS, int UNROLL, bool CF>
float timeit(const uint4 *W, int N, int K, int kChunk, int wpb, float *out) {
  int N8 = N / 8, LPR = 32 / ROWS;
  long warps = (long)(N8 / LPR) * (K / kChunk);
  int blocks = (warps + wpb - 1) / wpb;
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) readW<ROWS, UNROLL, CF><<<blocks, wpb * 32>>>(W, N8, K, kChunk, wpb, out);
  std::vector<float> ts;
  for (int rep = 0; rep < 15; ++rep) {
    cudaEventRecord(a);
    for (int i = 0; i < 10; ++i) readW<ROWS, UNROLL, CF><<<blocks, wpb * 32>>>(W, N8, K, kChunk, wpb, out);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); ts.push_back(ms * 100.f);
  }
  CK(cudaGetLastError());
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

int main() {
  int N = 12288, K = 4096;
  size_t bytes = (size_t)N * K * 2;
  uint4 *W; float *out;
  CK(cudaMalloc(&W, bytes)); CK(cudaMalloc(&out, 4096 * 4));
  CK(cudaMemset(W, 0x11, bytes));
  printf("rows unroll order kchunk wpb  us  TB/s\n");
#define RUN(R, U, CF) \
  for (int kc : {256, 512, 1024, 2048}) for (int wpb : {2, 4, 8}) { \
    float us = timeit<R, U, CF>(W, N, K, kc, wpb, out); \
    printf("%d %d %s %d %d %.1f %.2f\n", R, U, CF ? "chunkfast" : "chunkslow", kc, wpb, us, bytes / us / 1e6); }
  RUN(4, 4, true) RUN(4, 4, false) RUN(4, 8, true) RUN(4, 8, false) RUN(4, 16, true)
  RUN(1, 4, true) RUN(1, 8, true) RUN(1, 8, false) RUN(1, 16, true)
  RUN(2, 8, true)
  return 0;
}
