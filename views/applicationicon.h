// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QIcon>

namespace cp::views {

/**
 * The application icon, drawn with QPainter at the usual sizes. It is the design of
 * resources/clusterplanner.svg (which desktops use from the icon theme); it is drawn here because
 * Qt reads SVG only with the Qt SVG module, which the program does not otherwise need.
 */
QIcon applicationIcon();

} // namespace cp::views
