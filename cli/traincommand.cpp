// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"
#include "modelarguments.h"
#include "table.h"
#include "trainingreport.h"

#include "model/catalog/catalogparser.h"
#include "model/cluster/clusterdescription.h"
#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricscaleout.h"
#include "model/inference/inferencesetup.h"
#include "model/plan/plan.h"
#include "model/planning/estimatejson.h"
#include "model/planning/planworstfailure.h"
#include "model/training/fewergpusearch.h"
#include "model/training/trainingestimator.h"

#include <algorithm>
#include <ostream>

namespace cp::cli {

namespace {

std::vector<OptionSpec> trainOptions()
{
    std::vector<OptionSpec> specs = {
        {"gpu", true, "GPU id (catalog list gpus)"},
        {"gpus", true, "number of GPUs"},
        {"node", true, "node id (default: the catalog node that carries --gpu)"},
        {"seq-len", true, "sequence length in tokens"},
        {"global-batch", true, "sequences per optimizer step"},
        {"tokens", true, "tokens to train on (2e12 or 2T)"},
        {"precision", true, "bf16|fp16|fp8 (default bf16)"},
        {"framework", true,
         "training software profile (default megatron-core-2024; "
         "megatron-lm-2021, megatron-lm-2022 for older runs)"},
        {"attention", true, "flash|unfused (default: the framework's)"},
        {"explain", false, "list every operation of the step with its FLOPs, bytes and time"},
        {"moe-capacity-factor", true,
         "tokens an expert is sized for, relative to a balanced share (default 1)"},
        {"offload-activations", true,
         "layers whose activations go to host memory in forward and come back in backward "
         "(Megatron-Core cpu_offloading_num_layers; PP=1, no recompute)"},
        {"tp", true, "tensor-parallel size (searched when absent)"},
        {"pp", true, "pipeline-parallel size"},
        {"dp", true, "data-parallel size"},
        {"cp", true, "context-parallel size"},
        {"ep", true, "expert-parallel size"},
        {"etp", true,
         "expert tensor-parallel size, 1 or TP (Megatron-Core --expert-tensor-parallel-size; "
         "default TP where EP divides DP x CP, else 1)"},
        {"microbatch", true, "sequences per microbatch"},
        {"interleave", true, "virtual pipeline stages per GPU"},
        {"first-stage-layers", true,
         "layers on the first pipeline stage, which also holds the embedding (Megatron-Core "
         "--decoder-first-pipeline-num-layers; searched: an even share, or the embedding and the "
         "loss each in a layer's place)"},
        {"last-stage-layers", true,
         "layers on the last pipeline stage, which also runs the logits and the loss "
         "(--decoder-last-pipeline-num-layers; Llama 3 405B on 16 stages: 7 and 7)"},
        {"recompute", true, "none|selective|full"},
        {"mtp-layers", true,
         "multi-token prediction blocks to train beside the model (Megatron-Core mtp_num_layers; "
         "default: the model's, DeepSeek-V3 1; 0: none)"},
        {"recompute-modules", true,
         "what selective recompute repeats, comma-separated: core_attn (the default), "
         "layernorm, moe_act, mlp, mla_up_proj (Megatron-Core recompute_modules)"},
        {"zero", true, "ZeRO stage 0|1|2|3"},
        {"nic", true, "NIC id (default: the node's)"},
        {"nics-per-node", true, "NICs per node (default: the node's)"},
        {"oversubscription", true, "fabric oversubscription ratio, e.g. 2 for 2:1 (default 1)"},
        {"rail-optimised", false, "rail-optimised fabric (one leaf per GPU index)"},
        {"multi-plane", false,
         "rail-optimised with every rail a fat-tree of its own (a plane): 8 times the GPUs "
         "the switches reach with shared spines"},
        {"switch-ports", true,
         "leaf switch radix (default: the catalog switch that carries the NIC's links, 64 for NDR "
         "InfiniBand, 128 for 400 GbE)"},
        {"buildings", true,
         "buildings (halls) the GPUs are spread over, each with its own fabric, joined by a "
         "data-centre interconnect (default 1)"},
        {"interconnect-tbps", true,
         "interconnect capacity out of each building, Tb/s per direction (with --buildings)"},
        {"interconnect-km", true, "fibre distance between buildings (default 2 km: 9.8 us)"},
        {"interconnect-usd-per-gbps", true,
         "price of the interconnect per Gb/s of each building's capacity (default 0: unpriced)"},
        {"interconnect-watts-per-gbps", true,
         "power of the interconnect per Gb/s of each building's capacity (default 0)"},
        {"fabric-model", true,
         "graph (rings measured on the generated fat-tree, default) | closed-form"},
        {"placement", true, "contiguous (default) | scattered: how the scheduler placed nodes"},
        {"storage", true, "storage id for checkpoints and data (default lustre-exascaler)"},
        {"storage-systems", true, "how many of --storage the data is striped over (default 1)"},
        {"async-checkpoint", false,
         "copy checkpoints to host memory and write them in the background"},
        {"dataset", true,
         "dataset id the data loader reads (catalog list datasets; default: packed text tokens)"},
        {"facility", true,
         "facility id for PUE, electricity and carbon (default dc-industry-average)"},
        {"spare-nodes", true, "hot spare nodes (default: enough for the nodes down at once)"},
        {"restart-min", true, "minutes to detect a failure and restart the job (default 10)"},
        {"lifetime-years", true, "amortisation period of the hardware (default 4)"},
        {"hourly-price", true, "USD per GPU-hour (cloud); replaces capital and energy"},
        {"dp-overlap", true,
         "share of the backward pass that can hide gradient sync, 0..1 (default: the "
         "framework's)"},
        {"no-tp-comm-overlap", false, "tensor-parallel collectives not overlapped with GEMMs"},
        {"grad-reduce-in-bf16", false,
         "BF16 gradients accumulated and reduced in 16 bits (Megatron --grad-reduce-in-bf16); "
         "by default in fp32, as Megatron, NeMo and Megatron-Bridge do"},
        {"moe-comm-overlap", false,
         "MoE all-to-all behind another microbatch's compute (Megatron-Core "
         "--overlap-moe-expert-parallel-comm)"},
        {"moe-dispatcher", true,
         "alltoall (every routed copy sent, the default) | deepep | hybridep (Megatron-Core's "
         "flex dispatcher with DeepEP's or HybridEP's kernels: a token sent once per "
         "destination GPU and once per destination node)"},
        {"cross-entropy", true,
         "the loss kernel: unfused (Megatron-LM 2021-2022) | native (Megatron-Core's fused "
         "cross_entropy_loss_fusion, megatron-core-2024's) | te (Transformer Engine's online "
         "softmax, cross_entropy_fusion_impl te, as Megatron-Bridge benchmarks run; default: "
         "the framework's)"},
        {"allow-tp-across-nodes", false, "allow tensor parallelism beyond the NVLink domain"},
        {"no-sequence-parallel", false,
         "tensor parallelism without sequence parallelism (Megatron before 2022)"},
        {"top", true, "how many alternative layouts to list (default 5, at most 10)"},
    };
    for (const OptionSpec &spec : modelShapeOptions())
        specs.push_back(spec);
    return withCommonOptions(std::move(specs));
}

} // namespace

model::ClusterDescription clusterFromArguments(const ParsedArguments &a,
                                               const model::Catalog &catalog, int gpus)
{
    const std::string nodeId = nodeIdFromArguments(a, catalog);
    const std::string nicId = a.value("nic").value_or("");
    if (!nicId.empty())
        catalog.nic(nicId);
    model::ClusterFromCatalogOptions options;
    options.nodeId = nodeId;
    options.gpus = gpus;
    options.nicId = nicId;
    options.nicsPerNode = a.integer("nics-per-node", 1, 64).value_or(0);
    options.oversubscription = a.number("oversubscription", 1.0, 64.0).value_or(1.0);
    options.railOptimised = a.has("rail-optimised") || a.has("multi-plane");
    options.switchPorts = a.integer("switch-ports", 2, 4096).value_or(0);
    if (options.switchPorts == 0) {
        // The radix of the catalog switch that carries the NIC (64 NDR ports on a QM9700, 128
        // ports of 400 GbE on an SN5600), the one the run's cost and power are priced with.
        const model::NicSpec &nic = catalog.nic(nicId.empty() ? catalog.node(nodeId).nicId : nicId);
        const std::string switchId = model::catalogSwitchForNic(catalog, nic, std::nullopt);
        options.switchPorts = switchId.empty() ? 64 : catalog.networkSwitch(switchId).ports;
    }
    model::ClusterDescription cluster = model::ClusterDescription::fromCatalog(catalog, options);
    cluster.multiPlane = a.has("multi-plane");
    return cluster;
}

namespace {

/**
 * --buildings and the interconnect between them, as a plan's campus, applied to `cluster`: the
 * GPUs must split evenly into whole nodes per building, and more than one building needs a
 * capacity.
 */
model::CampusPlan campusFromArguments(const ParsedArguments &a, model::ClusterDescription &cluster)
{
    model::CampusPlan campus;
    campus.buildings = a.integer("buildings", 1, 1024).value_or(1);
    const double tbps = a.number("interconnect-tbps", 1e-3, 1e6).value_or(0.0);
    campus.interconnectBytesPerSecondPerBuilding
        = model::units::tbitPerSecondToBytesPerSecond(tbps);
    campus.distanceKm = a.number("interconnect-km", 0.0, 20000.0).value_or(2.0);
    campus.usdPerGbps = a.number("interconnect-usd-per-gbps", 0.0, 1e6).value_or(0.0);
    campus.wattsPerGbps = a.number("interconnect-watts-per-gbps", 0.0, 1e3).value_or(0.0);
    if (campus.buildings == 1) {
        // Between buildings only: with one building they would change nothing, silently.
        for (const char *option : {"interconnect-tbps", "interconnect-km",
                                   "interconnect-usd-per-gbps", "interconnect-watts-per-gbps"})
            if (a.has(option))
                throw UsageError(std::string("--") + option
                                 + " describes the link between buildings: give --buildings");
        return {};
    }
    if (tbps <= 0)
        throw UsageError("--buildings " + std::to_string(campus.buildings)
                         + " needs --interconnect-tbps, the capacity out of each building");
    const long long perBuilding = cluster.gpus / campus.buildings;
    if (cluster.gpus % campus.buildings != 0 || perBuilding % std::max(1, cluster.gpusPerNode) != 0)
        throw UsageError(std::to_string(cluster.gpus) + " GPUs do not split into "
                         + std::to_string(campus.buildings) + " buildings of whole "
                         + std::to_string(cluster.gpusPerNode) + "-GPU servers");
    model::applyCampus(cluster, campus);
    return campus;
}

/**
 * The scale-out rates of `cluster` (--fabric-model, --placement) and the fabric's hardware, with
 * the sentence that says how they were found; a fabric the switches cannot build is refused
 * (exit 3) rather than estimated on a closed form for a cluster that cannot exist.
 */
std::string measureFabric(const ParsedArguments &a, model::ClusterDescription &cluster,
                          const model::CampusPlan &campus,
                          std::optional<model::FabricHardwareCount> &hardware, std::ostream &out)
{
    const std::string fabricModel
        = a.choice("fabric-model", {"graph", "closed-form"}).value_or("graph");
    const auto placement
        = a.choice("placement", {"contiguous", "scattered"}).value_or("contiguous") == "scattered"
        ? model::NodePlacement::Scattered
        : model::NodePlacement::Contiguous;
    if (fabricModel != "graph") {
        // The closed form times the traffic; the bill still counts the fabric the switches
        // build (three tiers where two do not reach), from its layout, as the graph model does.
        if (cluster.nodesPerBuilding() >= 2) {
            try {
                if (const auto count
                    = model::fabricHardwareCount(model::fabricDesignForCluster(cluster)))
                    hardware = count->times(cluster.buildings);
            } catch (const model::FabricParameterError &) {
                // No fabric the switches build: the bill keeps the two-tier closed form.
            }
        }
        return "closed-form scale-out model: NIC share, divided by the oversubscription for "
               "rings that leave a leaf";
    }
    try {
        model::FabricHardwareCount count;
        std::string note = model::measureScaleOutOnFabric(cluster, placement, &count);
        hardware = count;
        if (cluster.buildings > 1)
            note += "; buildings joined by "
                + format("%.3g",
                         model::units::bytesPerSecondToTbitPerSecond(
                             cluster.interconnectBytesPerSecondPerBuilding))
                + " Tb/s each way, " + format("%.3g", cluster.interconnectLatencySeconds * 1e6)
                + " us apart"
                + (campus.usdPerGbps > 0 ? std::string()
                                         : " (unpriced: --interconnect-usd-per-gbps)");
        return note;
    } catch (const model::FabricParameterError &error) {
        // The closed form stays available when asked for by name.
        const std::string reason = std::string("the fabric cannot be built: ") + error.what()
            + " (--switch-ports sets the radix; --fabric-model closed-form estimates on the "
              "NIC share without a fabric)";
        if (a.has("json"))
            out << nlohmann::json {{"fits", false}, {"reason", reason}}.dump(2) << "\n";
        throw InfeasibleError(reason);
    }
}

/** The expert options on a model without experts would change nothing, silently. */
void refuseMixtureOfExpertsOptionsOnADenseModel(const ParsedArguments &a,
                                                const model::ModelSpec &spec)
{
    if (spec.experts > 1)
        return;
    for (const char *option : {"moe-capacity-factor", "moe-dispatcher", "moe-comm-overlap"})
        if (a.has(option))
            throw UsageError(std::string("--") + option + " applies to mixture-of-experts models; "
                             + (spec.name.empty() ? std::string("this model") : spec.name)
                             + " is dense");
}

/** The training job the options describe, without its model. */
model::TrainingJob trainingJobFromArguments(const ParsedArguments &a)
{
    model::TrainingJob job;
    job.seqLen = *a.integer("seq-len", 1, 1 << 24);
    job.globalBatch = *a.integer("global-batch", 1, 1 << 24);
    job.tokens = a.count("tokens", model::TrainingJob::maxTokens).value_or(0.0);
    // Fewer tokens than one step trains on is not a run (0.5 gave "training time 0.414 us").
    const double stepTokens = 1.0 * job.globalBatch * job.seqLen;
    if (job.tokens > 0 && job.tokens < stepTokens)
        throw UsageError("--tokens " + *a.value("tokens") + " is less than one step's "
                         + model::groupedCount(static_cast<long long>(stepTokens))
                         + " tokens (--global-batch x --seq-len)");
    job.precision = *model::precisionFromName(
        a.choice("precision", {"bf16", "fp16", "fp8"}).value_or("bf16"));
    if (auto id = a.choice("framework", model::trainingFrameworkIdList()))
        job.framework = *model::findTrainingFramework(*id);
    model::TrainingFramework &framework = job.framework;
    if (auto attention = a.choice("attention", {"flash", "unfused"}))
        framework.attention = *attention == "flash" ? model::AttentionKernel::Flash
                                                    : model::AttentionKernel::Unfused;
    framework.dpOverlapFraction
        = a.number("dp-overlap", 0.0, 1.0).value_or(framework.dpOverlapFraction);
    if (a.has("no-sequence-parallel"))
        framework.sequenceParallel = false;
    if (a.has("no-tp-comm-overlap"))
        framework.tpCommOverlap = false;
    if (a.has("moe-comm-overlap"))
        framework.moeCommOverlap = true;
    if (auto dispatcher = a.choice("moe-dispatcher", model::moeDispatcherIds()))
        framework.moeDispatcher = *model::moeDispatcherFromId(*dispatcher);
    if (auto crossEntropy = a.choice("cross-entropy", model::crossEntropyKernelIds()))
        framework.crossEntropy = *model::crossEntropyKernelFromId(*crossEntropy);
    if (a.has("grad-reduce-in-bf16"))
        framework.bf16GradientsInFp32 = false;
    job.moeCapacityFactor = a.number("moe-capacity-factor", 1.0, 16.0).value_or(1.0);
    job.activationOffloadLayers = a.integer("offload-activations", 0, 100000).value_or(0);
    job.allowTpAcrossNodes = a.has("allow-tp-across-nodes");
    model::ParallelismConstraints &k = job.constraints;
    for (const model::ParallelismDimension &d : model::parallelismDimensions()) {
        std::string option = d.key; // the plan's key, with '-' for '_'
        std::replace(option.begin(), option.end(), '_', '-');
        k.*d.member = a.integer(option, d.minimum, d.maximum);
    }
    if (auto recompute = a.choice("recompute", {"none", "selective", "full"}))
        k.recompute = model::recomputeFromName(*recompute);
    if (auto names = a.value("recompute-modules")) {
        std::string error;
        k.recomputeModules = model::recomputeModulesFromNames(splitList(*names, ','), &error);
        if (!k.recomputeModules)
            throw UsageError("--recompute-modules: " + error);
        if (k.recompute && *k.recompute != model::Recompute::Selective)
            throw UsageError("--recompute-modules needs --recompute selective (or no --recompute)");
    }
    return job;
}

/** The hardware around the run for its power, cost and failures. */
model::TrainingRunSetup runSetupFromArguments(const ParsedArguments &a,
                                              const model::Catalog &catalog,
                                              const model::ClusterDescription &cluster,
                                              const model::TrainingJob &job)
{
    model::TrainingRunSetup setup;
    setup.node = catalog.node(nodeIdFromArguments(a, catalog));
    setup.nic = catalog.nic(a.value("nic").value_or(setup.node.nicId));
    if (model::sameNicCard(catalog.nic(setup.node.nicId), setup.nic))
        setup.builtInNicsPerNode = setup.node.nicsPerNode;
    const std::string switchId
        = model::catalogSwitchForNic(catalog, setup.nic, cluster.switchPorts);
    if (switchId.empty())
        throw UsageError("no catalog switch carries " + setup.nic.id + " links");
    setup.networkSwitch = catalog.networkSwitch(switchId);
    const model::StorageSpec &storage
        = catalog.storage(a.value("storage").value_or("lustre-exascaler"));
    setup.storageSystems = a.integer("storage-systems", 1, 100000).value_or(1);
    model::addStorageSystems(setup.storage, storage, setup.storageSystems);
    if (auto dataset = a.value("dataset"))
        setup.dataset = catalog.dataset(*dataset);
    setup.sequenceTokens = job.seqLen;
    setup.trainingTokens = job.tokens;
    setup.asyncCheckpoints = a.has("async-checkpoint");
    setup.facility = catalog.facility(a.value("facility").value_or("dc-industry-average"));
    setup.spareNodes = a.integer("spare-nodes", 0, 1 << 20).value_or(-1);
    // A spare pool larger than the job replaces more servers than it has.
    if (setup.spareNodes > cluster.nodes())
        throw UsageError("--spare-nodes " + std::to_string(setup.spareNodes) + " is more than the "
                         + model::countOf(cluster.nodes(), "node", "nodes") + " of the job");
    setup.restartOverheadSeconds = a.number("restart-min", 0.0, 1e6).value_or(10.0) * 60.0;
    setup.lifetimeYears = a.number("lifetime-years", 0.1, 50.0).value_or(4.0);
    setup.hourlyUsdPerGpu = hourlyPrice(a);
    return setup;
}

/** What `train` found, everything its text and JSON outputs print. */
struct TrainCommandResult
{
    const model::TrainingSearchResult &result;
    const model::TrainingRunEstimate &run;
    const model::TrainingRunSetup &setup;
    const model::ClusterDescription &cluster;
    const model::TrainingJob &job;
    int gpus;
    std::string fabricNote;
    model::PublishedRunComparison published;
};

/** What `train --json` prints for the fastest layout: the estimate, the run and the alternatives.
 */
void printTrainingJson(const TrainCommandResult &r, std::ostream &out)
{
    const model::TrainingSearchResult &result = r.result;
    const model::TrainingRunSetup &setup = r.setup;
    const model::ClusterDescription &cluster = r.cluster;
    nlohmann::json json = model::trainingEstimateToJson(result.best);
    model::addTrainingRunToJson(json, r.run);
    json["storage"] = setup.storage.id;
    json["facility"] = setup.facility.id;
    json["switch"] = setup.networkSwitch.id;
    json["gpu"] = cluster.gpu.id;
    json["gpus"] = r.gpus;
    json["model"] = r.job.model.id;
    json["framework"] = r.job.framework.id;
    json["fabric"] = cluster.fabricName;
    json["fabric_model"] = r.fabricNote;
    json["buildings"] = cluster.buildings;
    if (cluster.buildings > 1)
        json["interconnect"] = {{"tbps_per_building",
                                 model::units::bytesPerSecondToTbitPerSecond(
                                     cluster.interconnectBytesPerSecondPerBuilding)},
                                {"latency_us", cluster.interconnectLatencySeconds * 1e6},
                                {"capital_usd", setup.interconnectUsd},
                                {"kw", setup.interconnectWatts / 1e3}};
    json["configurations_evaluated"] = result.evaluated;
    json["configurations_pruned"] = result.pruned;
    json["largest_fitting_microbatch"] = result.largestFittingMicrobatch;
    json["memory_headroom_gib"]
        = (result.best.memoryCapacityBytes - result.best.memory.totalBytes()) / model::units::gibi;
    nlohmann::json alternatives = nlohmann::json::array();
    for (std::size_t i = 1; i < result.top.size(); ++i)
        alternatives.push_back(model::trainingEstimateToJson(result.top[i]));
    json["alternatives"] = std::move(alternatives);
    json["published_runs"] = model::publishedRunComparisonToJson(r.published);
    // The text's note on a mixture of experts left on the all-to-all dispatcher without overlap:
    // the options and the fastest layout with them (null when they would not help by 5%).
    if (const auto faster = model::fasterWithExpertParallelOptions(r.job, r.cluster, result.best))
        json["faster_with_expert_parallel_options"]
            = {{"options", {"--moe-dispatcher deepep", "--moe-comm-overlap"}},
               {"estimate", model::trainingEstimateToJson(*faster)}};
    else
        json["faster_with_expert_parallel_options"] = nullptr;
    out << json.dump(2) << "\n";
}

void printTrainingText(const ParsedArguments &a, const TrainCommandResult &r, std::ostream &out)
{
    const model::TrainingSearchResult &result = r.result;
    const model::ClusterDescription &cluster = r.cluster;
    const model::TrainingJob &job = r.job;
    const int topCount = a.integer("top", 0, 10).value_or(5);
    out << "Training " << job.model.name << " on " << r.gpus << " x " << cluster.gpu.name << " ("
        << cluster.gpusPerNode << " per node), " << cluster.fabricName << "\n"
        << "Software: " << job.framework.name << "\n"
        << r.fabricNote << "\n";
    out << "Searched " << model::countOf(result.evaluated, "layout", "layouts");
    if (result.pruned > 0)
        out << " (and skipped " << model::groupedCount(result.pruned)
            << " interleaved schedules the pipeline cannot run)";
    out << "; the fastest that fits:\n\n";
    out << renderTrainingEstimate(result.best, &r.published);
    if (a.has("explain"))
        out << "\n" << renderTrainingOperations(result.best) << "\n";
    out << "Largest microbatch that fits with this layout: " << result.largestFittingMicrobatch
        << "\n\n";
    out << renderTrainingRun(r.run, r.setup);
    if (const auto faster = model::fasterWithExpertParallelOptions(r.job, r.cluster, result.best)) {
        out << "note: with --moe-dispatcher deepep --moe-comm-overlap (Megatron-Core 0.14's "
               "DeepEP dispatcher and expert-parallel overlap) the fastest layout, "
            << model::layoutDescription(faster->config) << ", steps in "
            << format("%.3g s", faster->stepSeconds) << " against "
            << format("%.3g s", result.best.stepSeconds) << " ("
            << format("%.0f%%", 100 * (1 - faster->stepSeconds / result.best.stepSeconds))
            << " less)\n";
    }
    if (topCount > 0 && result.top.size() > 1) {
        out << "\nFastest layouts:\n";
        std::vector<model::TrainingEstimate> top(
            result.top.begin(),
            result.top.begin() + std::min<std::size_t>(topCount, result.top.size()));
        out << renderTrainingAlternatives(top);
    }
}

} // namespace

int runTrainCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = trainOptions();
    const ParsedArguments a = parseArguments(args, specs, "train");
    if (a.has("help")) {
        out << usageText("clusterplanner-cli train --gpu ID --gpus N --model ID --seq-len S "
                         "--global-batch B [options]",
                         specs);
        return ExitOk;
    }
    if (!a.positional.empty())
        throw UsageError("unexpected argument '" + a.positional[0] + "'");
    // Check every option's syntax before touching the catalog, so usage errors come first.
    if (!a.has("gpus"))
        throw UsageError("missing required option '--gpus'");
    const int gpus = *a.integer("gpus", 1, 10000000);
    if (!a.has("seq-len"))
        throw UsageError("missing required option '--seq-len'");
    if (!a.has("global-batch"))
        throw UsageError("missing required option '--global-batch'");

    model::TrainingJob job = trainingJobFromArguments(a);
    a.integer("top", 0, 10); // checked with the other options, before the catalog
    const model::Catalog &catalog = context.catalog();
    job.model = modelFromArguments(a, catalog);
    refuseMixtureOfExpertsOptionsOnADenseModel(a, job.model);
    // Multi-token prediction is a choice of the run (Megatron-Core's mtp_num_layers), over the
    // model's published depth: 0 trains DeepSeek-V3 without its MTP block.
    if (auto mtp = a.integer("mtp-layers", 0, model::ModelSpec::maxMtpLayers))
        job.model.mtpLayers = *mtp;
    model::ClusterDescription cluster = clusterFromArguments(a, catalog, gpus);
    const model::CampusPlan campus = campusFromArguments(a, cluster);
    std::optional<model::FabricHardwareCount> fabricHardware;
    const std::string fabricNote = measureFabric(a, cluster, campus, fabricHardware, out);
    const model::TrainingEstimator estimator(job, cluster);
    const model::TrainingSearchResult result = estimator.search();
    if (!result.found) {
        if (a.has("json"))
            out << nlohmann::json {{"fits", false}, {"reason", result.reason}}.dump(2) << "\n";
        throw InfeasibleError(result.reason);
    }

    model::TrainingRunSetup setup = runSetupFromArguments(a, catalog, cluster, job);
    setup.interconnectUsd = campus.interconnectUsd();
    setup.interconnectWatts = campus.interconnectWatts();
    model::TrainingRunEstimate run
        = model::estimateTrainingRun(cluster, job.model, result.best, setup, fabricHardware);
    // A count the batch, heads and layers divide badly: say when fewer of the GPUs run faster.
    if (const auto fewer = model::fasterOnFewerGpus(job, cluster, result.best))
        run.notes.push_back(model::fewerGpusFasterText(*fewer, cluster.gpus, result.best));

    const TrainCommandResult output {
        result,
        run,
        setup,
        cluster,
        job,
        gpus,
        fabricNote,
        model::compareWithPublishedRuns(
            catalog, model::publishedRunQuery(job, cluster.gpu.id, result.best.mfu))};
    if (a.has("json"))
        printTrainingJson(output, out);
    else
        printTrainingText(a, output, out);
    return ExitOk;
}

} // namespace cp::cli
