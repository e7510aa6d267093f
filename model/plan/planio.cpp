// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/plan/planio.h"

#include "model/inference/servingengine.h"

#include "model/catalog/catalog.h"
#include "model/core/atomicfile.h"
#include "model/core/humantext.h"
#include "model/core/inputerror.h"
#include "model/core/jsonfieldreader.h"
#include "model/core/units.h"
#include "model/inference/diurnalautoscaling.h"
#include "model/inference/inferenceestimate.h"
#include "model/plan/scenarios.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <regex>
#include <unordered_set>

namespace cp::model {

int Plan::totalNodes() const
{
    // 64-bit sum: a plan may hold more groups than an int of nodes can count; checkPlanSize
    // refuses those, and this saturates rather than wrapping for an unchecked plan.
    const long long total
        = std::accumulate(nodeGroups.begin(), nodeGroups.end(), 0LL,
                          [](long long sum, const NodeGroup &group) { return sum + group.count; });
    return static_cast<int>(std::min<long long>(total, std::numeric_limits<int>::max()));
}

void checkPlanSize(const Plan &plan, const Catalog &catalog, const std::string &file)
{
    // Estimates count nodes and GPUs in int (64 groups of 4,194,304 eight-GPU servers printed
    // "GPUs -2147483648"): sum in 64 bits and refuse what an int cannot hold.
    constexpr long long limit = std::numeric_limits<int>::max();
    long long nodes = 0;
    long long gpus = 0;
    for (const NodeGroup &group : plan.nodeGroups) {
        nodes += group.count;
        if (catalog.kindOf(group.nodeId) == CatalogKind::Node)
            gpus += 1LL * group.count * catalog.node(group.nodeId).gpusPerNode;
    }
    if (nodes > limit || gpus > limit)
        throw InputError(file, "/nodes",
                         "the plan holds " + std::to_string(nodes) + " servers with "
                             + std::to_string(gpus) + " GPUs, more than the "
                             + std::to_string(limit) + " an estimate can count");
    const long long campusGpus = gpus * plan.campus.buildings;
    if (campusGpus > limit)
        throw InputError(file, "/campus/buildings",
                         std::to_string(plan.campus.buildings) + " buildings of "
                             + std::to_string(gpus) + " GPUs are " + std::to_string(campusGpus)
                             + ", more than the " + std::to_string(limit)
                             + " an estimate can count");
}

namespace {

const std::vector<std::string> topologies
    = {"fat-tree", "rail-fat-tree", "dragonfly", "torus", "none"};
const std::vector<std::string> precisions = {"fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4"};

/** Servers a cabinet takes can be no more than its rack units hold (40 DGX H100 of 8U in a 42U
 * rack were accepted, 320U, and drawn as one cabinet); power and weight over its limits stay
 * warnings, since a hall may feed and floor a cabinet beyond its catalog figures. */
void checkServersFitTheRack(const Catalog *catalog, JsonFieldReader &reader, const NodeGroup &group)
{
    if (!catalog || group.nodesPerRack <= 0 || group.rackId.empty())
        return;
    const NodeSpec &node = catalog->node(group.nodeId);
    const RackSpec &rack = catalog->rack(group.rackId);
    if (node.rackUnits <= 0 || 1LL * group.nodesPerRack * node.rackUnits <= rack.rackUnits)
        return;
    reader.fail("nodes_per_rack",
                std::to_string(group.nodesPerRack) + " servers of " + std::to_string(node.rackUnits)
                    + "U take " + std::to_string(1LL * group.nodesPerRack * node.rackUnits)
                    + "U, and a " + rack.name + " has " + std::to_string(rack.rackUnits) + "U"
                    + (node.rackUnits > rack.rackUnits ? std::string(": one does not fit")
                                                       : ": at most "
                               + std::to_string(rack.rackUnits / node.rackUnits) + " a cabinet"));
}

void checkReference(const Catalog *catalog, JsonFieldReader &reader, const char *key,
                    const std::string &id, CatalogKind kind)
{
    if (!catalog || id.empty())
        return;
    const auto found = catalog->kindOf(id);
    if (!found)
        reader.fail(key,
                    "unknown " + catalogKindKey(kind) + " id '" + id + "' (see 'catalog list "
                        + catalogKindKey(kind) + "')");
    if (*found != kind)
        reader.fail(key,
                    "'" + id + "' is in " + catalogKindKey(*found) + ", expected an entry of "
                        + catalogKindKey(kind));
}

void readTraining(JsonFieldReader &w, Plan &plan, const Catalog *catalog)
{
    plan.trainingModelId = w.string("model");
    checkReference(catalog, w, "model", plan.trainingModelId, CatalogKind::Model);
    plan.trainingMtpLayers = w.optionalInteger("mtp_layers", 0, ModelSpec::maxMtpLayers);
    plan.trainingDatasetId = w.optionalString("dataset").value_or("");
    if (!plan.trainingDatasetId.empty())
        checkReference(catalog, w, "dataset", plan.trainingDatasetId, CatalogKind::Dataset);
    TrainingJob &job = plan.training;
    job.seqLen = w.integer("seq_len", 1, 1 << 24);
    job.globalBatch = w.integer("global_batch", 1, 1 << 24);
    job.tokens = w.optionalNumber("tokens", {0.0, TrainingJob::maxTokens, true}).value_or(0.0);
    // Fewer tokens than one step trains on is not a run ("1.24 us to train" beside a 3.5 s
    // step), as `train --tokens` refuses it.
    const double stepTokens = 1.0 * job.seqLen * job.globalBatch;
    if (job.tokens > 0 && job.tokens < stepTokens)
        w.fail("tokens",
               formatNumber("%.6g", job.tokens) + " is less than one step's "
                   + groupedCount(static_cast<long long>(stepTokens))
                   + " tokens (global_batch x seq_len)");
    job.precision = *precisionFromName(
        w.optionalChoice("precision", {"bf16", "fp16", "fp8"}).value_or("bf16"));
    if (auto id = w.optionalChoice("framework", trainingFrameworkIdList()))
        job.framework = *findTrainingFramework(*id);
    // Overrides of single settings of the framework profile.
    TrainingFramework &framework = job.framework;
    if (auto attention = w.optionalChoice("attention", {"flash", "unfused"}))
        framework.attention
            = *attention == "flash" ? AttentionKernel::Flash : AttentionKernel::Unfused;
    framework.dpOverlapFraction
        = w.optionalNumber("dp_overlap", {0.0, 1.0, false}).value_or(framework.dpOverlapFraction);
    framework.sequenceParallel
        = w.optionalBool("sequence_parallel").value_or(framework.sequenceParallel);
    framework.tpCommOverlap = w.optionalBool("tp_comm_overlap").value_or(framework.tpCommOverlap);
    framework.moeCommOverlap
        = w.optionalBool("moe_comm_overlap").value_or(framework.moeCommOverlap);
    if (auto dispatcher = w.optionalChoice("moe_dispatcher", moeDispatcherIds()))
        framework.moeDispatcher = *moeDispatcherFromId(*dispatcher);
    if (auto crossEntropy = w.optionalChoice("cross_entropy", crossEntropyKernelIds()))
        framework.crossEntropy = *crossEntropyKernelFromId(*crossEntropy);
    framework.bf16GradientsInFp32
        = w.optionalBool("grad_reduce_in_fp32").value_or(framework.bf16GradientsInFp32);
    job.allowTpAcrossNodes = w.optionalBool("allow_tp_across_nodes").value_or(false);
    plan.asyncCheckpoints = w.optionalBool("async_checkpoint").value_or(false);
    job.moeCapacityFactor
        = w.optionalNumber("moe_capacity_factor", {1.0, 16.0, false}).value_or(1.0);
    job.activationOffloadLayers
        = w.optionalInteger("activation_offload_layers", 0, 100000).value_or(0);
    ParallelismConstraints &k = job.constraints;
    for (const ParallelismDimension &d : parallelismDimensions())
        k.*d.member = w.optionalInteger(d.key, d.minimum, d.maximum);
    if (auto recompute = w.optionalChoice("recompute", {"none", "selective", "full"}))
        k.recompute = recomputeFromName(*recompute);
    // Modules name what selective recomputation repeats: with none or full they would be ignored.
    k.recomputeModules = readRecomputeModules(w, "recompute_modules");
    if (k.recomputeModules && k.recompute && *k.recompute != Recompute::Selective)
        w.fail("recompute_modules",
               "recompute modules need \"recompute\": \"selective\" (or "
               "no recompute, which they fix to selective)");
}

void readInference(JsonFieldReader &w, Plan &plan, const Catalog *catalog)
{
    InferenceWorkload &inf = plan.inference;
    inf.modelId = w.string("model");
    checkReference(catalog, w, "model", inf.modelId, CatalogKind::Model);
    inf.precision
        = *precisionFromName(w.choice("precision", {"fp16", "bf16", "fp8", "int8", "int4"}));
    inf.kvPrecision = *precisionFromName(
        w.optionalChoice("kv_precision", {"fp16", "bf16", "fp8", "int8"}).value_or("fp16"));
    inf.inputTokens = w.integer("input_tokens", 1, 1 << 24);
    inf.outputTokens = w.integer("output_tokens", 1, 1 << 24);
    inf.batch = w.optionalInteger("batch", 1, 1 << 20);
    // The CLI's ranges (infer --rate, --ttft-p95-ms, --tpot-p95-ms).
    inf.ratePerSecond = w.optionalNumber("rate_per_s", {0.0, 1e12, true});
    inf.ttftP95Ms = w.optionalNumber("ttft_p95_ms", {0.0, 1e9, true});
    inf.tpotP95Ms = w.optionalNumber("tpot_p95_ms", {0.0, 1e9, true});
    inf.gpusPerReplica = w.optionalInteger("gpus_per_replica", 1, 1 << 16);
    inf.pipelineStages = w.optionalInteger("pipeline_stages", 1, 1024);
    inf.engineId = w.optionalChoice("engine", servingEngineIdList()).value_or("");
    inf.maxBatch = w.optionalInteger("max_batch", 1, 1 << 20);
    inf.replicas = w.optionalInteger("replicas", 1, 1 << 20);
    inf.offlineRequests = w.optionalLargeInteger("requests", 1, InferenceJob::maxOfflineRequests);
    if (inf.offlineRequests && inf.ratePerSecond)
        w.fail("requests",
               "an offline job queues its requests at once; give either requests or rate_per_s");
    // Replicas without a rate or a job: the fleet's capacity within the targets. A fixed
    // batch would leave it no load to take.
    if (inf.replicas && inf.batch && !inf.ratePerSecond && !inf.offlineRequests)
        w.fail("batch",
               "a fixed fleet without a rate is asked for the load it takes within the "
               "targets; a fixed batch leaves it none: remove batch or replicas");
    if (const nlohmann::json *speculative = w.optionalObject("speculative")) {
        JsonFieldReader spec(*speculative, w.file(), w.childPointer("speculative"));
        inf.speculative.enabled = true;
        inf.speculative.draftTokens = spec.integer("draft_tokens", 1, 64);
        inf.speculative.acceptanceRate = spec.number("acceptance_rate", {0.0, 1.0, false});
        inf.speculative.draftModelId = spec.optionalString("draft_model").value_or("");
        if (!inf.speculative.draftModelId.empty()) {
            checkReference(catalog, spec, "draft_model", inf.speculative.draftModelId,
                           CatalogKind::Model);
            if (catalog)
                if (const std::string problem = draftModelProblem(
                        catalog->llm(inf.speculative.draftModelId), catalog->llm(inf.modelId));
                    !problem.empty())
                    spec.fail("draft_model", problem);
        }
        spec.finish();
    }
    if (inf.batch && inf.ratePerSecond)
        w.fail("batch", "give either batch or rate_per_s, not both");
    if (const nlohmann::json *diurnal = w.optionalArray("diurnal")) {
        if (!inf.ratePerSecond)
            w.fail("diurnal", "a diurnal profile scales rate_per_s, the peak hour's rate: set it");
        inf.diurnalRates.clear();
        for (std::size_t h = 0; h < diurnal->size(); ++h) {
            if (!(*diurnal)[h].is_number())
                throw InputError(w.file(), w.childPointer("diurnal") + "/" + std::to_string(h),
                                 "an hourly rate must be a number");
            inf.diurnalRates.push_back((*diurnal)[h].get<double>());
        }
        try {
            diurnalProfileFromHourlyRates(inf.diurnalRates, w.file());
        } catch (const InputError &error) {
            throw InputError(w.file(), w.childPointer("diurnal") + error.pointer(), error.reason());
        }
        if (inf.replicas)
            w.fail("replicas",
                   "a fixed fleet cannot follow the diurnal profile's hours; remove "
                   "one of replicas and diurnal");
    }
}

/**
 * fabric.failed_switches: the failure what-if, as generated switch labels. Only their form is
 * checked here (the plan file is read without generating its fabric); whether the fabric has the
 * switch is checked where it is generated, and that error names the same JSON pointer.
 */
std::vector<std::string> readFailedSwitches(JsonFieldReader &f)
{
    const nlohmann::json *list = f.optionalArray("failed_switches");
    if (!list)
        return {};
    static const std::regex label("leaf-[0-9]+|leaf-su[0-9]+-rail[0-9]+"
                                  "|(plane[0-9]+-)?(spine|core|super)-[0-9]+"
                                  "|router-g[0-9]+-r[0-9]+");
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string pointer = f.childPointer("failed_switches") + "/" + std::to_string(i);
        const nlohmann::json &item = (*list)[i];
        if (!item.is_string())
            throw InputError(f.file(), pointer,
                             "expected a switch label such as \"spine-0\", not "
                                 + jsonTypeName(item));
        const std::string text = item.get<std::string>();
        if (!std::regex_match(text, label))
            throw InputError(f.file(), pointer,
                             "\"" + text
                                 + "\" is not a switch label (leaf-N, leaf-suN-railM, spine-N, "
                                   "core-N, super-N, planeP-spine-N or router-gN-rM)");
        if (std::find(labels.begin(), labels.end(), text) != labels.end())
            throw InputError(f.file(), pointer, "switch \"" + text + "\" is listed twice");
        labels.push_back(text);
    }
    return labels;
}

/**
 * `fabric.failed_links`: cables as "A:B" label pairs. The shape is checked here; whether the
 * fabric has such a cable (and as many as listed) is checked where it is generated, under the
 * same JSON pointer.
 */
std::vector<std::string> readFailedLinks(JsonFieldReader &f)
{
    const nlohmann::json *list = f.optionalArray("failed_links");
    if (!list)
        return {};
    // More cables than the largest fabric has would only be a typo or a hostile file.
    constexpr std::size_t maxFailedLinks = 1 << 20;
    if (list->size() > maxFailedLinks)
        throw InputError(f.file(), f.childPointer("failed_links"),
                         std::to_string(list->size()) + " failed cables: at most "
                             + std::to_string(maxFailedLinks) + " may be listed");
    static const std::regex end("[a-z]+(-[a-z]*[0-9]+)+");
    std::vector<std::string> links;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string pointer = f.childPointer("failed_links") + "/" + std::to_string(i);
        const nlohmann::json &item = (*list)[i];
        if (!item.is_string())
            throw InputError(f.file(), pointer,
                             "expected a cable as \"A:B\" such as \"leaf-0:spine-1\", not "
                                 + jsonTypeName(item));
        const std::string text = item.get<std::string>();
        const std::size_t colon = text.find(':');
        const bool wellFormed = colon != std::string::npos
            && std::regex_match(text.substr(0, colon), end)
            && std::regex_match(text.substr(colon + 1), end);
        if (!wellFormed)
            throw InputError(f.file(), pointer,
                             "\"" + text
                                 + "\" is not a cable: give the labels of its two ends as "
                                   "\"A:B\", e.g. \"leaf-0:spine-1\"");
        if (text.substr(0, colon) == text.substr(colon + 1))
            throw InputError(f.file(), pointer,
                             "\"" + text + "\" joins a vertex to itself: no cable does");
        links.push_back(text);
    }
    return links;
}

} // namespace

namespace {

/** A room of 10,000 rows (24 km at a 2.4 m pitch) is beyond any data hall; the layout sizes its
 * row table by the highest row a group asks for. */
constexpr int maxHallRow = 9999;

/** Refuses a file of another format or version before reading anything else. */
void checkFormatAndVersion(JsonFieldReader &root)
{
    const std::string format = root.string("format");
    if (format != Plan::formatName)
        root.fail("format",
                  std::string("must be \"") + Plan::formatName + "\", found \"" + format + "\"");
    const int version = root.integer("version", 1, 1 << 20);
    if (version != Plan::formatVersion)
        root.fail("version",
                  "plan format version " + std::to_string(version)
                      + " is not supported (this program reads version "
                      + std::to_string(Plan::formatVersion) + ")");
}

/** Refuses the array at `key` when it lists more than `most` entries: "<count> <entries>; a plan
 *  holds at most <most><remedy>". */
void refuseMoreThan(JsonFieldReader &root, const char *key, std::size_t count, std::size_t most,
                    const std::string &entries, const std::string &remedy)
{
    if (count > most)
        root.fail(key,
                  std::to_string(count) + " " + entries + "; a plan holds at most "
                      + groupedCount(static_cast<long long>(most)) + remedy);
}

void readNodeGroups(JsonFieldReader &root, const std::string &file, const Catalog *catalog,
                    Plan &plan)
{
    // A plan may have no servers yet: the desktop program starts from one and saves it.
    const nlohmann::json &nodes = root.array("nodes");
    refuseMoreThan(root, "nodes", nodes.size(), Plan::maxNodeGroups, "server groups",
                   ": give groups of one server type one group and a count");
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        JsonFieldReader g(nodes[i], file, "/nodes/" + std::to_string(i));
        NodeGroup group;
        group.name = g.optionalString("name").value_or("");
        group.nodeId = g.string("node");
        checkReference(catalog, g, "node", group.nodeId, CatalogKind::Node);
        group.count = g.integer("count", 1, NodeGroup::maxCount);
        group.rackId = g.optionalString("rack").value_or("");
        checkReference(catalog, g, "rack", group.rackId, CatalogKind::Rack);
        group.nodesPerRack
            = g.optionalInteger("nodes_per_rack", 1, NodeGroup::maxNodesPerRack).value_or(0);
        if (group.nodesPerRack > 0 && group.rackId.empty())
            g.fail("nodes_per_rack", "needs a rack");
        checkServersFitTheRack(catalog, g, group);
        group.onFabric = g.optionalBool("on_fabric").value_or(true);
        group.hallRow = g.optionalInteger("hall_row", 0, maxHallRow).value_or(-1);
        if (group.hallRow >= 0 && group.rackId.empty())
            g.fail("hall_row", "needs a rack");
        g.finish();
        plan.nodeGroups.push_back(std::move(group));
    }
}

void readFabric(JsonFieldReader &root, const std::string &file, const Catalog *catalog, Plan &plan)
{
    if (const nlohmann::json *fabric = root.optionalObject("fabric")) {
        JsonFieldReader f(*fabric, file, "/fabric");
        plan.fabric.topology = f.choice("topology", topologies);
        plan.fabric.nicId = f.optionalString("nic").value_or("");
        checkReference(catalog, f, "nic", plan.fabric.nicId, CatalogKind::Nic);
        plan.fabric.nicsPerNode = f.optionalInteger("nics_per_node", 1, 64).value_or(0);
        plan.fabric.switchId = f.optionalString("switch").value_or("");
        checkReference(catalog, f, "switch", plan.fabric.switchId, CatalogKind::Switch);
        // 0 (or absent): the fewest tiers that hold the NICs; 1: one switch; 2 to 4 as given.
        plan.fabric.tiers = f.optionalInteger("tiers", 0, 4).value_or(0);
        if (const nlohmann::json *d = f.optionalObject("dragonfly")) {
            JsonFieldReader r(*d, file, "/fabric/dragonfly");
            plan.fabric.dragonflyA = r.optionalInteger("a", 0, 4096).value_or(0);
            plan.fabric.dragonflyP = r.optionalInteger("p", 0, 4096).value_or(0);
            plan.fabric.dragonflyH = r.optionalInteger("h", 0, 4096).value_or(0);
            plan.fabric.dragonflyGroups = r.optionalInteger("groups", 0, 1 << 20).value_or(0);
            r.finish();
        }
        plan.fabric.torusDims = f.optionalString("torus_dims").value_or("");
        plan.fabric.nodesPerScalableUnit
            = f.optionalInteger("nodes_per_scalable_unit", 1, 4096).value_or(0);
        // A rail fabric's; kept for other topologies (a scenario may switch back to rails)
        // and reported by the estimate there.
        plan.fabric.multiPlane = f.optionalBool("multi_plane").value_or(false);
        plan.fabric.oversubscription
            = f.optionalNumber("oversubscription", {1.0, 64.0, false}).value_or(1.0);
        if (auto rate = f.optionalNumber("storage_network_gb_per_s", {0.0, 1e6, false}))
            plan.fabric.storageNetworkBytesPerSecond = units::gbToBytes(*rate);
        plan.fabric.failedSwitches = readFailedSwitches(f);
        plan.fabric.failedLinks = readFailedLinks(f);
        f.finish();
    } else {
        plan.fabric.topology = "none";
    }
}

void readStorage(JsonFieldReader &root, const std::string &file, const Catalog *catalog, Plan &plan)
{
    if (const nlohmann::json *storage = root.optionalArray("storage")) {
        refuseMoreThan(root, "storage", storage->size(), Plan::maxStorageEntries, "storage entries",
                       ": give systems of one type one entry and a count");
        for (std::size_t i = 0; i < storage->size(); ++i) {
            JsonFieldReader s((*storage)[i], file, "/storage/" + std::to_string(i));
            StoragePlan item;
            item.storageId = s.string("storage");
            checkReference(catalog, s, "storage", item.storageId, CatalogKind::Storage);
            item.count = s.integer("count", 1, 100000);
            item.onFabric = s.optionalBool("on_fabric").value_or(true);
            s.finish();
            plan.storage.push_back(item);
        }
    }
}

void readFacility(JsonFieldReader &root, const std::string &file, const Catalog *catalog,
                  Plan &plan)
{
    if (const nlohmann::json *facility = root.optionalObject("facility")) {
        JsonFieldReader f(*facility, file, "/facility");
        plan.facility.facilityId = f.string("facility");
        checkReference(catalog, f, "facility", plan.facility.facilityId, CatalogKind::Facility);
        plan.facility.pue = f.optionalNumber("pue", {1.0, 5.0, false});
        plan.facility.electricityUsdPerKwh
            = f.optionalNumber("electricity_usd_per_kwh", nonNegative);
        plan.facility.carbonKgPerKwh = f.optionalNumber("carbon_kg_per_kwh", nonNegative);
        if (const auto kw = f.optionalNumber("power_limit_kw", {0.0, 1e9, true}))
            plan.facility.powerLimitWatts = *kw * 1e3;
        f.finish();
    }
}

/** The room's dimensions; absent keys keep the defaults (HallPlan). */
void readHall(JsonFieldReader &root, const std::string &file, Plan &plan)
{
    const nlohmann::json *hall = root.optionalObject("hall");
    if (!hall)
        return;
    JsonFieldReader h(*hall, file, "/hall");
    plan.hall.cabinetsPerRow = h.optionalInteger("cabinets_per_row", 1, 1000).value_or(10);
    plan.hall.rowPitchMeters = h.optionalNumber("row_pitch_m", {0.5, 20.0, false}).value_or(2.4);
    plan.hall.cabinetWidthMeters
        = h.optionalNumber("cabinet_width_m", {0.3, 1.5, false}).value_or(0.6);
    h.finish();
}

/** The buildings the plan is copied into and their interconnect (CampusPlan). */
void readCampus(JsonFieldReader &root, const std::string &file, Plan &plan)
{
    const nlohmann::json *campus = root.optionalObject("campus");
    if (!campus)
        return;
    JsonFieldReader c(*campus, file, "/campus");
    plan.campus.buildings = c.optionalInteger("buildings", 1, 1024).value_or(1);
    // train --interconnect-tbps's range: a gigabit to an exabit per second.
    const std::optional<double> tbps = c.optionalNumber("interconnect_tbps", {1e-3, 1e6, false});
    if (plan.campus.buildings > 1 && !tbps)
        c.fail("interconnect_tbps",
               "more than one building needs the interconnect's capacity out of each building");
    plan.campus.interconnectBytesPerSecondPerBuilding
        = units::tbitPerSecondToBytesPerSecond(tbps.value_or(0.0));
    plan.campus.distanceKm = c.optionalNumber("distance_km", {0.0, 20000.0, false}).value_or(2.0);
    plan.campus.usdPerGbps = c.optionalNumber("usd_per_gbps", nonNegative).value_or(0.0);
    plan.campus.wattsPerGbps = c.optionalNumber("watts_per_gbps", nonNegative).value_or(0.0);
    c.finish();
}

/** One job class of the portfolio; sizes beyond the cluster are refused when simulating. */
JobClass readJobClass(JsonFieldReader &c, const Catalog *catalog)
{
    JobClass job;
    job.name = c.string("name");
    if (job.name.empty())
        c.fail("name", "a job class needs a name");
    job.gpus = c.integer("gpus", 1, 1 << 24);
    // A runtime as given, or one the training estimator works out from a model and tokens.
    if (const std::optional<std::string> model = c.optionalString("model")) {
        job.modelId = *model;
        checkReference(catalog, c, "model", job.modelId, CatalogKind::Model);
        job.tokensPerJob = c.number("tokens", {1e6, 1e15, false});
        if (c.optionalNumber("runtime_h", {0.0, 1e5, false}))
            c.fail("runtime_h", "give runtime_h, or model and tokens, not both");
        job.meanRuntimeSeconds = 0; // estimated when simulated
    } else {
        job.meanRuntimeSeconds = c.number("runtime_h", {1.0 / 3600, 1e5, false}) * 3600.0;
    }
    job.runtimeCv = c.optionalNumber("runtime_cv", {0.0, 20.0, false}).value_or(1.0);
    job.arrivalsPerSecond = c.number("per_day", {0.0, 1e7, false}) / 86400.0;
    job.priority = c.optionalInteger("priority", -1000000, 1000000).value_or(0);
    job.checkpointIntervalSeconds
        = c.optionalNumber("checkpoint_min", {0.0, 1e7, false}).value_or(0.0) * 60.0;
    job.partition = c.optionalString("partition").value_or("");
    job.maxRunningGpus = c.optionalInteger("max_gpus", 1, 1 << 24).value_or(0);
    if (job.maxRunningGpus > 0 && job.maxRunningGpus < job.gpus)
        c.fail("max_gpus",
               "a limit of " + std::to_string(job.maxRunningGpus) + " GPUs never lets a job of "
                   + std::to_string(job.gpus) + " GPUs start");
    // Up to 0.95: a job that only communicates has no runtime to slow down against.
    job.networkShare = c.optionalNumber("network_share", {0.0, 0.95, false});
    return job;
}

/** A serving fleet: `replicas` all day, or `replicas_by_hour` (24 counts, hour 0 first). */
ServiceClass readServiceClass(JsonFieldReader &v)
{
    ServiceClass service;
    service.name = v.string("name");
    if (service.name.empty())
        v.fail("name", "a service needs a name");
    service.gpusPerReplica = v.integer("gpus_per_replica", 1, 1 << 20);
    if (const nlohmann::json *hours = v.optionalArray("replicas_by_hour")) {
        if (hours->size() != 24)
            v.fail("replicas_by_hour",
                   "needs 24 counts (hour 0 to 23), found " + std::to_string(hours->size()));
        for (std::size_t h = 0; h < hours->size(); ++h) {
            const nlohmann::json &count = (*hours)[h];
            if (!count.is_number_integer() || count.get<long long>() < 0
                || count.get<long long>() > 1000000)
                throw InputError(v.file(),
                                 v.childPointer("replicas_by_hour") + "/" + std::to_string(h),
                                 "expected a replica count from 0 to 1,000,000");
            service.replicasByHour.push_back(count.get<int>());
        }
        if (v.optionalInteger("replicas", 0, 1000000))
            v.fail("replicas", "give replicas or replicas_by_hour, not both");
    } else {
        service.replicasByHour.assign(24, v.integer("replicas", 0, 1000000));
    }
    return service;
}

void readPortfolio(JsonFieldReader &root, const std::string &file, const Catalog *catalog,
                   Plan &plan)
{
    const nlohmann::json *portfolio = root.optionalObject("portfolio");
    if (!portfolio)
        return;
    JsonFieldReader p(*portfolio, file, "/portfolio");
    const std::string policy
        = p.optionalChoice("policy", {"backfill", "fifo", "kueue"}).value_or("backfill");
    plan.portfolio.policy = policy == "fifo" ? SchedulingPolicy::Fifo
        : policy == "kueue"                  ? SchedulingPolicy::BestEffortFifo
                                             : SchedulingPolicy::EasyBackfill;
    plan.portfolio.spread
        = p.optionalChoice("placement", {"binpack", "spread"}).value_or("binpack") == "spread";
    plan.portfolio.topologyAware = p.optionalBool("topology_aware").value_or(true);
    plan.portfolio.servicesPreempt = p.optionalBool("services_preempt").value_or(false);
    const nlohmann::json *services = p.optionalArray("services");
    if (services)
        refuseMoreThan(p, "services", services->size(), Plan::maxPortfolioEntries, "services",
                       ": describe services of one kind as one service with its replicas");
    if (services)
        for (std::size_t i = 0; i < services->size(); ++i) {
            JsonFieldReader v((*services)[i], file, "/portfolio/services/" + std::to_string(i));
            plan.portfolio.services.push_back(readServiceClass(v));
            v.finish();
        }
    const nlohmann::json &classes = p.array("classes");
    refuseMoreThan(p, "classes", classes.size(), Plan::maxPortfolioEntries, "job classes",
                   ": describe jobs of one kind as one class with its rate");
    std::unordered_set<std::string> names;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        JsonFieldReader c(classes[i], file, "/portfolio/classes/" + std::to_string(i));
        JobClass job = readJobClass(c, catalog);
        if (!names.insert(job.name).second)
            c.fail("name", "'" + job.name + "' names another class too");
        const bool knownPartition = job.partition.empty()
            || std::any_of(plan.nodeGroups.begin(), plan.nodeGroups.end(),
                           [&](const NodeGroup &group) { return group.name == job.partition; });
        if (!knownPartition)
            c.fail("partition",
                   "no server group is named '" + job.partition
                       + "' (a partition is one of the plan's server groups)");
        c.finish();
        plan.portfolio.classes.push_back(std::move(job));
    }
    p.finish();
}

nlohmann::json portfolioToJson(const PortfolioPlan &portfolio)
{
    nlohmann::json classes = nlohmann::json::array();
    for (const JobClass &job : portfolio.classes) {
        nlohmann::json c = {{"name", job.name},
                            {"gpus", job.gpus},
                            {"runtime_h", job.meanRuntimeSeconds / 3600.0},
                            {"per_day", job.arrivalsPerSecond * 86400.0}};
        if (job.runtimeCv != 1.0)
            c["runtime_cv"] = job.runtimeCv;
        if (job.priority != 0)
            c["priority"] = job.priority;
        if (job.checkpointIntervalSeconds > 0)
            c["checkpoint_min"] = job.checkpointIntervalSeconds / 60.0;
        if (!job.partition.empty())
            c["partition"] = job.partition;
        if (job.maxRunningGpus > 0)
            c["max_gpus"] = job.maxRunningGpus;
        if (job.networkShare)
            c["network_share"] = *job.networkShare;
        if (!job.modelId.empty()) {
            c["model"] = job.modelId;
            c["tokens"] = job.tokensPerJob;
            c.erase("runtime_h");
        }
        classes.push_back(std::move(c));
    }
    nlohmann::json json = {{"classes", std::move(classes)}};
    if (!portfolio.services.empty()) {
        nlohmann::json services = nlohmann::json::array();
        for (const ServiceClass &service : portfolio.services) {
            nlohmann::json v
                = {{"name", service.name}, {"gpus_per_replica", service.gpusPerReplica}};
            const bool flat
                = std::all_of(service.replicasByHour.begin(), service.replicasByHour.end(),
                              [&](int count) { return count == service.replicasByHour.front(); });
            if (flat && !service.replicasByHour.empty())
                v["replicas"] = service.replicasByHour.front();
            else
                v["replicas_by_hour"] = service.replicasByHour;
            services.push_back(std::move(v));
        }
        json["services"] = std::move(services);
    }
    if (portfolio.policy == SchedulingPolicy::Fifo)
        json["policy"] = "fifo";
    if (portfolio.policy == SchedulingPolicy::BestEffortFifo)
        json["policy"] = "kueue";
    if (portfolio.spread)
        json["placement"] = "spread";
    if (portfolio.servicesPreempt)
        json["services_preempt"] = true;
    if (!portfolio.topologyAware)
        json["topology_aware"] = false;
    return json;
}

void readWorkload(JsonFieldReader &root, const std::string &file, const Catalog *catalog,
                  Plan &plan)
{
    if (const nlohmann::json *workload = root.optionalObject("workload")) {
        JsonFieldReader w(*workload, file, "/workload");
        const std::string type = w.choice("type", {"training", "inference"});
        if (type == "training") {
            plan.workloadType = WorkloadType::Training;
            readTraining(w, plan, catalog);
        } else {
            plan.workloadType = WorkloadType::Inference;
            readInference(w, plan, catalog);
        }
        w.finish();
    }
}

void readScenarios(JsonFieldReader &root, const std::string &file, Plan &plan)
{
    if (const nlohmann::json *scenarios = root.optionalArray("scenarios")) {
        refuseMoreThan(root, "scenarios", scenarios->size(), Plan::maxScenarios, "scenarios",
                       " beside its baseline: split the what-ifs over several plans");
        for (std::size_t i = 0; i < scenarios->size(); ++i) {
            JsonFieldReader s((*scenarios)[i], file, "/scenarios/" + std::to_string(i));
            Scenario scenario;
            scenario.name = s.string("name");
            if (const std::string problem = scenarioNameProblem(plan, scenario.name, -1);
                !problem.empty())
                s.fail("name", problem);
            scenario.changes = s.object("changes");
            s.finish();
            plan.scenarios.push_back(std::move(scenario));
        }
    }
}

} // namespace

Plan parsePlan(const nlohmann::json &document, const std::string &file, const Catalog *catalog)
{
    JsonFieldReader root(document, file, "");
    checkFormatAndVersion(root);
    Plan plan;
    plan.name = root.string("name");
    plan.description = root.optionalString("description").value_or("");

    readNodeGroups(root, file, catalog, plan);
    readFabric(root, file, catalog, plan);
    readStorage(root, file, catalog, plan);
    readFacility(root, file, catalog, plan);
    readHall(root, file, plan);
    readCampus(root, file, plan);
    readWorkload(root, file, catalog, plan);
    readPortfolio(root, file, catalog, plan);
    if (const nlohmann::json *layout = root.optionalObject("layout"))
        plan.layout = *layout;
    readScenarios(root, file, plan);
    root.finish();
    if (catalog)
        checkPlanSize(plan, *catalog, file);
    // Build every scenario now, so a patch that makes an invalid plan is reported when the file
    // is read, with its pointer inside /scenarios/N/changes, not later in the comparison.
    for (std::size_t i = 0; i < plan.scenarios.size(); ++i)
        scenarioPlan(plan, static_cast<int>(i), catalog, file);
    return plan;
}

Plan loadPlan(const std::string &path, const Catalog *catalog)
{
    return parsePlan(readJsonFile(path), path, catalog);
}

namespace {

nlohmann::json nodeGroupsToJson(const Plan &plan)
{
    nlohmann::json nodes = nlohmann::json::array();
    for (const NodeGroup &group : plan.nodeGroups) {
        nlohmann::json g = {{"node", group.nodeId}, {"count", group.count}};
        if (!group.name.empty())
            g["name"] = group.name;
        if (!group.rackId.empty())
            g["rack"] = group.rackId;
        if (group.nodesPerRack > 0)
            g["nodes_per_rack"] = group.nodesPerRack;
        if (!group.onFabric)
            g["on_fabric"] = false;
        if (group.hallRow >= 0)
            g["hall_row"] = group.hallRow;
        nodes.push_back(std::move(g));
    }
    return nodes;
}

nlohmann::json fabricToJson(const FabricPlan &fabric)
{
    nlohmann::json f = {{"topology", fabric.topology},
                        {"tiers", fabric.tiers},
                        {"oversubscription", fabric.oversubscription}};
    if (!fabric.nicId.empty())
        f["nic"] = fabric.nicId;
    if (fabric.nicsPerNode > 0)
        f["nics_per_node"] = fabric.nicsPerNode;
    if (!fabric.switchId.empty())
        f["switch"] = fabric.switchId;
    if (fabric.dragonflyA || fabric.dragonflyP || fabric.dragonflyH || fabric.dragonflyGroups)
        f["dragonfly"] = {{"a", fabric.dragonflyA},
                          {"p", fabric.dragonflyP},
                          {"h", fabric.dragonflyH},
                          {"groups", fabric.dragonflyGroups}};
    if (!fabric.torusDims.empty())
        f["torus_dims"] = fabric.torusDims;
    if (fabric.nodesPerScalableUnit != 0)
        f["nodes_per_scalable_unit"] = fabric.nodesPerScalableUnit;
    if (fabric.multiPlane)
        f["multi_plane"] = true;
    if (fabric.storageNetworkBytesPerSecond)
        f["storage_network_gb_per_s"] = *fabric.storageNetworkBytesPerSecond / units::giga;
    if (!fabric.failedSwitches.empty())
        f["failed_switches"] = fabric.failedSwitches;
    if (!fabric.failedLinks.empty())
        f["failed_links"] = fabric.failedLinks;
    return f;
}

nlohmann::json storageToJson(const Plan &plan)
{
    nlohmann::json storage = nlohmann::json::array();
    for (const StoragePlan &item : plan.storage) {
        nlohmann::json entry = {{"storage", item.storageId}, {"count", item.count}};
        if (!item.onFabric)
            entry["on_fabric"] = false;
        storage.push_back(std::move(entry));
    }
    return storage;
}

nlohmann::json facilityToJson(const FacilityPlan &facility)
{
    nlohmann::json f = {{"facility", facility.facilityId}};
    if (facility.pue)
        f["pue"] = *facility.pue;
    if (facility.electricityUsdPerKwh)
        f["electricity_usd_per_kwh"] = *facility.electricityUsdPerKwh;
    if (facility.carbonKgPerKwh)
        f["carbon_kg_per_kwh"] = *facility.carbonKgPerKwh;
    if (facility.powerLimitWatts)
        f["power_limit_kw"] = *facility.powerLimitWatts / 1e3;
    return f;
}

/** The training workload; only framework settings that differ from the named profile. */
nlohmann::json trainingWorkloadToJson(const Plan &plan)
{
    const TrainingJob &job = plan.training;
    nlohmann::json w = {{"type", "training"},
                        {"model", plan.trainingModelId},
                        {"seq_len", job.seqLen},
                        {"global_batch", job.globalBatch},
                        {"precision", precisionName(job.precision)},
                        {"framework", job.framework.id}};
    // Only the settings that differ from the named profile are written as overrides.
    const TrainingFramework *profile = findTrainingFramework(job.framework.id);
    const TrainingFramework &base = profile ? *profile : defaultTrainingFramework();
    if (job.framework.attention != base.attention)
        w["attention"] = job.framework.attention == AttentionKernel::Flash ? "flash" : "unfused";
    if (job.framework.dpOverlapFraction != base.dpOverlapFraction)
        w["dp_overlap"] = job.framework.dpOverlapFraction;
    if (job.framework.sequenceParallel != base.sequenceParallel)
        w["sequence_parallel"] = job.framework.sequenceParallel;
    if (job.framework.tpCommOverlap != base.tpCommOverlap)
        w["tp_comm_overlap"] = job.framework.tpCommOverlap;
    if (job.framework.moeCommOverlap != base.moeCommOverlap)
        w["moe_comm_overlap"] = job.framework.moeCommOverlap;
    if (job.framework.moeDispatcher != base.moeDispatcher)
        w["moe_dispatcher"] = moeDispatcherId(job.framework.moeDispatcher);
    if (job.framework.crossEntropy != base.crossEntropy)
        w["cross_entropy"] = crossEntropyKernelId(job.framework.crossEntropy);
    if (job.framework.bf16GradientsInFp32 != base.bf16GradientsInFp32)
        w["grad_reduce_in_fp32"] = job.framework.bf16GradientsInFp32;
    if (job.moeCapacityFactor != 1.0)
        w["moe_capacity_factor"] = job.moeCapacityFactor;
    if (job.activationOffloadLayers > 0)
        w["activation_offload_layers"] = job.activationOffloadLayers;
    if (plan.trainingMtpLayers)
        w["mtp_layers"] = *plan.trainingMtpLayers;
    if (job.tokens > 0)
        w["tokens"] = job.tokens;
    if (!plan.trainingDatasetId.empty())
        w["dataset"] = plan.trainingDatasetId;
    if (plan.asyncCheckpoints)
        w["async_checkpoint"] = true;
    if (job.allowTpAcrossNodes)
        w["allow_tp_across_nodes"] = true;
    const ParallelismConstraints &k = job.constraints;
    for (const ParallelismDimension &d : parallelismDimensions())
        if (k.*d.member)
            w[d.key] = *(k.*d.member);
    if (k.recompute)
        w["recompute"] = recomputeName(*k.recompute);
    if (k.recomputeModules)
        w["recompute_modules"] = recomputeModuleNames(*k.recomputeModules);
    return w;
}

nlohmann::json inferenceWorkloadToJson(const InferenceWorkload &inf)
{
    nlohmann::json w = {{"type", "inference"},
                        {"model", inf.modelId},
                        {"precision", precisionName(inf.precision)},
                        {"kv_precision", precisionName(inf.kvPrecision)},
                        {"input_tokens", inf.inputTokens},
                        {"output_tokens", inf.outputTokens}};
    if (inf.batch)
        w["batch"] = *inf.batch;
    if (inf.ratePerSecond)
        w["rate_per_s"] = *inf.ratePerSecond;
    if (inf.ttftP95Ms)
        w["ttft_p95_ms"] = *inf.ttftP95Ms;
    if (inf.tpotP95Ms)
        w["tpot_p95_ms"] = *inf.tpotP95Ms;
    if (inf.gpusPerReplica)
        w["gpus_per_replica"] = *inf.gpusPerReplica;
    if (inf.pipelineStages)
        w["pipeline_stages"] = *inf.pipelineStages;
    if (!inf.engineId.empty())
        w["engine"] = inf.engineId;
    if (inf.maxBatch)
        w["max_batch"] = *inf.maxBatch;
    if (inf.replicas)
        w["replicas"] = *inf.replicas;
    if (inf.offlineRequests)
        w["requests"] = *inf.offlineRequests;
    if (inf.speculative.enabled) {
        nlohmann::json spec = {{"draft_tokens", inf.speculative.draftTokens},
                               {"acceptance_rate", inf.speculative.acceptanceRate}};
        if (!inf.speculative.draftModelId.empty())
            spec["draft_model"] = inf.speculative.draftModelId;
        w["speculative"] = std::move(spec);
    }
    if (!inf.diurnalRates.empty())
        w["diurnal"] = inf.diurnalRates;
    return w;
}

} // namespace

nlohmann::json planToJson(const Plan &plan)
{
    nlohmann::json doc
        = {{"format", Plan::formatName}, {"version", Plan::formatVersion}, {"name", plan.name}};
    if (!plan.description.empty())
        doc["description"] = plan.description;
    doc["nodes"] = nodeGroupsToJson(plan);
    if (plan.fabric.topology != "none" || !plan.fabric.nicId.empty())
        doc["fabric"] = fabricToJson(plan.fabric);
    if (!plan.storage.empty())
        doc["storage"] = storageToJson(plan);
    if (!plan.facility.facilityId.empty())
        doc["facility"] = facilityToJson(plan.facility);
    if (!(plan.hall == HallPlan {}))
        doc["hall"] = {{"cabinets_per_row", plan.hall.cabinetsPerRow},
                       {"row_pitch_m", plan.hall.rowPitchMeters},
                       {"cabinet_width_m", plan.hall.cabinetWidthMeters}};
    if (!(plan.campus == CampusPlan {})) {
        nlohmann::json campus = {{"buildings", plan.campus.buildings},
                                 {"distance_km", plan.campus.distanceKm},
                                 {"usd_per_gbps", plan.campus.usdPerGbps},
                                 {"watts_per_gbps", plan.campus.wattsPerGbps}};
        // Absent, not 0, when unset: the loader takes only a positive capacity.
        if (plan.campus.interconnectBytesPerSecondPerBuilding > 0)
            campus["interconnect_tbps"] = units::bytesPerSecondToTbitPerSecond(
                plan.campus.interconnectBytesPerSecondPerBuilding);
        doc["campus"] = std::move(campus);
    }
    if (plan.workloadType == WorkloadType::Training)
        doc["workload"] = trainingWorkloadToJson(plan);
    else if (plan.workloadType == WorkloadType::Inference)
        doc["workload"] = inferenceWorkloadToJson(plan.inference);
    if (!plan.portfolio.classes.empty() || !plan.portfolio.services.empty())
        doc["portfolio"] = portfolioToJson(plan.portfolio);
    if (!plan.layout.empty())
        doc["layout"] = plan.layout;
    if (!plan.scenarios.empty()) {
        nlohmann::json scenarios = nlohmann::json::array();
        for (const Scenario &scenario : plan.scenarios)
            scenarios.push_back({{"name", scenario.name}, {"changes", scenario.changes}});
        doc["scenarios"] = std::move(scenarios);
    }
    return doc;
}

void savePlan(const Plan &plan, const std::string &path)
{
    writeFileAtomically(path, planToJson(plan).dump(2) + "\n");
}

} // namespace cp::model
