// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabriclegend.h"

#include "fabricdrawingitem.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <utility>
#include <vector>

namespace cp::views {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("cp::views::FabricLegend", text);
}

/** The legend's measures in the font's units: everything scales with the text. */
struct LegendGeometry
{
    explicit LegendGeometry(const QFontMetricsF &metrics)
        : line(metrics.height())
        , pad(0.6 * metrics.height())
        , barWidth(6 * metrics.horizontalAdvance(QStringLiteral("100%")))
        , barHeight(0.7 * metrics.height())
        , swatch(0.9 * metrics.height())
    { }
    double line;
    double pad;
    double barWidth;
    double barHeight;
    double swatch;
};

QString heatTitle(const FabricLegend &legend)
{
    return legend.heatTitle.isEmpty() ? tr("Link busy, share of the step") : legend.heatTitle;
}

/** FabricDrawingItem::railColour's distinct colours: rails past these repeat them. */
constexpr int railColours = 8;

QString railTitle(int rails)
{
    return rails > railColours
        ? tr("Leaf colour: its rail (the GPU index of the NICs it connects); from rail 8 the "
             "colours repeat")
        : tr("Leaf colour: its rail (the GPU index of the NICs it connects)");
}

/** The rails given a swatch: each distinct colour once, so the key stays one short row. */
int railsShown(int rails)
{
    return std::min(rails, railColours);
}

/** Width of the rails' swatches and their numbers in one row. */
double railsWidth(const QFontMetricsF &metrics, const LegendGeometry &geometry, int rails)
{
    double width = 0;
    for (int rail = 0; rail < rails; ++rail)
        width += geometry.swatch + 0.3 * geometry.pad
            + metrics.horizontalAdvance(QString::number(rail)) + geometry.pad;
    return width - geometry.pad;
}

/** The link classes the legend names, each with its colour. */
std::vector<std::pair<QString, QColor>> linkClassEntries(const FabricLegend &legend)
{
    std::vector<std::pair<QString, QColor>> entries;
    if (legend.fabricLinks)
        entries.emplace_back(legend.fabricLinkName.isEmpty() ? tr("between switches")
                                                             : legend.fabricLinkName,
                             FabricDrawingItem::linkClassColour(model::LinkClass::Fabric));
    if (legend.globalLinks)
        entries.emplace_back(tr("between groups"),
                             FabricDrawingItem::linkClassColour(model::LinkClass::Global));
    if (legend.accessLinks)
        entries.emplace_back(tr("to servers"),
                             FabricDrawingItem::linkClassColour(model::LinkClass::Access));
    return entries;
}

QString linkClassTitle()
{
    return tr("Links:");
}

/** Width of the link classes' row: its title, then a line and a name for each. */
double linkClassesWidth(const QFontMetricsF &metrics, const LegendGeometry &geometry,
                        const FabricLegend &legend)
{
    double width = metrics.horizontalAdvance(linkClassTitle());
    for (const auto &entry : linkClassEntries(legend))
        width += geometry.pad + 2 * geometry.swatch + 0.4 * geometry.pad
            + metrics.horizontalAdvance(entry.first);
    return width;
}

/** What each part of the legend paints with: the painter, the text's measures, the left edge. */
struct LegendRow
{
    QPainter &painter;
    const QFontMetricsF &metrics;
    const LegendGeometry &geometry;
    double left;
};

const QColor legendInk(0x30, 0x30, 0x30);

/** The heat scale from its top at `y`: its title, the colour bar and 0%, 50%, 100% under it;
 * returns the y below it. */
double paintHeatScale(const LegendRow &row, double y, const QString &title)
{
    const LegendGeometry &geometry = row.geometry;
    row.painter.setPen(legendInk);
    row.painter.drawText(QPointF(row.left, y + row.metrics.ascent()), title);
    y += geometry.line + 0.3 * geometry.pad;
    const int steps = 64; // a smooth bar in any device's units
    for (int step = 0; step < steps; ++step) {
        const QRectF cell(row.left + geometry.barWidth * step / steps, y,
                          geometry.barWidth / steps + 0.5, geometry.barHeight);
        row.painter.fillRect(
            cell, FabricDrawingItem::heatColour((step + 0.5) / static_cast<double>(steps)));
    }
    y += geometry.barHeight + 0.3 * geometry.pad;
    const double baseline = y + row.metrics.ascent();
    const QString half = QStringLiteral("50%");
    const QString full = QStringLiteral("100%");
    row.painter.drawText(QPointF(row.left, baseline), QStringLiteral("0%"));
    row.painter.drawText(
        QPointF(row.left + (geometry.barWidth - row.metrics.horizontalAdvance(half)) / 2, baseline),
        half);
    row.painter.drawText(
        QPointF(row.left + geometry.barWidth - row.metrics.horizontalAdvance(full), baseline),
        full);
    return y + geometry.line + geometry.pad;
}

/** The rails' title and a swatch with its GPU index for each distinct colour; returns the y
 * below them. */
double paintRails(const LegendRow &row, double y, int rails)
{
    const LegendGeometry &geometry = row.geometry;
    row.painter.setPen(legendInk);
    row.painter.drawText(QPointF(row.left, y + row.metrics.ascent()), railTitle(rails));
    y += geometry.line + 0.3 * geometry.pad;
    double x = row.left;
    const double rowHeight = std::max(geometry.swatch, geometry.line);
    for (int rail = 0; rail < railsShown(rails); ++rail) {
        row.painter.setPen(Qt::NoPen);
        row.painter.setBrush(FabricDrawingItem::railColour(rail));
        row.painter.drawRect(
            QRectF(x, y + (rowHeight - geometry.swatch) / 2, geometry.swatch, geometry.swatch));
        x += geometry.swatch + 0.3 * geometry.pad;
        const QString number = QString::number(rail);
        row.painter.setPen(legendInk);
        row.painter.drawText(QPointF(x, y + (rowHeight - geometry.line) / 2 + row.metrics.ascent()),
                             number);
        x += row.metrics.horizontalAdvance(number) + geometry.pad;
    }
    return y + rowHeight + geometry.pad;
}

/** "Links:" and a short line in each drawn class's colour with its name, in one row. */
void paintLinkClasses(const LegendRow &row, double y, const FabricLegend &legend)
{
    const LegendGeometry &geometry = row.geometry;
    row.painter.setPen(legendInk);
    const double baseline = y + row.metrics.ascent();
    row.painter.drawText(QPointF(row.left, baseline), linkClassTitle());
    double x = row.left + row.metrics.horizontalAdvance(linkClassTitle());
    for (const auto &[name, colour] : linkClassEntries(legend)) {
        x += geometry.pad;
        QPen line(colour);
        line.setWidthF(std::max(2.0, 0.2 * geometry.line));
        row.painter.setPen(line);
        const double middle = y + geometry.line / 2;
        row.painter.drawLine(QPointF(x, middle), QPointF(x + 2 * geometry.swatch, middle));
        x += 2 * geometry.swatch + 0.4 * geometry.pad;
        row.painter.setPen(legendInk);
        row.painter.drawText(QPointF(x, baseline), name);
        x += row.metrics.horizontalAdvance(name);
    }
}

} // namespace

QSizeF fabricLegendSize(QPainter &painter, const FabricLegend &legend, const QFont &font)
{
    if (legend.isEmpty())
        return {};
    const QFontMetricsF metrics(font, painter.device());
    const LegendGeometry geometry(metrics);
    double width = 0;
    double height = geometry.pad;
    if (legend.heatScale) {
        width = std::max({width, metrics.horizontalAdvance(heatTitle(legend)), geometry.barWidth});
        height += geometry.line + 0.3 * geometry.pad + geometry.barHeight + 0.3 * geometry.pad
            + geometry.line + geometry.pad;
    }
    if (legend.rails > 0) {
        width = std::max({width, metrics.horizontalAdvance(railTitle(legend.rails)),
                          railsWidth(metrics, geometry, railsShown(legend.rails))});
        height += geometry.line + 0.3 * geometry.pad + std::max(geometry.swatch, geometry.line)
            + geometry.pad;
    }
    if (legend.linkClasses()) {
        width = std::max(width, linkClassesWidth(metrics, geometry, legend));
        height += geometry.line + geometry.pad;
    }
    return {width + 2 * geometry.pad, height};
}

void paintFabricLegend(QPainter &painter, const FabricLegend &legend, const QFont &font,
                       const QRectF &box)
{
    if (legend.isEmpty())
        return;
    painter.save();
    painter.setFont(font);
    const QFontMetricsF metrics(font, painter.device());
    const LegendGeometry geometry(metrics);
    painter.setPen(QColor(0xc0, 0xc0, 0xc0));
    painter.setBrush(QColor(0xff, 0xff, 0xff, 235));
    painter.drawRect(box);
    const LegendRow row {painter, metrics, geometry, box.left() + geometry.pad};
    double y = box.top() + geometry.pad;
    if (legend.heatScale)
        y = paintHeatScale(row, y, heatTitle(legend));
    if (legend.rails > 0)
        y = paintRails(row, y, legend.rails);
    if (legend.linkClasses())
        paintLinkClasses(row, y, legend);
    painter.restore();
}

} // namespace cp::views
