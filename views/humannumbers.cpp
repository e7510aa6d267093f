// SPDX-License-Identifier: GPL-3.0-or-later
#include "humannumbers.h"

#include "model/core/humantext.h"
#include "model/inference/inferenceestimate.h"
#include "model/planning/scenariocomparison.h"

#include <QFontMetrics>
#include <QLocale>
#include <QObject>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace cp::views {

QString humanBitRate(double bytesPerSecond)
{
    const double gbps = bytesPerSecond * 8 / 1e9;
    // Three significant digits, grouped: "1,638 Tb/s" and "400 Tb/s", not "1638" or "400.0".
    if (gbps >= 1000)
        return QStringLiteral("%1 Tb/s").arg(
            QString::fromStdString(model::threeDigits(gbps / 1000)));
    return QStringLiteral("%1 Gb/s").arg(QString::fromStdString(model::threeDigits(gbps)));
}

QString replicaCount(int replicas)
{
    return replicas == 1 ? QObject::tr("1 replica")
                         : QObject::tr("%1 replicas").arg(QLocale().toString(replicas));
}

QString humanCount(double count)
{
    struct Scale
    {
        double factor;
        const char *suffix;
    };
    static constexpr Scale scales[] = {{1e12, " T"}, {1e9, " B"}, {1e6, " M"}};
    for (const Scale &scale : scales) {
        if (std::abs(count) >= scale.factor) {
            const double value = count / scale.factor;
            // One decimal from 10 of the unit up (160.6 B), two below (1.25 T); trailing zeros
            // dropped, so a round budget reads "2 T".
            const int decimals = std::abs(value) >= 10 ? 1 : 2;
            QString text = QLocale().toString(value, 'f', decimals);
            if (text.contains(QLocale().decimalPoint())) {
                while (text.endsWith(QLatin1Char('0')))
                    text.chop(1);
                if (text.endsWith(QLocale().decimalPoint()))
                    text.chop(1);
            }
            return text + QLatin1String(scale.suffix);
        }
    }
    return QLocale().toString(count, 'f', 0);
}

QString comparisonNumber(double value, const std::string &unit)
{
    if (value == 0)
        return QStringLiteral("0"); // none at all reads as such, not as "0.000"
    const double magnitude = std::abs(value);
    // Whole things: counts, sequences, and replica-hours (whole replicas for whole hours), which
    // read "653.0" in the PDF where the CLI said 653.
    const bool whole = unit == "count" || unit == "sequences" || unit == "replica-h";
    const int decimals = whole || magnitude >= 1000 ? 0
        : magnitude >= 100                          ? 1
        : magnitude >= 1                            ? 2
                                                    : 3;
    return QLocale().toString(value, 'f', decimals);
}

QString offlineJobSummary(const model::InferenceEstimate &estimate)
{
    const model::OfflineJobEstimate &job = *estimate.offlineJob;
    const auto count = [](long long value) {
        return QString::fromStdString(model::groupedCount(value));
    };
    QString waves;
    if (job.fullWaves > 0)
        waves = (job.fullWaves == 1 ? QObject::tr("1 wave of %1")
                                    : QObject::tr("%1 waves of %2").arg(count(job.fullWaves)))
                    .arg(count(estimate.batch));
    if (job.lastWaveBatch > 0)
        waves += (waves.isEmpty() ? QObject::tr("1 wave of %1") : QObject::tr(" and 1 of %1"))
                     .arg(count(job.lastWaveBatch));
    const QString share = estimate.replicas > 1
        ? QObject::tr(" (%1 on the busiest replica)").arg(count(job.requestsPerReplica))
        : QString();
    return QObject::tr("%1 requests%2 in %3: %4, %5 output tokens/s per GPU over the job, %6 USD, "
                       "%7")
        .arg(count(job.requests), share, waves,
             QString::fromStdString(model::humanDuration(job.seconds)),
             QLocale().toString(job.outputTokensPerSecondPerGpu, 'f', 0), comparisonNumber(job.usd),
             QString::fromStdString(model::humanEnergy(job.joules)));
}

QString wrappedToWidth(const QString &text, const QFontMetrics &metrics, int width)
{
    // A leading indent (a row that details the one above) starts every line.
    const qsizetype firstWord = text.indexOf(QRegularExpression(QStringLiteral("\\S")));
    const QString indent = firstWord > 0 ? text.left(firstWord) : QString();
    width -= metrics.horizontalAdvance(indent);
    QStringList lines;
    QString line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(candidate) > width) {
            lines << indent + line;
            line = word;
        } else {
            line = candidate;
        }
    }
    if (!line.isEmpty())
        lines << indent + line;
    return lines.join(QLatin1Char('\n'));
}

bool differsAsShown(const model::ComparisonRow &row)
{
    if (row.isText() || !row.differs)
        return row.differs;
    const auto shown = [&](const std::optional<double> &value) {
        return value ? comparisonNumber(*value, row.unit) : QString();
    };
    for (std::size_t i = 1; i < row.values.size(); ++i)
        if (shown(row.values[i]) != shown(row.values[0]))
            return true;
    return false;
}

} // namespace cp::views
