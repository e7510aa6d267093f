// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fabricitem.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace cp::views {

/** What the canvas's fabric card shows: counted on the generated graph, off the GUI thread. */
struct FabricCardSummary
{
    QStringList lines;
    std::vector<FabricItem::Tier> tiers;
    QString warning;
};

/**
 * Generates the plan's fabric (model::generatePlanFabric, the graph the estimate's bill of
 * materials counts) and says what it is in catalog names: NIC, switch, tiers, or why it cannot
 * be built. Takes up to seconds at the fabric size limit, so it runs on a worker thread.
 */
FabricCardSummary summariseFabric(const model::Plan &plan, const model::Catalog &catalog);

/** A switch tier as people name it: "leaf", "spine", "core" ("routers" in a Dragonfly). */
QString fabricTierName(int tier, bool dragonfly);

/** The parts of the plan the fabric card depends on, as text: equal text, equal card. */
QString fabricCardKey(const model::Plan &plan);

} // namespace cp::views
