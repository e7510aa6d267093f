// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabricitem.h"

#include "model/core/humantext.h"

#include <QPainter>

#include <algorithm>

namespace cp::views {

FabricItem::FabricItem(QString title, QStringList lines, std::vector<Tier> tiers)
    : PlanCardItem(QStringLiteral("fabric"), std::move(title), std::move(lines),
                   QColor(0x15, 0x65, 0xc0))
    , m_tiers(std::move(tiers))
{
    setBodyHeight(m_tiers.empty() ? 0 : 22.0 * m_tiers.size() + 6);
}

void FabricItem::setTiers(std::vector<Tier> tiers)
{
    m_tiers = std::move(tiers);
    setBodyHeight(m_tiers.empty() ? 0 : 22.0 * m_tiers.size() + 6);
    update();
}

void FabricItem::paintBody(QPainter *painter, const QRectF &area, double levelOfDetail)
{
    // Top tier first, as a fat-tree is drawn.
    const double rowHeight = area.height() / std::max<std::size_t>(1, m_tiers.size());
    int row = 0;
    for (auto it = m_tiers.rbegin(); it != m_tiers.rend(); ++it, ++row) {
        const QRectF bar(area.left(), area.top() + row * rowHeight, area.width(), rowHeight - 6);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0xbb, 0xde, 0xfb));
        painter->drawRoundedRect(bar, 3, 3);
        if (levelOfDetail >= 0.8) {
            // Individual switches as ticks when there are few enough to tell apart.
            const int ticks = std::min(it->switches, 64);
            painter->setBrush(QColor(0x15, 0x65, 0xc0));
            for (int s = 0; s < ticks; ++s)
                painter->drawRect(QRectF(bar.left() + 90 + s * (bar.width() - 94) / ticks,
                                         bar.top() + 3, 2, bar.height() - 6));
        }
        painter->setPen(Qt::black);
        painter->drawText(bar.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                          QStringLiteral("%1 %2")
                              .arg(QString::fromStdString(model::groupedCount(it->switches)))
                              .arg(it->name));
    }
}

} // namespace cp::views
