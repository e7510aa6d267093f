// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/planning/datahall.h"

#include <QStringList>
#include <QWidget>

#include <memory>

class QPainter;
class QRectF;

namespace cp::views {

/**
 * One cabinet from the front: its units numbered from the bottom, each device a box across the
 * units it occupies with its name, and the cabinet's power against its limit underneath.
 */
class RackElevationWidget : public QWidget
{
    Q_OBJECT

public:
    explicit RackElevationWidget(QWidget *parent = nullptr);

    /** Shows cabinet `rack` of `hall`; -1 shows a hint to pick one. */
    void setRack(std::shared_ptr<const model::DataHall> hall, int rack);
    /** The devices shown, bottom first, for tests and the status line. */
    QStringList deviceNames() const;
    QSize sizeHint() const override { return {260, 600}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    /** The cabinet's zero-U PDUs in strips beside the rails: the A feed left, the B feed right. */
    void drawPdus(QPainter &painter, const QRectF &frame, double strip) const;
    /** Power, space, PDUs, ports and weight against the cabinet's limits. */
    QStringList footerLines(const model::HallRack &rack) const;

    std::shared_ptr<const model::DataHall> m_hall;
    int m_rack = -1;
};

} // namespace cp::views
