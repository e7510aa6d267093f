// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/fabricfailure.h"

#include <string>

namespace cp::cli {

/** "worst single failure: spine 5: step 8.21 s without it, 8.02 s intact (+2.4%)". */
std::string renderWorstFailure(const model::WorstFailure &worst);

} // namespace cp::cli
