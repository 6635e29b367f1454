/*
 * C reference for the kernforge BigDFT benchmark (issue 5, "Measure"): BigDFT's convrot scheme
 * for the periodic magic filter (seed 002, REFERENCES.md section 2, Eq. 3), f64, one thread.
 *
 * One pass: x holds m lines of n points (x[j*n + i], the filtered dimension contiguous);
 *   y(j, i) = sum_l f(l) x(mod(i + l, n), j)      written transposed: y[i*m + j]
 * Three passes (n1, then n2, then n3) give the 3-D separable filter in the natural layout again.
 * As in BigDFT's convrot_n_per, the loop over lines is unrolled by 8: each inner iteration
 * computes 8 outputs y(j..j+7, i), which are contiguous in y. The periodic wrap goes through an
 * index table mod[i + l - lowest] (no modulo in the inner loop).
 *
 * Usage: convrot n1 n2 n3 reps [in.bin [out.bin]]  < coefficients
 *   stdin: "taps lowestOffset c_0 ... c_{taps-1}" (decimal; the caller prints round-trip digits)
 *   in.bin: n1*n2*n3 doubles (natural layout, i1 fastest); without it a fixed pseudo-random input
 *   out.bin: the result of the last application
 * Prints one line: "convrot n1 n2 n3 reps best_ms gflops checksum", GFlop/s with the paper's
 * count 3*32*n1*n2*n3 (16 taps x 2 flops x 3 dimensions) over the fastest application.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXTAPS 64

static int taps, low;
static double fil[MAXTAPS];

static void pass(const double *restrict x, double *restrict y, long n, long m, const int *restrict mod) {
  long j = 0;
  for (; j + 8 <= m; j += 8) {
    const double *x0 = x + j * n;
    for (long i = 0; i < n; i++) {
      double t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0, t7 = 0;
      const int *k = mod + i;
      for (int l = 0; l < taps; l++) {
        const double f = fil[l];
        const double *p = x0 + k[l];
        t0 += f * p[0];
        t1 += f * p[n];
        t2 += f * p[2 * n];
        t3 += f * p[3 * n];
        t4 += f * p[4 * n];
        t5 += f * p[5 * n];
        t6 += f * p[6 * n];
        t7 += f * p[7 * n];
      }
      double *q = y + i * m + j;
      q[0] = t0; q[1] = t1; q[2] = t2; q[3] = t3; q[4] = t4; q[5] = t5; q[6] = t6; q[7] = t7;
    }
  }
  for (; j < m; j++) { /* remaining lines */
    const double *x0 = x + j * n;
    for (long i = 0; i < n; i++) {
      double t = 0;
      for (int l = 0; l < taps; l++) t += fil[l] * x0[mod[i + l]];
      y[i * m + j] = t;
    }
  }
}

static int *wrapTable(long n) {
  int *t = malloc(sizeof(int) * (size_t)(n + taps));
  for (long i = 0; i < n + taps; i++) t[i] = (int)((((i + low) % n) + n) % n);
  return t;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s n1 n2 n3 reps [in.bin [out.bin]] < \"taps lowestOffset c_0 ... c_{taps-1}\"\n", argv[0]);
    return 2;
  }
  long d[3] = {atol(argv[1]), atol(argv[2]), atol(argv[3])};
  int reps = atoi(argv[4]);
  if (d[0] <= 0 || d[1] <= 0 || d[2] <= 0 || reps <= 0) { fprintf(stderr, "convrot: bad grid or reps\n"); return 2; }
  if (scanf("%d %d", &taps, &low) != 2 || taps <= 0 || taps > MAXTAPS) { fprintf(stderr, "convrot: bad filter header on stdin\n"); return 2; }
  for (int l = 0; l < taps; l++) if (scanf("%lf", &fil[l]) != 1) { fprintf(stderr, "convrot: missing coefficient %d\n", l); return 2; }
  long N = d[0] * d[1] * d[2];
  double *x = malloc(sizeof(double) * N), *a = malloc(sizeof(double) * N), *b = malloc(sizeof(double) * N);
  if (!x || !a || !b) { fprintf(stderr, "convrot: out of memory\n"); return 1; }
  if (argc > 5) {
    FILE *f = fopen(argv[5], "rb");
    if (!f || fread(x, sizeof(double), N, f) != (size_t)N) { fprintf(stderr, "convrot: cannot read %ld doubles from %s\n", N, argv[5]); return 1; }
    fclose(f);
  } else {
    unsigned s = 2024u;
    for (long p = 0; p < N; p++) { s = s * 1664525u + 1013904223u; x[p] = s / 2147483648.0 - 1.0; }
  }
  int *mod[3] = {wrapTable(d[0]), wrapTable(d[1]), wrapTable(d[2])};
  double best = 1e300;
  for (int r = -1; r < reps; r++) { /* r = -1: untimed warm-up (page faults) */
    double t0 = now();
    pass(x, a, d[0], N / d[0], mod[0]);
    pass(a, b, d[1], N / d[1], mod[1]);
    pass(b, a, d[2], N / d[2], mod[2]);
    double t = now() - t0;
    if (r >= 0 && t < best) best = t;
  }
  double sum = 0;
  for (long p = 0; p < N; p++) sum += a[p];
  printf("convrot %ld %ld %ld %d %.6f %.4f %.17g\n", d[0], d[1], d[2], reps, best * 1e3, 3.0 * 2 * taps * N / best / 1e9, sum);
  if (argc > 6) {
    FILE *f = fopen(argv[6], "wb");
    if (!f || fwrite(a, sizeof(double), N, f) != (size_t)N) { fprintf(stderr, "convrot: cannot write %s\n", argv[6]); return 1; }
    fclose(f);
  }
  return 0;
}
