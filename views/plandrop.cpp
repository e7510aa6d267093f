// SPDX-License-Identifier: GPL-3.0-or-later
#include "plandrop.h"

#include "cardkeys.h"

#include "model/core/inputerror.h"
#include "model/fabric/fabricscaleout.h"
#include "model/inference/inferencesetup.h"
#include "model/plan/planio.h"
#include "model/training/transformershape.h"

#include <QLocale>

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

/** Everything a drop onto the plan needs to change it and say what it did. */
struct DropContext
{
    model::Plan &plan;
    const model::Catalog &catalog;
    const CatalogDrop &drop;
    QString name; ///< the entry's catalog name
    std::optional<int> group; ///< the server group dropped on, when it is one of the plan's
    QString description;
};

/** A server type: more of the group it is dropped on when it is the same type, else a new group
 * (named for people, numbered when the name repeats) in the racks of the group under it. */
bool dropNode(DropContext &c)
{
    model::Plan &p = c.plan;
    if (c.group && p.nodeGroups[*c.group].nodeId == c.drop.id) {
        p.nodeGroups[*c.group].count += c.drop.count;
        c.description = QObject::tr("Add %1 x %2 to %3")
                            .arg(c.drop.count)
                            .arg(c.name, QString::fromStdString(p.nodeGroups[*c.group].name));
        return true;
    }
    if (p.nodeGroups.size() >= model::Plan::maxNodeGroups) {
        c.description
            = QObject::tr("The plan holds its most server groups, %1: drop %2 onto a "
                          "group of the same type to add to its count.")
                  .arg(QLocale().toString(static_cast<qulonglong>(model::Plan::maxNodeGroups)),
                       c.name);
        return false;
    }
    model::NodeGroup g;
    g.nodeId = c.drop.id;
    g.count = c.drop.count;
    const std::string base = c.name.toStdString();
    g.name = base;
    for (int n = 2;
         std::any_of(p.nodeGroups.begin(), p.nodeGroups.end(),
                     [&](const model::NodeGroup &other) { return other.name == g.name; });
         ++n)
        g.name = base + " (" + std::to_string(n) + ")";
    if (c.group)
        g.rackId = p.nodeGroups[*c.group].rackId;
    p.nodeGroups.push_back(g);
    c.description = QObject::tr("Add %1 x %2").arg(c.drop.count).arg(c.name);
    return true;
}

bool dropRack(DropContext &c)
{
    if (!c.group) {
        c.description = QObject::tr("Drop a rack onto a server group to put its servers in racks "
                                    "of that type.");
        return false;
    }
    c.plan.nodeGroups[*c.group].rackId = c.drop.id;
    c.description = QObject::tr("Rack %1 in %2")
                        .arg(QString::fromStdString(c.plan.nodeGroups[*c.group].name), c.name);
    return true;
}

/** A NIC or switch dropped on a plan without a fabric gives it one: a fat-tree. */
void giveFabric(model::Plan &p)
{
    if (p.fabric.topology == "none")
        p.fabric.topology = "fat-tree";
}

/** A NIC for the fabric, if the fabric's switches speak its protocol. */
bool dropNic(DropContext &c)
{
    model::Plan &p = c.plan;
    const model::NicSpec &nic = c.catalog.nic(c.drop.id);
    if (!p.fabric.switchId.empty()
        && !compatible(nic, c.catalog.networkSwitch(p.fabric.switchId))) {
        c.description = QObject::tr("%1 cannot connect to the fabric's %2 switches: choose a "
                                    "switch of the same protocol first.")
                            .arg(c.name, QString::fromStdString(p.fabric.switchId));
        return false;
    }
    p.fabric.nicId = c.drop.id;
    giveFabric(p);
    c.description = QObject::tr("Connect nodes with %1").arg(c.name);
    return true;
}

/** A switch for the fabric, if it speaks the fabric NIC's protocol. */
bool dropSwitch(DropContext &c)
{
    model::Plan &p = c.plan;
    const model::SwitchSpec &sw = c.catalog.networkSwitch(c.drop.id);
    if (const model::NicSpec *nic = fabricNic(p, c.catalog); nic && !compatible(*nic, sw)) {
        c.description = QObject::tr("%1 switches cannot carry %2 links: drop a matching NIC first.")
                            .arg(c.name, QString::fromStdString(nic->name));
        return false;
    }
    p.fabric.switchId = c.drop.id;
    giveFabric(p);
    c.description = QObject::tr("Build the fabric from %1").arg(c.name);
    return true;
}

bool dropStorage(DropContext &c)
{
    bool found = false;
    for (model::StoragePlan &s : c.plan.storage)
        if (s.storageId == c.drop.id) {
            s.count += c.drop.count;
            found = true;
        }
    if (!found)
        c.plan.storage.push_back({c.drop.id, c.drop.count});
    c.description = QObject::tr("Add %1 x %2").arg(c.drop.count).arg(c.name);
    return true;
}

/** A model: the serving workload's, or a training workload's (with a sequence, a batch and a
 * compute-optimal token budget when it had none). */
bool dropModel(DropContext &c)
{
    model::Plan &p = c.plan;
    if (p.workloadType == model::WorkloadType::Inference) {
        p.inference.modelId = c.drop.id;
    } else {
        p.workloadType = model::WorkloadType::Training;
        p.trainingModelId = c.drop.id;
        if (p.training.seqLen <= 0)
            p.training.seqLen = 4096;
        if (p.training.globalBatch <= 0)
            p.training.globalBatch = 1024;
        // A new workload trains on a compute-optimal budget rather than on nothing.
        if (p.training.tokens <= 0)
            p.training.tokens = model::TransformerShape::fromModel(c.catalog.llm(c.drop.id))
                                    .computeOptimalTrainingTokens();
    }
    c.description = QObject::tr("Workload model %1").arg(c.name);
    return true;
}

bool dropDataset(DropContext &c)
{
    if (c.plan.workloadType != model::WorkloadType::Training) {
        c.description = QObject::tr("A dataset feeds a training workload: drop a model first.");
        return false;
    }
    c.plan.trainingDatasetId = c.drop.id;
    c.description = QObject::tr("Train on %1").arg(c.name);
    return true;
}

/** A GPU alone changes nothing: it names the server type that carries it. */
bool dropGpu(DropContext &c)
{
    const std::string node = model::nodeForGpu(c.catalog, c.drop.id);
    c.description
        = QObject::tr("A GPU goes into a server: drop a server type instead%1.")
              .arg(node.empty() ? QString()
                                : QObject::tr(" (%1 carries this GPU)")
                                      .arg(QString::fromStdString(c.catalog.node(node).name)));
    return false;
}

bool dropFacility(DropContext &c)
{
    c.plan.facility.facilityId = c.drop.id;
    c.description = QObject::tr("Host the cluster in %1").arg(c.name);
    return true;
}

} // namespace

DropOutcome applyDrop(const model::Plan &plan, const model::Catalog &catalog,
                      const CatalogDrop &drop, const QString &targetKey)
{
    model::Plan p = plan;
    const auto target = groupIndex(targetKey);
    const bool validGroup
        = target && *target >= 0 && *target < static_cast<int>(p.nodeGroups.size());
    DropContext context {p,
                         catalog,
                         drop,
                         QString::fromStdString(catalog.nameOf(drop.id)),
                         validGroup ? target : std::nullopt,
                         QString()};
    bool applied = false;
    switch (drop.kind) {
    case model::CatalogKind::Gpu:
        applied = dropGpu(context);
        break;
    case model::CatalogKind::Node:
        applied = dropNode(context);
        break;
    case model::CatalogKind::Rack:
        applied = dropRack(context);
        break;
    case model::CatalogKind::Nic:
        applied = dropNic(context);
        break;
    case model::CatalogKind::Switch:
        applied = dropSwitch(context);
        break;
    case model::CatalogKind::Storage:
        applied = dropStorage(context);
        break;
    case model::CatalogKind::Facility:
        applied = dropFacility(context);
        break;
    case model::CatalogKind::Model:
        applied = dropModel(context);
        break;
    case model::CatalogKind::Dataset:
        applied = dropDataset(context);
        break;
    }
    DropOutcome out;
    out.description = context.description;
    if (!applied)
        return out;
    // What the plan file may not hold no drop may make either (a count past its range after
    // repeated drops would save a plan that does not load): the loader's own rules decide.
    try {
        model::parsePlan(model::planToJson(p), "plan", &catalog);
    } catch (const model::InputError &error) {
        out.description = QObject::tr("Not added: the plan would break a limit at %1: %2")
                              .arg(QString::fromStdString(error.pointer()),
                                   QString::fromStdString(error.reason()));
        return out;
    }
    out.plan = std::move(p);
    return out;
}

} // namespace cp::views
