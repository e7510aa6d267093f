// SPDX-License-Identifier: GPL-3.0-or-later
#include "plandrop.h"

#include "cardkeys.h"

#include "model/fabric/fabricscaleout.h"
#include "model/inference/inferencesetup.h"
#include "model/training/transformershape.h"

#include <algorithm>

namespace cp::views {

namespace {

bool compatible(const model::NicSpec &nic, const model::SwitchSpec &sw)
{
    return model::switchSpeaksNicProtocol(sw, nic);
}

/** The NIC the fabric uses: the plan's, or the first group's node type's. */
const model::NicSpec *fabricNic(const model::Plan &plan, const model::Catalog &catalog)
{
    if (!plan.fabric.nicId.empty())
        return &catalog.nic(plan.fabric.nicId);
    if (!plan.nodeGroups.empty())
        return &catalog.nic(catalog.node(plan.nodeGroups.front().nodeId).nicId);
    return nullptr;
}

} // namespace

DropOutcome applyDrop(const model::Plan &plan, const model::Catalog &catalog,
                      const CatalogDrop &drop, const QString &targetKey)
{
    DropOutcome out;
    model::Plan p = plan;
    const QString id = QString::fromStdString(drop.id);
    const QString name = QString::fromStdString(catalog.entryJson(drop.id).value("name", drop.id));
    const auto group = groupIndex(targetKey);
    const bool validGroup = group && *group >= 0 && *group < static_cast<int>(p.nodeGroups.size());
    switch (drop.kind) {
    case model::CatalogKind::Gpu: {
        const std::string node = model::nodeForGpu(catalog, drop.id);
        out.description
            = QObject::tr("A GPU goes into a server: drop a server type instead%1.")
                  .arg(node.empty() ? QString()
                                    : QObject::tr(" (%1 carries this GPU)")
                                          .arg(QString::fromStdString(catalog.node(node).name)));
        return out;
    }
    case model::CatalogKind::Node:
        if (validGroup && p.nodeGroups[*group].nodeId == drop.id) {
            p.nodeGroups[*group].count += drop.count;
            out.description = QObject::tr("Add %1 x %2 to %3")
                                  .arg(drop.count)
                                  .arg(name, QString::fromStdString(p.nodeGroups[*group].name));
        } else {
            model::NodeGroup g;
            g.nodeId = drop.id;
            g.count = drop.count;
            // Named for people: the server's catalog name, numbered when it repeats.
            const std::string base = name.toStdString();
            g.name = base;
            for (int n = 2;
                 std::any_of(p.nodeGroups.begin(), p.nodeGroups.end(),
                             [&](const model::NodeGroup &other) { return other.name == g.name; });
                 ++n)
                g.name = base + " (" + std::to_string(n) + ")";
            if (validGroup)
                g.rackId = p.nodeGroups[*group].rackId;
            p.nodeGroups.push_back(g);
            out.description = QObject::tr("Add %1 x %2").arg(drop.count).arg(name);
        }
        break;
    case model::CatalogKind::Rack:
        if (!validGroup) {
            out.description = QObject::tr("Drop a rack onto a server group to put its servers "
                                          "in racks of that type.");
            return out;
        }
        p.nodeGroups[*group].rackId = drop.id;
        out.description = QObject::tr("Rack %1 in %2")
                              .arg(QString::fromStdString(p.nodeGroups[*group].name), name);
        break;
    case model::CatalogKind::Nic: {
        const model::NicSpec &nic = catalog.nic(drop.id);
        if (!p.fabric.switchId.empty()
            && !compatible(nic, catalog.networkSwitch(p.fabric.switchId))) {
            out.description = QObject::tr("%1 cannot connect to the fabric's %2 switches: choose "
                                          "a switch of the same protocol first.")
                                  .arg(name, QString::fromStdString(p.fabric.switchId));
            return out;
        }
        p.fabric.nicId = drop.id;
        if (p.fabric.topology == "none")
            p.fabric.topology = "fat-tree";
        out.description = QObject::tr("Connect nodes with %1").arg(name);
        break;
    }
    case model::CatalogKind::Switch: {
        const model::SwitchSpec &sw = catalog.networkSwitch(drop.id);
        if (const model::NicSpec *nic = fabricNic(p, catalog); nic && !compatible(*nic, sw)) {
            out.description = QObject::tr("%1 switches cannot carry %2 links: drop a matching NIC "
                                          "first.")
                                  .arg(name, QString::fromStdString(nic->name));
            return out;
        }
        p.fabric.switchId = drop.id;
        if (p.fabric.topology == "none")
            p.fabric.topology = "fat-tree";
        out.description = QObject::tr("Build the fabric from %1").arg(name);
        break;
    }
    case model::CatalogKind::Storage: {
        bool found = false;
        for (model::StoragePlan &s : p.storage)
            if (s.storageId == drop.id) {
                s.count += drop.count;
                found = true;
            }
        if (!found)
            p.storage.push_back({drop.id, drop.count});
        out.description = QObject::tr("Add %1 x %2").arg(drop.count).arg(name);
        break;
    }
    case model::CatalogKind::Facility:
        p.facility.facilityId = drop.id;
        out.description = QObject::tr("Host the cluster in %1").arg(name);
        break;
    case model::CatalogKind::Model:
        if (p.workloadType == model::WorkloadType::Inference) {
            p.inference.modelId = drop.id;
        } else {
            p.workloadType = model::WorkloadType::Training;
            p.trainingModelId = drop.id;
            if (p.training.seqLen <= 0)
                p.training.seqLen = 4096;
            if (p.training.globalBatch <= 0)
                p.training.globalBatch = 1024;
            // A new workload trains on a compute-optimal budget rather than on nothing.
            if (p.training.tokens <= 0)
                p.training.tokens = model::TransformerShape::fromModel(catalog.llm(drop.id))
                                        .computeOptimalTrainingTokens();
        }
        out.description = QObject::tr("Workload model %1").arg(name);
        break;
    case model::CatalogKind::Dataset:
        if (p.workloadType != model::WorkloadType::Training) {
            out.description = QObject::tr("A dataset feeds a training workload: drop a model "
                                          "first.");
            return out;
        }
        p.trainingDatasetId = drop.id;
        out.description = QObject::tr("Train on %1").arg(name);
        break;
    }
    Q_UNUSED(id);
    out.plan = std::move(p);
    return out;
}

} // namespace cp::views
