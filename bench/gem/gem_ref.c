/*
 * gem_ref.c: plain C reference of GEM's surface potential (REFERENCES.md section 3), the
 * honest single-thread baseline of `kernforge bench gem-potential`.
 *
 * Same algebra as the generated kernels (region specialized, zero salt folded):
 *   region 1: phi_i = phi0 + qScale/eps_in * sum_j q_j (1/d - g/sqrt(d^2 + h)); at p = 0 (h = 0
 *             exactly, the points on the sphere r = A) one root per pair, as the kernels take it:
 *             phi_i = phi0 + qScale/eps_in (1 - g) * sum_j q_j / d
 *   region 3: phi_i = phi0 + K0 (1 + alpha) * sum_j q_j / d
 * with d = |P_i + p n_i - x_j|, g = (1 - beta)/(1 + alpha beta),
 * h = (A^2 - r0^2)(A^2 - r^2)/A^2, K0 = qScale/((1 + alpha beta) eps_out); phi0 = 0 in region 1
 * without salt, phi0 = -qTot K0 alpha (1 - beta)/r in region 3 without salt.
 *
 * Build: gcc -O3 -march=native -DREAL=double (or -DREAL=float) gem_ref.c -lm
 * Run:   gem_ref <input.bin> <phi-out.bin> <repetitions> [two-roots]
 *        (two-roots: region 1 with both roots at p = 0 too, GEM's formula as written)
 * Input (little endian): int32 nv, na, region, 0; double A, p, epsIn, epsOut, kappa, alpha,
 *   ionRadius, qScale; double vx[nv], vy, vz, nx, ny, nz; double ax[na], ay, az, aq.
 * Output: phi as double[nv]; on stdout `seconds_min=... pairs_per_s=... checksum=...` where
 * checksum is the sum of phi. Every array is converted to REAL before the timed loop; one
 * untimed warm-up run, then the fastest of the repetitions (clock_gettime, CLOCK_MONOTONIC).
 */
#include <math.h>
#include <tgmath.h> /* sqrt of a float is sqrtf: the f32 build computes in single precision */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef REAL
#define REAL double
#endif

static REAL *load(FILE *f, int32_t n, const char *what) {
  double *tmp = malloc(sizeof(double) * (size_t)n);
  REAL *out = malloc(sizeof(REAL) * (size_t)n);
  if (!tmp || !out || fread(tmp, sizeof(double), (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "gem_ref: cannot read %s\n", what);
    exit(2);
  }
  for (int32_t i = 0; i < n; i++) out[i] = (REAL)tmp[i];
  free(tmp);
  return out;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The kernel: every vertex against every atom, one accumulator per vertex; `two`: region 1's
   pair term with both roots, else q/d (region 3, and region 1 at h = 0). */
static void kernel(int two, int32_t nv, int32_t na, const REAL *vx, const REAL *vy, const REAL *vz,
                   const REAL *nx, const REAL *ny, const REAL *nz, const REAL *ax, const REAL *ay,
                   const REAL *az, const REAL *aq, REAL p, REAL phi0, REAL scale, REAL g, REAL h,
                   REAL *phi) {
  for (int32_t i = 0; i < nv; i++) {
    REAL px = vx[i] + p * nx[i], py = vy[i] + p * ny[i], pz = vz[i] + p * nz[i];
    REAL s = 0;
    if (two) {
      for (int32_t j = 0; j < na; j++) {
        REAL dx = px - ax[j], dy = py - ay[j], dz = pz - az[j];
        REAL d2 = dx * dx + dy * dy + dz * dz;
        s += aq[j] * (1 / sqrt(d2) - g / sqrt(d2 + h));
      }
    } else {
      for (int32_t j = 0; j < na; j++) {
        REAL dx = px - ax[j], dy = py - ay[j], dz = pz - az[j];
        REAL d2 = dx * dx + dy * dy + dz * dz;
        s += aq[j] / sqrt(d2);
      }
    }
    phi[i] = phi0 + scale * s;
  }
}

int main(int argc, char **argv) {
  if (argc != 4 && !(argc == 5 && strcmp(argv[4], "two-roots") == 0)) {
    fprintf(stderr, "usage: gem_ref <input.bin> <phi-out.bin> <repetitions> [two-roots]\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  int32_t hdr[4];
  double P[8];
  if (fread(hdr, sizeof hdr, 1, f) != 1 || fread(P, sizeof P, 1, f) != 1) {
    fprintf(stderr, "gem_ref: short header\n");
    return 2;
  }
  int32_t nv = hdr[0], na = hdr[1], region = hdr[2];
  double A = P[0], p = P[1], epsIn = P[2], epsOut = P[3], kappa = P[4], alpha = P[5], ionRadius = P[6], qScale = P[7];
  if (nv <= 0 || na <= 0 || (region != 1 && region != 3) || kappa != 0) {
    fprintf(stderr, "gem_ref: only regions 1 and 3 without salt (nv %d, na %d, region %d, kappa %g)\n", nv, na, region, kappa);
    return 2;
  }
  REAL *vx = load(f, nv, "vx"), *vy = load(f, nv, "vy"), *vz = load(f, nv, "vz");
  REAL *nx = load(f, nv, "nx"), *ny = load(f, nv, "ny"), *nz = load(f, nv, "nz");
  REAL *ax = load(f, na, "ax"), *ay = load(f, na, "ay"), *az = load(f, na, "az"), *aq = load(f, na, "aq");
  fclose(f);
  int reps = atoi(argv[3]);
  if (reps < 1) reps = 1;

  /* The atom-independent constants, in double, as the TypeScript kernels fold them. */
  double beta = epsIn / epsOut, ab1 = 1 + alpha * beta, K0 = qScale / (ab1 * epsOut);
  double r = A + p, rp = A + ionRadius, r0 = A / 2;
  double qTot = 0;
  for (int32_t j = 0; j < na; j++) qTot += (double)aq[j];
  double phi0, scale, g = 0, h = 0;
  int two = 0; /* region 1's loop with both roots */
  if (region == 1) {
    scale = qScale / epsIn;
    g = (1 - beta) / ab1;
    /* A^2 - r^2 as (A - r)(A + r): exactly 0 at p = 0 (A * A - r * r may be contracted into an FMA) */
    h = (A * A - r0 * r0) * (A - r) * (A + r) / (A * A);
    /* h = 0: the one-root loop (as region 3's), 1 - g in the scale; not with two-roots */
    two = h != 0 || argc == 5;
    if (!two) scale *= 1 - g;
    phi0 = 0; /* qTot K0 alpha (1 - beta)/r' (1 - 1/(1 + kappa r')) with kappa = 0 */
  } else {
    scale = K0 * (1 + alpha);
    phi0 = -qTot * K0 * alpha * (1 - beta) / r;
  }
  (void)rp;

  REAL *phi = malloc(sizeof(REAL) * (size_t)nv);
  kernel(two, nv, na, vx, vy, vz, nx, ny, nz, ax, ay, az, aq, (REAL)p, (REAL)phi0, (REAL)scale, (REAL)g, (REAL)h, phi);
  double best = INFINITY;
  for (int k = 0; k < reps; k++) {
    double t0 = now();
    kernel(two, nv, na, vx, vy, vz, nx, ny, nz, ax, ay, az, aq, (REAL)p, (REAL)phi0, (REAL)scale, (REAL)g, (REAL)h, phi);
    double t = now() - t0;
    if (t < best) best = t;
  }
  double checksum = 0;
  double *out = malloc(sizeof(double) * (size_t)nv);
  for (int32_t i = 0; i < nv; i++) checksum += out[i] = (double)phi[i];
  FILE *o = fopen(argv[2], "wb");
  if (!o || fwrite(out, sizeof(double), (size_t)nv, o) != (size_t)nv || fclose(o) != 0) {
    fprintf(stderr, "gem_ref: cannot write %s\n", argv[2]);
    return 2;
  }
  printf("real=%s seconds_min=%.9e pairs_per_s=%.6e checksum=%.17g reps=%d\n", sizeof(REAL) == 4 ? "float" : "double", best,
         (double)nv * (double)na / best, checksum, reps);
  return 0;
}
