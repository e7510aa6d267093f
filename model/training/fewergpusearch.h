// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/training/trainingestimate.h"

#include <atomic>
#include <optional>
#include <string>

namespace cp::model {

/** A layout on part of the cluster that trains faster than the best on all of it. */
struct FewerGpusFaster
{
    int gpus = 0; ///< the GPUs the faster layout uses
    TrainingEstimate best; ///< its fastest layout
};

/**
 * Whether the job trains faster on the largest power-of-two number of the cluster's nodes below
 * its own count: a count whose factors the global batch, the heads or the layers do not divide
 * (576 H100 for a batch of 1,024 sequences: DP a power of two, so TP x PP is 9 or more) can force
 * a layout slower than the one 512 of them run. Searched on the same cluster description (its
 * rings measured on the whole fabric); nothing when the count is already a power of two of nodes
 * or the smaller search is no faster than `bestOnAll`.
 */
std::optional<FewerGpusFaster> fasterOnFewerGpus(const TrainingJob &job,
                                                 const ClusterDescription &cluster,
                                                 const TrainingEstimate &bestOnAll,
                                                 const std::atomic<bool> *cancel = nullptr);

/** "512 of the 576 GPUs train faster: 1.39 M tokens/s against 1.27 M (TP ... ); ...". */
std::string fewerGpusFasterText(const FewerGpusFaster &faster, int gpus,
                                const TrainingEstimate &bestOnAll);

} // namespace cp::model
