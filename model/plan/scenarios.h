// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/plan.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cp::model {

class Catalog;

/** The name the comparison gives the plan itself, next to its scenarios. */
inline constexpr const char *baselineScenarioName = "Baseline";

/**
 * The plan scenario `index` describes: the baseline's JSON with the scenario's merge patch
 * applied (RFC 7386, nlohmann::json::merge_patch), parsed and checked like a plan file. Its name
 * is the scenario's and it has no scenarios of its own. index -1 is the baseline. Errors are
 * InputErrors whose pointer lies under /scenarios/N/changes.
 */
Plan scenarioPlan(const Plan &plan, int index, const Catalog *catalog,
                  const std::string &file = "plan");

/** Every variant in comparison order: the baseline first, then the scenarios. */
std::vector<Plan> allScenarioPlans(const Plan &plan, const Catalog *catalog,
                                   const std::string &file = "plan");

/**
 * The smallest merge patch that turns `from` into `to`: objects are compared key by key (a key
 * missing in `to` becomes null, which RFC 7386 reads as "remove"); anything else that differs,
 * arrays included, is replaced whole. merge_patch(from, result) == to for JSON without nulls.
 */
nlohmann::json mergePatchBetween(const nlohmann::json &from, const nlohmann::json &to);

/**
 * The changes that make `variant` from `baseline`, as a scenario patch: name, layout and
 * scenarios are not part of a scenario and are left out.
 */
nlohmann::json scenarioChanges(const Plan &baseline, const Plan &variant);

/**
 * What a patch changes, in words, for tables and reports: "NIC: RoCE 400G instead of InfiniBand
 * NDR 400", "Servers: 256 x NVIDIA DGX H100 instead of 128 x NVIDIA DGX H100". Catalog ids become
 * catalog names when `catalog` is given; "instead of" the value in `baseline` (the plan's JSON)
 * when it has one. Unknown keys read as their path.
 */
std::vector<std::string> describeChanges(const nlohmann::json &changes,
                                         const nlohmann::json &baseline = nlohmann::json(),
                                         const Catalog *catalog = nullptr);

/**
 * Removes the server groups at `indices` from the plan, and from every scenario's per-group
 * changes ({"nodes": {"2": {...}}} is keyed by a group's index): a removed group's changes go,
 * later groups' move down, so each scenario still changes the group it changed. A scenario that
 * replaces the whole list keeps it.
 */
void removeServerGroups(Plan &plan, std::vector<int> indices);

/**
 * Renames the server group at `index` to `name`, and the job classes whose partition was the
 * group (no other group keeps the old name) with it, so the portfolio still runs where it did.
 */
void renameServerGroup(Plan &plan, std::size_t index, const std::string &name);

/** Why `name` cannot name a scenario of `plan` (empty, reserved, taken), or empty if it can. */
std::string scenarioNameProblem(const Plan &plan, const std::string &name, int ignoreIndex);

/** Why `name` cannot name the plan itself (empty, or a scenario's name, which would stand beside
 * it in the scenario list), or empty if it can. */
std::string planNameProblem(const Plan &plan, const std::string &name);

/** A name like "base (2)" that no scenario of `plan` has yet. */
std::string uniqueScenarioName(const Plan &plan, const std::string &base);

enum class SweepAxis { GpuCount, GpuType, Nic, Oversubscription, Precision, Batch };

std::string sweepAxisName(SweepAxis axis); ///< "gpu-count", "gpu-type", ...
std::vector<SweepAxis> allSweepAxes();

/** The name a sweep gives its scenario for `value`: "2,048 GPUs", "2:1 oversubscribed", "FP8".
 * On a campus of `buildings` a GPU count is one building's, and the name gives the whole campus's
 * with it, as the comparison's GPUs row does: "2,097,152 GPUs (262,144 a building)". */
std::string sweepScenarioName(SweepAxis axis, const std::string &value,
                              const Catalog *catalog = nullptr, int buildings = 1);

/**
 * One scenario per value along `axis`, each changing only that from the baseline:
 * - GpuCount: total GPUs (the plan's single server group is resized; it must divide evenly);
 * - GpuType: a GPU id (the catalog server carrying it, same GPU count rounded up to whole
 *   servers) or a server id;
 * - Nic: a NIC id (and, if the fabric's switch cannot carry it, the catalog switch for it);
 * - Oversubscription: the fabric's leaf oversubscription ratio;
 * - Precision: the workload's precision (training: bf16|fp16|fp8; inference also int8|int4);
 * - Batch: training global batch (sequences) or inference batch.
 * Throws InputError naming the sweep value and why it cannot apply.
 */
std::vector<Scenario> sweepScenarios(const Plan &baseline, SweepAxis axis,
                                     const std::vector<std::string> &values,
                                     const Catalog &catalog);

} // namespace cp::model
