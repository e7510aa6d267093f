// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

namespace cp::model {

/**
 * The middle of `values`, the mean of the two middle ones for an even count; 0 for none. The
 * validation report's median absolute error and a queue's wait over several seeds both take it.
 */
double median(std::vector<double> values);

} // namespace cp::model
