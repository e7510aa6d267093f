// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plancarditem.h"

#include <vector>

namespace cp::views {

/** The fabric: one bar per switch tier with its count, and the link count between tiers. */
class FabricItem : public PlanCardItem
{
public:
    struct Tier
    {
        QString name;
        int switches = 0;
    };
    FabricItem(QString title, QStringList lines, std::vector<Tier> tiers);
    void setTiers(std::vector<Tier> tiers);
    const std::vector<Tier> &tiers() const { return m_tiers; }

protected:
    void paintBody(QPainter *painter, const QRectF &area, double levelOfDetail) override;

private:
    std::vector<Tier> m_tiers;
};

} // namespace cp::views
