// SPDX-License-Identifier: GPL-3.0-or-later
#include "rackelevationwidget.h"

#include <QPainter>

#include <algorithm>

namespace cp::views {

RackElevationWidget::RackElevationWidget(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("rackElevation"));
    setMinimumWidth(220);
}

void RackElevationWidget::setRack(std::shared_ptr<const model::DataHall> hall, int rack)
{
    m_hall = std::move(hall);
    m_rack = m_hall && rack >= 0 && rack < static_cast<int>(m_hall->racks.size()) ? rack : -1;
    update();
}

QStringList RackElevationWidget::deviceNames() const
{
    QStringList names;
    if (m_rack < 0)
        return names;
    std::vector<const model::HallDevice *> devices;
    for (const model::HallDevice &device : m_hall->devices)
        if (device.rack == m_rack)
            devices.push_back(&device);
    // Bottom to top, then the zero-U PDUs (A feed, then B).
    std::stable_sort(devices.begin(), devices.end(), [](const auto *a, const auto *b) {
        const bool zeroA = a->heightUnits == 0, zeroB = b->heightUnits == 0;
        return zeroA != zeroB ? zeroB : a->position < b->position;
    });
    for (const model::HallDevice *device : devices)
        names << QString::fromStdString(device->name);
    return names;
}

void RackElevationWidget::drawPdus(QPainter &painter, const QRectF &frame, double strip) const
{
    const model::HallRack &rack = m_hall->racks[static_cast<std::size_t>(m_rack)];
    const int perFeed = rack.pdus / 2;
    int pduIndex = 0;
    for (const model::HallDevice &device : m_hall->devices) {
        if (device.rack != m_rack || device.role != "PDU" || perFeed == 0)
            continue;
        const bool feedA = pduIndex < perFeed;
        const double length = frame.height() / perFeed;
        const QRectF box(feedA ? frame.left() + 1 : frame.right() - strip + 1,
                         frame.top() + (pduIndex % perFeed) * length + 1, strip - 2, length - 2);
        painter.setPen(QColor(60, 60, 60));
        painter.setBrush(QColor(255, 204, 128));
        painter.drawRect(box);
        painter.setPen(Qt::black);
        painter.drawText(box, Qt::AlignCenter, feedA ? QStringLiteral("A") : QStringLiteral("B"));
        ++pduIndex;
    }
}

QStringList RackElevationWidget::footerLines(const model::HallRack &rack) const
{
    QStringList lines;
    lines << (rack.limitWatts > 0
                  ? tr("nameplate: %1 of %2 kW (%3%)")
                        .arg(rack.watts / 1e3, 0, 'f', 1)
                        .arg(rack.limitWatts / 1e3, 0, 'f', 1)
                        .arg(100.0 * rack.powerFraction(), 0, 'f', 0)
                  : tr("nameplate: %1 kW (no limit known)").arg(rack.watts / 1e3, 0, 'f', 1));
    if (rack.runWatts > 0)
        lines
            << tr("at the training job's load: %1 kW of heat").arg(rack.runWatts / 1e3, 0, 'f', 1);
    lines << tr("space: %1 of %2 U").arg(rack.usedUnits).arg(rack.rackUnits);
    if (rack.pdus > 0)
        lines << tr("PDUs: %1 per feed (A and B), %2 kW a feed")
                     .arg(rack.pdus / 2)
                     .arg(rack.pduWatts / 1e3, 0, 'f', 1);
    if (rack.ports > 0)
        lines << tr("switch ports: %1 of %2 cabled").arg(rack.portsUsed).arg(rack.ports);
    if (rack.weightFraction() >= 0)
        lines << tr("weight: %1 of %2 kg (%3%)")
                     .arg(rack.kilograms, 0, 'f', 0)
                     .arg(rack.limitKilograms, 0, 'f', 0)
                     .arg(100.0 * rack.weightFraction(), 0, 'f', 0);
    else
        lines << (rack.devicesOfUnknownWeight > 0
                      ? tr("weight: not known for %n device(s)", nullptr,
                           rack.devicesOfUnknownWeight)
                      : tr("weight: %1 kg (no load rating known)").arg(rack.kilograms, 0, 'f', 0));
    return lines;
}

void RackElevationWidget::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    if (m_rack < 0) {
        painter.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Click a cabinet on the floor plan to see it from the front."));
        return;
    }
    const model::HallRack &rack = m_hall->racks[static_cast<std::size_t>(m_rack)];
    const int footer = 6 * fontMetrics().lineSpacing() + 8, margin = 8, numbers = 24;
    const double unit
        = std::max(4.0, (height() - footer - 2.0 * margin - 20) / std::max(1, rack.rackUnits));
    const QRectF frame(margin + numbers, margin + 20, width() - 2 * margin - numbers,
                       unit * rack.rackUnits);
    // Zero-U PDUs stand at the sides of the mounting rails: the A feed left, the B feed right.
    const double strip = rack.pdus > 0 ? 12.0 : 0.0;
    const QRectF rails = frame.adjusted(strip, 0, -strip, 0);
    painter.drawText(QRectF(margin, margin, width() - 2 * margin, 18), Qt::AlignLeft,
                     tr("%1 (%2 cabinet, %3U)")
                         .arg(QString::fromStdString(rack.name), QString::fromStdString(rack.role))
                         .arg(rack.rackUnits));
    painter.setPen(QColor(90, 90, 90));
    painter.setBrush(QColor(245, 245, 245));
    painter.drawRect(frame);
    QFont font = painter.font();
    font.setPixelSize(std::clamp(static_cast<int>(unit * 0.8), 7, 11));
    painter.setFont(font);
    // Unit numbers every 5 U, from the bottom as racks are numbered (EIA-310).
    for (int u = 1; u <= rack.rackUnits; u += (u == 1 ? 4 : 5))
        painter.drawText(QRectF(margin, frame.bottom() - u * unit, numbers - 4, unit),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(u));
    drawPdus(painter, frame, strip);
    for (const model::HallDevice &device : m_hall->devices) {
        if (device.rack != m_rack || device.position < 1)
            continue;
        const QRectF box(rails.left() + 2,
                         rails.bottom() - (device.position - 1 + device.heightUnits) * unit,
                         rails.width() - 4, device.heightUnits * unit - 1);
        painter.setPen(QColor(60, 60, 60));
        painter.setBrush(device.role == "GPU server"        ? QColor(200, 230, 201)
                             : device.role == "patch panel" ? QColor(225, 225, 225)
                                                            : QColor(187, 222, 251));
        painter.drawRect(box);
        painter.setPen(Qt::black);
        painter.drawText(
            box.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
            QStringLiteral("U%1 %2").arg(device.position).arg(QString::fromStdString(device.name)));
    }
    painter.setPen(palette().windowText().color());
    const QStringList lines = footerLines(rack);
    painter.drawText(QRectF(margin, frame.bottom() + 4, width() - 2 * margin, footer - 4),
                     Qt::AlignLeft | Qt::TextWordWrap, lines.join(QLatin1Char('\n')));
}

} // namespace cp::views
