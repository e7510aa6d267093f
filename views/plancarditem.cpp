// SPDX-License-Identifier: GPL-3.0-or-later
#include "plancarditem.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace cp::views {

namespace {
constexpr double cardWidth = 300;
constexpr double lineHeight = 16;
constexpr double padding = 8;
} // namespace

PlanCardItem::PlanCardItem(QString key, QString title, QStringList lines, QColor accent)
    : m_key(std::move(key))
    , m_title(std::move(title))
    , m_lines(std::move(lines))
    , m_accent(accent)
{
    setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges);
    setAcceptDrops(true);
    setToolTip(m_title + QLatin1Char('\n') + m_lines.join(QLatin1Char('\n')));
}

void PlanCardItem::setWarning(const QString &warning)
{
    prepareGeometryChange();
    m_warning = warning;
    setToolTip(m_title + QLatin1Char('\n') + m_lines.join(QLatin1Char('\n'))
               + (m_warning.isEmpty() ? QString() : QLatin1Char('\n') + m_warning));
}

void PlanCardItem::setLines(const QStringList &lines)
{
    prepareGeometryChange();
    m_lines = lines;
    setToolTip(m_title + QLatin1Char('\n') + m_lines.join(QLatin1Char('\n'))
               + (m_warning.isEmpty() ? QString() : QLatin1Char('\n') + m_warning));
}

void PlanCardItem::setBodyHeight(double height)
{
    prepareGeometryChange();
    m_bodyHeight = height;
}

QRectF PlanCardItem::boundingRect() const
{
    const double textLines = 1 + m_lines.size() + (m_warning.isEmpty() ? 0 : 1);
    return {0, 0, cardWidth, 2 * padding + textLines * lineHeight + m_bodyHeight};
}

void PlanCardItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const QRectF r = boundingRect();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(
        QPen(isSelected() ? QColor(0x1f, 0x6f, 0xeb)
                          : (m_warning.isEmpty() ? m_accent.darker(130) : QColor(0xc6, 0x28, 0x28)),
             isSelected() || !m_warning.isEmpty() ? 2.5 : 1.2));
    painter->setBrush(QColor(0xfb, 0xfb, 0xfd));
    painter->drawRoundedRect(r.adjusted(1, 1, -1, -1), 6, 6);
    painter->fillRect(QRectF(1, 1, 6, r.height() - 2), m_accent);
    if (lod < 0.35) {
        // Zoomed far out: the title alone, large enough to read.
        QFont font = painter->font();
        font.setPointSizeF(font.pointSizeF() * 2.2);
        font.setBold(true);
        painter->setFont(font);
        painter->setPen(Qt::black);
        painter->drawText(r.adjusted(12, 0, -4, 0), Qt::AlignVCenter | Qt::TextWordWrap, m_title);
        return;
    }
    QFont bold = painter->font();
    bold.setBold(true);
    painter->setFont(bold);
    painter->setPen(Qt::black);
    double y = padding;
    // Long catalog names are elided rather than clipped; the tooltip carries the full text.
    const double textWidth = r.width() - 20;
    painter->drawText(QRectF(14, y, textWidth, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetricsF(bold).elidedText(m_title, Qt::ElideRight, textWidth));
    y += lineHeight;
    QFont normal = bold;
    normal.setBold(false);
    painter->setFont(normal);
    painter->setPen(QColor(0x30, 0x30, 0x30));
    for (const QString &line : m_lines) {
        painter->drawText(QRectF(14, y, textWidth, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
                          QFontMetricsF(normal).elidedText(line, Qt::ElideRight, textWidth));
        y += lineHeight;
    }
    if (!m_warning.isEmpty()) {
        painter->setPen(QColor(0xc6, 0x28, 0x28));
        painter->drawText(QRectF(14, y, textWidth, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
                          QFontMetricsF(normal).elidedText(QStringLiteral("⚠ ") + m_warning,
                                                           Qt::ElideRight, textWidth));
        y += lineHeight;
    }
    if (m_bodyHeight > 0)
        paintBody(painter, QRectF(14, y + 2, r.width() - 24, m_bodyHeight - 6), lod);
}

QVariant PlanCardItem::itemChange(GraphicsItemChange change, const QVariant &value)
{
    if (change == ItemPositionHasChanged && m_moved)
        m_moved();
    return QGraphicsItem::itemChange(change, value);
}

void PlanCardItem::paintBody(QPainter *, const QRectF &, double) { }

} // namespace cp::views
