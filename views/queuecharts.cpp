// SPDX-License-Identifier: GPL-3.0-or-later
#include "queuecharts.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace cp::views {

namespace {

constexpr double secondsPerHour = 3600.0;

QChart *titledChart(const QString &title)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

} // namespace

QChart *queueBusyChart(const model::SimulationResult &result)
{
    if (result.dailyUtilisation.empty())
        return nullptr;
    QChart *chart = titledChart(QObject::tr("GPUs busy, day by day"));
    chart->legend()->hide();
    auto *days = new QValueAxis;
    days->setTitleText(QObject::tr("Day of the simulated period"));
    days->setLabelFormat(QStringLiteral("%d"));
    days->setRange(0, std::max(1.0, static_cast<double>(result.dailyUtilisation.size()) - 1));
    auto *share = new QValueAxis;
    share->setTitleText(QObject::tr("GPUs busy (%)"));
    share->setRange(0, 100);
    share->setLabelFormat(QStringLiteral("%d"));
    auto *line = new QLineSeries;
    for (std::size_t day = 0; day < result.dailyUtilisation.size(); ++day)
        line->append(static_cast<double>(day), 100 * result.dailyUtilisation[day]);
    chart->addSeries(line);
    chart->addAxis(days, Qt::AlignBottom);
    chart->addAxis(share, Qt::AlignLeft);
    line->attachAxis(days);
    line->attachAxis(share);
    return chart;
}

QChart *queueWaitPercentileChart(const model::SimulationResult &result)
{
    const bool anyWaits = std::any_of(result.classes.begin(), result.classes.end(),
                                      [](const model::ClassResult &c) { return c.hasWaits(); });
    if (!anyWaits)
        return nullptr;
    QChart *chart = titledChart(QObject::tr("Queue waits of each job class"));
    auto *series = new QBarSeries;
    auto *median = new QBarSet(QObject::tr("median"));
    auto *p95 = new QBarSet(QObject::tr("95th percentile"));
    auto *p99 = new QBarSet(QObject::tr("99th percentile"));
    median->setColor(QColor(0x9e, 0xc5, 0xe8));
    p95->setColor(QColor(0x3a, 0x7c, 0xc0));
    p99->setColor(QColor(0x1b, 0x3f, 0x6b));
    auto *categories = new QBarCategoryAxis;
    double longest = 0;
    for (const model::ClassResult &c : result.classes) {
        // A class whose jobs still wait at the end counts them at their wait so far: its bars
        // are lower bounds, marked as the tables mark them.
        categories->append(QString::fromStdString(c.name)
                           + (c.waitsAreLowerBounds() ? QStringLiteral(" (≥)") : QString()));
        *median << c.waitP50Seconds / secondsPerHour;
        *p95 << c.waitP95Seconds / secondsPerHour;
        *p99 << c.waitP99Seconds / secondsPerHour;
        longest = std::max(longest, c.waitP99Seconds / secondsPerHour);
    }
    series->append({median, p95, p99});
    chart->addSeries(series);
    chart->addAxis(categories, Qt::AlignBottom);
    series->attachAxis(categories);
    auto *hours = new QValueAxis;
    hours->setTitleText(QObject::tr("Wait (hours)"));
    hours->setRange(0, longest > 0 ? longest * 1.05 : 1.0);
    hours->applyNiceNumbers();
    hours->setLabelFormat(QStringLiteral("%.4g"));
    chart->addAxis(hours, Qt::AlignLeft);
    series->attachAxis(hours);
    return chart;
}

} // namespace cp::views
