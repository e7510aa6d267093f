// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "catalogdrop.h"
#include "fabriccardsummary.h"
#include "latestjobrunner.h"

#include "model/catalog/catalog.h"
#include "model/planning/planfabric.h"

#include <QGraphicsScene>
#include <QHash>

#include <memory>

namespace cp::views {

class FabricItem;
class FabricLinkItem;
class PlanCardItem;
class PlanDocument;

/**
 * The canvas's scene: it observes the PlanDocument (planChanged) and rebuilds its cards from the
 * plan, or only moves them when only the layout changed, so it never holds state the document
 * does not (positions live in the plan's layout). The fabric card's counts come from a worker
 * thread (the graph can take seconds to build), cached by the fabric's settings.
 * Drops, moves, deletes and pastes become document edits (undo commands).
 */
class PlanScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit PlanScene(PlanDocument *document, QObject *parent = nullptr);
    ~PlanScene() override;
    void setCatalog(std::shared_ptr<const model::Catalog> catalog);

    /** What a drop at `scenePos` does; true when the plan changed (else `message` says why). */
    bool dropCatalogItem(const CatalogDrop &drop, const QPointF &scenePos);
    void deleteSelection();
    void copySelection();
    void paste();

    QString selectedKey() const;
    void selectKey(const QString &key);
    /** Selects exactly these cards (the Fabric view picks the groups cabled to a switch). */
    void selectKeys(const QStringList &keys);
    /** Keys of every selected card, in no particular order. */
    QStringList selectedKeys() const;
    PlanCardItem *cardForKey(const QString &key) const;
    QList<PlanCardItem *> cards() const;
    /** True while the fabric card's counts are being computed. */
    bool isCountingFabric() const;
    /** Blocks until the fabric count is in (tests only, never the GUI). */
    void waitForFabricSummary();

signals:
    void message(const QString &text);
    void selectedKeyChanged(const QString &key);
    /** The fabric card's counts arrived from the worker thread. */
    void fabricSummaryShown();

protected:
    void dragEnterEvent(QGraphicsSceneDragDropEvent *event) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent *event) override;
    void dropEvent(QGraphicsSceneDragDropEvent *event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;

private:
    struct KeyedFabricSummary
    {
        QString key; ///< fabricCardKey of the plan it was counted for
        FabricCardSummary summary;
    };

    void rebuild();
    void addCard(PlanCardItem *card, const QPointF &fallback);
    void addFabricCard(const model::Plan &plan);
    void addNodeGroupCard(const model::Plan &plan, std::size_t index, bool hasFabric);
    void addStorageCards(const model::Plan &plan, bool hasFabric);
    void addWorkloadAndFacilityCards(const model::Plan &plan);
    void applyLayout();
    void requestFabricSummary(const model::Plan &plan, const QString &key);
    void showFabricSummary(const KeyedFabricSummary &result);
    static void applyFabricSummary(FabricItem *fabric, const FabricCardSummary &summary);
    void updateLinks();
    /** Writes on `link` how many ports its card brings and at what rate (model attachments;
     * a server group's from `groupAttachments`, model::nodeGroupAttachments of `plan`). */
    void
    labelLink(FabricLinkItem *link, const model::Plan &plan,
              const std::vector<std::optional<model::FabricAttachment>> &groupAttachments) const;
    QPointF storedPosition(const QString &key, const QPointF &fallback) const;
    QString keyAt(const QPointF &scenePos) const;

    PlanDocument *m_document;
    std::shared_ptr<const model::Catalog> m_catalog;
    QHash<QString, PlanCardItem *> m_cards;
    QHash<QString, QPointF> m_defaultPositions; ///< each card's place when the layout has none
    QHash<QString, QPointF> m_pressPositions; ///< card positions at the last mouse press
    QList<FabricLinkItem *> m_links; ///< the cables to the fabric card, one per connected card
    bool m_rebuilding = false;
    /** While a link is dragged from a port: the card it starts at and the rubber line. */
    QString m_connectFrom;
    QGraphicsLineItem *m_connectLine = nullptr;
    KeyedFabricSummary m_fabricSummary; ///< the newest count, for the fabric it names
    QString m_fabricPending; ///< the key being counted, if any
    LatestJobRunner<KeyedFabricSummary> m_fabricRunner; ///< last: destroyed (joined) first
};

} // namespace cp::views
