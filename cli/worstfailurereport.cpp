// SPDX-License-Identifier: GPL-3.0-or-later
#include "worstfailurereport.h"

#include "table.h"

#include <cmath>

namespace cp::cli {

std::string renderWorstFailure(const model::WorstFailure &worst)
{
    if (!worst.found)
        return "worst single failure: none (" + worst.reason + ")\n";
    std::string text
        = "worst single failure: " + worst.switchName + " (" + worst.switchLabel + "): ";
    if (std::isfinite(worst.stepSeconds))
        text += format("step %.3f s without it", worst.stepSeconds)
            + format(", %.3f s intact", worst.intactStepSeconds)
            + format(" (%+.1f%%)", 100.0 * (worst.stepSeconds / worst.intactStepSeconds - 1.0));
    else
        text += "the job cannot run without it"
            + format(" (%.3f s intact)", worst.intactStepSeconds);
    text += "\n";
    if (worst.impact.nodesCutOff > 0)
        text += "  it cuts off " + std::to_string(worst.impact.nodesCutOff) + " of "
            + std::to_string(worst.impact.nodes) + " nodes, which leave the job\n";
    text += "  " + std::to_string(worst.candidatesEvaluated) + " of "
        + std::to_string(worst.switches)
        + " switches evaluated: one per class of interchangeable switches\n";
    return text;
}

} // namespace cp::cli
