// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/planestimator.h"

#include "model/core/humantext.h"
#include "model/plan/plan.h"
#include "model/plan/planio.h"
#include "model/planning/planestimatesteps.h"
#include "model/planning/planworstfailure.h"

#include <algorithm>
#include <cmath>

namespace cp::model {

FabricCounts twoTierFabricCounts(long long endpoints, int ports, double oversubscription)
{
    FabricCounts counts;
    counts.endpoints = endpoints;
    if (endpoints <= 0 || ports < 2)
        return counts;
    if (endpoints <= ports) {
        counts.leafSwitches = 1;
        counts.cables = endpoints;
        return counts;
    }
    const long long down = std::max<long long>(
        1, static_cast<long long>(std::floor(ports * oversubscription / (oversubscription + 1.0))));
    const long long up = ports - down;
    counts.leafSwitches = (endpoints + down - 1) / down;
    const long long uplinks = counts.leafSwitches * up;
    counts.spineSwitches = (uplinks + ports - 1) / ports;
    counts.cables = endpoints + uplinks;
    return counts;
}

std::string CampusTotals::sparesText() const
{
    if (spareNodes <= 0)
        return {};
    return "; with " + groupedCount(spareNodes)
        + (spareNodes == 1 ? " hot spare node, " : " hot spare nodes, ") + humanUsd(sparesUsd);
}

std::string fabricCountsSummary(const FabricCounts &c)
{
    const auto count = [](long long value) {
        return groupedCount(value);
    };
    std::string text = count(c.endpoints) + " ports"
        + (c.storagePorts > 0 ? " and " + count(c.storagePorts) + " for storage" : std::string())
        + ", ";
    if (c.switches() == 0) {
        text += c.topology == "torus" ? "no switches (the chips route)" : "no switches";
    } else if (c.topology == "dragonfly") {
        text += count(c.switches()) + " routers";
    } else {
        text += count(c.leafSwitches) + " leaf";
        if (c.spineSwitches > 0)
            text += " + " + count(c.spineSwitches) + " spine";
        if (c.coreSwitches > 0)
            text += " + " + count(c.coreSwitches) + " core";
        text += c.switches() == 1 ? " switch" : " switches";
    }
    text += ", " + count(c.cables) + " cables";
    if (c.optics > 0)
        text += " (" + count(c.optics) + " transceivers)";
    return text;
}

namespace {

PlanEstimate runEstimate(const Plan &plan, const Catalog &catalog, const std::atomic<bool> *cancel,
                         bool dataHall)
{
    using namespace planestimate;
    checkPlanSize(plan, catalog, "plan '" + plan.name + "'");
    PlanEstimate result;
    result.planName = plan.name;
    // Every catalog entry the plan names, looked up once; the steps read them from here.
    PlanEstimateBuild build {plan, catalog, result, resolvePlan(plan, catalog)};
    build.compareWithPublishedRuns = dataHall;
    estimateFacility(build);
    estimateNodes(build);
    estimateFabric(build);
    if (dataHall)
        estimateNetworkCabinets(build);
    estimateStorageAndTotals(build);
    estimateCampus(build);
    if (plan.workloadType == WorkloadType::Training && build.firstGroup)
        estimateTraining(build, cancel);
    else if (plan.workloadType == WorkloadType::Inference && build.firstGroup)
        estimateInference(build);
    else if (plan.workloadType != WorkloadType::None)
        // A workload and no servers to run it on: said, not left out without a word.
        result.workloadNote = std::string("the ")
            + (plan.workloadType == WorkloadType::Training ? "training" : "inference")
            + " workload is estimated once the plan has servers";
    return result;
}

} // namespace

PlanEstimate estimatePlan(const Plan &plan, const Catalog &catalog, const std::atomic<bool> *cancel)
{
    return runEstimate(plan, catalog, cancel, true);
}

PlanEstimate estimatePlanThroughput(const Plan &plan, const Catalog &catalog,
                                    const std::atomic<bool> *cancel)
{
    return runEstimate(plan, catalog, cancel, false);
}

} // namespace cp::model
