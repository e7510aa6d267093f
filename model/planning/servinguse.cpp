// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/servinguse.h"

#include "model/core/humantext.h"

#include <algorithm>

namespace cp::model {

ServingUse servingUse(const InferenceEstimate &inference, long long planGpus)
{
    ServingUse use;
    use.planGpus = planGpus;
    use.servingGpus = inference.fleetGpus();
    use.costPerMillionOutputTokensServingUsd = inference.costPerMillionOutputTokensUsd;
    const double paid = static_cast<double>(std::max(planGpus, use.servingGpus));
    use.costPerMillionOutputTokensAllGpusUsd = use.servingGpus > 0
        ? inference.costPerMillionOutputTokensUsd * paid / static_cast<double>(use.servingGpus)
        : 0.0;
    return use;
}

std::string servingUseText(const ServingUse &use)
{
    return "the load keeps " + groupedCount(use.servingGpus) + " of the plan's "
        + groupedCount(use.planGpus) + " GPUs busy; " + groupedCount(use.idleGpus())
        + (use.idleGpus() == 1 ? " stays" : " stay")
        + " idle: " + formatNumber("%.3f", use.costPerMillionOutputTokensServingUsd)
        + " USD per million output tokens on the replicas that serve, "
        + formatNumber("%.3f", use.costPerMillionOutputTokensAllGpusUsd)
        + " USD over every GPU the plan buys";
}

} // namespace cp::model
