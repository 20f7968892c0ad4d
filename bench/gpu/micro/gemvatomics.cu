// What limits a 16 x 4096 x 12288 weight stream: occupancy, tail, atomic epilogue?
#include <cstdio>
#include <cuda_fp16.h>
#include <vector>
#include <algorithm>
#include <cstring>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)
// warp: 64 columns x kChunk rows (4 rows per load instruction, 8 lanes x 16 B per row).
// ATOM: 0 = one atomic per lane, 1 = 32 atomics per lane (a 16x64 f32 tile per warp).
template <int UNROLL, int ATOM>
__global__ void readW(const uint4 *__restrict__ W, int N8, int K, int kChunk, int items, float *out) {
  extern __shared__ float pad[];
  int lane = threadIdx.x & 31;
  int wpb = blockDim.x / 32;
  int colTiles = N8 / 8;
  for (int item = blockIdx.x * wpb + threadIdx.x / 32; item < items; item += gridDim.x * wpb) {
    int tile = item % colTiles, chunk = item / colTiles;
    int r = lane / 8, c = tile * 8 + lane % 8;
    __half2 acc = __float2half2_rn(0.f);
    const uint4 *p = W + (size_t)(chunk * kChunk + r) * N8 + c;
    for (int k = 0; k < kChunk; k += 4 * UNROLL) {
      uint4 v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = __ldg(p + (size_t)(k + u * 4) * N8);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const __half2 *h = reinterpret_cast<const __half2 *>(&v[u]);
        acc = __hadd2(acc, __hadd2(__hadd2(h[0], h[1]), __hadd2(h[2], h[3])));
      }
    }
    float s = __low2float(acc) + __high2float(acc);
    if (ATOM == 0) atomicAdd(out + (c % 4096), s);
    else if (ATOM == 2) {
      // 8 vector reductions of 4 floats per lane, a warp's 32 lanes on 512 contiguous bytes
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        float *a = out + (size_t)(i * 2 + lane / 16) * 12288 + tile * 64 + (lane % 16) * 4;
        asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" :: "l"(a), "f"(s), "f"(s + 1), "f"(s + 2), "f"(s + i) : "memory");
      }
    } else if (ATOM == 3) {
      // 32 scalar atomics per lane, each warp instruction on 128 contiguous bytes
#pragma unroll
      for (int i = 0; i < 32; ++i) atomicAdd(out + (size_t)(i / 2) * 12288 + tile * 64 + (i % 2) * 32 + lane, s + i);
    } else {
#pragma unroll
      for (int i = 0; i < 32; ++i) atomicAdd(out + (size_t)(i % 16) * 12288 + tile * 64 + (lane % 8) * 8 + (i / 16) * 4 + lane / 8, s + i);
    }
  }
}
template <int U, int A>
void run(const char *label, const uint4 *W, int N, int K, int kChunk, int wpb, int smem, bool persistent, float *out) {
  int N8 = N / 8; int items = (N8 / 8) * (K / kChunk);
  CK(cudaFuncSetAttribute(readW<U, A>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  int perSM = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, readW<U, A>, wpb * 32, smem));
  int blocks = (items + wpb - 1) / wpb;
  if (persistent) blocks = std::min(blocks, perSM * 132);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) readW<U, A><<<blocks, wpb * 32, smem>>>(W, N8, K, kChunk, items, out);
  std::vector<float> ts;
  for (int rep = 0; rep < 15; ++rep) {
    cudaEventRecord(a);
    for (int i = 0; i < 10; ++i) readW<U, A><<<blocks, wpb * 32, smem>>>(W, N8, K, kChunk, items, out);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); ts.push_back(ms * 100.f);
  }
  CK(cudaGetLastError());
  std::sort(ts.begin(), ts.end());
  float us = ts[ts.size() / 2];
  printf("%-10s unroll=%2d atom=%d chunk=%4d wpb=%d warps/SM=%2d items=%5d blocks=%5d %s: %6.1f us %.2f TB/s\n", label, U, A, kChunk, wpb,
         perSM * wpb, items, blocks, persistent ? "persist" : "grid   ", us, (double)N * K * 2 / us / 1e6);
}
// Usage: gemvatomics occupancy   (occupancy caps, persistent grid; 32 scattered atomics per lane)
//        gemvatomics atomics     (scattered, vector and coalesced atomic epilogues)
int main(int argc, char **argv) {
  bool occupancy = argc > 1 && !strcmp(argv[1], "occupancy");
  int N = 12288, K = 4096;
  uint4 *W; float *out;
  CK(cudaMalloc(&W, (size_t)N * K * 2)); CK(cudaMalloc(&out, 16 * 12288 * 4));
  CK(cudaMemset(W, 0x11, (size_t)N * K * 2));
  if (occupancy) {
    for (int chunk : {128, 256, 512, 1024})
      for (int smem : {0, 40 * 1024, 24 * 1024}) // 0: full occupancy; 40K: 5 blocks of 4 warps; 24K ~ 8 blocks
        for (bool pers : {false, true}) {
          run<8, 0>("u8a0", W, N, K, chunk, 4, smem, pers, out);
          run<8, 1>("u8a32", W, N, K, chunk, 4, smem, pers, out);
        }
    for (int chunk : {256, 512, 1024}) for (bool pers : {false, true}) {
      run<16, 1>("u16a32", W, N, K, chunk, 4, 40 * 1024, pers, out);
      run<4, 1>("u4a32", W, N, K, chunk, 4, 40 * 1024, pers, out);
    }
    return 0;
  }
  for (int chunk : {128, 256, 512})
    for (int smem : {0, 40 * 1024}) {
      run<8, 0>("u8a0", W, N, K, chunk, 4, smem, false, out);
      run<8, 1>("u8a32", W, N, K, chunk, 4, smem, false, out);
      run<8, 2>("u8v4", W, N, K, chunk, 4, smem, false, out);
      run<8, 3>("u8a32coal", W, N, K, chunk, 4, smem, false, out);
    }
  return 0;
}
