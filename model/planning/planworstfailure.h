// SPDX-License-Identifier: GPL-3.0-or-later
// The worst single switch failure of a plan: its generated fabric, its training job.
#pragma once

#include "model/fabric/fabricfailure.h"
#include "model/planning/planfabric.h"
#include "model/training/trainingestimate.h"

#include <atomic>
#include <optional>

namespace cp::model {

class Catalog;
struct Plan;
struct CampusPlan;

/**
 * The fastest step of `job` on `cluster` after `impact` (layouts searched again, since fewer GPUs
 * or a slower fabric can change the best one); nullopt when no layout runs: no node left, the
 * surviving nodes split apart, or the model no longer fits.
 */
std::optional<double> trainingStepAfterFailure(const TrainingJob &job,
                                               const ClusterDescription &cluster,
                                               const FabricFailureImpact &impact);

/**
 * The layout search on what a failure leaves: `cluster` already reduced (clusterAfterFailure).
 * An odd surviving node count (2,016 of 2,048, 1,052 of 1,056) often has no layout the batch
 * and model divide, or only a slow one, and an operator restarting the job would drop to a
 * rounder count; so the search also runs on the survivors rounded down to a multiple of 2, 4,
 * 8, ... nodes, up to all of them (distinct counts only; 16,320 of 16,384 nodes find a layout
 * only at a multiple of 4,096), and keeps the fastest step; on a campus each building's nodes
 * are rounded alike. `gpusUsed` receives the GPU count it ran on. Not found when none of them
 * has a layout.
 */
TrainingSearchResult searchSurvivingCluster(const TrainingJob &job,
                                            const ClusterDescription &cluster,
                                            const std::atomic<bool> *cancel = nullptr,
                                            int *gpusUsed = nullptr);

/** What a plan's training job needs to be re-estimated on a damaged fabric. */
struct PlanTrainingSetup
{
    TrainingJob job;
    ClusterDescription cluster; ///< the training nodes (those on the fabric), closed form
    int nicsPerNode = 1; ///< fabric endpoints per node
};

/**
 * A campus's buildings and interconnect onto the cluster of all its GPUs (its gpus already the
 * whole campus's): what planTrainingSetup and `train --buildings` both describe.
 */
void applyCampus(ClusterDescription &cluster, const CampusPlan &campus);

/**
 * The job and cluster estimatePlan builds for a training plan; nullopt when the plan has no
 * training workload or no server group on the fabric. Throws UnknownCatalogIdError for ids the
 * catalog does not have.
 */
std::optional<PlanTrainingSetup> planTrainingSetup(const Plan &plan, const Catalog &catalog);

/**
 * Replaces the closed-form scale-out of a plan's training cluster by rings measured on the
 * plan's fabric graph, unless the closed form is exact there (closedFormScaleOutIsExact): the
 * plan's estimate, its failure what-ifs and `train` then read the same rates.
 */
void measurePlanScaleOut(ClusterDescription &cluster, const FabricGraph &graph,
                         const PlanFabric &fabric);

/**
 * findWorstSingleFailure on the plan's generated fabric for its training job, on top of the
 * plan's own failed switches; for a plan without a training job (serving, a shared cluster), the
 * switch that cuts off the most servers (WorstFailure::byServersCutOff). Not found, with the
 * reason, for plans without a buildable fabric, or with a torus (no switches).
 */
WorstFailure planWorstFailure(const Plan &plan, const Catalog &catalog);

/**
 * What the worst failure does, as the report, the fabric view and the CLI say it after "Worst
 * single failure: ": "leaf 3 (leaf-su1-rail3): it cuts off 32 of 128 nodes, which leave the job;
 * the rest take 5.26 s a step instead of 3.48 s (+51.0%)", "leaf 0 (leaf-0): it cuts off every
 * server; nothing runs without it", "none (the plan has no fabric)".
 */
std::string worstFailureSentence(const WorstFailure &worst);

} // namespace cp::model
