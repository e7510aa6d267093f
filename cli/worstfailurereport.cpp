// SPDX-License-Identifier: GPL-3.0-or-later
#include "worstfailurereport.h"

#include "table.h"

#include "model/planning/planworstfailure.h"

#include <cmath>

namespace cp::cli {

std::string renderWorstFailure(const model::WorstFailure &worst)
{
    std::string text = "worst single failure: " + model::worstFailureSentence(worst) + "\n";
    if (!worst.found)
        return text;
    text += "  " + std::to_string(worst.candidatesEvaluated) + " of "
        + std::to_string(worst.switches)
        + " switches evaluated: one per class of interchangeable switches\n";
    return text;
}

} // namespace cp::cli
