// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabriccardsummary.h"

#include "humannumbers.h"

#include "model/fabric/fabricanalysis.h"
#include "model/plan/planio.h"
#include "model/planning/planfabric.h"

#include <QCoreApplication>

namespace cp::views {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("FabricCardSummary", text);
}

} // namespace

FabricCardSummary summariseFabric(const model::Plan &plan, const model::Catalog &catalog)
{
    FabricCardSummary summary;
    try {
        const auto fabric = model::planFabric(plan, catalog);
        if (!fabric) {
            summary.lines << (plan.nodeGroups.empty()
                                  ? tr("no servers to connect yet")
                                  : tr("no server group connected: drag a group's port here"));
            return summary;
        }
        const QString nic = QString::fromStdString(catalog.nic(fabric->nicId).name);
        const QString networkSwitch = fabric->switchId.empty()
            ? tr("no switch fits")
            : QString::fromStdString(catalog.networkSwitch(fabric->switchId).name);
        summary.lines << tr("%1 x %2").arg(humanCount(static_cast<double>(fabric->endpoints)), nic);
        if (plan.fabric.topology != "torus")
            summary.lines << networkSwitch;
        const model::FabricGraph graph = model::generatePlanFabric(*fabric);
        // The same count the plan estimate's bill of materials uses.
        const model::FabricMetrics counts = model::countFabric(graph, {});
        for (const auto &[tier, count] : counts.switchesPerTier)
            summary.tiers.push_back(
                {fabricTierName(tier, plan.fabric.topology == "dragonfly"), count});
        summary.lines << QString::fromStdString(graph.description);
        if (plan.fabric.topology == "torus")
            summary.lines << tr("chips route: no switches");
    } catch (const std::exception &error) {
        summary.warning = tr("cannot be built: %1").arg(QString::fromStdString(error.what()));
    }
    return summary;
}

QString fabricTierName(int tier, bool dragonfly)
{
    if (dragonfly)
        return tr("routers");
    return tier >= 1 ? QString::fromStdString(model::fabricTierName(tier))
                     : tr("tier %1").arg(tier);
}

QString fabricCardKey(const model::Plan &plan)
{
    const nlohmann::json json = model::planToJson(plan);
    nlohmann::json parts = nlohmann::json::object();
    for (const char *key : {"nodes", "fabric"})
        if (json.contains(key))
            parts[key] = json[key];
    return QString::fromStdString(parts.dump());
}

} // namespace cp::views
