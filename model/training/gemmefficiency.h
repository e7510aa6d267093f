// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"

namespace cp::model {

/**
 * Fraction of dense peak an M x N x K GEMM reaches on `gpu`: gemm_peak_fraction · n / (n + n½),
 * Hockney's half-performance model (Hockney & Jesshope, "Parallel Computers 2", 1988), applied to
 * the effective size n = 3 / (1/M + 1/N + 1/K), so that any small dimension makes the GEMM small
 * (wave quantisation, low arithmetic intensity). Both factors are catalog calibration entries;
 * FP8 has its own large-GEMM fraction and half-performance size (GpuSpec::gemmPeakFractionFor,
 * gemmHalfPerformanceDimFor).
 *
 * `asymptoticShare` is for a kernel whose large-GEMM rate is that share of the catalog's (an older
 * tensor-core generation's instructions on a newer GPU, GpuSpec::legacyKernelGemmFraction) but
 * whose start-up time is the same: in Hockney's terms t(n) = (n + n½) / r∞, the start-up n½ / r∞
 * does not depend on how fast the arithmetic runs, so r∞' = share · r∞ keeps n½ / r∞ and has its
 * half-performance size at share · n½. The efficiency is then share · fraction · n / (n + share ·
 * n½): the share in full on large GEMMs, where the slower instructions are what takes the time,
 * and less and less of it as the GEMM shrinks to its start-up and streaming time.
 */
double gemmEfficiency(const GpuSpec &gpu, Precision precision, double m, double n, double k,
                      double asymptoticShare = 1.0);

} // namespace cp::model
