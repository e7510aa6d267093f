// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QStringList>

#include <functional>

namespace cp::views {

/**
 * A movable card on the canvas for one part of the plan (its `key`: "group:0", "fabric",
 * "storage:1", "facility", "workload"). It shows a title, lines of figures and a warning; the
 * scene builds cards from the plan and never stores anything in them that the plan does not.
 */
class PlanCardItem : public QGraphicsItem
{
public:
    PlanCardItem(QString key, QString title, QStringList lines, QColor accent);

    const QString &key() const { return m_key; }
    const QString &title() const { return m_title; }
    const QStringList &lines() const { return m_lines; }
    void setWarning(const QString &warning);
    /** New figures for the same part (a background count arrived); the card keeps its place. */
    void setLines(const QStringList &lines);
    /** Called while the card is dragged, so the scene can keep its links attached. */
    void setMovedCallback(std::function<void()> callback) { m_moved = std::move(callback); }
    const QString &warning() const { return m_warning; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant &value) override;
    /** Extra drawing below the text (rack elevations, switch tiers), in `area`. */
    virtual void paintBody(QPainter *painter, const QRectF &area, double levelOfDetail);
    void setBodyHeight(double height);
    QColor accent() const { return m_accent; }

private:
    /** One row of text as drawn: a long title, line or warning wraps onto a second row. */
    struct TextRow
    {
        QString text;
        enum class Style { Title, Line, Warning } style = Style::Line;
    };
    QList<TextRow> textRows() const;
    QFont cardFont() const;

    QString m_key;
    QString m_title;
    QStringList m_lines;
    QString m_warning;
    QColor m_accent;
    double m_bodyHeight = 0;
    std::function<void()> m_moved;
};

} // namespace cp::views
