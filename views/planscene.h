// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "catalogpalette.h"

#include "model/catalog.h"

#include <QGraphicsScene>
#include <QHash>

#include <memory>

namespace cp::views {

class PlanCardItem;
class PlanDocument;

/**
 * The canvas's scene: it observes the PlanDocument (planChanged) and rebuilds its cards from the
 * plan, so it never holds state the document does not (positions live in the plan's layout).
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
    PlanCardItem *cardForKey(const QString &key) const;
    QList<PlanCardItem *> cards() const;

signals:
    void message(const QString &text);
    void selectedKeyChanged(const QString &key);

protected:
    void dragEnterEvent(QGraphicsSceneDragDropEvent *event) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent *event) override;
    void dropEvent(QGraphicsSceneDragDropEvent *event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;

private:
    void rebuild();
    void updateLinks();
    QPointF storedPosition(const QString &key, const QPointF &fallback) const;
    QString keyAt(const QPointF &scenePos) const;

    PlanDocument *m_document;
    std::shared_ptr<const model::Catalog> m_catalog;
    QHash<QString, PlanCardItem *> m_cards;
    QHash<QString, QPointF> m_pressPositions; ///< card positions at the last mouse press
    QList<QGraphicsLineItem *> m_links;
    bool m_rebuilding = false;
    /** While a link is dragged from a port: the card it starts at and the rubber line. */
    QString m_connectFrom;
    QGraphicsLineItem *m_connectLine = nullptr;
};

} // namespace cp::views
