// SPDX-License-Identifier: GPL-3.0-or-later
// Machine-readable forms of the estimates (the CLI's --json output, the plan export). Keys carry
// their units (_s, _gib, _w, _usd) so a script never guesses.
#pragma once

#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabriccollective.h"
#include "model/fabric/fabricfailure.h"
#include "model/inference/diurnalautoscaling.h"
#include "model/inference/inferenceestimate.h"
#include "model/planning/planestimate.h"
#include "model/planning/trainingrun.h"
#include "model/training/trainingestimate.h"

#include <nlohmann/json.hpp>

namespace cp::model {

nlohmann::json parallelConfigToJson(const ParallelConfig &config);
/** A step's operations: name, kind, flops, bytes, kernels, seconds, hidden_seconds. */
nlohmann::json stepOperationsToJson(const StepOperations &operations);
nlohmann::json trainingEstimateToJson(const TrainingEstimate &estimate);
/** The estimate set against published runs: the runs' MFU range and the estimator's errors on
 * them, or {"available": false, "reason": ...}. */
nlohmann::json publishedRunComparisonToJson(const PublishedRunComparison &comparison);
/** The serving estimator's errors on published measurements on the GPU (throughput, latency at
 * a batch, latency under load), or {"available": false, "reason": ...}. */
nlohmann::json publishedServingComparisonToJson(const PublishedServingComparison &comparison);
nlohmann::json inferenceEstimateToJson(const InferenceEstimate &estimate);
/** Keys: replicas_per_hour (24), static_replicas, replica_hours_per_day, saving_fraction, ... */
nlohmann::json autoscalingEstimateToJson(const AutoscalingEstimate &estimate);
nlohmann::json planEstimateToJson(const PlanEstimate &estimate);
/** Fabric metrics with the keys the CLI documents (Gb/s for bandwidth, W, USD). */
nlohmann::json fabricMetricsToJson(const FabricMetrics &metrics);
nlohmann::json ringRateToJson(const RingRate &rate);
/**
 * Keys: switch (display name), switch_label, step_time_s (null when the job cannot run without
 * the switch), intact_step_time_s, nodes_cut_off, candidates_evaluated, switches; or error.
 */
nlohmann::json worstFailureToJson(const WorstFailure &worst);
/** Adds the run keys (power_kw, facility_power_kw, energy_mwh, cost_usd, goodput,
 * interruptions_per_day, checkpoint_interval_min) and an "operations" object with the rest. */
void addTrainingRunToJson(nlohmann::json &json, const TrainingRunEstimate &run);

} // namespace cp::model
