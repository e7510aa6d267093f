// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/training/fewergpusearch.h"

#include "model/core/humantext.h"
#include "model/training/trainingestimator.h"

namespace cp::model {

std::optional<FewerGpusFaster> fasterOnFewerGpus(const TrainingJob &job,
                                                 const ClusterDescription &cluster,
                                                 const TrainingEstimate &bestOnAll,
                                                 const std::atomic<bool> *cancel)
{
    const int perNode = std::max(1, cluster.gpusPerNode);
    const int nodes = cluster.nodes();
    int powerOfTwo = 1;
    while (powerOfTwo <= nodes / 2)
        powerOfTwo *= 2;
    const long long fewer = 1LL * powerOfTwo * perNode;
    if (fewer >= cluster.gpus || bestOnAll.tokensPerSecond <= 0)
        return std::nullopt;
    ClusterDescription part = cluster;
    part.gpus = static_cast<int>(fewer);
    const TrainingSearchResult result = TrainingEstimator(job, part).search(cancel);
    // A clear margin, not a rounding difference, before telling a user to leave GPUs idle.
    if (!result.found || result.best.tokensPerSecond <= 1.01 * bestOnAll.tokensPerSecond)
        return std::nullopt;
    return FewerGpusFaster {part.gpus, result.best};
}

std::string fewerGpusFasterText(const FewerGpusFaster &faster, int gpus,
                                const TrainingEstimate &bestOnAll)
{
    return groupedCount(faster.gpus) + " of the " + groupedCount(gpus)
        + " GPUs train faster: " + threeDigits(faster.best.tokensPerSecond) + " tokens/s against "
        + threeDigits(bestOnAll.tokensPerSecond) + " (" + layoutDescription(faster.best.config)
        + "); the global batch, heads and layers do not divide well over " + groupedCount(gpus)
        + " GPUs, so the rest could be hot spares or another job";
}

} // namespace cp::model
