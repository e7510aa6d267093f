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
 */
double gemmEfficiency(const GpuSpec &gpu, Precision precision, double m, double n, double k);

} // namespace cp::model
