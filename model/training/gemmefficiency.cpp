// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/training/gemmefficiency.h"

namespace cp::model {

double gemmEfficiency(const GpuSpec &gpu, Precision precision, double m, double n, double k,
                      double asymptoticShare)
{
    const double size = 3.0 / (1.0 / m + 1.0 / n + 1.0 / k);
    return asymptoticShare * gpu.gemmPeakFractionFor(precision) * size
        / (size + asymptoticShare * gpu.gemmHalfPerformanceDimFor(precision));
}

} // namespace cp::model
