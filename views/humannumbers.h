// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QFontMetrics;

#include <string>

namespace cp::model {
struct ComparisonRow;
struct InferenceEstimate;
} // namespace cp::model

namespace cp::views {

/** A model's human-unit text ("182 MW", "1.64 TB", "$53.3 M") for a Qt label. */
inline QString human(const std::string &text)
{
    return QString::fromStdString(text);
}

/** A count as people say it: "2 T", "160.6 B", "512 M", "4,096" (three significant digits). */
QString humanCount(double count);

/** "400 Gb/s", "25.6 Tb/s": a link's or a bundle's rate per direction, from bytes per second. */
QString humanBitRate(double bytesPerSecond);

/** "1 replica", "6 replicas". */
QString replicaCount(int replicas);

/**
 * An offline job as one sentence (the estimate must hold one): "3,000 requests in 1 wave of
 * 1,813 and 1 of 1,187: 2 min, 12,241 output tokens/s per GPU over the job, 0.207 USD, 281 Wh".
 */
QString offlineJobSummary(const model::InferenceEstimate &estimate);

/** `text` broken into lines of at most `width` pixels at its spaces (a word wider than that
 * keeps a line of its own); a leading indent starts every line. */
QString wrappedToWidth(const QString &text, const QFontMetrics &metrics, int width);

/** A figure for a table cell: grouped thousands, decimals by magnitude, counts as integers. */
QString comparisonNumber(double value, const std::string &unit = {});

/** Whether a comparison row's cells read differently as comparisonNumber() prints them: a row
 * whose figures differ only past the digits shown ("98.92" three times) is not tinted as if
 * the scenarios differed there. */
bool differsAsShown(const model::ComparisonRow &row);

} // namespace cp::views
