// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/plan/scenarios.h"

#include "model/catalog/catalog.h"
#include "model/core/humantext.h"
#include "model/core/inputerror.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricscaleout.h"
#include "model/inference/inferencesetup.h"
#include "model/inference/servingengine.h"
#include "model/plan/planio.h"
#include "model/training/trainingframework.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace cp::model {

namespace {

/** Plan keys a scenario may not change: they belong to the file, not to a variant. */
const std::set<std::string> fileOnlyKeys = {"format", "version", "name", "layout", "scenarios"};

nlohmann::json baselineJson(const Plan &plan)
{
    nlohmann::json doc = planToJson(plan);
    doc.erase("scenarios");
    return doc;
}

/** The words for a plan field's path; the path itself for fields not listed. */
std::string fieldLabel(const std::string &path)
{
    static const std::map<std::string, std::string> labels = {
        {"nodes", "Servers"},
        {"storage", "Storage"},
        {"fabric.topology", "Topology"},
        {"fabric.nic", "NIC"},
        {"fabric.nics_per_node", "NICs per server"},
        {"fabric.switch", "Switch"},
        {"fabric.tiers", "Fabric tiers"},
        {"fabric.oversubscription", "Oversubscription"},
        {"fabric.torus_dims", "Torus dimensions"},
        {"fabric.nodes_per_scalable_unit", "Servers per scalable unit"},
        {"facility.facility", "Facility"},
        {"facility.pue", "PUE"},
        {"facility.electricity_usd_per_kwh", "Electricity (USD/kWh)"},
        {"facility.carbon_kg_per_kwh", "Carbon (kg/kWh)"},
        {"facility.power_limit_kw", "Facility power budget (kW)"},
        {"hall.cabinets_per_row", "Cabinets per row"},
        {"hall.row_pitch_m", "Row pitch (m)"},
        {"hall.cabinet_width_m", "Cabinet width (m)"},
        {"workload.model", "Model"},
        {"workload.precision", "Precision"},
        {"workload.kv_precision", "K/V cache precision"},
        {"workload.seq_len", "Sequence length"},
        {"workload.global_batch", "Global batch"},
        {"workload.tokens", "Tokens"},
        {"workload.framework", "Training software"},
        {"workload.engine", "Serving engine"},
        {"workload.max_batch", "Engine batch limit"},
        {"workload.replicas", "Replicas (fixed fleet)"},
        {"workload.requests", "Offline job (requests)"},
        {"workload.input_tokens", "Prompt tokens"},
        {"workload.output_tokens", "Output tokens"},
        {"workload.rate_per_s", "Requests per second"},
        {"workload.ttft_p95_ms", "TTFT p95 target (ms)"},
        {"workload.tpot_p95_ms", "TPOT p95 target (ms)"},
        {"workload.gpus_per_replica", "GPUs per replica"},
        {"workload.tp", "Tensor parallel"},
        {"workload.pp", "Pipeline parallel"},
        {"workload.dp", "Data parallel"},
        {"workload.cp", "Context parallel"},
        {"workload.ep", "Expert parallel"},
        {"workload.etp", "Expert tensor parallel"},
        {"workload.first_stage_layers", "First stage layers"},
        {"workload.last_stage_layers", "Last stage layers"},
        {"workload.microbatch", "Microbatch"},
        {"workload.recompute", "Recompute"},
        {"workload.recompute_modules", "Recompute modules"},
        {"workload.mtp_layers", "MTP layers"},
        {"workload.moe_dispatcher", "MoE dispatcher"},
        {"workload.cross_entropy", "Cross-entropy"},
        {"workload.zero", "ZeRO stage"},
        {"workload.dataset", "Dataset"},
        {"portfolio.policy", "Scheduling policy"},
        {"portfolio.placement", "Placement"},
        {"portfolio.topology_aware", "Topology-aware placement"},
        {"portfolio.services_preempt", "Services preempt training"},
    };
    const auto it = labels.find(path);
    if (it != labels.end())
        return it->second;
    // Any other field by its own name in words ("workload.async_checkpoints": "Async
    // checkpoints"), never its path in the file.
    std::string label = path.substr(path.rfind('.') == std::string::npos ? 0 : path.rfind('.') + 1);
    std::replace(label.begin(), label.end(), '_', ' ');
    if (!label.empty())
        label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
    return label;
}

/** The words for a choice the plan file spells as a keyword: "deepep" is DeepEP. */
std::optional<std::string> choiceWords(const std::string &path, const std::string &value)
{
    static const std::map<std::pair<std::string, std::string>, std::string> words = {
        {{"workload.moe_dispatcher", "alltoall"}, "all-to-all"},
        {{"workload.moe_dispatcher", "deepep"}, "DeepEP (deduplicated)"},
        {{"workload.moe_dispatcher", "hybridep"}, "HybridEP (deduplicated)"},
        {{"workload.cross_entropy", "unfused"}, "Megatron, unfused"},
        {{"workload.cross_entropy", "native"}, "Megatron, fused"},
        {{"workload.cross_entropy", "te"}, "Transformer Engine"},
        {{"portfolio.policy", "backfill"}, "EASY backfill"},
        {{"portfolio.policy", "fifo"}, "priority FIFO"},
        {{"portfolio.policy", "kueue"}, "Kueue best-effort FIFO"},
        {{"portfolio.placement", "binpack"}, "bin-packing"},
        {{"portfolio.placement", "spread"}, "spreading"},
    };
    const auto it = words.find({path, value});
    return it == words.end() ? std::nullopt : std::optional(it->second);
}

/** A value as people read it: catalog names for ids, grouped integers, "2:1" oversubscription. */
std::string describeValue(const std::string &path, const nlohmann::json &value,
                          const Catalog *catalog)
{
    const auto name = [catalog](const std::string &id) {
        if (catalog && catalog->kindOf(id))
            return catalog->nameOf(id);
        if (const TrainingFramework *framework = findTrainingFramework(id))
            return framework->name;
        if (const ServingEngine *engine = findServingEngine(id))
            return engine->name;
        return id;
    };
    if (value.is_array() && (path == "nodes" || path == "storage")) {
        std::string groups;
        for (const nlohmann::json &group : value) {
            if (!group.is_object())
                continue;
            const nlohmann::json id
                = group.value(path == "nodes" ? "node" : "storage", nlohmann::json("?"));
            const nlohmann::json count = group.value("count", nlohmann::json(1));
            groups += (groups.empty() ? "" : ", ")
                + (count.is_number_integer() ? groupedCount(count.get<long long>()) : count.dump())
                + " x " + (id.is_string() ? name(id.get<std::string>()) : id.dump());
        }
        return groups;
    }
    if (path == "fabric.topology" && value.is_string()) {
        const auto topology = fabricTopologyFromName(value.get<std::string>());
        return topology ? fabricTopologyTitle(*topology) : value.get<std::string>();
    }
    if (value.is_string()) {
        if (const auto words = choiceWords(path, value.get<std::string>()))
            return *words;
        return name(value.get<std::string>());
    }
    if (value.is_array() && std::all_of(value.begin(), value.end(), [](const nlohmann::json &item) {
            return item.is_string();
        })) { // a list of names, such as the recompute modules
        std::string names;
        for (const nlohmann::json &item : value)
            names += (names.empty() ? "" : ", ") + item.get<std::string>();
        return names;
    }
    if (value.is_boolean())
        return value.get<bool>() ? "on" : "off";
    if (path == "fabric.oversubscription" && value.is_number())
        return describeValue("", value, catalog) + ":1";
    if (value.is_number_integer())
        return groupedCount(value.get<long long>());
    if (value.is_number_float()) {
        std::ostringstream text;
        text << std::setprecision(4) << value.get<double>();
        return text.str();
    }
    return value.dump();
}

/** A server group's key in a scenario's per-group changes: its index as decimal digits. */
std::optional<std::size_t> groupIndex(const std::string &key)
{
    if (key.empty() || key.size() > 6 || !std::all_of(key.begin(), key.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        }))
        return std::nullopt;
    return std::stoul(key);
}

/** Changes to server groups one by one ({"0": {"rack": ...}}): "Servers (compute): rack X
 * instead of Y", a group named by its name, else by its place. */
void describeServerGroups(const nlohmann::json &groups, const nlohmann::json *before,
                          const Catalog *catalog, std::vector<std::string> &out)
{
    static const std::map<std::string, std::string> fieldWords
        = {{"count", "count"}, {"node", "server"}, {"rack", "rack"}, {"name", "name"}};
    for (const auto &[key, patch] : groups.items()) {
        const std::optional<std::size_t> place = groupIndex(key);
        const bool digits = place.has_value();
        const std::size_t index = place.value_or(0);
        const nlohmann::json *group
            = digits && before && before->is_array() && index < before->size() ? &(*before)[index]
                                                                               : nullptr;
        const std::string groupName = group && group->contains("name")
                && (*group)["name"].is_string() && !(*group)["name"].get<std::string>().empty()
            ? (*group)["name"].get<std::string>()
            : "group " + (digits ? std::to_string(index + 1) : key);
        if (!patch.is_object())
            continue;
        for (const auto &[field, value] : patch.items()) {
            const auto words = fieldWords.find(field);
            std::string line = fieldLabel("nodes") + " (" + groupName
                + "): " + (words == fieldWords.end() ? field : words->second) + " ";
            line += value.is_null() ? std::string("back to its default")
                                    : describeValue("", value, catalog);
            if (!value.is_null() && group && group->contains(field))
                line += " instead of " + describeValue("", (*group)[field], catalog);
            out.push_back(std::move(line));
        }
    }
}

void describeInto(const nlohmann::json &patch, const nlohmann::json &baseline,
                  const std::string &prefix, const Catalog *catalog, std::vector<std::string> &out)
{
    for (const auto &[key, value] : patch.items()) {
        const std::string path = prefix.empty() ? key : prefix + "." + key;
        const nlohmann::json *before
            = baseline.is_object() && baseline.contains(key) ? &baseline.at(key) : nullptr;
        if (path == "nodes" && value.is_object()) {
            describeServerGroups(value, before, catalog, out);
            continue;
        }
        if (value.is_object() && !value.empty()) {
            describeInto(value, before ? *before : nlohmann::json(), path, catalog, out);
            continue;
        }
        std::string line = fieldLabel(path) + ": ";
        if (value.is_null()) {
            line += "back to its default";
        } else {
            line += describeValue(path, value, catalog);
            if (before && !before->is_object())
                line += " instead of " + describeValue(path, *before, catalog);
        }
        out.push_back(std::move(line));
    }
}

[[noreturn]] void sweepError(SweepAxis axis, const std::string &value, const std::string &reason)
{
    throw InputError("sweep", sweepAxisName(axis) + "=" + value, reason);
}

/**
 * A sweep value as a number in [min, max]. The bounds are what the plan itself accepts, so that the
 * value can be stored as an int without an out-of-range cast (1e30 used to become INT_MIN).
 */
double sweepNumber(SweepAxis axis, const std::string &value, double min, double max)
{
    std::size_t used = 0;
    double number = 0;
    try {
        number = std::stod(value, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used != value.size() || !std::isfinite(number) || number < min || number > max) {
        std::ostringstream reason;
        reason << std::setprecision(12) << "expected a number of at least " << min
               << " and at most " << max;
        sweepError(axis, value, reason.str());
    }
    return number;
}

// The largest values the plan format accepts (model/plan/planio.cpp).
constexpr double maxSweepGpus = 1 << 30;
constexpr double maxTrainingBatch = 1 << 24;
constexpr double maxInferenceBatch = 1 << 20;

/** The plan's one server group resized to `value` GPUs, whole servers only. */
void sweepGpuCount(Plan &p, const std::string &value, const Catalog &catalog)
{
    constexpr SweepAxis axis = SweepAxis::GpuCount;
    const double gpus = sweepNumber(axis, value, 1, maxSweepGpus);
    if (p.nodeGroups.size() != 1)
        sweepError(axis, value,
                   "a GPU-count sweep resizes the plan's server group; this plan has "
                       + std::to_string(p.nodeGroups.size())
                       + " groups (sweep a plan with one group, or edit the count)");
    const int perNode = catalog.node(p.nodeGroups[0].nodeId).gpusPerNode;
    if (std::fmod(gpus, perNode) != 0)
        sweepError(axis, value,
                   "not a whole number of " + std::to_string(perNode) + "-GPU servers");
    if (gpus / perNode > NodeGroup::maxCount)
        sweepError(axis, value,
                   "needs more than " + std::to_string(NodeGroup::maxCount)
                       + " servers, the most one server group may hold");
    p.nodeGroups[0].count = static_cast<int>(gpus / perNode);
}

/** Every server group on `value` (a GPU, by a catalog server that carries it, or a server),
 * keeping each group's GPU count. */
void sweepGpuType(Plan &p, const std::string &value, const Catalog &catalog)
{
    constexpr SweepAxis axis = SweepAxis::GpuType;
    const auto kind = catalog.kindOf(value);
    std::string nodeId = value;
    if (kind == CatalogKind::Gpu) {
        nodeId = nodeForGpu(catalog, value);
        if (nodeId.empty())
            sweepError(axis, value, "no catalog server carries this GPU");
    } else if (kind != CatalogKind::Node) {
        sweepError(axis, value, "not a GPU or server id (see 'catalog list gpus')");
    }
    const NodeSpec &node = catalog.node(nodeId);
    for (NodeGroup &group : p.nodeGroups) {
        const int gpus = group.count * catalog.node(group.nodeId).gpusPerNode;
        group.nodeId = nodeId;
        group.count = (gpus + node.gpusPerNode - 1) / node.gpusPerNode;
        group.nodesPerRack = 0; // the new server's power and height decide the packing
    }
    // The NIC and count were the old server's; the new one brings its own, and a switch that
    // carries its links where the plan's does not (an MI300X server's RoCE on an InfiniBand
    // switch).
    p.fabric.nicId.clear();
    p.fabric.nicsPerNode = 0;
    const NicSpec &nic = catalog.nic(node.nicId);
    if (!p.fabric.switchId.empty()
        && !switchCarriesNic(catalog.networkSwitch(p.fabric.switchId), nic))
        p.fabric.switchId = catalogSwitchForNic(catalog, nic, std::nullopt);
}

/** The fabric's NIC, and a switch that carries its links when the plan's does not. */
void sweepNic(Plan &p, const std::string &value, const Catalog &catalog)
{
    if (catalog.kindOf(value) != CatalogKind::Nic)
        sweepError(SweepAxis::Nic, value, "not a NIC id (see 'catalog list nics')");
    const NicSpec &nic = catalog.nic(value);
    p.fabric.nicId = value;
    if (!p.fabric.switchId.empty()
        && !switchCarriesNic(catalog.networkSwitch(p.fabric.switchId), nic)) {
        p.fabric.switchId = catalogSwitchForNic(catalog, nic, std::nullopt);
        if (p.fabric.switchId.empty())
            sweepError(SweepAxis::Nic, value, "no catalog switch carries this NIC's links");
    }
}

/** The workload's precision: training in bf16, fp16 or fp8; serving in any. */
void sweepPrecision(Plan &p, const std::string &value)
{
    constexpr SweepAxis axis = SweepAxis::Precision;
    const auto precision = precisionFromName(value);
    if (!precision)
        sweepError(axis, value, "not a precision (bf16, fp16, fp8, int8, int4)");
    if (p.workloadType == WorkloadType::Training) {
        if (*precision != Precision::BF16 && *precision != Precision::FP16
            && *precision != Precision::FP8)
            sweepError(axis, value, "training runs in bf16, fp16 or fp8");
        p.training.precision = *precision;
    } else if (p.workloadType == WorkloadType::Inference) {
        p.inference.precision = *precision;
    } else {
        sweepError(axis, value, "the plan has no workload whose precision could change");
    }
}

/** The training job's global batch, or the serving batch (which replaces the rate search). */
void sweepBatch(Plan &p, const std::string &value)
{
    constexpr SweepAxis axis = SweepAxis::Batch;
    const double batch = sweepNumber(axis, value, 1,
                                     p.workloadType == WorkloadType::Inference ? maxInferenceBatch
                                                                               : maxTrainingBatch);
    if (batch != std::floor(batch))
        sweepError(axis, value, "a batch is a whole number of sequences");
    if (p.workloadType == WorkloadType::Training) {
        p.training.globalBatch = static_cast<int>(batch);
    } else if (p.workloadType == WorkloadType::Inference) {
        p.inference.batch = static_cast<int>(batch);
        p.inference.ratePerSecond.reset(); // a fixed batch replaces the rate search
    } else {
        sweepError(axis, value, "the plan has no workload whose batch could change");
    }
}

void applySweepValue(Plan &p, SweepAxis axis, const std::string &value, const Catalog &catalog)
{
    switch (axis) {
    case SweepAxis::GpuCount:
        sweepGpuCount(p, value, catalog);
        break;
    case SweepAxis::GpuType:
        sweepGpuType(p, value, catalog);
        break;
    case SweepAxis::Nic:
        sweepNic(p, value, catalog);
        break;
    case SweepAxis::Oversubscription:
        p.fabric.oversubscription = sweepNumber(axis, value, 1, 64);
        break;
    case SweepAxis::Precision:
        sweepPrecision(p, value);
        break;
    case SweepAxis::Batch:
        sweepBatch(p, value);
        break;
    }
}

} // namespace

namespace {

/**
 * A scenario's changes to its server groups one by one: {"nodes": {"0": {"rack": ...}}} merges
 * into the baseline's first group only, so the scenario keeps following the baseline's other
 * edits to it (a whole "nodes" array, as older files and a change of the group count have,
 * replaces the baseline's groups; a scenario that changed one group's rack kept its 128 servers
 * after the baseline's count went to 256). Removes "nodes" from `changes` once applied.
 */
void applyServerGroupPatches(nlohmann::json &merged, nlohmann::json &changes,
                             const std::string &file, const std::string &pointer)
{
    if (!changes.is_object() || !changes.contains("nodes") || !changes["nodes"].is_object())
        return;
    nlohmann::json &groups = merged["nodes"];
    for (const auto &[key, patch] : changes["nodes"].items()) {
        const std::optional<std::size_t> place = groupIndex(key);
        const bool digits = place.has_value();
        const std::size_t index = place.value_or(0);
        if (!digits || !groups.is_array() || index >= groups.size())
            throw InputError(file, pointer + "/nodes/" + key,
                             "a server group's changes are keyed by its index in the plan's "
                                 + std::to_string(groups.is_array() ? groups.size() : 0)
                                 + " groups, from 0");
        if (!patch.is_object())
            throw InputError(file, pointer + "/nodes/" + key,
                             "a server group's changes must be an object of its fields");
        groups[index].merge_patch(patch);
    }
    changes.erase("nodes");
}

/** The baseline's and a variant's server groups differ group by group: changes per group where
 * the groups are as many (so each follows the baseline's other edits), the whole list else. */
void patchServerGroupsOneByOne(nlohmann::json &patch, const nlohmann::json &from,
                               const nlohmann::json &to)
{
    if (!patch.contains("nodes") || !from.contains("nodes") || !to.contains("nodes"))
        return;
    const nlohmann::json &before = from.at("nodes");
    const nlohmann::json &after = to.at("nodes");
    if (!before.is_array() || !after.is_array() || before.size() != after.size())
        return;
    nlohmann::json groups = nlohmann::json::object();
    for (std::size_t i = 0; i < before.size(); ++i)
        if (before[i] != after[i])
            groups[std::to_string(i)] = mergePatchBetween(before[i], after[i]);
    patch["nodes"] = groups;
}

} // namespace

Plan scenarioPlan(const Plan &plan, int index, const Catalog *catalog, const std::string &file)
{
    if (index < 0) {
        Plan baseline = plan;
        baseline.scenarios.clear();
        return baseline;
    }
    const Scenario &scenario = plan.scenarios.at(static_cast<std::size_t>(index));
    const std::string pointer = "/scenarios/" + std::to_string(index) + "/changes";
    for (const auto &[key, value] : scenario.changes.items())
        if (fileOnlyKeys.count(key))
            throw InputError(file, pointer + "/" + key,
                             "a scenario cannot change '" + key
                                 + "': it belongs to the plan file, not to a variant");
    nlohmann::json merged = baselineJson(plan);
    nlohmann::json changes = scenario.changes;
    applyServerGroupPatches(merged, changes, file, pointer);
    merged.merge_patch(changes);
    merged["name"] = scenario.name;
    try {
        return parsePlan(merged, file, catalog);
    } catch (const InputError &error) {
        throw InputError(error.file(), pointer + error.pointer(),
                         "scenario '" + scenario.name + "': " + error.reason());
    }
}

std::vector<Plan> allScenarioPlans(const Plan &plan, const Catalog *catalog,
                                   const std::string &file)
{
    std::vector<Plan> plans;
    plans.push_back(scenarioPlan(plan, -1, catalog, file));
    plans.front().name = baselineScenarioName;
    for (std::size_t i = 0; i < plan.scenarios.size(); ++i)
        plans.push_back(scenarioPlan(plan, static_cast<int>(i), catalog, file));
    return plans;
}

nlohmann::json mergePatchBetween(const nlohmann::json &from, const nlohmann::json &to)
{
    if (!from.is_object() || !to.is_object())
        return to;
    nlohmann::json patch = nlohmann::json::object();
    for (const auto &[key, value] : from.items()) {
        if (!to.contains(key))
            patch[key] = nullptr;
        else if (to[key] != value)
            patch[key] = mergePatchBetween(value, to[key]);
    }
    for (const auto &[key, value] : to.items())
        if (!from.contains(key))
            patch[key] = value;
    return patch;
}

nlohmann::json scenarioChanges(const Plan &baseline, const Plan &variant)
{
    nlohmann::json from = baselineJson(baseline);
    nlohmann::json to = baselineJson(variant);
    for (const std::string &key : fileOnlyKeys) {
        from.erase(key);
        to.erase(key);
    }
    nlohmann::json patch = mergePatchBetween(from, to);
    patchServerGroupsOneByOne(patch, from, to);
    return patch;
}

std::vector<std::string> describeChanges(const nlohmann::json &changes,
                                         const nlohmann::json &baseline, const Catalog *catalog)
{
    std::vector<std::string> lines;
    describeInto(changes, baseline, "", catalog, lines);
    // A campus copies its servers and storage into every building: the counts are one
    // building's, beside a Servers row and a scenario name that give the campus's.
    const nlohmann::json *campus
        = baseline.is_object() && baseline.contains("campus") ? &baseline.at("campus") : nullptr;
    const nlohmann::json buildings = campus && campus->is_object()
        ? campus->value("buildings", nlohmann::json(1))
        : nlohmann::json(1);
    if (buildings.is_number_integer() && buildings.get<long long>() > 1)
        for (std::string &line : lines)
            if (line.starts_with(fieldLabel("nodes") + ": ")
                || line.starts_with(fieldLabel("storage") + ": ")
                || (line.starts_with(fieldLabel("nodes") + " (")
                    && line.find("): count ") != std::string::npos))
                line += " (each of the " + groupedCount(buildings.get<long long>()) + " buildings)";
    return lines;
}

void removeServerGroups(Plan &plan, std::vector<int> indices)
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    for (auto it = indices.rbegin(); it != indices.rend(); ++it)
        if (*it >= 0 && static_cast<std::size_t>(*it) < plan.nodeGroups.size())
            plan.nodeGroups.erase(plan.nodeGroups.begin() + *it);
    for (Scenario &scenario : plan.scenarios) {
        if (!scenario.changes.is_object() || !scenario.changes.contains("nodes")
            || !scenario.changes["nodes"].is_object())
            continue;
        nlohmann::json renumbered = nlohmann::json::object();
        for (const auto &[key, patch] : scenario.changes["nodes"].items()) {
            const std::optional<std::size_t> index = groupIndex(key);
            if (!index) {
                renumbered[key] = patch; // not the editor's: the loader says what is wrong
                continue;
            }
            if (std::binary_search(indices.begin(), indices.end(), static_cast<int>(*index)))
                continue;
            const auto before
                = std::lower_bound(indices.begin(), indices.end(), static_cast<int>(*index))
                - indices.begin();
            renumbered[std::to_string(*index - static_cast<std::size_t>(before))] = patch;
        }
        if (renumbered.empty())
            scenario.changes.erase("nodes");
        else
            scenario.changes["nodes"] = std::move(renumbered);
    }
}

void renameServerGroup(Plan &plan, std::size_t index, const std::string &name)
{
    if (index >= plan.nodeGroups.size())
        return;
    const std::string old = plan.nodeGroups[index].name;
    plan.nodeGroups[index].name = name;
    const bool oldNameKept = std::any_of(plan.nodeGroups.begin(), plan.nodeGroups.end(),
                                         [&](const NodeGroup &group) { return group.name == old; });
    // Without a name the group is no partition: the loader then names the classes left on it.
    if (oldNameKept || old.empty() || name.empty())
        return;
    for (JobClass &job : plan.portfolio.classes)
        if (job.partition == old)
            job.partition = name;
}

namespace {
std::string lowerCase(std::string text)
{
    for (char &c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}
} // namespace

std::string planNameProblem(const Plan &plan, const std::string &name)
{
    if (std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isspace(c) != 0; }))
        return "a plan needs a name";
    for (const Scenario &scenario : plan.scenarios)
        if (lowerCase(scenario.name) == lowerCase(name))
            return "a scenario is already called '" + scenario.name
                + "': the plan and its scenarios need names apart";
    return {};
}

std::string scenarioNameProblem(const Plan &plan, const std::string &name, int ignoreIndex)
{
    const auto space = [](unsigned char c) {
        return std::isspace(c) != 0;
    };
    if (std::all_of(name.begin(), name.end(), space)) // empty, or blanks a column would show
        return "a scenario needs a name";
    if (space(static_cast<unsigned char>(name.front()))
        || space(static_cast<unsigned char>(name.back())))
        return "a scenario's name cannot start or end with a space ('" + name
            + "' would stand beside its look-alike)";
    // "baseline" or "BASELINE" beside the real Baseline column reads as the same thing.
    const std::string lower = lowerCase(name);
    if (lower == "baseline" || lower == lowerCase(plan.name))
        return std::string("'") + name + "' names the plan itself";
    // Names apart in more than case: "H200 SERVERS" beside "H200 servers" reads as the same.
    for (std::size_t i = 0; i < plan.scenarios.size(); ++i)
        if (static_cast<int>(i) != ignoreIndex && lowerCase(plan.scenarios[i].name) == lower)
            return "another scenario is already called '" + plan.scenarios[i].name + "'";
    return {};
}

std::string uniqueScenarioName(const Plan &plan, const std::string &base)
{
    if (scenarioNameProblem(plan, base, -1).empty())
        return base;
    for (int n = 2;; ++n) {
        const std::string candidate = base + " (" + std::to_string(n) + ")";
        if (scenarioNameProblem(plan, candidate, -1).empty())
            return candidate;
    }
}

std::string sweepAxisName(SweepAxis axis)
{
    switch (axis) {
    case SweepAxis::GpuCount:
        return "gpu-count";
    case SweepAxis::GpuType:
        return "gpu-type";
    case SweepAxis::Nic:
        return "nic";
    case SweepAxis::Oversubscription:
        return "oversubscription";
    case SweepAxis::Precision:
        return "precision";
    case SweepAxis::Batch:
        return "batch";
    }
    return {};
}

std::vector<SweepAxis> allSweepAxes()
{
    return {SweepAxis::GpuCount,         SweepAxis::GpuType,   SweepAxis::Nic,
            SweepAxis::Oversubscription, SweepAxis::Precision, SweepAxis::Batch};
}

namespace {

/** A whole number as people read it ("16,384"); anything else as given. */
std::optional<long long> wholeNumber(const std::string &value)
{
    if (value.empty() || value.size() > 15 || !std::all_of(value.begin(), value.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        }))
        return std::nullopt;
    return std::stoll(value);
}

std::string groupedIfWhole(const std::string &value)
{
    const std::optional<long long> number = wholeNumber(value);
    return number ? groupedCount(*number) : value;
}

} // namespace

std::string sweepScenarioName(SweepAxis axis, const std::string &value, const Catalog *catalog,
                              int buildings)
{
    // People read the catalog's name, not its id ("NIC RoCE v2 400 GbE (ConnectX-7)").
    const auto named = [catalog](const std::string &id) {
        return catalog ? catalog->nameOf(id) : id;
    };
    switch (axis) {
    case SweepAxis::GpuCount: {
        const std::optional<long long> perBuilding = wholeNumber(value);
        if (!perBuilding || buildings <= 1)
            return groupedIfWhole(value) + " GPUs";
        long long campusGpus = 0;
        if (__builtin_mul_overflow(*perBuilding, static_cast<long long>(buildings), &campusGpus))
            return groupedCount(*perBuilding) + " GPUs a building";
        return groupedCount(campusGpus) + " GPUs (" + groupedCount(*perBuilding) + " a building)";
    }
    case SweepAxis::GpuType:
        return named(value);
    case SweepAxis::Nic:
        return "NIC " + named(value);
    case SweepAxis::Oversubscription:
        return value + ":1 oversubscribed";
    case SweepAxis::Precision: {
        std::string upper = value;
        for (char &c : upper)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return upper;
    }
    case SweepAxis::Batch:
        return "batch " + groupedIfWhole(value);
    }
    return sweepAxisName(axis) + " " + value;
}

std::vector<Scenario> sweepScenarios(const Plan &baseline, SweepAxis axis,
                                     const std::vector<std::string> &values, const Catalog &catalog)
{
    if (values.empty())
        throw InputError("sweep", sweepAxisName(axis), "give at least one value to sweep over");
    if (baseline.scenarios.size() + values.size() > Plan::maxScenarios)
        throw InputError("sweep", sweepAxisName(axis),
                         std::to_string(values.size()) + " values beside the plan's "
                             + std::to_string(baseline.scenarios.size())
                             + " scenarios are more than the " + std::to_string(Plan::maxScenarios)
                             + " a plan holds: sweep fewer values or delete scenarios");
    const Plan base = scenarioPlan(baseline, -1, &catalog);
    Plan named = baseline; // collects the names given so far, so each is unique
    std::vector<Scenario> scenarios;
    for (const std::string &value : values) {
        Plan variant = base;
        applySweepValue(variant, axis, value, catalog);
        Scenario scenario;
        scenario.name = uniqueScenarioName(
            named, sweepScenarioName(axis, value, &catalog, baseline.campus.buildings));
        scenario.changes = scenarioChanges(base, variant);
        // A value the baseline already has makes a scenario that changes nothing, a column
        // that repeats the baseline's (a batch sweep of 1024,3 kept the baseline's 1024).
        if (scenario.changes.is_null() || scenario.changes.empty())
            sweepError(axis, value,
                       "the baseline already has it, so the scenario would change nothing: leave "
                       "it out (the baseline is a column of the comparison already)");
        // "2048,2048" made "2,048 GPUs" and "2,048 GPUs (2)", two identical columns.
        for (const Scenario &earlier : scenarios)
            if (earlier.changes == scenario.changes)
                sweepError(axis, value,
                           "the sweep gives this value twice ('" + earlier.name
                               + "' already has it): give each value once");
        Plan check = base;
        check.scenarios = {scenario};
        try {
            scenarioPlan(check, 0, &catalog, "sweep");
        } catch (const InputError &error) {
            sweepError(axis, value, error.reason() + " (" + error.pointer() + ")");
        }
        named.scenarios.push_back(scenario);
        scenarios.push_back(std::move(scenario));
    }
    return scenarios;
}

} // namespace cp::model
