// SPDX-License-Identifier: GPL-3.0-or-later
// The steps of estimatePlan (planestimator.h) and what they share; each step has a file of its
// own: planestimatehardware.cpp (facility, servers, racks, storage, totals),
// planestimatefabric.cpp (the fabric graph, its counts and the data hall's cabinets),
// planestimateworkload.cpp (the training run or the serving estimate).
#pragma once

#include "model/fabric/fabricfailure.h"
#include "model/fabric/fabricgraph.h"
#include "model/planning/cablebill.h"
#include "model/planning/planestimate.h"
#include "model/planning/planfabric.h"
#include "model/planning/resolvedplan.h"

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cp::model {

class Catalog;
struct Plan;

namespace planestimate {

/** What the steps of estimatePlan share: the inputs, the plan's catalog entries resolved once,
 * the estimate being built, and what one step found that a later one needs. */
struct PlanEstimateBuild
{
    const Plan &plan;
    const Catalog &catalog;
    PlanEstimate &result;
    ResolvedPlan resolved;
    /** A training job runs on the groups cabled to the fabric (all of them when the plan has no
     * fabric: then it is one node or nothing). */
    bool hasFabric = false;
    const ResolvedNodeGroup *firstGroup = nullptr;
    const ResolvedNodeGroup *trainingGroup = nullptr;
    bool mixedGpus = false;
    std::optional<FabricGraph> fabricGraph {};
    std::optional<PlanFabric> planFabric {};
    FabricFailures failures {};
    /** The fabric's optics as its generator's link media count them (countPlanFabric), replaced by
     * the data hall's when the servers are in racks (estimateNetworkCabinets). */
    double fabricOpticsWatts = 0;
    /** The data hall's cables and optics, when it was laid out. */
    std::optional<CableBill> cableBill {};
    /** The data hall's storage network switches' power. */
    double storageNetworkWatts = 0;
    /** Storage systems the data hall could not cable in full (DataHall::storagePortsCabled), by
     * their Plan::storage entry: each one's cabled ports, 0 for a system no server reaches. */
    std::map<int, std::vector<int>> storagePortsCabled {};
    /** Set the workload's estimate against the catalog's published runs (the full estimate
     * only: a scaling curve's points do not show it). */
    bool compareWithPublishedRuns = false;
};

/** Adds `count` of an item to the bill of materials, merged with a line of the same item. */
void addBillLine(PlanEstimate &result, const std::string &category, const std::string &id,
                 const std::string &name, long long count, double unitPrice);
/** "36.1 MW". */
std::string formatMegawatts(double watts);

void estimateFacility(PlanEstimateBuild &build);
void estimateNodes(PlanEstimateBuild &build);
void estimateFabric(PlanEstimateBuild &build);
void estimateNetworkCabinets(PlanEstimateBuild &build);
void estimateStorageAndTotals(PlanEstimateBuild &build);
/** A campus plan's whole-campus totals: every building's hardware and the interconnect. */
void estimateCampus(PlanEstimateBuild &build);
void estimateTraining(PlanEstimateBuild &build, const std::atomic<bool> *cancel);
void estimateInference(PlanEstimateBuild &build);

} // namespace planestimate
} // namespace cp::model
