// Decode GEMM microbenchmark (bench/gpu/micro/README.md): Y[16, N] += X[16, K] @ W[K, N], f16 in, f32 out.
// Variants of where B (W) goes on its way to mma.sync m16n8k16.
#include "graphtime.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_fp16.h>
#include <vector>

constexpr int M = 16;

__device__ __forceinline__ void mma(float c[4], const uint32_t a[4],
                                    uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
      "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ uint32_t pack(__half lo, __half hi) {
  __half2 h = __halves2half2(lo, hi);
  return *reinterpret_cast<uint32_t *>(&h);
}
__device__ __forceinline__ void loadA(uint32_t a[4], const __half *X, int K,
                                      int k0, int g, int t) {
  a[0] = __ldg(reinterpret_cast<const uint32_t *>(X + g * K + k0 + 2 * t));
  a[1] = __ldg(reinterpret_cast<const uint32_t *>(X + (g + 8) * K + k0 + 2 * t));
  a[2] = __ldg(reinterpret_cast<const uint32_t *>(X + g * K + k0 + 2 * t + 8));
  a[3] = __ldg(reinterpret_cast<const uint32_t *>(X + (g + 8) * K + k0 + 2 * t + 8));
}
__device__ __forceinline__ void red4(float *p, float a, float b, float c, float d) {
  asm volatile("red.global.add.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(p), "f"(a),
               "f"(b), "f"(c), "f"(d) : "memory");
}

// No epilogue (EPI 0): the accumulators only feed a store no run takes, so
// that the compiler keeps the loop that computes them.
template <int T>
__device__ __forceinline__ void keepAlive(const float (&c)[T][4], float *Y) {
  float sum = 0;
  for (int j = 0; j < T; ++j)
    sum += c[j][0] + c[j][1] + c[j][2] + c[j][3];
  if (sum == 1234.5f)
    Y[0] = sum;
}

// ---- Variant D: B straight from global, as our element loops do ----------
// Lane (g, t) loads W vectors of 'V' halves at column nWarp + g*V of rows
// k0+2t, +1, +8, +9; tile j's column n is real column nWarp + n*V + j.
// Warps: WN along n, KS k-slices; split-k S over blocks; each warp steps its
// slice's 16-k groups; UNROLL 16-k steps are loaded before any is used.
template <int V, int WN, int KS, int UNROLL, int EPI>
__global__ void __launch_bounds__(32 * WN * KS)
direct(const __half *__restrict__ X, const __half *__restrict__ W,
       float *__restrict__ Y, int K, int N, int S) {
  using VecT = typename std::conditional<V == 8, uint4, uint2>::type;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int wn = warp % WN, ks = warp / WN;
  int g = lane >> 2, t = lane & 3;
  int nBlocks = N / (8 * V * WN);
  int nb = blockIdx.x % nBlocks, split = blockIdx.x / nBlocks;
  int nWarp = (nb * WN + wn) * 8 * V;
  int kChunk = K / S, kBegin = split * kChunk, kEnd = kBegin + kChunk;
  float c[V][4] = {};
  for (int k0 = kBegin + ks * 16 * UNROLL; k0 < kEnd; k0 += KS * 16 * UNROLL) {
    VecT rows[UNROLL][4];
    uint32_t a[UNROLL][4];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      int k = k0 + 16 * u;
      const __half *base = W + (size_t)(k + 2 * t) * N + nWarp + g * V;
      rows[u][0] = __ldg(reinterpret_cast<const VecT *>(base));
      rows[u][1] = __ldg(reinterpret_cast<const VecT *>(base + N));
      rows[u][2] = __ldg(reinterpret_cast<const VecT *>(base + 8 * (size_t)N));
      rows[u][3] = __ldg(reinterpret_cast<const VecT *>(base + 9 * (size_t)N));
      loadA(a[u], X, K, k, g, t);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const __half *r0 = reinterpret_cast<const __half *>(&rows[u][0]);
      const __half *r1 = reinterpret_cast<const __half *>(&rows[u][1]);
      const __half *r8 = reinterpret_cast<const __half *>(&rows[u][2]);
      const __half *r9 = reinterpret_cast<const __half *>(&rows[u][3]);
#pragma unroll
      for (int j = 0; j < V; ++j)
        mma(c[j], a[u], pack(r0[j], r1[j]), pack(r8[j], r9[j]));
    }
  }
  // k-slices meet in shared memory, then one atomic per element.
  __shared__ float red[KS > 1 ? KS - 1 : 1][WN][V][4][32];
  if (KS > 1) {
    if (ks > 0)
      for (int j = 0; j < V; ++j)
        for (int q = 0; q < 4; ++q) red[ks - 1][wn][j][q][lane] = c[j][q];
    __syncthreads();
    if (ks != 0) return;
    for (int s = 0; s < KS - 1; ++s)
      for (int j = 0; j < V; ++j)
        for (int q = 0; q < 4; ++q) c[j][q] += red[s][wn][j][q][lane];
  }
  if (EPI == 0) {
    keepAlive(c, Y);
    return;
  }
  if (EPI == 2) {
    int nb0 = nWarp + (2 * t) * V;
#pragma unroll
    for (int j = 0; j < V; j += 4) {
      red4(Y + g * N + nb0 + j, c[j][0], c[j + 1][0], c[j + 2][0], c[j + 3][0]);
      red4(Y + g * N + nb0 + V + j, c[j][1], c[j + 1][1], c[j + 2][1], c[j + 3][1]);
      red4(Y + (g + 8) * N + nb0 + j, c[j][2], c[j + 1][2], c[j + 2][2], c[j + 3][2]);
      red4(Y + (g + 8) * N + nb0 + V + j, c[j][3], c[j + 1][3], c[j + 2][3], c[j + 3][3]);
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < V; ++j) {
    int n0 = nWarp + (2 * t) * V + j, n1 = n0 + V;
    atomicAdd(Y + g * N + n0, c[j][0]);
    atomicAdd(Y + g * N + n1, c[j][1]);
    atomicAdd(Y + (g + 8) * N + n0, c[j][2]);
    atomicAdd(Y + (g + 8) * N + n1, c[j][3]);
  }
}

// ---- Variant P: cp.async into a STAGES-deep ring, ldmatrix.trans ----------
// Block tile BN columns x BK k; warps: WN along n (BN/WN columns each),
// KS k-slices (each takes BK/KS of every stage). Split-k S over blocks.
__device__ __forceinline__ void cpAsync16(void *smem, const void *gmem) {
  uint32_t s = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void ldsmT4(uint32_t r[4], const void *smem) {
  uint32_t s = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}
template <int BN, int BK, int STAGES, int WN, int KS, int EPI>
__global__ void __launch_bounds__(32 * WN * KS)
staged(const __half *__restrict__ X, const __half *__restrict__ W,
       float *__restrict__ Y, int K, int N, int S) {
  constexpr int THREADS = 32 * WN * KS;
  constexpr int CHUNKS = BN / 8;            // 16-byte chunks per row
  constexpr int WCOLS = BN / WN;            // columns per warp
  constexpr int WTILES = WCOLS / 8;         // n8 tiles per warp
  constexpr int KW = BK / KS;               // k per warp per stage
  static_assert(WTILES % 2 == 0 && KW % 16 == 0, "shape");
  extern __shared__ __align__(16) __half smem[];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int wn = warp % WN, ks = warp / WN;
  int g = lane >> 2, t = lane & 3;
  int nBlocks = N / BN;
  int nb = blockIdx.x % nBlocks, split = blockIdx.x / nBlocks;
  int n0 = nb * BN;
  int kChunk = K / S, kBegin = split * kChunk;
  int tiles = kChunk / BK;
  auto stage = [&](int s) { return smem + s * BK * BN; };
  auto issue = [&](int tile) {
    __half *dst = stage(tile % STAGES);
    const __half *src = W + (size_t)(kBegin + tile * BK) * N + n0;
    for (int i = threadIdx.x; i < BK * CHUNKS; i += THREADS) {
      int r = i / CHUNKS, cc = i % CHUNKS;
      int pc = (cc & ~7) | ((cc ^ r) & 7);
      cpAsync16(dst + r * BN + pc * 8, src + (size_t)r * N + cc * 8);
    }
  };
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) issue(s);
    asm volatile("cp.async.commit_group;\n");
  }
  float c[WTILES][4] = {};
  for (int tile = 0; tile < tiles; ++tile) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
    __syncthreads();
    if (tile + STAGES - 1 < tiles) issue(tile + STAGES - 1);
    asm volatile("cp.async.commit_group;\n");
    const __half *B = stage(tile % STAGES);
#pragma unroll
    for (int kk = 0; kk < KW; kk += 16) {
      int kr = ks * KW + kk;                 // row in the stage
      uint32_t a[4];
      loadA(a, X, K, kBegin + tile * BK + kr, g, t);
#pragma unroll
      for (int j = 0; j < WTILES; j += 2) {
        // matrices: (k 0-7, n j), (k 8-15, n j), (k 0-7, n j+1), (k 8-15, n j+1)
        int mtx = lane >> 3, row = lane & 7;
        int r = kr + (mtx & 1) * 8 + row;
        int cc = (wn * WCOLS) / 8 + j + (mtx >> 1);
        int pc = (cc & ~7) | ((cc ^ r) & 7);
        uint32_t b[4];
        ldsmT4(b, B + r * BN + pc * 8);
        mma(c[j], a, b[0], b[1]);
        mma(c[j + 1], a, b[2], b[3]);
      }
    }
  }
  asm volatile("cp.async.wait_group 0;\n");
  __syncthreads();
  float *red = reinterpret_cast<float *>(smem);
  if (KS > 1) {
    if (ks > 0)
      for (int j = 0; j < WTILES; ++j)
        for (int q = 0; q < 4; ++q)
          red[(((ks - 1) * WN + wn) * WTILES + j) * 128 + q * 32 + lane] = c[j][q];
    __syncthreads();
    if (ks != 0) return;
    for (int s = 0; s < KS - 1; ++s)
      for (int j = 0; j < WTILES; ++j)
        for (int q = 0; q < 4; ++q)
          c[j][q] += red[((s * WN + wn) * WTILES + j) * 128 + q * 32 + lane];
  }
  if (EPI == 0) {
    keepAlive(c, Y);
    return;
  }
  if (EPI == 2) {
#pragma unroll
    for (int j = 0; j < WTILES; ++j) {
      int n = n0 + wn * WCOLS + j * 8 + 2 * t;
      asm volatile("red.global.add.v2.f32 [%0], {%1,%2};" ::"l"(Y + g * N + n), "f"(c[j][0]), "f"(c[j][1]) : "memory");
      asm volatile("red.global.add.v2.f32 [%0], {%1,%2};" ::"l"(Y + (g + 8) * N + n), "f"(c[j][2]), "f"(c[j][3]) : "memory");
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < WTILES; ++j) {
    int n = n0 + wn * WCOLS + j * 8 + 2 * t;
    atomicAdd(Y + g * N + n, c[j][0]);
    atomicAdd(Y + g * N + n + 1, c[j][1]);
    atomicAdd(Y + (g + 8) * N + n, c[j][2]);
    atomicAdd(Y + (g + 8) * N + n + 1, c[j][3]);
  }
}

// ---- Read-only probe: 16-byte loads, grid-stride ---------------------------
__global__ void readProbe(const uint4 *__restrict__ p, size_t n, float *out) {
  uint32_t x = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = __ldg(p + i);
    x ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (x == 0x12345678u) out[0] = 1.f;
}

__global__ void reference(const __half *X, const __half *W, float *Y, int K, int N) {
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= N) return;
  float acc[M] = {};
  for (int k = 0; k < K; ++k) {
    float w = __half2float(W[(size_t)k * N + n]);
    for (int m = 0; m < M; ++m) acc[m] += __half2float(X[m * K + k]) * w;
  }
  for (int m = 0; m < M; ++m) Y[m * N + n] = acc[m];
}
__global__ void fill(__half *p, size_t n, uint32_t seed, float scale) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed;
    h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
    p[i] = __float2half(((h & 0xffff) / 65535.f - 0.5f) * 2.f * scale);
  }
}

struct Case { const char *name; void (*launch)(const __half *, const __half *, float *, int, int, cudaStream_t); };

template <int V, int WN, int KS, int U, int S, int EPI = 2>
void launchDirect(const __half *X, const __half *W, float *Y, int K, int N, cudaStream_t st) {
  int blocks = N / (8 * V * WN) * S;
  direct<V, WN, KS, U, EPI><<<blocks, 32 * WN * KS, 0, st>>>(X, W, Y, K, N, S);
}
template <int BN, int BK, int ST, int WN, int KS, int S, int EPI = 2>
void launchStaged(const __half *X, const __half *W, float *Y, int K, int N, cudaStream_t st) {
  int blocks = N / BN * S;
  size_t smem = std::max<size_t>((size_t)ST * BK * BN * 2, (size_t)KS * WN * (BN / WN / 8) * 128 * 4);
  static bool set = false;
  if (!set) {
    CK(cudaFuncSetAttribute(staged<BN, BK, ST, WN, KS, EPI>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    set = true;
  }
  staged<BN, BK, ST, WN, KS, EPI><<<blocks, 32 * WN * KS, smem, st>>>(X, W, Y, K, N, S);
}

int main(int argc, char **argv) {
  int K = argc > 1 ? atoi(argv[1]) : 4096, N = argc > 2 ? atoi(argv[2]) : 12288;
  const int COPIES = 2;  // alternate weight copies so that L2 holds none
  __half *X, *W[COPIES];
  float *Y, *Yref, *out;
  size_t wn = (size_t)K * N;
  CK(cudaMalloc(&X, M * K * 2));
  for (int c = 0; c < COPIES; ++c) CK(cudaMalloc(&W[c], wn * 2));
  CK(cudaMalloc(&Y, M * N * 4)); CK(cudaMalloc(&Yref, M * N * 4)); CK(cudaMalloc(&out, 4));
  fill<<<1024, 256>>>(X, M * K, 1, 1.f);
  for (int c = 0; c < COPIES; ++c) fill<<<4096, 256>>>(W[c], wn, 7, 0.04f);
  CK(cudaMemcpy(W[1], W[0], wn * 2, cudaMemcpyDeviceToDevice));
  reference<<<(N + 127) / 128, 128>>>(X, W[0], Yref, K, N);
  CK(cudaDeviceSynchronize());
  std::vector<float> ref(M * N), got(M * N);
  CK(cudaMemcpy(ref.data(), Yref, M * N * 4, cudaMemcpyDeviceToHost));

  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  auto timeIt = [&](auto body) {
    return graphMedianUs(st, 40, [&](int r) { body(W[r % 2]); });
  };
  double bytes = wn * 2.0;
  {
    float us = timeIt([&](const __half *w) {
      readProbe<<<132 * 8, 512, 0, st>>>(reinterpret_cast<const uint4 *>(w), wn / 8, out);
    });
    printf("%-40s %8.1f us %6.3f TB/s\n", "read-probe (W only, 16B)", us, bytes / us / 1e6);
  }
  std::vector<Case> cases = {
    {"direct V4 WN2 KS2 U2 S8 scalar-atom", launchDirect<4, 2, 2, 2, 8, 1>},
    {"direct V4 WN2 KS2 U2 S8 v4-atom", launchDirect<4, 2, 2, 2, 8, 2>},
    {"direct V4 WN2 KS2 U2 S8 no-epilogue", launchDirect<4, 2, 2, 2, 8, 0>},
    {"direct V8 WN2 KS4 U4 S4 scalar-atom", launchDirect<8, 2, 4, 4, 4, 1>},
    {"direct V8 WN2 KS4 U4 S4 v4-atom", launchDirect<8, 2, 4, 4, 4, 2>},
    {"direct V8 WN2 KS4 U4 S4 no-epilogue", launchDirect<8, 2, 4, 4, 4, 0>},
    {"direct V8 WN2 KS2 U2 S8 v4-atom", launchDirect<8, 2, 2, 2, 8, 2>},
    {"direct V8 WN2 KS2 U2 S8 no-epilogue", launchDirect<8, 2, 2, 2, 8, 0>},
    {"direct V8 WN1 KS8 U2 S4 v4-atom", launchDirect<8, 1, 8, 2, 4, 2>},
    {"direct V8 WN1 KS8 U2 S4 no-epilogue", launchDirect<8, 1, 8, 2, 4, 0>},
    {"direct V8 WN2 KS4 U2 S2 v4-atom", launchDirect<8, 2, 4, 2, 2, 2>},
    {"direct V4 WN2 KS4 U4 S4 v4-atom", launchDirect<4, 2, 4, 4, 4, 2>},
    {"direct V4 WN4 KS2 U4 S4 v4-atom", launchDirect<4, 4, 2, 4, 4, 2>},
    {"staged BN128 BK32 ST4 WN4 KS1 S8 scalar", launchStaged<128, 32, 4, 4, 1, 8, 1>},
    {"staged BN128 BK32 ST4 WN4 KS1 S8 v2", launchStaged<128, 32, 4, 4, 1, 8, 2>},
    {"staged BN128 BK32 ST4 WN4 KS1 S8 none", launchStaged<128, 32, 4, 4, 1, 8, 0>},
    {"staged BN256 BK32 ST4 WN4 KS2 S8 v2", launchStaged<256, 32, 4, 4, 2, 8, 2>},
    {"staged BN256 BK32 ST4 WN4 KS2 S8 none", launchStaged<256, 32, 4, 4, 2, 8, 0>},
    {"staged BN128 BK32 ST6 WN4 KS1 S4 v2", launchStaged<128, 32, 6, 4, 1, 4, 2>},
    {"staged BN128 BK64 ST4 WN2 KS2 S4 v2", launchStaged<128, 64, 4, 2, 2, 4, 2>},
    {"staged BN64 BK64 ST4 WN2 KS2 S8 v2", launchStaged<64, 64, 4, 2, 2, 8, 2>},
    {"staged BN64 BK64 ST4 WN2 KS2 S8 none", launchStaged<64, 64, 4, 2, 2, 8, 0>},
  };

  for (auto &c : cases) {
    CK(cudaMemset(Y, 0, M * N * 4));
    c.launch(X, W[0], Y, K, N, st);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(got.data(), Y, M * N * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      num += (got[i] - ref[i]) * (double)(got[i] - ref[i]);
      den += ref[i] * (double)ref[i];
    }
    double err = std::sqrt(num / den);
    float us = timeIt([&](const __half *w) { c.launch(X, w, Y, K, N, st); });
    printf("%-40s %8.1f us %6.3f TB/s  rel_err %.1e %s\n", c.name, us,
           bytes / us / 1e6, err, err < 1e-3 ? "PASS" : (strstr(c.name, "no") ? "(no output)" : "FAIL"));
  }
  return 0;
}
