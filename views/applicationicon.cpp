// SPDX-License-Identifier: GPL-3.0-or-later
#include "applicationicon.h"

#include <QPainter>
#include <QPixmap>

namespace cp::views {

namespace {

/** Draws the 256-unit design of resources/clusterplanner.svg scaled to `size` pixels. */
QPixmap iconPixmap(int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 256.0, size / 256.0);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x16, 0x32, 0x5c));
    p.drawRoundedRect(QRectF(8, 8, 240, 240), 44, 44);

    // Two spine switches, each wired to the three racks' leaves.
    p.setPen(QPen(QColor(0x7f, 0xb2, 0xff), 6, Qt::SolidLine, Qt::RoundCap));
    for (const double spineX : {88.0, 168.0})
        for (const double rackX : {64.0, 128.0, 192.0})
            p.drawLine(QPointF(spineX, 62), QPointF(rackX, 120));
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x7f, 0xb2, 0xff));
    p.drawRoundedRect(QRectF(64, 44, 48, 26), 6, 6);
    p.drawRoundedRect(QRectF(144, 44, 48, 26), 6, 6);

    // Three racks of three GPU servers.
    for (const double x : {40.0, 104.0, 168.0}) {
        p.setPen(QPen(QColor(0xcf, 0xe1, 0xff), 4));
        p.setBrush(QColor(0x2f, 0x6f, 0xdd));
        p.drawRoundedRect(QRectF(x, 112, 48, 104), 8, 8);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x76, 0xd2, 0x75));
        for (const double y : {126.0, 150.0, 174.0})
            p.drawRoundedRect(QRectF(x + 10, y, 28, 14), 3, 3);
    }
    return pixmap;
}

} // namespace

QIcon applicationIcon()
{
    QIcon icon;
    for (const int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addPixmap(iconPixmap(size));
    return icon;
}

} // namespace cp::views
