// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisoncharts.h"

#include "model/core/humantext.h"
#include "model/core/units.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>

namespace cp::views {

namespace units = model::units;

int axisLabelDecimals(double tickStep)
{
    if (!(tickStep > 0) || !std::isfinite(tickStep))
        return 0;
    // Enough digits that two ticks a step apart differ: 0.005 needs 3, 0.25 needs 2, 5 none.
    int decimals = 0;
    double scaled = tickStep;
    while (decimals < 9 && std::abs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, scaled)) {
        scaled *= 10;
        ++decimals;
    }
    return decimals;
}

namespace {

QString scenarioLabel(const model::ScenarioComparison &c, int index, int highlight)
{
    const QString name = QString::fromStdString(c.scenarios[static_cast<std::size_t>(index)].name);
    // A long name ("NIC RoCE v2 400 GbE (ConnectX-7)") goes on lines of about 14 characters,
    // broken between words (the axis takes rich text), rather than being cut short under its
    // bar.
    QString wrapped;
    int lineLength = 0;
    for (const QString &word : name.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (lineLength > 0 && lineLength + 1 + word.size() > 14) {
            wrapped += QStringLiteral("<br>");
            lineLength = 0;
        } else if (lineLength > 0) {
            wrapped += QLatin1Char(' ');
            ++lineLength;
        }
        wrapped += word.toHtmlEscaped();
        lineLength += static_cast<int>(word.size());
    }
    return index == highlight ? QStringLiteral("▶ ") + wrapped : wrapped;
}

QChart *newChart(const QString &title)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QValueAxis *valueAxis(const QString &title, double max)
{
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setRange(0, max > 0 ? max * 1.05 : 1.0);
    axis->applyNiceNumbers();
    // Fixed-point labels with the decimals the ticks need: "%g" wrote 400,000 as "4e+05".
    const double step = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(axisLabelDecimals(step)));
    return axis;
}

/**
 * An axis fitted to [low, high] with a margin, for scatter charts where the options differ by a
 * few per cent: an axis from zero would stack them on one spot. The title says it does not start
 * at zero. The margin is at least 1% of the values, so options a fraction of a per cent apart
 * (18 s in a 2.1 h run) sit close together rather than across the whole chart.
 */
QValueAxis *fittedAxis(const QString &title, double low, double high)
{
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    const double span = high - low;
    const double margin = span > 0 ? std::max(span * 0.15, std::abs(high) * 0.01)
                                   : std::max(std::abs(high) * 0.05, 1e-9);
    axis->setRange(std::max(0.0, low - margin), high + margin);
    axis->applyNiceNumbers();
    // As many decimals as the tick step needs, so near-equal options get distinct labels
    // (21.145, 21.150, 21.155 rather than "21.15" three times).
    const double step = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(axisLabelDecimals(step)));
    return axis;
}

/** One colour per scenario, the same in the legend and on the point. */
QColor scenarioColour(int index)
{
    static const QColor colours[] = {
        QColor(0x1f, 0x6f, 0xeb), QColor(0xef, 0x6c, 0x00), QColor(0x2e, 0x7d, 0x32),
        QColor(0x8e, 0x24, 0xaa), QColor(0xc6, 0x28, 0x28), QColor(0x00, 0x83, 0x8f),
        QColor(0x6d, 0x4c, 0x41), QColor(0xad, 0x14, 0x57), QColor(0x55, 0x8b, 0x2f),
        QColor(0x45, 0x5a, 0x64),
    };
    return colours[index % std::size(colours)];
}

/** Bars of stacked parts per scenario; `parts` are (legend, value per scenario). */
QChart *stackedChart(const model::ScenarioComparison &c, int highlight, const QString &title,
                     const QString &unit, const QList<QPair<QString, QList<double>>> &parts,
                     const QColor *colors)
{
    QChart *chart = newChart(title);
    auto *series = new QStackedBarSeries;
    QList<double> totals(static_cast<int>(c.scenarios.size()), 0.0);
    for (int p = 0; p < parts.size(); ++p) {
        auto *set = new QBarSet(parts[p].first);
        set->setColor(colors[p]);
        for (int i = 0; i < parts[p].second.size(); ++i) {
            *set << parts[p].second[i];
            totals[i] += parts[p].second[i];
        }
        series->append(set);
    }
    chart->addSeries(series);
    auto *categories = new QBarCategoryAxis;
    for (int i = 0; i < static_cast<int>(c.scenarios.size()); ++i)
        categories->append(scenarioLabel(c, i, highlight));
    chart->addAxis(categories, Qt::AlignBottom);
    series->attachAxis(categories);
    QValueAxis *axis = valueAxis(unit, *std::max_element(totals.begin(), totals.end()));
    chart->addAxis(axis, Qt::AlignLeft);
    series->attachAxis(axis);
    return chart;
}

std::optional<double> valueOf(const model::ScenarioComparison &c, const char *key,
                              std::size_t index)
{
    for (const model::ComparisonRow &row : c.rows)
        if (row.key == key && index < row.values.size())
            return row.values[index];
    return std::nullopt;
}

double valueOr0(const model::ScenarioComparison &c, const char *key, std::size_t index)
{
    return valueOf(c, key, index).value_or(0.0);
}

/** The unit `key`'s row reads in at its scale (inReadableUnit: a two-hour run in h, not 0.084
 * days) and the factor from its canonical unit; the canonical unit where no value tells. */
std::pair<QString, double> readableUnit(const model::ScenarioComparison &c, const char *key)
{
    for (const model::ComparisonRow &row : c.rows) {
        if (row.key != key)
            continue;
        const model::ComparisonRow readable = model::inReadableUnit(row);
        for (std::size_t i = 0; i < row.values.size() && i < readable.values.size(); ++i)
            if (row.values[i] && readable.values[i] && *row.values[i] != 0)
                return {QString::fromStdString(readable.unit),
                        *readable.values[i] / *row.values[i]};
        return {QString::fromStdString(row.unit), 1.0};
    }
    return {QString(), 1.0};
}

/** Bars for `barKey` (times `barScale`) on the left axis and a line for `lineKey` (times
 * `lineScale`) on the right one. */
QChart *barAndLineChart(const model::ScenarioComparison &c, int highlight, const QString &title,
                        const char *barKey, const QString &barTitle, double barScale,
                        const char *lineKey, const QString &lineTitle, double lineScale)
{
    QChart *chart = newChart(title);
    auto *bars = new QBarSeries;
    auto *set = new QBarSet(barTitle);
    set->setColor(QColor(0x3b, 0x7d, 0xd8));
    // The line runs through the scenarios that have the figure, broken where one has none (a
    // replica that does not fit has no TTFT: its point sat at 0 ms, the best of the chart).
    std::vector<QLineSeries *> lines;
    const auto newLine = [&] {
        auto *line = new QLineSeries;
        line->setName(lineTitle);
        line->setPointsVisible(true);
        // A single scenario's point must show: the default marker is a speck.
        line->setMarkerSize(9.0);
        line->setColor(QColor(0xe0, 0x6c, 0x1f));
        lines.push_back(line);
    };
    newLine();
    double barMax = 0;
    double lineMax = 0;
    bool gap = false;
    auto *categories = new QBarCategoryAxis;
    for (std::size_t i = 0; i < c.scenarios.size(); ++i) {
        const double bar = valueOr0(c, barKey, i) * barScale;
        *set << bar;
        barMax = std::max(barMax, bar);
        if (const std::optional<double> value = valueOf(c, lineKey, i)) {
            if (gap && lines.back()->count() > 0)
                newLine();
            gap = false;
            lines.back()->append(static_cast<double>(i), *value * lineScale);
            lineMax = std::max(lineMax, *value * lineScale);
        } else {
            gap = true;
        }
        categories->append(scenarioLabel(c, static_cast<int>(i), highlight));
    }
    bars->append(set);
    chart->addSeries(bars);
    for (QLineSeries *line : lines)
        chart->addSeries(line);
    chart->addAxis(categories, Qt::AlignBottom);
    bars->attachAxis(categories);
    for (QLineSeries *line : lines)
        line->attachAxis(categories);
    // One entry in the key for the line, however many pieces it is drawn in.
    for (std::size_t i = 1; i < lines.size(); ++i)
        for (QLegendMarker *marker : chart->legend()->markers(lines[i]))
            marker->setVisible(false);
    QValueAxis *left = valueAxis(barTitle, barMax);
    QValueAxis *right = valueAxis(lineTitle, lineMax);
    // One grid, the left axis's: the right one's ticks fall elsewhere and drew a second grid.
    right->setGridLineVisible(false);
    chart->addAxis(left, Qt::AlignLeft);
    chart->addAxis(right, Qt::AlignRight);
    bars->attachAxis(left);
    for (QLineSeries *line : lines)
        line->attachAxis(right);
    return chart;
}

/** Grouped bars: each job class's p95 queue wait, one bar per scenario (the queue rows). */
QChart *queueWaitChart(const model::ScenarioComparison &c, int highlight)
{
    const std::string prefix = "queue_wait_p95_h:";
    std::vector<const model::ComparisonRow *> rows;
    for (const model::ComparisonRow &row : c.rows)
        if (row.key.rfind(prefix, 0) == 0)
            rows.push_back(&row);
    if (rows.empty())
        return nullptr;
    QChart *chart = newChart(QObject::tr("Queue waits: the 95th percentile of each job class"));
    auto *series = new QBarSeries;
    double maximum = 0;
    for (std::size_t i = 0; i < c.scenarios.size(); ++i) {
        auto *set = new QBarSet(scenarioLabel(c, static_cast<int>(i), highlight));
        set->setColor(scenarioColour(static_cast<int>(i)));
        for (const model::ComparisonRow *row : rows) {
            const double hours = i < row->values.size() && row->values[i] ? *row->values[i] : 0.0;
            *set << hours;
            maximum = std::max(maximum, hours);
        }
        series->append(set);
    }
    chart->addSeries(series);
    // A class whose waits are minutes beside others' hundreds of hours has no visible bar: its
    // name says how short they are (the shared cluster's interactive notebooks looked blank).
    auto *categories = new QBarCategoryAxis;
    for (const model::ComparisonRow *row : rows) {
        QString name = QString::fromStdString(row->key.substr(prefix.size()));
        double longest = 0;
        for (const std::optional<double> &hours : row->values)
            longest = std::max(longest, hours.value_or(0.0));
        if (longest < 0.02 * maximum)
            name += QObject::tr("<br>(≤ %1)")
                        .arg(QString::fromStdString(model::humanWait(longest * 3600)));
        // Bars that count jobs still waiting at the end are lower bounds, as the table's "≥":
        // the chart cannot mark one bar, so its class says how many are.
        const auto bounds = std::count(row->lowerBounds.begin(), row->lowerBounds.end(), true);
        if (bounds > 0)
            name += bounds == 1 ? QObject::tr("<br>(1 bar ≥)")
                                : QObject::tr("<br>(%1 bars ≥)").arg(bounds);
        categories->append(name);
    }
    chart->addAxis(categories, Qt::AlignBottom);
    series->attachAxis(categories);
    QValueAxis *axis = valueAxis(QObject::tr("Hours"), maximum);
    chart->addAxis(axis, Qt::AlignLeft);
    series->attachAxis(axis);
    return chart;
}

/** One line per scenario: the share of its GPUs its portfolio keeps busy, day by day. */
QChart *queueUtilisationChart(const model::ScenarioComparison &c, int highlight)
{
    const bool any = std::any_of(c.scenarios.begin(), c.scenarios.end(), [](const auto &s) {
        return s.queue && s.queue->ok() && !s.queue->result.dailyUtilisation.empty();
    });
    if (!any)
        return nullptr;
    QChart *chart
        = newChart(QObject::tr("GPUs busy: the portfolio's share of the GPUs, day by day"));
    auto *days = new QValueAxis;
    days->setTitleText(QObject::tr("Day of the simulated period"));
    days->setLabelFormat(QStringLiteral("%d"));
    auto *share = new QValueAxis;
    share->setTitleText(QObject::tr("GPUs busy (%)"));
    share->setRange(0, 100);
    share->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(days, Qt::AlignBottom);
    chart->addAxis(share, Qt::AlignLeft);
    double lastDay = 1;
    for (std::size_t i = 0; i < c.scenarios.size(); ++i) {
        const auto &queue = c.scenarios[i].queue;
        if (!queue || !queue->ok())
            continue;
        auto *line = new QLineSeries;
        line->setName(scenarioLabel(c, static_cast<int>(i), highlight));
        line->setColor(scenarioColour(static_cast<int>(i)));
        const std::vector<double> &daily = queue->result.dailyUtilisation;
        for (std::size_t day = 0; day < daily.size(); ++day)
            line->append(static_cast<double>(day), 100 * daily[day]);
        lastDay = std::max(lastDay, static_cast<double>(daily.size()) - 1);
        chart->addSeries(line);
        line->attachAxis(days);
        line->attachAxis(share);
    }
    days->setRange(0, lastDay);
    return chart;
}

/** For each Pareto point, the index of the first point drawn on the same spot (itself when none
 *  before it is): within 1% of the points' spread on both axes, closer than a marker's width on
 *  any chart the panel or the report draws. -1 for an option without a point. */
std::vector<int>
paretoPointsSharedWith(const std::vector<std::optional<std::pair<double, double>>> &points)
{
    double xMin = std::numeric_limits<double>::max();
    double xMax = std::numeric_limits<double>::lowest();
    double yMin = xMin;
    double yMax = xMax;
    for (const auto &point : points)
        if (point) {
            xMin = std::min(xMin, point->first);
            xMax = std::max(xMax, point->first);
            yMin = std::min(yMin, point->second);
            yMax = std::max(yMax, point->second);
        }
    const double xTolerance = 0.01 * (xMax - xMin);
    const double yTolerance = 0.01 * (yMax - yMin);
    std::vector<int> sharedWith(points.size(), -1);
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i])
            continue;
        sharedWith[i] = static_cast<int>(i);
        for (std::size_t earlier = 0; earlier < i; ++earlier)
            if (points[earlier] && sharedWith[earlier] == static_cast<int>(earlier)
                && std::abs(points[earlier]->first - points[i]->first) <= xTolerance
                && std::abs(points[earlier]->second - points[i]->second) <= yTolerance) {
                sharedWith[i] = static_cast<int>(earlier);
                break;
            }
    }
    return sharedWith;
}

QChart *paretoChart(const model::ScenarioComparison &c, int highlight)
{
    QChart *chart = newChart(QObject::tr("Pareto front: %1 against %2<br>(dominated options faded; "
                                         "axes fitted to the options)")
                                 .arg(QString::fromStdString(c.paretoCostLabel),
                                      QString::fromStdString(c.paretoTimeLabel)));
    double xMin = std::numeric_limits<double>::max();
    double yMin = std::numeric_limits<double>::max();
    double xMax = 0;
    double yMax = 0;
    QList<QPointF> front;
    QList<QAbstractSeries *> all;
    const std::vector<int> sharedWith = paretoPointsSharedWith(c.paretoPoints);
    for (std::size_t i = 0; i < c.paretoPoints.size(); ++i) {
        if (!c.paretoPoints[i])
            continue;
        const auto [x, y] = *c.paretoPoints[i];
        auto *point = new QScatterSeries;
        point->append(x, y);
        // Options drawn on one spot (a what-if that moves neither time nor cost) are concentric
        // rings: the first the widest, each later one smaller inside it, so none hides another.
        const auto later = std::count(sharedWith.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                      sharedWith.end(), sharedWith[i]);
        point->setMarkerSize((static_cast<int>(i) == highlight ? 16 : 12)
                             + 8 * static_cast<int>(later));
        // Each option its own colour; a dominated one is a faded ring of it, so the options
        // stay apart and the front stands out.
        const QColor colour = scenarioColour(static_cast<int>(i));
        QColor fill = colour;
        QString name = scenarioLabel(c, static_cast<int>(i), highlight);
        if (sharedWith[i] != static_cast<int>(i))
            name += QObject::tr(" (on %1's point)")
                        .arg(QString::fromStdString(
                                 c.scenarios[static_cast<std::size_t>(sharedWith[i])].name)
                                 .toHtmlEscaped());
        if (c.dominated[i]) {
            fill.setAlpha(60);
            point->setName(name + QObject::tr(" (dominated)"));
        } else {
            point->setName(name);
            front.append({x, y});
        }
        point->setColor(fill);
        point->setBorderColor(colour);
        xMin = std::min(xMin, x);
        yMin = std::min(yMin, y);
        xMax = std::max(xMax, x);
        yMax = std::max(yMax, y);
        all.append(point);
    }
    std::sort(front.begin(), front.end(),
              [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
    // A front of one option is a point, not a line: its legend entry named a line never drawn.
    if (front.size() > 1) {
        auto *frontLine = new QLineSeries;
        frontLine->setName(QObject::tr("Pareto front"));
        frontLine->append(front);
        QPen frontPen(QColor(0x60, 0x60, 0x60));
        frontPen.setStyle(Qt::DashLine);
        frontPen.setWidthF(1.5);
        frontLine->setPen(frontPen);
        all.prepend(frontLine);
    }
    if (xMin > xMax) // no scenario has a point
        xMin = xMax = yMin = yMax = 0;
    // Short axis titles (the chart title has the long ones): a vertical title longer than a
    // 1366x768 chart is tall gets elided.
    const auto shortTitle = [](const std::string &label) {
        QString text = QString::fromStdString(label);
        text.replace(QStringLiteral("Cost per million output tokens (USD)"),
                     QStringLiteral("USD / M tokens"));
        text.replace(QStringLiteral("USD per M output tokens, all GPUs"),
                     QStringLiteral("USD / M tokens")); // the title says "all GPUs"
        text.replace(QStringLiteral("(million USD)"), QStringLiteral("(M USD)"));
        text.replace(QStringLiteral("(thousand USD)"), QStringLiteral("(k USD)"));
        return text;
    };
    QValueAxis *x = fittedAxis(shortTitle(c.paretoTimeLabel), xMin, xMax);
    QValueAxis *y = fittedAxis(shortTitle(c.paretoCostLabel), yMin, yMax);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries *series : all) {
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    return chart;
}

QChart *scalingChart(const model::ScenarioComparison &c)
{
    QChart *chart = newChart(QObject::tr("Scaling of the baseline: throughput and efficiency"));
    auto *tokens = new QLineSeries;
    tokens->setName(QObject::tr("Million tokens/s"));
    tokens->setPointsVisible(true);
    auto *efficiency = new QLineSeries;
    efficiency->setName(QObject::tr("Per-GPU efficiency (%)"));
    efficiency->setPointsVisible(true);
    double gpuMax = 0;
    double tokensMax = 0;
    double efficiencyMax = 100;
    for (const model::ScalingPoint &p : c.scaling) {
        gpuMax = std::max(gpuMax, static_cast<double>(p.gpus));
        if (!p.ok)
            continue;
        tokens->append(static_cast<double>(p.gpus), p.tokensPerSecond / units::mega);
        efficiency->append(static_cast<double>(p.gpus), 100 * p.efficiency);
        tokensMax = std::max(tokensMax, p.tokensPerSecond / units::mega);
        efficiencyMax = std::max(efficiencyMax, 100 * p.efficiency);
    }
    // From ten thousand GPUs the axis counts thousands: "300000" reads as a string of zeros.
    const bool thousands = gpuMax >= 1e4;
    if (thousands) {
        for (QLineSeries *series : {tokens, efficiency}) {
            QList<QPointF> points = series->points();
            for (QPointF &point : points)
                point.setX(point.x() / units::kilo);
            series->replace(points);
        }
        gpuMax /= units::kilo;
    }
    chart->addSeries(tokens);
    chart->addSeries(efficiency);
    QValueAxis *x
        = valueAxis(thousands ? QObject::tr("Thousand GPUs") : QObject::tr("GPUs"), gpuMax);
    // Short enough to stand beside a chart at 1366 pixels ("Million toke..." was cut).
    QValueAxis *left = valueAxis(QObject::tr("M tokens/s"), tokensMax);
    QValueAxis *right = valueAxis(QObject::tr("Efficiency (%)"), efficiencyMax);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(left, Qt::AlignLeft);
    chart->addAxis(right, Qt::AlignRight);
    tokens->attachAxis(x);
    tokens->attachAxis(left);
    efficiency->attachAxis(x);
    efficiency->attachAxis(right);
    return chart;
}

} // namespace

QList<QChart *> comparisonCharts(const model::ScenarioComparison &c, int highlight)
{
    QList<QChart *> charts;
    if (c.scenarios.empty())
        return charts;
    const std::size_t n = c.scenarios.size();
    const auto perScenario = [&](const auto &value) {
        QList<double> values;
        for (std::size_t i = 0; i < n; ++i)
            values.append(c.scenarios[i].ok ? value(c.scenarios[i].estimate) : 0.0);
        return values;
    };
    const bool training = std::any_of(c.scenarios.begin(), c.scenarios.end(), [](const auto &s) {
        return s.ok && s.estimate.hasTraining && s.estimate.training.found;
    });
    const bool inference = std::any_of(c.scenarios.begin(), c.scenarios.end(), [](const auto &s) {
        return s.ok && s.estimate.hasInference;
    });
    if (training) {
        // In the unit the table's step row reads in: steps all under a second in milliseconds
        // (the ViT sample's 81 ms steps were bars of 0.08 on a seconds axis).
        const auto [stepUnit, stepScale] = readableUnit(c, "step_s");
        const auto share = [&, stepScale = stepScale](double model::StepTimeShares::*part) {
            return perScenario([part, stepScale](const model::PlanEstimate &e) {
                return e.hasTraining && e.training.found
                    ? model::stepTimeShares(e.training.best.breakdown).*part * stepScale
                    : 0.0;
            });
        };
        static const QColor stepColors[]
            = {QColor(0x3b, 0x7d, 0xd8), QColor(0xe0, 0x6c, 0x1f), QColor(0x9e, 0x9e, 0x9e)};
        charts.append(stackedChart(
            c, highlight, QObject::tr("Step time breakdown"),
            stepUnit == QStringLiteral("ms") ? QObject::tr("Milliseconds per step")
                                             : QObject::tr("Seconds per step"),
            {{QObject::tr("Compute"), share(&model::StepTimeShares::computeSeconds)},
             {QObject::tr("Exposed communication"),
              share(&model::StepTimeShares::communicationSeconds)},
             {QObject::tr("Pipeline bubble"), share(&model::StepTimeShares::bubbleSeconds)}},
            stepColors));
        // The run cost in the unit its size reads in: a $5 k run is not 0.005 M USD.
        double costMax = 0;
        double wallMax = 0; // 0: no run finishes (failures outpace restarts), nothing to draw
        for (std::size_t i = 0; i < n; ++i) {
            costMax = std::max(costMax, valueOr0(c, "run_cost_usd", i));
            wallMax = std::max(wallMax, valueOr0(c, "wall_days", i));
        }
        const bool millions = costMax >= units::mega;
        const bool thousands = !millions && costMax >= units::kilo;
        // The wall time in the unit the table gives it: a two-hour run in hours.
        const auto [wallUnit, wallScale] = readableUnit(c, "wall_days");
        if (wallMax > 0)
            charts.append(barAndLineChart(
                c, highlight, QObject::tr("Wall time to train and run cost"), "wall_days",
                QObject::tr("Wall time (%1)")
                    .arg(wallUnit.isEmpty() ? QStringLiteral("days") : wallUnit),
                wallScale, "run_cost_usd",
                millions        ? QObject::tr("Run cost (M USD)")
                    : thousands ? QObject::tr("Run cost (k USD)")
                                : QObject::tr("Run cost (USD)"),
                millions        ? 1.0 / units::mega
                    : thousands ? 1.0 / units::kilo
                                : 1.0));
    }
    // The cost over every GPU the plan buys where a fleet leaves some idle (the table ranks it).
    const bool everyGpu = std::any_of(c.rows.begin(), c.rows.end(), [](const auto &row) {
        return row.key == "cost_per_m_output_all_gpus_usd";
    });
    if (inference && !training)
        charts.append(barAndLineChart(
            c, highlight,
            everyGpu ? QObject::tr("Cost per million output tokens (every GPU) and TTFT")
                     : QObject::tr("Cost per million output tokens and TTFT"),
            everyGpu ? "cost_per_m_output_all_gpus_usd" : "cost_per_m_output_usd",
            QObject::tr("USD per M tokens"), 1.0, "ttft_ms", QObject::tr("TTFT p95 (ms)"), 1.0));
    // Facility power in kW, or in MW from 10 MW up (a 2.3 GW campus is not "2e+06 kW"); a
    // campus's every building, as the table gives it.
    const QList<double> facilityWatts = perScenario([](const model::PlanEstimate &e) {
        const model::PowerShares shares = model::planPowerShares(e);
        return shares.gpusWatts + shares.serversWatts + shares.networkWatts + shares.storageWatts
            + shares.coolingWatts;
    });
    const bool megawatts
        = *std::max_element(facilityWatts.begin(), facilityWatts.end()) >= 10 * units::mega;
    const double powerUnit = megawatts ? units::mega : units::kilo;
    const auto power = [&](double model::PowerShares::*part) {
        return perScenario([part, powerUnit](const model::PlanEstimate &e) {
            return model::planPowerShares(e).*part / powerUnit;
        });
    };
    static const QColor powerColors[]
        = {QColor(0x3b, 0x7d, 0xd8), QColor(0x6a, 0xa8, 0x4f), QColor(0x8e, 0x44, 0xad),
           QColor(0xd4, 0xa0, 0x17), QColor(0x9e, 0x9e, 0x9e)};
    charts.append(stackedChart(
        c, highlight, QObject::tr("Facility power at full load"),
        megawatts ? QObject::tr("MW") : QObject::tr("kW"),
        {{QObject::tr("GPUs"), power(&model::PowerShares::gpusWatts)},
         {QObject::tr("Servers"), power(&model::PowerShares::serversWatts)},
         {QObject::tr("Network"), power(&model::PowerShares::networkWatts)},
         {QObject::tr("Storage"), power(&model::PowerShares::storageWatts)},
         {QObject::tr("Cooling and losses (PUE)"), power(&model::PowerShares::coolingWatts)}},
        powerColors));
    if (training && !c.scaling.empty())
        charts.append(scalingChart(c));
    if (QChart *queue = queueWaitChart(c, highlight))
        charts.append(queue);
    if (QChart *busy = queueUtilisationChart(c, highlight))
        charts.append(busy);
    // A front needs two options to weigh; one alone is drawn on axes fitted to nothing.
    if (std::count_if(c.paretoPoints.begin(), c.paretoPoints.end(),
                      [](const auto &p) { return p.has_value(); })
        >= 2)
        charts.append(paretoChart(c, highlight));
    return charts;
}

void setChartTextPoints(QChart *chart, double points)
{
    const auto sized = [points](QFont font, double extra) {
        font.setPointSizeF(points + extra);
        return font;
    };
    chart->setTitleFont(sized(chart->titleFont(), 1));
    chart->legend()->setFont(sized(chart->legend()->font(), -1));
    for (QAbstractAxis *axis : chart->axes()) {
        // Five or more categories share the width: their names a size smaller, so that
        // "Kubernetes (Kueue)" or "4,096 GPUs" under a fifth of the axis is not cut to "4,096
        // GP...".
        const auto *categories = qobject_cast<QBarCategoryAxis *>(axis);
        const double smaller = categories && categories->count() >= 5 ? -2.5 : 0;
        axis->setLabelsFont(sized(axis->labelsFont(), smaller));
        axis->setTitleFont(sized(axis->titleFont(), -1));
    }
}

} // namespace cp::views
