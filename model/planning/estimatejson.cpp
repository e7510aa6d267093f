// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/estimatejson.h"

#include "model/planning/planworstfailure.h"

#include "model/core/units.h"

#include <cmath>

namespace cp::model {

nlohmann::json parallelConfigToJson(const ParallelConfig &c)
{
    nlohmann::json json = {{"tp", c.tp},
                           {"pp", c.pp},
                           {"dp", c.dp},
                           {"cp", c.cp},
                           {"ep", c.ep},
                           {"microbatch", c.microbatch},
                           {"interleave", c.interleave},
                           {"recompute", recomputeName(c.recompute)},
                           {"zero", c.zero},
                           {"sequence_parallel", c.sequenceParallel}};
    if (c.recompute == Recompute::Selective)
        json["recompute_modules"] = recomputeModuleNames(c.recomputeModules);
    if (c.ep > 1 || c.etp > 0) // the experts' split over TP, as chosen or given
        json["etp"] = expertTensorParallel(c);
    if (c.firstStageLayers > 0) // the first and last stages' own layer counts, as given
        json["first_stage_layers"] = c.firstStageLayers;
    if (c.lastStageLayers > 0)
        json["last_stage_layers"] = c.lastStageLayers;
    return json;
}

nlohmann::json stepOperationsToJson(const StepOperations &operations)
{
    nlohmann::json list = nlohmann::json::array();
    for (const StepOperation &op : operations)
        list.push_back({{"name", op.name},
                        {"kind", operationKindName(op.kind)},
                        {"flops", op.flops},
                        {"bytes", op.bytes},
                        {"kernels", op.kernels},
                        {"seconds", op.seconds},
                        {"hidden_seconds", op.hiddenSeconds}});
    return list;
}

nlohmann::json trainingEstimateToJson(const TrainingEstimate &e)
{
    const StepBreakdown &b = e.breakdown;
    nlohmann::json json = parallelConfigToJson(e.config);
    json.update({
        {"valid", e.valid},
        {"fits", e.fits},
        {"step_time_s", e.stepSeconds},
        {"tokens_per_s", e.tokensPerSecond},
        {"microbatches_per_step", e.microbatchesPerStep},
        {"model_tflops_per_gpu", e.modelFlopsPerSecondPerGpu / units::tera},
        {"hw_tflops_per_gpu", e.hardwareFlopsPerSecondPerGpu / units::tera},
        {"mfu", e.mfu},
        {"comm_exposed_fraction", e.commExposedFraction},
        {"bubble_fraction", e.bubbleFraction},
        {"memory_gib_per_gpu", e.memory.totalBytes() / units::gibi},
        {"memory_capacity_gib", e.memoryCapacityBytes / units::gibi},
        {"memory_breakdown_gib",
         {{"weights", e.memory.weightsBytes / units::gibi},
          {"gradients", e.memory.gradientsBytes / units::gibi},
          {"optimizer", e.memory.optimizerBytes / units::gibi},
          {"activations", e.memory.activationsBytes / units::gibi},
          {"reserved", e.memory.reservedBytes / units::gibi}}},
        // No token count (or no layout) gives no run length: null, not 0 days a script reads as
        // an instant run (cost_usd was already null there).
        {"training_days",
         e.trainingSeconds > 0 ? nlohmann::json(e.trainingSeconds / units::secondsPerDay)
                               : nlohmann::json(nullptr)},
        {"gpu_hours", e.gpuHours > 0 ? nlohmann::json(e.gpuHours) : nlohmann::json(nullptr)},
        {"bottleneck", e.bottleneck},
        {"bottleneck_explanation", e.bottleneckExplanation},
        {"breakdown",
         {{"compute", b.computeSeconds},
          {"memory_bound", b.memoryBoundSeconds},
          {"tp_comm", b.tpCommSeconds},
          {"cp_comm", b.cpCommSeconds},
          {"ep_comm", b.epCommSeconds},
          {"pp_comm", b.ppCommSeconds},
          {"bubble", b.bubbleSeconds},
          {"dp_comm_exposed", b.dpCommExposedSeconds},
          {"optimizer", b.optimizerSeconds},
          {"host_offload", b.hostOffloadSeconds}}},
    });
    json["operations"] = stepOperationsToJson(e.operations);
    // What the job's tensors (the breakdown's weights, gradients, optimizer and activations)
    // may take: the capacity less every reserve counted in memory_gib_per_gpu. It was the
    // capacity less only the CUDA context and NCCL buffers, so a layout that fits showed more
    // memory per GPU (79.4 GiB) than was "usable" (78.15).
    json["memory_capacity_gib"] = e.memoryCapacityBytes / units::gibi;
    json["usable_memory_gib"] = (e.memoryCapacityBytes - e.memory.reservedBytes) / units::gibi;
    if (!e.reason.empty())
        json["reason"] = e.reason;
    return json;
}

namespace {
nlohmann::json validationSummaryToJson(const ValidationSummary &s)
{
    return {{"rows", s.rows},
            {"mean_signed", s.meanSignedError},
            {"lowest_signed", s.lowestSignedError},
            {"highest_signed", s.highestSignedError},
            {"median_absolute", s.medianAbsoluteError}};
}
} // namespace

nlohmann::json publishedServingComparisonToJson(const PublishedServingComparison &c)
{
    if (!c.available())
        return {{"available", false}, {"reason", c.unavailable}};
    return {{"available", true},
            {"gpu", c.gpuName},
            {"weights", c.weights},
            {"throughput_error", validationSummaryToJson(c.throughput)},
            {"latency_error", validationSummaryToJson(c.latency)},
            {"latency_under_load_error", validationSummaryToJson(c.latencyUnderLoad)},
            {"capacity_within_limits_error", validationSummaryToJson(c.capacityWithinLimits)},
            {"model", c.modelName},
            {"same_model_throughput_error", validationSummaryToJson(c.sameModelThroughput)},
            {"same_model_latency_error", validationSummaryToJson(c.sameModelLatency)},
            {"text", publishedServingText(c)}};
}

nlohmann::json publishedRunComparisonToJson(const PublishedRunComparison &c)
{
    if (!c.available())
        return {{"available", false}, {"reason", c.unavailable}};
    return {{"available", true},
            {"gpu", c.gpuName},
            {"precision", c.precisionClass},
            {"kind", c.kind},
            {"runs", c.runs},
            {"lowest_mfu", c.lowestMfu},
            {"highest_mfu", c.highestMfu},
            {"fastest_run", c.fastestRun},
            {"nearest_run", c.nearestRun},
            {"nearest_run_mfu", c.nearestRunMfu},
            {"nearest_run_signed_error", c.nearestRunSignedError},
            {"estimator_error", validationSummaryToJson(c.estimatorError)},
            {"estimate_mfu", c.estimateMfu},
            {"above_every_run", c.aboveEveryRun()},
            {"text", publishedRunsText(c)}};
}

nlohmann::json autoscalingEstimateToJson(const AutoscalingEstimate &a)
{
    nlohmann::json json = {{"feasible", a.feasible}};
    if (!a.feasible) {
        json["reason"] = a.reason;
        return json;
    }
    json["requests_per_s_per_hour"] = a.requestsPerSecond;
    json["replicas_per_hour"] = a.replicas;
    json["static_replicas"] = a.staticReplicas;
    json["replica_hours_per_day"] = a.replicaHoursPerDay;
    json["static_replica_hours_per_day"] = a.staticReplicaHoursPerDay;
    json["gpu_hours_per_day"] = a.gpuHoursPerDay;
    json["cost_usd_per_day"] = a.usdPerDay;
    json["static_cost_usd_per_day"] = a.staticUsdPerDay;
    json["saving_fraction"] = a.savingFraction;
    json["note"] = a.note;
    json["output_tokens_per_day"] = a.outputTokensPerDay;
    json["cost_per_million_output_tokens_usd"] = a.costPerMillionOutputTokensUsd;
    json["cost_per_million_input_tokens_usd"] = a.costPerMillionInputTokensUsd;
    return json;
}

nlohmann::json offlineJobToJson(const OfflineJobEstimate &job)
{
    return {
        {"requests", job.requests},    {"requests_per_replica", job.requestsPerReplica},
        {"full_waves", job.fullWaves}, {"last_wave_batch", job.lastWaveBatch},
        {"seconds", job.seconds},      {"tokens_per_s_per_gpu", job.outputTokensPerSecondPerGpu},
        {"cost_usd", job.usd},         {"energy_mwh", job.joules / units::joulesPerMegawattHour},
    };
}

nlohmann::json inferenceEstimateToJson(const InferenceEstimate &e)
{
    nlohmann::json json = {
        {"fits", e.fits},
        // A replica that cannot hold the workload meets no target (the field said true beside
        // "fits": false and no replica, which a script filtering on it took for a fleet).
        {"meets_targets", e.fits && e.meetsTargets},
        {"reason", e.reason},
        {"gpus_per_replica", e.gpusPerReplica},
        {"tensor_parallel", e.tensorParallel},
        {"pipeline_stages", e.pipelineStages},
        {"batch", e.batch},
        {"max_batch", e.maxBatch},
        {"memory_batch_limit", e.memoryBatchLimit},
        {"engine_batch_limit", e.engineBatchLimit},
        {"ttft_ms", e.ttftSeconds * 1e3},
        {"ttft_p50_ms", e.ttftP50Seconds * 1e3},
        {"ttft_p95_ms", e.ttftSeconds * 1e3},
        {"ttft_p99_ms", e.ttftP99Seconds * 1e3},
        {"tpot_ms", e.tpotSeconds * 1e3},
        {"prefill_ms", e.prefillSeconds * 1e3},
        {"decode_step_ms", e.decodeStepSeconds * 1e3},
        {"batched_prefill_ms", e.batchedPrefillSeconds * 1e3},
        {"prefill_chunks", e.prefillChunks},
        {"prefill_chunk_tokens", e.prefillChunkTokens},
        {"prefill_decode_ms", e.prefillDecodeSeconds * 1e3},
        {"draft_prefill_ms", e.draftPrefillSeconds * 1e3},
        {"floor_ms",
         {{"prefill", e.prefillFloorSeconds * 1e3}, {"decode_step", e.decodeFloorSeconds * 1e3}}},
        {"prefill_operations", stepOperationsToJson(e.prefillOperations)},
        {"decode_operations", stepOperationsToJson(e.decodeOperations)},
        {"decode_roofline_ms",
         {{"memory", e.decodeMemorySeconds * 1e3},
          {"compute", e.decodeComputeSeconds * 1e3},
          {"comm", e.decodeCommSeconds * 1e3}}},
        {"end_to_end_ms", e.endToEndSeconds * 1e3},
        {"end_to_end_p50_ms", e.endToEndP50Seconds() * 1e3},
        {"end_to_end_p95_ms", e.endToEndSeconds * 1e3},
        {"end_to_end_p99_ms", e.endToEndP99Seconds() * 1e3},
        {"requests_per_s_per_replica", e.requestsPerSecondPerReplica},
        {"tokens_per_s_per_replica", e.outputTokensPerSecondPerReplica},
        {"tokens_per_s_per_gpu", e.outputTokensPerSecondPerGpu},
        {"utilisation", e.utilisation},
        {"memory_gib_per_gpu", e.memoryBytesPerGpu / units::gibi},
        {"memory_breakdown_gib",
         {{"weights", e.weightsBytesPerGpu / units::gibi},
          {"kv_cache", e.kvBytesPerGpu / units::gibi},
          {"workspace", e.workspaceBytesPerGpu / units::gibi},
          // The engine's share it keeps out of the K/V cache: the parts sum to the total.
          {"engine_reserve", e.reserveBytesPerGpu / units::gibi}}},
        {"kv_bytes_per_token", e.kvBytesPerToken},
        {"kv_bytes_per_sequence", e.kvBytesPerSequence},
        {"replicas", e.replicas},
        {"in_flight_sequences", e.inFlightSequences},
        {"tpot_p95_ms", e.tpotP95Seconds * 1e3},
        {"gpus", e.fleetGpus()},
        {"power_w", e.powerWatts},
        {"usd_per_hour", e.usdPerHour},
        {"servers", e.servers},
        {"gpus_per_server", e.gpusPerServer},
        {"whole_servers_usd_per_hour", e.wholeServersUsdPerHour},
        {"cost_per_million_output_tokens_usd", e.costPerMillionOutputTokensUsd},
        {"cost_per_million_output_tokens_all_in_usd", e.costPerMillionOutputTokensAllInUsd},
        {"cost_per_million_input_tokens_usd", e.costPerMillionInputTokensUsd},
        {"cost_per_request_usd", e.costPerRequestUsd},
        {"bottleneck", e.bottleneck},
        {"bottleneck_explanation", e.bottleneckExplanation},
    };
    // No fleet for a load it cannot serve as asked, and no times for a replica that cannot
    // hold the workload: null, not figures a reader might take for an estimate.
    if (!e.hasFleet())
        for (const char *key :
             {"power_w", "usd_per_hour", "servers", "whole_servers_usd_per_hour",
              "cost_per_million_output_tokens_usd", "cost_per_million_output_tokens_all_in_usd",
              "cost_per_million_input_tokens_usd", "cost_per_request_usd"})
            json[key] = nullptr;
    // Without an offered load there is no occupancy, utilisation or percentile of the step
    // (InferenceEstimate::tpotP95Seconds is 0 then): null, not a p95 TPOT of 0 ms.
    if (e.tpotP95Seconds <= 0) // an overloaded fleet runs every step at its largest batch
        json["tpot_p95_ms"] = e.overloaded() ? nlohmann::json(e.tpotSeconds * 1e3) : nullptr;
    if (e.utilisation <= 0 && e.inFlightSequences <= 0)
        for (const char *key : {"utilisation", "in_flight_sequences"})
            json[key] = nullptr;
    if (e.overloaded()) // the queue grows without bound
        for (const char *key :
             {"ttft_ms", "ttft_p50_ms", "ttft_p95_ms", "ttft_p99_ms", "end_to_end_ms",
              "end_to_end_p50_ms", "end_to_end_p95_ms", "end_to_end_p99_ms"})
            json[key] = nullptr;
    if (!e.fits)
        for (const char *key :
             {"ttft_ms", "ttft_p50_ms", "ttft_p95_ms", "ttft_p99_ms", "tpot_ms", "tpot_p95_ms",
              "end_to_end_ms", "end_to_end_p50_ms", "end_to_end_p95_ms", "end_to_end_p99_ms",
              "requests_per_s_per_replica", "tokens_per_s_per_replica", "tokens_per_s_per_gpu"})
            json[key] = nullptr;
    json["offline_job"] = e.offlineJob ? offlineJobToJson(*e.offlineJob) : nlohmann::json();
    json["capacity_within_limits"] = e.capacityWithinLimits
        ? nlohmann::json {{"requests_per_second", e.capacityWithinLimits->requestsPerSecond},
                          {"output_tokens_per_second",
                           e.capacityWithinLimits->outputTokensPerSecond},
                          {"limited_by", e.capacityWithinLimits->limitedBy}}
        : nlohmann::json();
    return json;
}

namespace {

nlohmann::json cablesByMediumJson(const PlanEstimate &e)
{
    nlohmann::json media = nlohmann::json::object();
    for (const auto &[medium, count] : e.cablesByMedium)
        media[medium] = count;
    return media;
}

nlohmann::json billOfMaterialsJson(const PlanEstimate &e)
{
    nlohmann::json bom = nlohmann::json::array();
    for (const BillOfMaterialsLine &line : e.billOfMaterials)
        bom.push_back({{"category", line.category},
                       {"id", line.itemId},
                       {"name", line.name},
                       {"count", line.count},
                       {"unit_price_usd", line.unitPriceUsd},
                       {"total_usd", line.totalUsd()}});
    return bom;
}

nlohmann::json rackUsageJson(const PlanEstimate &e)
{
    nlohmann::json racks = nlohmann::json::array();
    for (const RackUsage &rack : e.racks)
        racks.push_back({{"group", rack.groupName},
                         {"rack", rack.rackId},
                         {"nodes_per_rack", rack.nodesPerRack},
                         {"racks", rack.racks},
                         {"kw_per_rack", rack.wattsPerRack / units::kilo},
                         {"rack_limit_kw", rack.rackLimitWatts / units::kilo}});
    return racks;
}

nlohmann::json fabricCountsJson(const PlanEstimate &e)
{
    if (!e.fabricError.empty())
        // Unknown, not zero: a consumer must not read an unbuildable fabric as a free one.
        return {{"topology", e.fabric.topology}, {"error", e.fabricError}};
    return {{"topology", e.fabric.topology},
            {"endpoints", e.fabric.endpoints},
            {"storage_ports", e.fabric.storagePorts},
            {"leaf_switches", e.fabric.leafSwitches},
            {"spine_switches", e.fabric.spineSwitches},
            {"core_switches", e.fabric.coreSwitches},
            {"switches", e.fabric.switches()},
            {"cables", e.fabric.cables},
            {"optics", e.fabric.optics}};
}

nlohmann::json powerJson(const PlanEstimate &e)
{
    nlohmann::json power = {{"gpus", e.power.gpusWatts / units::kilo},
                            {"nodes", e.power.nodesWatts / units::kilo},
                            {"network", e.power.networkWatts / units::kilo},
                            {"storage", e.power.storageWatts / units::kilo},
                            {"it", e.power.itWatts() / units::kilo},
                            {"facility", e.power.facilityWatts() / units::kilo},
                            {"pue", e.power.pue}};
    if (e.facilityPowerLimitWatts) {
        power["facility_limit"] = *e.facilityPowerLimitWatts / units::kilo;
        power["over_budget"] = e.overPowerBudget();
    }
    return power;
}

/** The training estimate with the run around its step (power, failures, checkpoints, the data
 * path, storage), or why there is none. */
nlohmann::json planTrainingJson(const PlanEstimate &e)
{
    if (!e.training.found)
        return {{"error", e.trainingError}};
    nlohmann::json training = trainingEstimateToJson(e.training.best);
    training["configurations_evaluated"] = e.training.evaluated;
    training["configurations_pruned"] = e.training.pruned;
    if (e.hasTrainingRun) {
        nlohmann::json run = nlohmann::json::object();
        addTrainingRunToJson(run, e.trainingRun);
        training["run"] = std::move(run);
    }
    if (!e.failedSwitches.empty() || !e.failedLinks.empty())
        training["intact_step_time_s"] = e.intactStepSeconds;
    if (e.trainingPublishedRuns.available() || !e.trainingPublishedRuns.unavailable.empty())
        training["published_runs"] = publishedRunComparisonToJson(e.trainingPublishedRuns);
    return training;
}

/** The data hall as a whole; null when the plan's servers are not in racks. */
nlohmann::json hallJson(const PlanEstimate &e)
{
    if (e.hallRacks == 0)
        return nullptr;
    return {{"rows", e.hallRows},
            {"racks", e.hallRacks},
            {"over_limit_racks", e.overLimitRacks},
            {"pdus", e.pdus},
            {"patch_panels", e.patchPanels},
            {"storage_switches", e.storageSwitches},
            {"storage_cables", e.storageCables},
            {"cables_by_medium", cablesByMediumJson(e)},
            {"longest_cable_m", e.longestCableMeters}};
}

} // namespace

nlohmann::json planEstimateToJson(const PlanEstimate &e)
{
    nlohmann::json json = {
        {"plan", e.planName},
        {"gpu", e.gpuId},
        {"gpus", e.gpus},
        {"nodes", e.nodes},
        {"peak_dense_pflops", e.peakDenseFlopsPerSecond / units::peta},
        {"peak_dense_fp8_pflops", e.peakDenseFp8FlopsPerSecond / units::peta},
        {"gpu_memory_tb", e.gpuMemoryBytes / units::tera},
        {"fabric", fabricCountsJson(e)},
        {"power_kw", powerJson(e)},
        {"racks", rackUsageJson(e)},
        {"network_racks", e.networkCabinets},
        {"storage_racks", e.storageCabinets},
        {"management_switches", e.managementSwitches},
        {"management_cables", e.managementCables},
        {"cables_by_medium", cablesByMediumJson(e)},
        {"longest_cable_m", e.longestCableMeters},
        {"hall", hallJson(e)},
        {"bill_of_materials", billOfMaterialsJson(e)},
        {"capital_cost_usd", e.capitalCostUsd},
        {"warnings", e.warnings},
    };
    if (!e.fabricError.empty())
        json["capital_cost_usd"] = nullptr;
    // A campus's figures above are one building's; its totals are under "campus".
    json["scope"] = e.campus && e.campus->buildings > 1 ? "each building" : "whole plan";
    if (e.campus) {
        const CampusTotals &c = *e.campus;
        json["campus"] = {
            {"buildings", c.buildings},
            {"gpus", c.gpus},
            {"nodes", c.nodes},
            {"it_kw", c.itWatts / units::kilo},
            {"facility_kw", c.facilityWatts / units::kilo},
            {"capital_cost_usd", e.fabricError.empty() ? nlohmann::json(c.capitalUsd) : nullptr},
            {"interconnect_tbps_per_building",
             units::bytesPerSecondToTbitPerSecond(c.interconnectBytesPerSecondPerBuilding)},
            {"interconnect_latency_us", c.interconnectLatencySeconds * 1e6},
            {"interconnect_usd", c.interconnectUsd},
            {"interconnect_kw", c.interconnectWatts / units::kilo},
        };
    }
    if (e.hasTraining)
        json["training"] = planTrainingJson(e);
    if (!e.failedSwitches.empty())
        json["fabric"]["failed_switches"]
            = {{"switches", e.failedSwitches}, {"nodes_cut_off", e.nodesCutOffByFailures}};
    if (!e.failedLinks.empty())
        json["fabric"]["failed_links"]
            = {{"links", e.failedLinks}, {"nodes_cut_off", e.nodesCutOffByFailures}};
    if (e.hasInference) {
        json["inference"] = inferenceEstimateToJson(e.inference);
        if (e.servingUse)
            json["inference"]["serving_use"]
                = {{"plan_gpus", e.servingUse->planGpus},
                   {"serving_gpus", e.servingUse->servingGpus},
                   {"idle_gpus", e.servingUse->idleGpus()},
                   {"cost_per_million_output_tokens_all_gpus_usd",
                    e.servingUse->costPerMillionOutputTokensAllGpusUsd}};
        if (e.inferencePublishedRuns.available() || !e.inferencePublishedRuns.unavailable.empty())
            json["inference"]["published_measurements"]
                = publishedServingComparisonToJson(e.inferencePublishedRuns);
    }
    if (e.autoscaling)
        json["autoscaling"] = autoscalingEstimateToJson(*e.autoscaling);
    if (!e.workloadNote.empty())
        json["note"] = e.workloadNote;
    return json;
}

namespace {
double gbitPerSecond(double bytesPerSecond)
{
    return bytesPerSecond * units::bitsPerByte / units::giga;
}
} // namespace

nlohmann::json fabricMetricsToJson(const FabricMetrics &m)
{
    nlohmann::json tiers = nlohmann::json::object();
    const char *tierNames[] = {"endpoint", "leaf", "spine", "core", "super_spine"};
    for (const auto &[tier, count] : m.switchesPerTier)
        tiers[tier >= 0 && tier <= 4 ? tierNames[tier] : std::to_string(tier)] = count;
    return {
        {"topology", m.topology},
        {"description", m.description},
        {"endpoints", m.endpoints},
        {"switches", m.switches},
        {"switches_per_tier", tiers},
        {"scale_up_switches", m.scaleUpSwitches},
        {"links", m.links},
        {"links_per_class", m.linksPerClass},
        {"copper_cables", m.copperCables},
        {"optical_cables", m.opticalCables},
        {"transceivers", m.transceivers},
        {"diameter", m.diameter},
        {"switch_diameter", m.switchDiameter},
        {"avg_hops", m.averageHops},
        {"mean_shortest_paths", m.meanShortestPaths},
        {"min_shortest_paths", m.minShortestPaths},
        {"path_statistics_exact", m.pathStatisticsExact},
        {"path_method", m.pathMethod},
        {"injection_gbps", gbitPerSecond(m.injectionBytesPerSecond)},
        {"bisection_gbps", gbitPerSecond(m.bisectionBytesPerSecond)},
        {"bisection_ratio", m.bisectionRatio},
        {"bisection_method", m.bisectionMethod},
        {"connected", m.connected},
        {"unreachable_endpoints", m.unreachableEndpoints},
        {"failed_switches", m.failedSwitches},
        {"failed_links", m.failedLinks},
        {"power_w", m.powerWatts()},
        {"switch_power_w", m.switchWatts},
        {"optics_power_w", m.opticsWatts},
        {"cost_usd", m.costUsd()},
        {"switch_cost_usd", m.switchCostUsd},
        {"optics_cost_usd", m.opticsCostUsd},
        {"notes", m.notes},
    };
}

nlohmann::json ringRateToJson(const RingRate &r)
{
    return {{"flows", r.flows},
            {"gbps_per_flow", gbitPerSecond(r.bytesPerSecondPerFlow)},
            {"max_hops", r.maxHops},
            {"path_latency_us", r.pathLatencySeconds * 1e6},
            {"bottleneck_link", r.bottleneckLink},
            {"bottleneck_load", r.bottleneckLoad}};
}

namespace {

nlohmann::json stageUtilisationToJson(const DataPathPhase &phase)
{
    nlohmann::json stages = nlohmann::json::object();
    for (const DataPathStage &stage : phase.stages)
        stages[stage.name] = stage.utilisation();
    return stages;
}

/** The data loader's path (train --json's data_feed); null without a dataset. */
nlohmann::json dataPathToJson(const DataPathEstimate &path)
{
    if (!path.present)
        return nullptr;
    const DataPathPhase &worse = path.worsePhase();
    return {
        {"dataset", path.dataset},
        {"samples_per_s", path.samplesPerSecond},
        {"bytes_per_sample", path.bytesPerSample},
        {"required_read_gb_per_s", path.requiredReadBytesPerSecond / units::giga},
        {"required_iops", path.requiredIops},
        {"required_metadata_ops_per_s", path.requiredMetadataOpsPerSecond},
        // NFS: reads and opens' metadata from one operation budget (the IOPS stage's).
        {"required_storage_ops_per_s",
         path.requiredIops + (path.metadataSharesIops ? path.requiredMetadataOpsPerSecond : 0.0)},
        {"limiting_stage", worse.limitingStage},
        {"starving_stages", starvingStagesText(worse)},
        {"stage_utilisation", stageUtilisationToJson(path.firstEpoch)},
        {"warm_stage_utilisation", stageUtilisationToJson(path.warm)},
        {"cache_hit_ratio", path.cacheHitRatio},
        {"first_epoch_stall_fraction", path.firstEpoch.stallFraction},
        {"warm_stall_fraction", path.warm.stallFraction},
        {"stall_fraction", path.stallFraction},
        // Seconds the GPUs wait over the run, and copying the dataset onto every node's
        // NVMe first (null where it does not fit a node).
        {"wait_s", path.waitSeconds},
        {"staging_s",
         path.stagingSeconds > 0 ? nlohmann::json(path.stagingSeconds) : nlohmann::json(nullptr)},
        {"cpu_cores_needed_per_node", path.cpuCoresNeededPerNode},
        {"storage_systems_needed", path.storageSystemsNeeded},
        {"advice", path.advice}};
}

} // namespace

void addTrainingRunToJson(nlohmann::json &json, const TrainingRunEstimate &run)
{
    const OperationsEstimate &o = run.operations;
    const ReliabilityEstimate &r = run.reliability;
    json["power_kw"] = o.itWatts() / 1e3;
    json["facility_power_kw"] = o.facilityWatts / 1e3;
    // A run that never finishes (goodput 0), or one of no given length, has no wall time,
    // energy or cost: null, never a 0 a script reads as free and instant.
    const bool finishes = o.wallSeconds > 0;
    const auto ifFinishes = [finishes](double value) {
        return finishes ? nlohmann::json(value) : nlohmann::json(nullptr);
    };
    json["energy_mwh"] = ifFinishes(o.energyMegawattHours);
    json["cost_usd"] = ifFinishes(o.costUsd);
    json["goodput"] = r.goodput;
    json["interruptions_per_day"] = r.interruptionsPerDay;
    json["checkpoint_interval_min"] = r.checkpointIntervalSeconds / 60.0;
    json["checkpoints_writable"] = r.checkpointsWritable;
    json["checkpoint_burst_s"] = r.checkpointWriteSeconds;
    json["checkpoint_mode"] = r.asyncCheckpoints ? "async" : "sync";
    json["checkpoint_blocked_s"] = r.checkpointBlockedSeconds;
    json["checkpoint_host_gb_per_node"] = run.checkpointHostBytesPerNode / units::giga;
    json["restore_s"] = r.checkpointReadSeconds;
    json["data_feed"] = dataPathToJson(run.dataPath);
    json["stored_tb"] = run.storedBytes / units::tera;
    json["storage_systems_needed"] = run.storageSystemsNeeded;
    // The storage count whose checkpoints cost least per useful second (null: not sized, no
    // checkpoints or no prices), the goodput with it and the share of the wall time training
    // stops for checkpoints now.
    const CheckpointStorageSizing &sized = run.checkpointStorage;
    json["checkpoint_storage"] = sized.systems > 0
        ? nlohmann::json {{"systems", sized.systems},
                          {"systems_now", sized.systemsNow},
                          {"goodput", sized.goodput},
                          {"storage_limits_goodput", sized.storageLimitsGoodput()},
                          {"checkpoint_wall_fraction", sized.checkpointWallFractionSized},
                          {"checkpoint_wall_fraction_now", sized.checkpointWallFractionNow}}
        : nlohmann::json(nullptr);
    json["training_days_with_data_stall"] = run.trainingSecondsWithStall / units::secondsPerDay;
    json["operations"] = {
        {"gpu_busy_fraction", run.gpuBusyFraction},
        {"gpus_kw", o.gpusWatts / 1e3},
        {"nodes_kw", o.nodesWatts / 1e3},
        {"network_kw", o.networkWatts / 1e3},
        {"storage_kw", o.storageWatts / 1e3},
        {"wall_days", ifFinishes(o.wallSeconds / units::secondsPerDay)},
        // The GPU-hours of the wall time (failures and checkpoints included), which the cost is
        // for, beside training_days' and gpu_hours' failure-free figures; and, at a cloud price,
        // the hot spares' rented hours the cost adds.
        {"wall_gpu_hours", ifFinishes(o.wallGpuHours)},
        {"rented_spare_gpu_hours", ifFinishes(o.rentedSpareGpuHours)},
        {"electricity_usd", ifFinishes(o.electricityUsd)},
        {"carbon_t", ifFinishes(o.carbonTonnes)},
        {"cost_per_gpu_hour_usd", o.costPerGpuHourUsd},
        {"capital_usd", run.capitalUsd},
        {"switches", run.switches},
        {"transceivers", run.transceivers},
        {"checkpoint_gb", run.checkpointBytes / units::giga},
        {"checkpoint_write_s", r.checkpointWriteSeconds},
        {"restart_min", r.restartSeconds / 60.0},
        {"job_mtbf_h", r.mtbfSeconds / units::secondsPerHour},
        {"spares_cover_failures", r.sparesCoverFailures},
        {"data_feed_gb_per_s", run.dataFeedBytesPerSecond / units::giga},
        {"notes", run.notes},
    };
}

nlohmann::json worstFailureToJson(const WorstFailure &worst)
{
    if (!worst.found)
        return {{"error", worst.reason}};
    nlohmann::json json = {
        {"switch", worst.switchName},
        {"switch_label", worst.switchLabel},
        {"nodes_cut_off", worst.impact.nodesCutOff},
        {"nodes", worst.impact.nodes},
        {"candidates_evaluated", worst.candidatesEvaluated},
        {"switches", worst.switches},
        {"summary", worstFailureSentence(worst)},
    };
    if (worst.byServersCutOff) {
        // No training job: judged by the servers it cuts off.
        json["capacity_kept"] = std::isfinite(worst.stepSeconds)
            ? nlohmann::json(worst.intactStepSeconds / worst.stepSeconds)
            : nlohmann::json(0.0);
        return json;
    }
    json["intact_step_time_s"] = worst.intactStepSeconds;
    // JSON has no infinity: a failure no layout survives is null, with the reason beside it.
    if (std::isfinite(worst.stepSeconds)) {
        json["step_time_s"] = worst.stepSeconds;
    } else {
        json["step_time_s"] = nullptr;
        json["error"] = "the job cannot run without this switch";
    }
    return json;
}

} // namespace cp::model
