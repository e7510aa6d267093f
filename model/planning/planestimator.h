// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/planning/planestimate.h"

#include <atomic>

namespace cp::model {

class Catalog;
struct Plan;

/**
 * All estimates for a plan: hardware totals, fabric switch counts, power, bill of materials,
 * rack fit, and the workload's estimate. A pure function of the plan and the catalog, so the GUI
 * can run it on a worker thread and tests can call it directly. Throws UnknownCatalogIdError
 * for ids the catalog does not have.
 */
PlanEstimate estimatePlan(const Plan &plan, const Catalog &catalog,
                          const std::atomic<bool> *cancel = nullptr);

/**
 * estimatePlan without the data hall (its cabinets, cables and management network): what a
 * scaling curve needs, the workload's layout and throughput on the plan's fabric, in a fraction
 * of the time at 16,384 GPUs (the hall measures every cable). The training run's power and cost
 * then leave out the management switches.
 */
PlanEstimate estimatePlanThroughput(const Plan &plan, const Catalog &catalog,
                                    const std::atomic<bool> *cancel = nullptr);

/**
 * Two-tier leaf/spine switch count for `endpoints` ports on `ports`-port switches with r:1
 * oversubscription at the leaf: each leaf has floor(P·r/(r+1)) ports down and the rest up;
 * spines take all leaf uplinks (Al-Fares et al., SIGCOMM 2008, folded Clos). A single switch
 * suffices when the endpoints fit on one.
 */
FabricCounts twoTierFabricCounts(long long endpoints, int ports, double oversubscription);

/** "1024 ports, 32 leaf + 16 spine switches, 2048 cables (4096 transceivers)"; Dragonfly switches
 * read as routers, a switchless torus as "the chips route". */
std::string fabricCountsSummary(const FabricCounts &counts);

} // namespace cp::model
