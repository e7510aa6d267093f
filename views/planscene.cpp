// SPDX-License-Identifier: GPL-3.0-or-later
#include "planscene.h"

#include "humannumbers.h"

#include "cablerouter.h"
#include "cardkeys.h"

#include "fabriccardsummary.h"
#include "fabricitem.h"
#include "fabriclinkitem.h"
#include "nodegroupitem.h"
#include "plancarditem.h"
#include "planconnect.h"
#include "plandocument.h"
#include "plandrop.h"
#include "portitem.h"

#include "model/core/humantext.h"
#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricdesign.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/planfabric.h"
#include "model/storage/datapath.h"

#include <QApplication>
#include <QClipboard>
#include <QGraphicsLineItem>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneMouseEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QSignalBlocker>

#include <cmath>

namespace cp::views {

namespace {

constexpr const char *groupsMimeType = "application/x-clusterplanner-node-groups";

/** Servers per rack: the plan's, else as many as fit by rack units and power. */
int nodesPerRack(const model::NodeGroup &group, const model::Catalog &catalog)
{
    if (group.rackId.empty())
        return 0;
    if (group.nodesPerRack > 0)
        return group.nodesPerRack;
    const model::NodeSpec &node = catalog.node(group.nodeId);
    const model::RackSpec &rack = catalog.rack(group.rackId);
    const double watts
        = node.powerWithoutGpusWatts + node.gpusPerNode * catalog.gpu(node.gpuId).tdpWatts;
    const int bySpace = node.rackUnits > 0 ? rack.rackUnits / node.rackUnits : 1;
    const int byPower = watts > 0 ? static_cast<int>(rack.powerLimitWatts / watts) : bySpace;
    return std::max(1, std::min(bySpace, byPower));
}

} // namespace

PlanScene::PlanScene(PlanDocument *document, QObject *parent)
    : QGraphicsScene(parent)
    , m_document(document)
    , m_fabricRunner(this, [this](const KeyedFabricSummary &result) { showFabricSummary(result); })
{
    connect(m_document, &PlanDocument::planChanged, this, [this](PlanParts parts) {
        if (changesShownDesign(parts))
            rebuild();
        else if (parts.testFlag(PlanPart::Layout))
            applyLayout(); // a move: the cards stay, only their places change
        // A renamed plan or scenario changes no card.
    });
    connect(this, &QGraphicsScene::selectionChanged, this, [this] {
        if (!m_rebuilding)
            emit selectedKeyChanged(selectedKey());
    });
}

PlanScene::~PlanScene()
{
    // Removing the items changes the selection; nobody may hear of it any more.
    blockSignals(true);
    clear();
}

void PlanScene::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
    m_fabricSummary = {}; // counted with the old catalog's switches
    m_fabricPending.clear();
    rebuild();
}

QPointF PlanScene::storedPosition(const QString &key, const QPointF &fallback) const
{
    const nlohmann::json &layout = m_document->plan().layout;
    const auto items = layout.find("items");
    if (items == layout.end() || !items->is_object())
        return fallback;
    const auto it = items->find(key.toStdString());
    if (it == items->end() || !it->is_array() || it->size() != 2 || !(*it)[0].is_number()
        || !(*it)[1].is_number())
        return fallback;
    return {(*it)[0].get<double>(), (*it)[1].get<double>()};
}

void PlanScene::addCard(PlanCardItem *card, const QPointF &fallback)
{
    m_defaultPositions.insert(card->key(), fallback); // where it goes without a stored place
    card->setPos(storedPosition(card->key(), fallback));
    addItem(card);
    m_cards.insert(card->key(), card);
}

/** The fabric card: switch tiers counted on the generated graph, which a worker thread builds (up
 * to seconds at the size limit); until it reports, the card says so. */
void PlanScene::addFabricCard(const model::Plan &plan)
{
    const QString key = fabricCardKey(plan);
    auto *fabric = new FabricItem(
        tr("Fabric: %1")
            .arg(QString::fromStdString(model::fabricTopologyTitle(plan.fabric.topology))),
        {}, {});
    addCard(fabric, QPointF(0, 0));
    if (key == m_fabricSummary.key) {
        applyFabricSummary(fabric, m_fabricSummary.summary);
    } else {
        fabric->setLines({tr("counting switches and cables…")});
        requestFabricSummary(plan, key);
    }
}

/** One server group's card: servers, GPUs, racks and what is wrong with them. */
void PlanScene::addNodeGroupCard(const model::Plan &plan, std::size_t i, bool hasFabric)
{
    const model::NodeGroup &group = plan.nodeGroups[i];
    const model::NodeSpec &node = m_catalog->node(group.nodeId);
    const model::GpuSpec &gpu = m_catalog->gpu(node.gpuId);
    const int perRack = nodesPerRack(group, *m_catalog);
    const int racks = perRack > 0 ? (group.count + perRack - 1) / perRack : 0;
    QStringList lines;
    lines << tr("%1 x %2").arg(QString::fromStdString(model::groupedCount(group.count)),
                               QString::fromStdString(node.name));
    lines << tr("%1 GPUs (%2)")
                 .arg(QString::fromStdString(model::groupedCount(static_cast<long long>(group.count)
                                                                 * node.gpusPerNode)),
                      QString::fromStdString(gpu.name));
    const model::RackSpec *rack = group.rackId.empty() ? nullptr : &m_catalog->rack(group.rackId);
    lines << (rack ? tr("in %1").arg(QString::fromStdString(rack->name))
                   : tr("not in racks: drop a rack onto this group"));
    auto *item
        = new NodeGroupItem(groupKey(i), QString::fromStdString(group.name), lines, racks, perRack,
                            group.count, rack ? rack->rackUnits : 42, node.rackUnits);
    const double watts = node.powerWithoutGpusWatts + node.gpusPerNode * gpu.tdpWatts;
    if (rack && perRack * watts > rack->powerLimitWatts)
        item->setWarning(tr("rack over its power limit: %1 of %2 kW")
                             .arg(perRack * watts / 1e3, 0, 'f', 1)
                             .arg(rack->powerLimitWatts / 1e3, 0, 'f', 1));
    else if (rack && node.rackUnits * perRack > rack->rackUnits)
        item->setWarning(tr("more servers than the rack has units"));
    else if (!hasFabric && plan.totalNodes() > 1)
        item->setWarning(tr("not connected: drop a NIC or switch to add a fabric"));
    else if (hasFabric && !group.onFabric)
        item->setWarning(tr("not connected to the fabric: drag its port onto the fabric"));
    if (hasFabric)
        new PortItem(groupKey(i), group.onFabric, item);
    addCard(item,
            QPointF(static_cast<double>(i % 4) * 330, 260 + static_cast<double>(i / 4) * 260));
}

void PlanScene::addStorageCards(const model::Plan &plan, bool hasFabric)
{
    // With a dataset to read, each card says how fast it alone can feed it.
    std::optional<model::DatasetSpec> dataset;
    if (plan.workloadType == model::WorkloadType::Training && !plan.trainingDatasetId.empty()
        && m_catalog->kindOf(plan.trainingDatasetId) == model::CatalogKind::Dataset)
        dataset = m_catalog->dataset(plan.trainingDatasetId);
    double top = 0;
    for (std::size_t i = 0; i < plan.storage.size(); ++i) {
        const model::StoragePlan &s = plan.storage[i];
        const model::StorageSpec &spec = m_catalog->storage(s.storageId);
        QStringList lines = {
            s.count == 1 ? tr("1 system") : tr("%1 systems").arg(s.count),
            tr("%1/s read, %2/s write")
                .arg(QString::fromStdString(model::humanBytes(s.count * spec.readBytesPerSecond)),
                     QString::fromStdString(model::humanBytes(s.count * spec.writeBytesPerSecond))),
            tr("%1 IOPS, %2")
                .arg(humanCount(s.count * spec.iops),
                     QString::fromStdString(model::humanBytes(s.count * spec.capacityBytes)))};
        if (dataset)
            lines << tr("feeds %1 samples/s")
                         .arg(QLocale().toString(model::storageFeedSamplesPerSecond(
                                                     spec, s.count, *dataset, plan.training.seqLen),
                                                 'f', 0));
        auto *card = new PlanCardItem(storageKey(i), QString::fromStdString(spec.name), lines,
                                      QColor(0x6a, 0x1b, 0x9a));
        if (hasFabric && !s.onFabric)
            card->setWarning(tr("not connected to the fabric: drag its port onto the fabric"));
        if (hasFabric)
            new PortItem(storageKey(i), s.onFabric, card);
        addCard(card, QPointF(340, top));
        top += card->boundingRect().height() + 10;
    }
}

void PlanScene::addWorkloadAndFacilityCards(const model::Plan &plan)
{
    QStringList lines;
    QString title = tr("Workload: none");
    // People read the catalog's name, not its id.
    const auto modelName = [this](const std::string &id) {
        return QString::fromStdString(m_catalog->nameOf(id)); // else the id is all there is
    };
    if (plan.workloadType == model::WorkloadType::Training) {
        title = tr("Training %1").arg(modelName(plan.trainingModelId));
        lines << tr("sequence %1, global batch %2")
                     .arg(QString::fromStdString(model::groupedCount(plan.training.seqLen)))
                     .arg(QString::fromStdString(model::groupedCount(plan.training.globalBatch)));
        if (plan.training.tokens > 0)
            lines << tr("%1 tokens").arg(humanCount(plan.training.tokens));
        if (!plan.trainingDatasetId.empty())
            lines << tr("reads %1").arg(modelName(plan.trainingDatasetId));
    } else if (plan.workloadType == model::WorkloadType::Inference) {
        title = tr("Serving %1").arg(modelName(plan.inference.modelId));
        lines << tr("%1 in / %2 out tokens")
                     .arg(QString::fromStdString(model::groupedCount(plan.inference.inputTokens)))
                     .arg(QString::fromStdString(model::groupedCount(plan.inference.outputTokens)));
        if (plan.inference.ratePerSecond)
            lines << tr("%1 requests/s").arg(*plan.inference.ratePerSecond);
        else if (plan.inference.offlineRequests)
            lines << tr("offline job of %1 requests")
                         .arg(humanCount(static_cast<double>(*plan.inference.offlineRequests)));
    } else if (!plan.portfolio.classes.empty()) {
        // A cluster planned for its queue: the portfolio is its workload (plan simulate).
        const auto classes = plan.portfolio.classes.size();
        title = classes == 1 ? tr("Portfolio of 1 job class")
                             : tr("Portfolio of %1 job classes").arg(classes);
        double jobsPerDay = 0;
        for (const model::JobClass &job : plan.portfolio.classes)
            jobsPerDay += job.arrivalsPerSecond * 86400.0;
        lines << tr("%1 jobs a day").arg(humanCount(jobsPerDay))
              << (plan.portfolio.policy == model::SchedulingPolicy::Fifo ? tr("priority FIFO")
                      : plan.portfolio.policy == model::SchedulingPolicy::BestEffortFifo
                      ? tr("Kueue best-effort FIFO")
                      : tr("EASY backfill"));
    } else {
        lines << tr("drop a model from the palette");
    }
    addCard(new PlanCardItem(QStringLiteral("workload"), title, lines, QColor(0xef, 0x6c, 0x00)),
            QPointF(-340, 0));
    const QString facility = plan.facility.facilityId.empty()
        ? tr("no facility: PUE 1.0 assumed")
        : QString::fromStdString(m_catalog->facility(plan.facility.facilityId).name);
    addCard(new PlanCardItem(QStringLiteral("facility"), tr("Facility"), {facility},
                             QColor(0x54, 0x6e, 0x7a)),
            QPointF(-340, 110));
}

void PlanScene::rebuild()
{
    if (!m_catalog)
        return;
    const QString selected = selectedKey();
    m_rebuilding = true;
    clear();
    m_cards.clear();
    m_links.clear();
    const model::Plan &plan = m_document->plan();
    m_defaultPositions.clear();
    const bool hasFabric = plan.fabric.topology != "none";
    if (hasFabric)
        addFabricCard(plan);
    for (std::size_t i = 0; i < plan.nodeGroups.size(); ++i)
        addNodeGroupCard(plan, i, hasFabric);
    addStorageCards(plan, hasFabric);
    addWorkloadAndFacilityCards(plan);
    for (PlanCardItem *card : std::as_const(m_cards))
        card->setMovedCallback([this] { updateLinks(); });
    updateLinks();
    if (PlanCardItem *card = m_cards.value(selected))
        card->setSelected(true);
    m_rebuilding = false;
    if (selectedKey() != selected)
        emit selectedKeyChanged(selectedKey());
}

void PlanScene::requestFabricSummary(const model::Plan &plan, const QString &key)
{
    if (key == m_fabricPending)
        return; // already being counted
    m_fabricPending = key;
    const std::shared_ptr<const model::Catalog> catalog = m_catalog;
    m_fabricRunner.request([plan, key, catalog](const std::atomic<bool> *) {
        return KeyedFabricSummary {key, summariseFabric(plan, *catalog)};
    });
}

void PlanScene::showFabricSummary(const KeyedFabricSummary &result)
{
    m_fabricPending.clear();
    m_fabricSummary = result;
    auto *fabric = dynamic_cast<FabricItem *>(m_cards.value(QStringLiteral("fabric")));
    // A count for a fabric the plan no longer has stays in the cache only.
    if (fabric && fabricCardKey(m_document->plan()) == result.key) {
        applyFabricSummary(fabric, result.summary);
        updateLinks();
    }
    emit fabricSummaryShown();
}

void PlanScene::applyFabricSummary(FabricItem *fabric, const FabricCardSummary &summary)
{
    fabric->setLines(summary.lines);
    fabric->setTiers(summary.tiers);
    fabric->setWarning(summary.warning);
}

bool PlanScene::isCountingFabric() const
{
    return !m_fabricPending.isEmpty();
}

void PlanScene::waitForFabricSummary()
{
    // The result arrives through the event loop after the job ends.
    while (isCountingFabric()) {
        m_fabricRunner.waitForIdle();
        QCoreApplication::processEvents();
    }
}

void PlanScene::applyLayout()
{
    m_rebuilding = true;
    for (PlanCardItem *card : std::as_const(m_cards))
        card->setPos(storedPosition(card->key(), m_defaultPositions.value(card->key())));
    m_rebuilding = false;
    updateLinks();
}

void PlanScene::updateLinks()
{
    // The cables already drawn, by card: a moved card or a resized fabric card re-routes them
    // rather than drawing them anew (their labels' text items are most of a drag step's cost).
    QHash<QString, FabricLinkItem *> drawn;
    for (FabricLinkItem *link : std::as_const(m_links))
        drawn.insert(link->cardKey(), link);
    m_links.clear();
    const auto removeUnused = [&] {
        for (FabricLinkItem *link : std::as_const(drawn)) {
            removeItem(link);
            delete link;
        }
    };
    PlanCardItem *fabric = m_cards.value(QStringLiteral("fabric"));
    if (!fabric) {
        removeUnused();
        return;
    }
    const QRectF fabricRect = fabric->sceneBoundingRect();
    const model::Plan &plan = m_document->plan();
    struct Cable
    {
        QString key;
        QRectF card;
        QPointF port;
    };
    std::vector<Cable> cables;
    CableRouter::Layout layout;
    layout.fabricCard = fabricRect;
    for (auto it = m_cards.cbegin(); it != m_cards.cend(); ++it) {
        if (it.value() == fabric)
            continue;
        const QRectF cardRect = it.value()->sceneBoundingRect();
        layout.cards << cardRect;
        if (!isOnFabric(plan, it.key()))
            continue;
        // The cable runs into the card's port, where a drag starts and ends; a card without
        // one (none today) is reached at the middle of its top edge, where the port would be.
        QPointF port(cardRect.center().x(), cardRect.top());
        for (QGraphicsItem *child : it.value()->childItems())
            if (auto *portItem = dynamic_cast<PortItem *>(child))
                port = portItem->scenePos();
        cables.push_back({it.key(), cardRect, port});
        layout.ports << port;
    }
    // One router for every cable: the grid and what blocks it are the same for all of them; and
    // one sizing of the fabric for every server group's label.
    const CableRouter router(layout);
    const auto groupAttachments = model::nodeGroupAttachments(plan, *m_catalog);
    for (const Cable &cable : cables) {
        const QList<QPointF> corners
            = FabricLinkItem::route(fabricRect, cable.card, cable.port, layout.cards, router);
        FabricLinkItem *link = drawn.take(cable.key);
        if (link) {
            link->setRoute(corners);
        } else {
            link = new FabricLinkItem(cable.key, corners);
            addItem(link);
        }
        labelLink(link, plan, groupAttachments);
        m_links.push_back(link);
    }
    removeUnused();
}

void PlanScene::labelLink(
    FabricLinkItem *link, const model::Plan &plan,
    const std::vector<std::optional<model::FabricAttachment>> &groupAttachments) const
{
    std::optional<model::FabricAttachment> attachment;
    if (const auto group = groupIndex(link->cardKey())) {
        if (static_cast<std::size_t>(*group) < groupAttachments.size())
            attachment = groupAttachments[static_cast<std::size_t>(*group)];
    } else if (const auto storage = storageIndex(link->cardKey()))
        attachment = model::storageAttachment(plan, *m_catalog, static_cast<std::size_t>(*storage));
    QString label;
    QString details;
    if (attachment && attachment->links > 0
        && m_catalog->kindOf(attachment->nicId) == model::CatalogKind::Nic) {
        const model::NicSpec &nic = m_catalog->nic(attachment->nicId);
        const QString links = QLocale().toString(attachment->links);
        label = tr("%1 × %2").arg(links, humanBitRate(nic.bytesPerSecond));
        details = tr("%1 links of %2").arg(links, human(nic.name));
    }
    // A re-routed cable keeps its label item when the words stand.
    if (label != link->label() || details != link->labelDetails())
        link->setLabel(label, details);
}

QString PlanScene::keyAt(const QPointF &scenePos) const
{
    for (QGraphicsItem *item : items(scenePos))
        if (auto *card = dynamic_cast<PlanCardItem *>(item))
            return card->key();
    return {};
}

bool PlanScene::dropCatalogItem(const CatalogDrop &drop, const QPointF &scenePos)
{
    if (!m_catalog)
        return false;
    const QString target = keyAt(scenePos);
    DropOutcome outcome = applyDrop(m_document->plan(), *m_catalog, drop, target);
    if (!outcome.plan) {
        emit message(outcome.description);
        return false;
    }
    model::Plan &plan = *outcome.plan;
    if (plan.nodeGroups.size() > m_document->plan().nodeGroups.size())
        plan.layout["items"][groupKey(plan.nodeGroups.size() - 1).toStdString()]
            = {scenePos.x(), scenePos.y()};
    m_document->edit(plan, outcome.description);
    emit message(outcome.description);
    return true;
}

void PlanScene::dragEnterEvent(QGraphicsSceneDragDropEvent *event)
{
    event->setAccepted(dropFromMimeData(event->mimeData()).has_value());
    if (event->isAccepted())
        event->setDropAction(Qt::CopyAction);
}

void PlanScene::dragMoveEvent(QGraphicsSceneDragDropEvent *event)
{
    dragEnterEvent(event);
}

void PlanScene::dropEvent(QGraphicsSceneDragDropEvent *event)
{
    const auto drop = dropFromMimeData(event->mimeData());
    if (!drop) {
        event->ignore();
        return;
    }
    dropCatalogItem(*drop, event->scenePos());
    event->setDropAction(Qt::CopyAction);
    event->accept();
}

void PlanScene::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        for (QGraphicsItem *item : items(event->scenePos()))
            if (auto *port = dynamic_cast<PortItem *>(item)) {
                // A link drag, not a card move or a rubber band.
                m_connectFrom = port->cardKey();
                m_connectLine = addLine(QLineF(port->scenePos(), event->scenePos()),
                                        QPen(QColor(0x15, 0x65, 0xc0), 2, Qt::DashLine));
                m_connectLine->setZValue(10);
                event->accept();
                return;
            }
    // Where every card stands before the press: only a card that then moves is a move.
    m_pressPositions.clear();
    for (auto it = m_cards.cbegin(); it != m_cards.cend(); ++it)
        m_pressPositions.insert(it.key(), it.value()->pos());
    QGraphicsScene::mousePressEvent(event);
}

void PlanScene::mouseMoveEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_connectLine) {
        m_connectLine->setLine(QLineF(m_connectLine->line().p1(), event->scenePos()));
        event->accept();
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
}

void PlanScene::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_connectLine) {
        removeItem(m_connectLine);
        delete m_connectLine;
        m_connectLine = nullptr;
        const QString from = std::exchange(m_connectFrom, QString());
        const DropOutcome outcome
            = applyConnection(m_document->plan(), from, keyAt(event->scenePos()));
        if (outcome.plan)
            m_document->edit(*outcome.plan, outcome.description);
        else
            emit message(outcome.description);
        event->accept();
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    // Moves become one undoable edit of the plan's layout. A card counts as moved when it stands
    // elsewhere than at the press (a plain click moves nothing, even for a card that has no
    // stored position yet and sits where the automatic layout put it).
    const QHash<QString, QPointF> before = std::exchange(m_pressPositions, {});
    model::Plan plan = m_document->plan();
    bool moved = false;
    for (auto it = m_cards.cbegin(); it != m_cards.cend(); ++it) {
        const QPointF pos = it.value()->pos();
        const QPointF start = before.value(it.key(), pos);
        if (it.value()->isSelected()
            && !(std::abs(pos.x() - start.x()) < 0.5 && std::abs(pos.y() - start.y()) < 0.5)) {
            plan.layout["items"][it.key().toStdString()] = {pos.x(), pos.y()};
            moved = true;
        }
    }
    if (moved)
        m_document->edit(plan, tr("Move"));
}

void PlanScene::deleteSelection()
{
    model::Plan plan = m_document->plan();
    std::vector<int> groups;
    std::vector<int> storage;
    QStringList removed;
    // Selected links first: unplugging changes flags, not indices.
    for (QGraphicsItem *item : selectedItems()) {
        auto *link = dynamic_cast<FabricLinkItem *>(item);
        if (!link || !m_links.contains(link))
            continue;
        const QString key = link->cardKey();
        const DropOutcome unplugged = setOnFabric(plan, key, false);
        if (unplugged.plan) {
            plan = *unplugged.plan;
            PlanCardItem *card = m_cards.value(key);
            removed << tr("the link of %1").arg(card ? card->title() : key);
        }
    }
    for (QGraphicsItem *item : selectedItems()) {
        auto *card = dynamic_cast<PlanCardItem *>(item);
        if (!card)
            continue;
        const QString key = card->key();
        if (const auto g = groupIndex(key))
            groups.push_back(*g);
        else if (const auto s = storageIndex(key))
            storage.push_back(*s);
        else if (key == QStringLiteral("fabric"))
            plan.fabric.topology = "none";
        else if (key == QStringLiteral("workload"))
            plan.workloadType = model::WorkloadType::None;
        else if (key == QStringLiteral("facility"))
            plan.facility = {};
        removed << card->title();
    }
    if (removed.isEmpty()) {
        emit message(tr("Select something on the canvas to delete"));
        return;
    }
    // Keep positions with the groups that remain (keys are indices).
    nlohmann::json positions = plan.layout.value("items", nlohmann::json::object());
    // In the baseline, every scenario's per-group changes follow the groups that remain (they
    // are keyed by index: a scenario's change to the third group had moved to the second, or
    // pointed past the end and made a file that would not open).
    const bool baseline = m_document->activeScenario() < 0;
    if (baseline)
        plan.scenarios = m_document->documentPlan().scenarios;
    model::removeServerGroups(plan, groups);
    std::sort(storage.rbegin(), storage.rend());
    for (int s : storage)
        plan.storage.erase(plan.storage.begin() + s);
    nlohmann::json kept = nlohmann::json::object();
    for (auto it = positions.begin(); it != positions.end(); ++it) {
        const QString key = QString::fromStdString(it.key());
        const auto shift = [&](const QString &prefix, const std::vector<int> &gone) -> QString {
            const int index = key.mid(prefix.size()).toInt();
            if (std::find(gone.begin(), gone.end(), index) != gone.end())
                return {};
            const int before = static_cast<int>(
                std::count_if(gone.begin(), gone.end(), [&](int x) { return x < index; }));
            return prefix + QString::number(index - before);
        };
        QString newKey = key;
        if (key.startsWith(QStringLiteral("group:")))
            newKey = shift(QStringLiteral("group:"), groups);
        else if (key.startsWith(QStringLiteral("storage:")))
            newKey = shift(QStringLiteral("storage:"), storage);
        if (!newKey.isEmpty())
            kept[newKey.toStdString()] = it.value();
    }
    plan.layout["items"] = kept;
    const QString text = tr("Delete %1").arg(removed.join(QStringLiteral(", ")));
    if (!baseline) {
        m_document->edit(plan, text);
        return;
    }
    // The loader's checks on the whole document, scenarios included: a job class whose
    // partition was a deleted group is refused with its pointer, not saved to a file that
    // would not open.
    try {
        (void)model::parsePlan(model::planToJson(plan), "Delete", m_catalog.get());
    } catch (const std::exception &error) {
        emit message(tr("Not deleted: %1").arg(QString::fromStdString(error.what())));
        return;
    }
    m_document->editDocument(plan, text);
}

void PlanScene::copySelection()
{
    QJsonArray groups;
    for (QGraphicsItem *item : selectedItems()) {
        auto *card = dynamic_cast<PlanCardItem *>(item);
        const auto index = card ? groupIndex(card->key()) : std::nullopt;
        if (!index)
            continue;
        const model::NodeGroup &g = m_document->plan().nodeGroups.at(*index);
        groups.append(QJsonObject {{QStringLiteral("name"), QString::fromStdString(g.name)},
                                   {QStringLiteral("node"), QString::fromStdString(g.nodeId)},
                                   {QStringLiteral("count"), g.count},
                                   {QStringLiteral("rack"), QString::fromStdString(g.rackId)},
                                   {QStringLiteral("nodes_per_rack"), g.nodesPerRack},
                                   {QStringLiteral("on_fabric"), g.onFabric}});
    }
    if (groups.isEmpty()) {
        emit message(tr("Select server groups to copy"));
        return;
    }
    auto *mime = new QMimeData;
    mime->setData(QString::fromLatin1(groupsMimeType), QJsonDocument(groups).toJson());
    QApplication::clipboard()->setMimeData(mime);
    emit message(tr("Copied %n server group(s)", nullptr, static_cast<int>(groups.size())));
}

void PlanScene::paste()
{
    const QMimeData *mime = QApplication::clipboard()->mimeData();
    if (!mime || !mime->hasFormat(QString::fromLatin1(groupsMimeType)) || !m_catalog) {
        emit message(tr("Nothing to paste: copy server groups first"));
        return;
    }
    model::Plan plan = m_document->plan();
    const QJsonArray groups
        = QJsonDocument::fromJson(mime->data(QString::fromLatin1(groupsMimeType))).array();
    int added = 0;
    for (const QJsonValue &value : groups) {
        const QJsonObject o = value.toObject();
        model::NodeGroup g;
        g.name = o.value(QStringLiteral("name")).toString().toStdString() + " (copy)";
        g.nodeId = o.value(QStringLiteral("node")).toString().toStdString();
        g.count = o.value(QStringLiteral("count")).toInt();
        g.rackId = o.value(QStringLiteral("rack")).toString().toStdString();
        g.nodesPerRack = o.value(QStringLiteral("nodes_per_rack")).toInt();
        g.onFabric = o.value(QStringLiteral("on_fabric")).toBool(true);
        // The clipboard is anyone's: what a plan file may not hold is not pasted either.
        if (!m_catalog->contains(g.nodeId) || g.count < 1 || g.count > model::NodeGroup::maxCount
            || g.nodesPerRack < 0 || g.nodesPerRack > model::NodeGroup::maxNodesPerRack)
            continue;
        if (plan.nodeGroups.size() >= model::Plan::maxNodeGroups) {
            emit message(
                tr("The plan holds its most server groups, %1: pasted %n of them", nullptr, added)
                    .arg(QLocale().toString(static_cast<qulonglong>(model::Plan::maxNodeGroups))));
            break;
        }
        const QString source = groupKey(plan.nodeGroups.size());
        plan.nodeGroups.push_back(g);
        const QPointF pos = storedPosition(source, QPointF(0, 260)) + QPointF(40, 40 * (added + 1));
        plan.layout["items"][groupKey(plan.nodeGroups.size() - 1).toStdString()]
            = {pos.x(), pos.y()};
        ++added;
    }
    if (added > 0)
        m_document->edit(plan, tr("Paste %n server group(s)", nullptr, added));
}

QString PlanScene::selectedKey() const
{
    for (QGraphicsItem *item : selectedItems())
        if (auto *card = dynamic_cast<PlanCardItem *>(item))
            return card->key();
    return {};
}

void PlanScene::selectKey(const QString &key)
{
    clearSelection();
    if (PlanCardItem *card = m_cards.value(key))
        card->setSelected(true);
}

void PlanScene::selectKeys(const QStringList &keys)
{
    // One selectionChanged for the whole pick, not one per card.
    {
        const QSignalBlocker blocker(this);
        clearSelection();
        for (const QString &key : keys)
            if (PlanCardItem *card = m_cards.value(key))
                card->setSelected(true);
    }
    emit selectionChanged();
}

QStringList PlanScene::selectedKeys() const
{
    QStringList keys;
    for (QGraphicsItem *item : selectedItems())
        if (auto *card = dynamic_cast<PlanCardItem *>(item))
            keys << card->key();
    return keys;
}

PlanCardItem *PlanScene::cardForKey(const QString &key) const
{
    return m_cards.value(key);
}

QList<PlanCardItem *> PlanScene::cards() const
{
    return m_cards.values();
}

} // namespace cp::views
