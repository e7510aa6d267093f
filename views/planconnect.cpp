// SPDX-License-Identifier: GPL-3.0-or-later
#include "planconnect.h"

#include "cardkeys.h"

#include <QCoreApplication>

namespace cp::views {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("PlanConnect", text);
}

/** The connection flag of the group or storage that `key` names, or null for other cards;
 * const or not as the plan is, so the read-only checks need no copy of the plan. */
template<typename PlanT>
auto flagOf(PlanT &plan, const QString &key) -> decltype(&plan.nodeGroups[0].onFabric)
{
    if (const auto g = groupIndex(key); g && *g < static_cast<int>(plan.nodeGroups.size()))
        return &plan.nodeGroups[static_cast<std::size_t>(*g)].onFabric;
    if (const auto s = storageIndex(key); s && *s < static_cast<int>(plan.storage.size()))
        return &plan.storage[static_cast<std::size_t>(*s)].onFabric;
    return nullptr;
}

QString cardName(const model::Plan &plan, const QString &key)
{
    if (const auto g = groupIndex(key); g && *g < static_cast<int>(plan.nodeGroups.size())) {
        const model::NodeGroup &group = plan.nodeGroups[static_cast<std::size_t>(*g)];
        return QString::fromStdString(group.name.empty() ? group.nodeId : group.name);
    }
    if (const auto s = storageIndex(key); s && *s < static_cast<int>(plan.storage.size()))
        return QString::fromStdString(plan.storage[static_cast<std::size_t>(*s)].storageId);
    if (key == QStringLiteral("workload"))
        return tr("the workload");
    if (key == QStringLiteral("facility"))
        return tr("the facility");
    return key;
}

} // namespace

bool isOnFabric(const model::Plan &plan, const QString &key)
{
    const bool *flag = flagOf(plan, key);
    return flag && *flag;
}

DropOutcome setOnFabric(const model::Plan &plan, const QString &key, bool onFabric)
{
    DropOutcome outcome;
    model::Plan changed = plan;
    bool *flag = flagOf(changed, key);
    if (!flag) {
        outcome.description = tr("Only server groups and storage connect to the fabric");
        return outcome;
    }
    if (*flag == onFabric) {
        outcome.description = onFabric
            ? tr("%1 is already connected to the fabric").arg(cardName(plan, key))
            : tr("%1 is not connected").arg(cardName(plan, key));
        return outcome;
    }
    *flag = onFabric;
    outcome.description = onFabric ? tr("Connect %1 to the fabric").arg(cardName(plan, key))
                                   : tr("Disconnect %1 from the fabric").arg(cardName(plan, key));
    outcome.plan = std::move(changed);
    return outcome;
}

DropOutcome applyConnection(const model::Plan &plan, const QString &fromKey, const QString &toKey)
{
    if (!flagOf(plan, fromKey)) {
        DropOutcome refused;
        refused.description = tr("Only server groups and storage have ports to connect");
        return refused;
    }
    if (toKey == QStringLiteral("fabric")) {
        if (plan.fabric.topology == "none") {
            DropOutcome refused;
            refused.description = tr("The plan has no fabric yet: drop a NIC or switch on the "
                                     "canvas, or use Fabric > Generate Topology, then connect");
            return refused;
        }
        return setOnFabric(plan, fromKey, true);
    }
    if (toKey.isEmpty() || toKey == fromKey) {
        if (isOnFabric(plan, fromKey))
            return setOnFabric(plan, fromKey, false);
        DropOutcome refused;
        refused.description = tr("Let go of the link over the fabric card to connect %1")
                                  .arg(cardName(plan, fromKey));
        return refused;
    }
    DropOutcome refused;
    refused.description
        = tr("A link joins a server group or storage to the fabric; %1 cannot take one. Let go "
             "over the fabric card")
              .arg(cardName(plan, toKey));
    return refused;
}

} // namespace cp::views
