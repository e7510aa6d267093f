// SPDX-License-Identifier: GPL-3.0-or-later
#include "planreport.h"

#include "comparisoncharts.h"
#include "datahallflooritem.h"
#include "fabricdrawing.h"
#include "fabricdrawingitem.h"
#include "humannumbers.h"
#include "plandocument.h"
#include "planscene.h"

#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/fabric/fabricdesign.h"
#include "model/inference/chunkedprefill.h"
#include "model/inference/fleetcapacity.h"
#include "model/inference/servingengine.h"
#include "model/inference/servingfloor.h"
#include "model/plan/plansources.h"
#include "model/plan/scenarios.h"
#include "model/planning/planfabric.h"
#include "model/planning/planworstfailure.h"
#include "model/planning/portfoliosimulation.h"
#include "model/planning/simulationsummary.h"

#include <QChart>
#include <QDateTime>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QLocale>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace cp::views {

namespace units = model::units;

namespace {

constexpr int dotsPerInch = 144;

QPicture record(QGraphicsScene &scene, const QRectF &source, QSizeF size)
{
    QPicture picture;
    QPainter painter(&picture);
    painter.setRenderHint(QPainter::Antialiasing);
    scene.render(&painter, QRectF(QPointF(0, 0), size), source);
    painter.end();
    return picture;
}

/** Lays text, tables and pictures down the pages, breaking pages as needed. */
class ReportLayout
{
public:
    ReportLayout(QPdfWriter &writer, QString footer)
        : m_writer(writer)
        , m_footer(std::move(footer))
    {
        const QRect paint = writer.pageLayout().paintRectPixels(dotsPerInch);
        m_area = QRectF(0, 0, paint.width(), paint.height() - 40);
        if (!m_painter.begin(&writer))
            throw ReportError("cannot start the PDF");
        m_painter.setRenderHint(QPainter::Antialiasing);
        setFont(10);
    }

    int finish()
    {
        drawFooter();
        m_painter.end();
        return m_page;
    }

    double width() const { return m_area.width(); }
    double remaining() const { return m_area.bottom() - m_y; }

    /** The next page, portrait unless asked (a wide canvas reads better on a landscape page). */
    void newPage(QPageLayout::Orientation orientation = QPageLayout::Portrait)
    {
        drawFooter();
        m_writer.setPageOrientation(orientation);
        if (!m_writer.newPage())
            throw ReportError("cannot add a page to the PDF");
        const QRect paint = m_writer.pageLayout().paintRectPixels(dotsPerInch);
        m_area = QRectF(0, 0, paint.width(), paint.height() - 40);
        ++m_page;
        m_y = 0;
    }

    void setFont(double points, bool bold = false)
    {
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPointSizeF(points);
        font.setBold(bold);
        m_painter.setFont(font);
    }

    /**
     * `text` with a break opportunity (a zero-width space) inside every word wider than `w` (a
     * URL, a long id): after its separators, and where a piece is still too wide, before the
     * character that would overflow. Words that fit stay whole, so word wrap breaks only where a
     * reader expects it.
     */
    QString breakable(const QString &text, double w) const
    {
        const QFontMetrics metrics = m_painter.fontMetrics();
        static const QRegularExpression spaces(QStringLiteral("(\\s+)"));
        static const QString separators = QStringLiteral("/.-_,:;?&=)");
        const QChar zeroWidthSpace(0x200B);
        const QChar softHyphen(0x00AD);
        QString result;
        qsizetype start = 0;
        QRegularExpressionMatchIterator gaps = spaces.globalMatch(text);
        const auto appendWord = [&](const QString &word) {
            if (metrics.horizontalAdvance(word) <= w) {
                result += word;
                return;
            }
            QString piece;
            for (const QChar character : word) {
                // Inside a word a break shows a hyphen (a soft hyphen), which needs its room, so
                // that "Oversubscription" does not read as "Oversubscriptio" and "n".
                const bool insideWord
                    = !piece.isEmpty() && piece.back().isLetter() && character.isLetter();
                const QString reach
                    = insideWord ? piece + character + QLatin1Char('-') : piece + character;
                if (!piece.isEmpty() && metrics.horizontalAdvance(reach) > w) {
                    result += piece + (insideWord ? softHyphen : zeroWidthSpace);
                    piece.clear();
                }
                piece += character;
                if (separators.contains(character)) {
                    result += piece + zeroWidthSpace;
                    piece.clear();
                }
            }
            result += piece;
        };
        while (gaps.hasNext()) {
            const QRegularExpressionMatch gap = gaps.next();
            appendWord(text.mid(start, gap.capturedStart() - start));
            result += gap.captured();
            start = gap.capturedEnd();
        }
        appendWord(text.mid(start));
        // No break inside a unit such as "GB/s" or "USD/kWh": a word joiner after a slash between
        // letters (a cell ended a line at "4,176 GB/" and put "s" alone on the next).
        static const QRegularExpression unitSlash(QStringLiteral("(?<=[A-Za-z])/(?=[A-Za-z])"));
        result.replace(unitSlash, QStringLiteral("/") + QChar(0x2060));
        // Nor inside a command-line option: "--netbox" was set as "--" at a line's end and
        // "netbox" on the next, which a reader copying the command gets wrong.
        static const QRegularExpression option(QStringLiteral("(?<![^\\s(])--(?=[A-Za-z])"));
        const QString joiner(QChar(0x2060));
        return result.replace(option, QStringLiteral("-") + joiner + QStringLiteral("-") + joiner);
    }

    /**
     * The size a table cell's text is set at: the table's 8.5 points unless a word of it is wider
     * than the cell, then as much smaller as that word needs, down to 7 points. A word such as
     * "Oversubscription:" in a five-scenario comparison's column is set whole rather than broken
     * ("Oversubscripti-" and "on:"). A word too wide even at 7 points (a URL in the sources) leaves
     * its cell at 8.5 points and breaks after its separators, as before.
     */
    double cellPoints(const QString &text, double w, bool bold)
    {
        constexpr double tablePoints = 8.5;
        constexpr double smallestPoints = 7.0;
        setFont(tablePoints, bold);
        static const QRegularExpression spaces(QStringLiteral("\\s+"));
        const QFontMetricsF metrics = QFontMetricsF(m_painter.font(), m_painter.device());
        double widest = 0;
        for (const QString &word : text.split(spaces, Qt::SkipEmptyParts))
            widest = std::max(widest, metrics.horizontalAdvance(word));
        if (widest <= w || widest * smallestPoints / tablePoints > w)
            return tablePoints; // fits, or breaks at any size (its separators take the breaks)
        // Quarter points, rounded down so that the word fits.
        return std::floor(tablePoints * w / widest * 4) / 4;
    }

    /** A table cell's height with its text at the size cellPoints gives. */
    double cellHeight(const QString &text, double w, bool bold)
    {
        setFont(cellPoints(text, w, bold), bold);
        const double h = textHeight(text, w);
        setFont(8.5, bold);
        return h;
    }

    double textHeight(const QString &text, double w) const
    {
        return m_painter.fontMetrics()
            .boundingRect(QRect(0, 0, static_cast<int>(w), 100000), Qt::TextWordWrap,
                          breakable(text, w))
            .height();
    }

    void paragraph(const QString &text, double points = 10, bool bold = false, double after = 8)
    {
        setFont(points, bold);
        const double h = textHeight(text, width());
        if (h > remaining())
            newPage();
        m_painter.setPen(Qt::black);
        m_painter.drawText(QRectF(0, m_y, width(), h), Qt::TextWordWrap, breakable(text, width()));
        m_y += h + after;
    }

    void heading(const QString &text)
    {
        if (remaining() < 160)
            newPage();
        m_y += 6;
        paragraph(text, 15, true, 4);
        m_painter.setPen(QPen(QColor(0x1f, 0x6f, 0xeb), 2));
        m_painter.drawLine(QPointF(0, m_y), QPointF(width(), m_y));
        m_y += 12;
    }

    /** A table with `header`; columns share the width in proportion to `weights`. */
    void table(const QStringList &header, const QList<QStringList> &rows,
               const QList<double> &weights, const QList<int> &rightAligned = {},
               const QList<QList<QColor>> &backgrounds = {}, const QList<bool> &textRows = {},
               const QList<bool> &sectionRows = {})
    {
        const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
        QList<double> widths;
        for (double w : weights)
            widths.append(width() * w / total);
        const auto rowHeight = [&](const QStringList &cells) {
            const bool bold = m_painter.font().bold(); // the header row's, set by the caller
            double h = 0;
            for (int c = 0; c < cells.size(); ++c)
                h = std::max(h, cellHeight(cells[c], widths[c] - 8, bold));
            return h + 8;
        };
        const auto drawRow = [&](const QStringList &cells, bool isHeader, const QList<QColor> &fill,
                                 bool textRow = false, bool sectionRow = false) {
            if (sectionRow) {
                // A section title spanning the table.
                setFont(9, true);
                const double h = textHeight(cells.value(0), width()) + 10;
                if (h * 2 > remaining())
                    newPage();
                m_painter.fillRect(QRectF(0, m_y, width(), h), QColor(0xf0, 0xf0, 0xf0));
                m_painter.setPen(Qt::black);
                m_painter.drawText(QRectF(4, m_y + 5, width() - 8, h - 5), Qt::AlignLeft,
                                   cells.value(0));
                m_y += h;
                return;
            }
            setFont(8.5, isHeader);
            const double h = rowHeight(cells);
            if (h > remaining()) {
                newPage();
                if (!isHeader)
                    drawHeader(header, widths, rowHeight);
                setFont(8.5, isHeader);
            }
            double x = 0;
            for (int c = 0; c < cells.size(); ++c) {
                const QRectF cell(x, m_y, widths[c], h);
                QColor background = isHeader ? QColor(0xe8, 0xee, 0xf8) : QColor(Qt::white);
                if (!isHeader && c < fill.size() && fill[c].isValid())
                    background = fill[c];
                m_painter.fillRect(cell, background);
                m_painter.setPen(QColor(0xc8, 0xc8, 0xc8));
                m_painter.drawRect(cell);
                m_painter.setPen(Qt::black);
                const Qt::Alignment align = rightAligned.contains(c) && !isHeader && !textRow
                    ? Qt::AlignRight | Qt::AlignTop
                    : Qt::AlignLeft | Qt::AlignTop;
                // Measured and drawn at the same size with the same breaks, so no line is
                // clipped.
                setFont(cellPoints(cells[c], widths[c] - 8, isHeader), isHeader);
                m_painter.drawText(cell.adjusted(4, 4, -4, -4), align | Qt::TextWordWrap,
                                   breakable(cells[c], widths[c] - 8));
                setFont(8.5, isHeader);
                x += widths[c];
            }
            m_y += h;
        };
        m_drawRow = drawRow;
        // The header never ends a page alone: it starts the next one unless its first two rows
        // fit beneath it.
        setFont(8.5, true);
        double lead = rowHeight(header);
        setFont(8.5, false);
        for (int r = 0; r < std::min<qsizetype>(2, rows.size()); ++r)
            lead += rowHeight(rows[r]);
        keepTogether(lead);
        drawRow(header, true, {});
        for (int r = 0; r < rows.size(); ++r) {
            // The last row never starts a page alone (the bill of materials' "Total" did): when
            // the row before it fits here and the two together do not, both go over.
            if (r == rows.size() - 2 && r > 0 && !sectionRows.value(r, false)) {
                setFont(8.5, false);
                const double last = rowHeight(rows[r]);
                const double both = last + rowHeight(rows[r + 1]);
                if (last <= remaining() && both > remaining() && both <= m_area.height()) {
                    newPage();
                    drawHeader(header, widths, rowHeight);
                }
            }
            drawRow(rows[r], false, r < backgrounds.size() ? backgrounds[r] : QList<QColor>(),
                    textRows.value(r, false), sectionRows.value(r, false));
        }
        m_y += 12;
    }

    /** A picture scaled to `w` wide, keeping its aspect ratio, with a caption above. */
    void picture(const QPicture &picture, QSizeF size, const QString &caption, double maxHeight)
    {
        const double scale = std::min(width() / size.width(), maxHeight / size.height());
        const QSizeF drawn = size * scale;
        // QPicture replays at the target's resolution, scaling by target DPI / recorded DPI;
        // undo that so `scale` alone maps recorded units to the page.
        const double replay = static_cast<double>(picture.logicalDpiX()) / m_writer.logicalDpiX();
        setFont(10, true);
        const double captionHeight = caption.isEmpty() ? 0 : textHeight(caption, width()) + 4;
        if (captionHeight + drawn.height() > remaining())
            newPage();
        m_painter.drawText(QRectF(0, m_y, width(), captionHeight), Qt::TextWordWrap, caption);
        m_y += captionHeight;
        m_painter.save();
        m_painter.translate((width() - drawn.width()) / 2, m_y);
        m_painter.scale(scale * replay, scale * replay);
        m_painter.drawPicture(0, 0, picture);
        m_painter.restore();
        m_y += drawn.height() + 16;
    }

    void space(double h) { m_y += h; }

    /** What a drawing's colours mean, at the tables' 8.5 pt, under the drawing at the left. */
    void legend(const FabricLegend &legend)
    {
        if (legend.isEmpty())
            return;
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPointSizeF(8.5);
        const QSizeF size = fabricLegendSize(m_painter, legend, font);
        if (size.height() > remaining())
            newPage();
        paintFabricLegend(m_painter, legend, font, QRectF(QPointF(0, m_y), size));
        m_y += size.height() + 12;
    }

    /** Starts a new page unless `h` fits on this one; a block taller than a page just flows. */
    void keepTogether(double h)
    {
        if (h > remaining() && h <= m_area.height())
            newPage();
    }

    /** The height table() will take for these rows (at its 8.5 pt font). */
    double tableHeight(const QStringList &header, const QList<QStringList> &rows,
                       const QList<double> &weights)
    {
        const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
        double h = 12;
        for (int r = -1; r < rows.size(); ++r) {
            const QStringList &cells = r < 0 ? header : rows[r];
            setFont(8.5, r < 0);
            double row = 0;
            for (int c = 0; c < cells.size() && c < weights.size(); ++c)
                row = std::max(row, cellHeight(cells[c], width() * weights[c] / total - 8, r < 0));
            h += row + 8;
        }
        return h;
    }

private:
    void drawHeader(const QStringList &header, const QList<double> &,
                    const std::function<double(const QStringList &)> &)
    {
        if (m_drawRow)
            m_drawRow(header, true, {}, false, false);
    }

    void drawFooter()
    {
        // The footer's font and pen stay its own: text that breaks onto a new page is drawn in
        // the font it was measured in (a bullet carried over was set in the footer's 8 points).
        const QFont font = m_painter.font();
        setFont(8);
        m_painter.setPen(QColor(0x70, 0x70, 0x70));
        m_painter.drawText(QRectF(0, m_area.bottom() + 12, width(), 24),
                           Qt::AlignLeft | Qt::AlignVCenter, m_footer);
        m_painter.drawText(QRectF(0, m_area.bottom() + 12, width(), 24),
                           Qt::AlignRight | Qt::AlignVCenter, QObject::tr("Page %1").arg(m_page));
        m_painter.setPen(Qt::black);
        m_painter.setFont(font);
    }

    QPdfWriter &m_writer;
    QPainter m_painter;
    QString m_footer;
    QRectF m_area;
    double m_y = 0;
    int m_page = 1;
    std::function<void(const QStringList &, bool, const QList<QColor> &, bool, bool)> m_drawRow;
};

QString money(double usd)
{
    return QObject::tr("%1 USD").arg(QLocale().toString(usd, 'f', 0));
}

QString wholeNumber(double value)
{
    return QLocale().toString(value, 'f', 0);
}

QString fixed(double value, int decimals)
{
    return QLocale().toString(value, 'f', decimals);
}

QStringList keyFigures(const model::PlanEstimate &e)
{
    QStringList lines;
    // A campus's hardware, power and cost figures are one building's: said where they are.
    const QString eachBuilding = e.campus
        ? QObject::tr(" (each of the %1 buildings)").arg(e.campus->buildings)
        : QString();
    lines << QObject::tr("%1 x %2 in %3 servers, %4 dense BF16%5")
                 .arg(human(model::groupedCount(e.gpus)))
                 .arg(QString::fromStdString(e.gpuName))
                 .arg(human(model::groupedCount(e.nodes)))
                 .arg(human(model::humanFlopsRate(e.peakDenseFlopsPerSecond)))
                 .arg(eachBuilding);
    if (e.hasTraining && e.training.found) {
        const model::TrainingEstimate &t = e.training.best;
        lines << QObject::tr("Training: %1 without failures, MFU %2%, %3 tokens/s")
                     .arg(human(model::humanDuration(t.trainingSeconds)), fixed(100 * t.mfu, 1),
                          views::humanCount(t.tokensPerSecond));
        if (const std::string note = model::mfuConventionNote(t); !note.empty())
            lines << QObject::tr("MFU: %1").arg(QString::fromStdString(note));
        if (e.hasTrainingRun && e.trainingRun.operations.wallSeconds > 0)
            lines << QObject::tr("With failures: %1 wall, goodput %2%, %3, run cost %4")
                         .arg(human(model::humanDuration(e.trainingRun.operations.wallSeconds)),
                              QString::number(100 * e.trainingRun.reliability.goodput, 'g', 3),
                              human(model::humanEnergy(e.trainingRun.operations.energyMegawattHours
                                                       * units::joulesPerMegawattHour)),
                              human(model::humanUsd(e.trainingRun.operations.costUsd)));
        if (const std::string pace = model::lowGoodputText(e.trainingRun.reliability);
            e.hasTrainingRun && !pace.empty())
            lines << QObject::tr("Failures outpace the run: %1").arg(QString::fromStdString(pace));
        else if (e.hasTrainingRun && e.trainingRun.reliability.goodput <= 0)
            // No wall time to give: the report says why, as the Estimate's headline does.
            lines << QObject::tr("With failures: the run never finishes: %1")
                         .arg(QString::fromStdString(
                             model::runNeverFinishesText(e.trainingRun.reliability)));
        if (e.hasTrainingRun && !e.trainingRun.reliability.checkpointsWritable)
            lines << QObject::tr("No storage: checkpoints cannot be written, so every failure "
                                 "restarts the run from its start%1")
                         .arg(e.trainingRun.reliability.goodput > 0
                                  ? QString()
                                  : QObject::tr(", and the run practically never finishes"));
        lines << QObject::tr("Bottleneck: %1").arg(QString::fromStdString(t.bottleneckExplanation));
        lines << QObject::tr("Published runs: %1")
                     .arg(
                         QString::fromStdString(model::publishedRunsText(e.trainingPublishedRuns)));
    } else if (e.hasTraining) {
        lines << QObject::tr("Training not possible: %1")
                     .arg(QString::fromStdString(e.trainingError));
    }
    if (e.hasInference && !e.inference.hasFleet()) {
        const model::InferenceEstimate &i = e.inference;
        lines << (i.fits ? QObject::tr("Inference not possible: %1 (a replica at batch 1, "
                                       "unloaded: TTFT %2 ms, %3 ms per output token)")
                               .arg(QString::fromStdString(i.reason), fixed(i.ttftSeconds * 1e3, 0),
                                    fixed(i.tpotSeconds * 1e3, 1))
                         : QObject::tr("Inference not possible: %1")
                               .arg(QString::fromStdString(i.reason)));
    } else if (e.hasInference) {
        const model::InferenceEstimate &i = e.inference;
        const QString replicas = replicaCount(i.replicas);
        const QString inference = i.offlineJob
            ? QObject::tr("Inference: %1%2, TTFT %3 ms once a request's wave starts, %4 ms per "
                          "output token, %5 USD per million output tokens")
            : QObject::tr("Inference: %1%2, %3, %4 ms per output token, %5 USD per million "
                          "output tokens");
        lines << inference
                     .arg(replicas,
                          i.fixedFleet && i.inFlightSequences > 0
                              ? QObject::tr(" (fixed fleet, %1 sequences in flight each)")
                                    .arg(fixed(i.inFlightSequences, 0))
                              : QString())
                     .arg(i.offlineJob ? fixed(i.ttftSeconds * 1e3, 0)
                              : i.overloaded()
                              ? QObject::tr("TTFT unbounded (the load is more than the fleet "
                                            "serves)")
                              : QObject::tr("TTFT p95 %1 ms").arg(fixed(i.ttftSeconds * 1e3, 0)),
                          fixed(i.tpotSeconds * 1e3, 1), fixed(i.costPerMillionOutputTokensUsd, 3))
                + (e.servingUse && e.servingUse->largelyIdle()
                       ? QObject::tr(" (%1 over every GPU the plan buys)")
                             .arg(fixed(e.servingUse->costPerMillionOutputTokensAllGpusUsd, 3))
                       : QString());
        if (i.offlineJob)
            lines << QObject::tr("Offline job: %1").arg(offlineJobSummary(i));
        if (i.capacityWithinLimits)
            lines << QObject::tr("Capacity within the targets: %1; the figures above are at that "
                                 "load")
                         .arg(QString::fromStdString(model::capacityWithinLimitsText(i)));
        lines << QObject::tr("Bottleneck: %1")
                     .arg(QString::fromStdString(i.fits && i.meetsTargets ? i.bottleneckExplanation
                                                                          : i.reason));
        if (const std::string floor = model::servingFloorText(i); !floor.empty())
            lines << QObject::tr("Floor (no engine is faster): %1")
                         .arg(QString::fromStdString(floor));
        lines << QObject::tr("Published measurements: %1")
                     .arg(QString::fromStdString(
                         model::publishedServingText(e.inferencePublishedRuns)));
    }
    const QString partial = QString::fromStdString(e.partialHardwareNote());
    lines << QObject::tr("Power: %1 IT, %2 facility at PUE %3%4%5")
                 .arg(human(model::humanPower(e.power.itWatts())),
                      human(model::humanPower(e.power.facilityWatts())), fixed(e.power.pue, 2),
                      eachBuilding, partial);
    lines << QObject::tr("Capital cost: %1%2%3")
                 .arg(human(model::humanUsd(e.capitalCostUsd)), eachBuilding, partial);
    if (e.campus)
        lines << QObject::tr("Campus: %1 buildings like this one, %2 GPUs, %3 IT, %4 with "
                             "the interconnect (%5 Tb/s out of each building, %6)")
                     .arg(e.campus->buildings)
                     .arg(QString::fromStdString(model::groupedCount(e.campus->gpus)))
                     .arg(human(model::humanPower(e.campus->itWatts)),
                          human(model::humanUsd(e.campus->capitalUsd)),
                          QString::fromStdString(
                              model::threeDigits(units::bytesPerSecondToTbitPerSecond(
                                  e.campus->interconnectBytesPerSecondPerBuilding))),
                          human(model::humanUsd(e.campus->interconnectUsd)))
                + human(e.campus->sparesText());
    return lines;
}

QStringList planSummary(const model::Plan &plan, const model::Catalog *catalog,
                        const model::PlanEstimate *estimate)
{
    // People read catalog names, not ids.
    const auto name = [catalog](const std::string &id) {
        return QString::fromStdString(catalog && !id.empty() ? catalog->nameOf(id) : id);
    };
    QStringList lines;
    for (const model::NodeGroup &g : plan.nodeGroups)
        lines << QObject::tr("Servers \"%1\": %2 x %3%4")
                     .arg(QString::fromStdString(g.name))
                     .arg(QString::fromStdString(model::groupedCount(g.count)))
                     .arg(name(g.nodeId))
                     .arg(g.rackId.empty() ? QString()
                                           : QObject::tr(" in %1 racks").arg(name(g.rackId)));
    const model::FabricPlan &f = plan.fabric;
    // The tiers the generator built (the plan may ask for "the fewest"), counted on its graph.
    QString tiers
        = f.tiers > 0 ? QObject::tr("%1 tiers").arg(f.tiers) : QObject::tr("fewest tiers");
    int built = -1; ///< switch tiers the estimate counted; -1 unknown
    if (estimate && estimate->fabric.endpoints > 0) {
        const model::FabricCounts &c = estimate->fabric;
        built = c.coreSwitches > 0 ? 3 : c.spineSwitches > 0 ? 2 : c.leafSwitches > 0 ? 1 : 0;
        tiers = built == 1 ? QObject::tr("1 switch tier")
            : built > 1    ? QObject::tr("%1 switch tiers").arg(built)
                           : QObject::tr("no switches (direct links)");
    }
    // Oversubscription is the leaves' down- over uplink bandwidth: a fabric of one switch tier
    // has no uplinks, so it says nothing there. "2:1", "1.5:1": the digits the ratio has.
    const bool oneTier = built == 1;
    lines << QObject::tr("Fabric: %1, NIC %2, switch %3, %4%5")
                 .arg(QString::fromStdString(model::fabricTopologyTitle(f.topology)),
                      f.nicId.empty() ? QObject::tr("the servers' own") : name(f.nicId),
                      f.switchId.empty() ? QObject::tr("the catalog's first for the NIC")
                                         : name(f.switchId),
                      tiers,
                      oneTier ? QString()
                              : QObject::tr(", oversubscription %1:1")
                                    .arg(QLocale().toString(f.oversubscription, 'g', 3)));
    for (const model::StoragePlan &s : plan.storage)
        lines << QObject::tr("Storage: %1 x %2").arg(s.count).arg(name(s.storageId));
    if (!plan.facility.facilityId.empty())
        lines << QObject::tr("Facility: %1").arg(name(plan.facility.facilityId));
    if (plan.workloadType == model::WorkloadType::Training)
        lines << QObject::tr(
                     "Workload: train %1 with %2, sequence %3, global batch %4, %5 tokens, %6")
                     .arg(name(plan.trainingModelId),
                          QString::fromStdString(plan.training.framework.name))
                     .arg(plan.training.seqLen)
                     .arg(plan.training.globalBatch)
                     .arg(views::humanCount(plan.training.tokens),
                          QString::fromStdString(model::precisionName(plan.training.precision)));
    else if (plan.workloadType == model::WorkloadType::Inference)
        lines << QObject::tr("Workload: serve %1 in %2 on %3, %4 input and %5 output tokens")
                     .arg(name(plan.inference.modelId),
                          QString::fromStdString(model::precisionName(plan.inference.precision)),
                          QString::fromStdString(
                              plan.inference.engineId.empty()
                                  ? model::defaultServingEngine().name
                                  : model::findServingEngine(plan.inference.engineId)->name))
                     .arg(QString::fromStdString(model::groupedCount(plan.inference.inputTokens)),
                          QString::fromStdString(model::groupedCount(plan.inference.outputTokens)))
                + (plan.inference.offlineRequests
                       ? QObject::tr(", an offline job of %1 requests")
                             .arg(QString::fromStdString(
                                 model::groupedCount(*plan.inference.offlineRequests)))
                       : QString());
    return lines;
}

/** The data hall page: the floor plan and the cabinets by role with their power. */
void writeDataHallPage(ReportLayout &page, const PlanReportInput &input)
{
    const model::DataHall &hall = *input.hall;
    page.newPage();
    page.heading(QObject::tr("Data hall (baseline)"));
    page.picture(input.dataHall, input.dataHallSize,
                 QObject::tr("Cabinets in rows, coloured by their power at full load against the "
                             "cabinet's limit: green under 80%, amber to 100%, red over"),
                 page.remaining() * 0.68); // the table and paragraph below take the rest
    QList<QStringList> rows;
    for (const char *role : {"compute", "network", "spine", "storage"}) {
        long long count = 0, over = 0, pdus = 0, panels = 0;
        double watts = 0;
        for (const model::HallRack &rack : hall.racks)
            if (rack.role == role) {
                ++count;
                over += rack.overLimit() ? 1 : 0;
                pdus += rack.pdus;
                panels += rack.patchPanels;
                watts = std::max(watts, rack.watts);
            }
        if (count > 0)
            rows << QStringList {QString::fromLatin1(role),     QLocale().toString(count),
                                 fixed(watts / units::kilo, 1), QLocale().toString(pdus),
                                 QLocale().toString(panels),    QLocale().toString(over)};
    }
    page.space(8);
    page.table({QObject::tr("Cabinets"), QObject::tr("Count"), QObject::tr("Most kW in one"),
                QObject::tr("PDUs"), QObject::tr("Patch panels"), QObject::tr("Over a limit")},
               rows, {2, 1, 1.4, 1, 1.2, 1.2}, {1, 2, 3, 4, 5});
    const auto management = std::count_if(hall.cables.begin(), hall.cables.end(),
                                          [](const model::HallCable &c) { return c.management; });
    page.paragraph(
        QObject::tr("%1 devices, %2 cables of the compute and storage networks and %3 "
                    "management cables (every "
                    "BMC, PDU and management port to its row's management switch); "
                    "PDUs feed each cabinet from A and B, either side carrying it "
                    "alone; fibre that leaves its row lands on patch panels; "
                    "clusterplanner-cli export --cable-schedule and --netbox write "
                    "them with their positions, lengths and media.")
            .arg(QLocale().toString(static_cast<long long>(hall.devices.size())),
                 QLocale().toString(static_cast<long long>(hall.cables.size()) - management),
                 QLocale().toString(static_cast<long long>(management))),
        9);
    for (const std::string &note : hall.notes)
        page.paragraph(QObject::tr("Note: %1").arg(QString::fromStdString(note)), 9);
}

/** What the counts do not say: the bisection (is a 2:1 fabric half of a non-blocking one?) and
 * the hops between endpoints, from a max flow on the generated graph (analysePlanFabric). */
void writeFabricMetrics(ReportLayout &page, const model::Plan &baseline,
                        const model::Catalog &catalog)
{
    std::optional<model::FabricMetrics> metrics;
    try {
        metrics = model::analysePlanFabric(baseline, catalog);
    } catch (const std::exception &) {
        return; // the estimate's fabric error says why; the page shows it with the counts
    }
    if (!metrics || metrics->endpoints < 2)
        return;
    // A campus's fabric is one building's, joined to the others by the interconnect.
    const bool campus = baseline.campus.buildings > 1;
    const QList<QStringList> rows
        = {{campus ? QObject::tr("Bisection (each building)") : QObject::tr("Bisection"),
            QString::fromStdString(model::bisectionText(*metrics))},
           {campus ? QObject::tr("Hops between endpoints (each building)")
                   : QObject::tr("Hops between endpoints"),
            QObject::tr("at most %1 links, %2 on average")
                .arg(metrics->diameter)
                .arg(QLocale().toString(metrics->averageHops, 'f', 2))}};
    page.space(6);
    page.table({QObject::tr("Fabric figure"), QObject::tr("Value")}, rows, {3, 4}, {});
}

/**
 * The fabric page: the drawing (links coloured by the training layout's load), the switch tiers
 * and cables, and the worst single switch failure, searched here on the writer's thread.
 */
void writeFabricPage(ReportLayout &page, const model::Plan &documentPlan,
                     const model::Catalog &catalog, const PlanReportInput &input,
                     const model::PlanEstimate *estimate)
{
    const model::Plan baseline = model::scenarioPlan(documentPlan, -1, nullptr);
    page.newPage();
    page.heading(QObject::tr("Fabric (generated graph of the baseline)"));
    page.picture(input.fabric, input.fabricSize, input.fabricCaption, page.remaining() * 0.6);
    page.legend(input.fabricLegend);
    if (estimate && estimate->fabricError.empty()) {
        const model::FabricCounts &f = estimate->fabric;
        QList<QStringList> rows;
        const auto row = [&](const QString &name, long long count) {
            if (count > 0)
                rows << QStringList {name, QLocale().toString(count)};
        };
        row(f.topology == "dragonfly" ? QObject::tr("Routers") : QObject::tr("Leaf switches"),
            f.leafSwitches);
        row(QObject::tr("Spine switches"), f.spineSwitches);
        row(QObject::tr("Core switches"), f.coreSwitches);
        row(QObject::tr("Cables"), f.cables);
        row(QObject::tr("Transceivers"), f.optics);
        page.space(8);
        page.table({QObject::tr("Fabric part"), QObject::tr("Count")}, rows, {3, 1}, {1});
        writeFabricMetrics(page, baseline, catalog);
    }
    const model::WorstFailure worst = model::planWorstFailure(baseline, catalog);
    const QString text = QObject::tr("Worst single failure: %1.")
                             .arg(QString::fromStdString(model::worstFailureSentence(worst)));
    page.space(8);
    page.paragraph(text, 10.5, true, 4);
}

} // namespace

PlanReportInput preparePlanReport(const model::Plan &documentPlan,
                                  const model::ScenarioComparison &comparison,
                                  std::shared_ptr<const model::Catalog> catalog,
                                  const QString &sourceName)
{
    PlanReportInput input;
    input.documentPlan = documentPlan;
    input.comparison = comparison;
    input.catalog = catalog;
    input.sourceName = sourceName;

    PlanDocument document;
    document.reset(documentPlan, QString());
    PlanScene scene(&document);
    scene.setCatalog(catalog); // builds the cards from the document's plan
    // The fabric card's counts come from a worker thread; the picture needs them. (Bounded by
    // the fabric size limit: seconds at 524,288 endpoints, milliseconds for the samples.)
    scene.waitForFabricSummary();
    scene.clearSelection();
    const QRectF bounds = scene.itemsBoundingRect().adjusted(-20, -20, 20, 20);
    input.topologySize = bounds.size();
    input.topology = record(scene, bounds, bounds.size());

    // The fabric as the Fabric view draws it, recorded at a page's width: a large fabric's
    // bundles, a small one's switches (the same level-of-detail rule as on screen).
    const model::Plan baseline = model::scenarioPlan(documentPlan, -1, nullptr);
    auto drawing
        = std::make_shared<const FabricDrawing>(buildPlanFabricDrawing(baseline, *catalog));
    if (drawing->error.empty() && drawing->width > 0) {
        QGraphicsScene fabricScene;
        auto *item = new FabricDrawingItem(drawing); // the scene owns it
        item->setHeatMap(drawing->hasLoads);
        // Labels are drawn at a fixed pixel size; 1,000 recorded units span the page's 180 mm
        // (about 1,020 px at 144 dpi), so the screen's 11 px would print at 5.5 pt. One and a
        // half times that prints them at about 8 pt, the size of the tables' text.
        item->setLabelScale(1.5);
        input.fabricCaption = drawing->hasLoads
            ? QObject::tr("Switch tiers and server groups; links coloured by the load of the "
                          "training layout's data-parallel rings, blue idle to red saturated")
            : QObject::tr("Switch tiers and server groups; %1")
                  .arg(QString::fromStdString(drawing->loadNote));
        fabricScene.addItem(item);
        // Switch names are drawn at a fixed pixel size, and only where the drawing is large
        // enough to tell its switches apart: a tall, narrow fabric (one leaf over its servers)
        // recorded 1,000 wide would be shrunk on the page, names and all, to a point or two.
        // So the drawing (with a small margin, widened to 1.2 times its height) is recorded
        // at about the size the page gives it, 1,000 wide or 840 high at the report's 144 dpi.
        QRectF fabricBounds(-12, -12, drawing->width + 24, drawing->height + 24);
        const double widen = std::max(0.0, 1.2 * fabricBounds.height() - fabricBounds.width());
        fabricBounds.adjust(-widen / 2, 0, widen / 2, 0);
        input.fabricSize = fabricBounds.size().scaled(QSizeF(1000, 840), Qt::KeepAspectRatio);
        input.fabric = record(fabricScene, fabricBounds, input.fabricSize);
        input.fabricLegend = item->legendAt(input.fabricSize.width() / fabricBounds.width());
        // The leaves of a rail-optimised fabric take one colour per rail where they are drawn
        // one by one; a large fabric's overview draws them as grey blocks.
        if (input.fabricLegend.rails > 0)
            input.fabricCaption += QObject::tr("; each leaf's colour is its rail, the GPU index "
                                               "of the servers' NICs it connects");
    }

    // The room as the Data Hall view draws it, coloured by power against each cabinet's limit.
    try {
        input.hall
            = std::make_shared<const model::DataHall>(model::layoutDataHall(baseline, *catalog));
    } catch (const std::exception &) {
        input.hall.reset(); // an unbuildable fabric: the fabric page already says why
    }
    if (input.hall && !input.hall->racks.empty()) {
        QGraphicsScene hallScene;
        auto *floor = new DataHallFloorItem(input.hall); // the scene owns it
        hallScene.addItem(floor);
        const QRectF hallBounds = floor->boundingRect();
        input.dataHallSize = QSizeF(1000, 1000 * hallBounds.height() / hallBounds.width());
        input.dataHall = record(hallScene, hallBounds, input.dataHallSize);
    }

    for (QChart *chart : comparisonCharts(comparison)) {
        QGraphicsScene chartScene;
        chartScene.addItem(chart); // the scene owns and deletes it
        const QSizeF size(760, 430);
        // The page draws the chart at about 0.9 of its 760 units a column, 70% of the size
        // it has in a window: 12-point text there reads as the tables' 8.5.
        setChartTextPoints(chart, 12);
        chart->resize(size);
        input.chartTitles << chart->title();
        input.charts << record(chartScene, QRectF(QPointF(0, 0), size), size);
    }
    return input;
}

namespace {

/** The title page: the plan, its key figures and the scenarios compared. */
void writeTitlePage(ReportLayout &page, const PlanReportInput &input)
{
    const model::Plan &plan = input.documentPlan;
    const QString planName = QString::fromStdString(plan.name);
    const auto &scenarios = input.comparison.scenarios;
    const model::ScenarioResult *baseline = scenarios.empty() ? nullptr : &scenarios.front();
    page.space(120);
    page.paragraph(QObject::tr("ClusterPlanner plan report"), 26, true, 20);
    page.paragraph(planName, 18, false, 12);
    if (!plan.description.empty())
        page.paragraph(QString::fromStdString(plan.description), 11);
    page.paragraph(QObject::tr("Generated %1 from %2")
                       .arg(QLocale().toString(QDateTime::currentDateTime(), QLocale::LongFormat),
                            input.sourceName.isEmpty() ? QObject::tr("an unsaved plan")
                                                       : QFileInfo(input.sourceName).fileName()),
                   9, false, 30);
    page.paragraph(QObject::tr("Key figures (baseline)"), 13, true, 6);
    if (baseline && baseline->ok) {
        for (const QString &line : keyFigures(baseline->estimate))
            page.paragraph(QStringLiteral("• ") + line, 10.5, false, 4);
        // A shared cluster is about its queue: how busy the GPUs are and how long each kind of
        // job waits, from the comparison's simulation of its jobs.
        if (baseline->queue && baseline->queue->ok())
            page.paragraph(QObject::tr("• Queue (simulated): %1")
                               .arg(human(model::portfolioSummaryText(*baseline->queue))),
                           10.5, false, 4);
    } else if (baseline)
        page.paragraph(QObject::tr("The baseline could not be estimated: %1")
                           .arg(QString::fromStdString(baseline->error)));
    if (scenarios.size() > 1) {
        page.space(16);
        page.paragraph(QObject::tr("Scenarios compared"), 13, true, 6);
        for (std::size_t i = 1; i < scenarios.size(); ++i) {
            QStringList changes;
            for (const std::string &c : scenarios[i].changes)
                changes << QString::fromStdString(c);
            page.paragraph(QStringLiteral("• %1: %2")
                               .arg(QString::fromStdString(scenarios[i].name),
                                    changes.isEmpty() ? QObject::tr("same as the baseline")
                                                      : changes.join(QStringLiteral("; "))),
                           10, false, 4);
        }
    }
}

/** The baseline's bill of materials, its heading kept with its table. */
void writeBillOfMaterials(ReportLayout &page, const model::PlanEstimate &e)
{
    QList<QStringList> rows;
    for (const model::BillOfMaterialsLine &line : e.billOfMaterials)
        rows << QStringList {QString::fromStdString(line.category),
                             QString::fromStdString(line.name), QLocale().toString(line.count),
                             money(line.unitPriceUsd), money(line.totalUsd())};
    rows << QStringList {QObject::tr("Total"), QString(), QString(), QString(),
                         money(e.capitalCostUsd)};
    const QStringList header = {QObject::tr("Category"), QObject::tr("Item"), QObject::tr("Count"),
                                QObject::tr("Unit price"), QObject::tr("Total")};
    const QList<double> weights = {1.3, 4, 1, 1.6, 1.8};
    // The heading and its table on one page: a total alone on the next reads badly.
    page.keepTogether(60 + page.tableHeight(header, rows, weights));
    page.heading(e.campus ? QObject::tr("Bill of materials (baseline, one of its %1 buildings)")
                                .arg(e.campus->buildings)
                          : QObject::tr("Bill of materials (baseline)"));
    page.table(header, rows, weights, {2, 3, 4});
}

/** Plan summary, racks, warnings and the bill of materials: on the first page when they fit. */
void writePlanSummary(ReportLayout &page, const PlanReportInput &input)
{
    const model::Plan &plan = input.documentPlan;
    const auto &scenarios = input.comparison.scenarios;
    const model::ScenarioResult *baseline = scenarios.empty() ? nullptr : &scenarios.front();
    page.space(12);
    page.heading(QObject::tr("Plan summary"));
    for (const QString &line : planSummary(
             plan, input.catalog.get(), baseline && baseline->ok ? &baseline->estimate : nullptr))
        page.paragraph(QStringLiteral("• ") + line, 10, false, 4);
    if (baseline && baseline->ok) {
        const model::PlanEstimate &e = baseline->estimate;
        if (!e.racks.empty()) {
            QList<QStringList> rows;
            for (const model::RackUsage &r : e.racks)
                rows << QStringList {QString::fromStdString(r.groupName),
                                     QString::fromStdString(r.rackName),
                                     wholeNumber(r.racks),
                                     QString::number(r.nodesPerRack),
                                     fixed(r.wattsPerRack / units::kilo, 1),
                                     fixed(r.rackLimitWatts / units::kilo, 1)};
            // Network and storage cabinets are the first group's kind (datahall.h).
            const auto addCabinets = [&](const QString &holding, long long cabinets) {
                if (cabinets > 0)
                    rows << QStringList {holding,
                                         QString::fromStdString(e.racks.front().rackName),
                                         QString::number(cabinets),
                                         QStringLiteral("—"),
                                         QStringLiteral("—"),
                                         fixed(e.racks.front().rackLimitWatts / units::kilo, 1)};
            };
            addCabinets(QObject::tr("Network switches"), e.networkCabinets);
            addCabinets(QObject::tr("Storage systems"), e.storageCabinets);
            page.space(8);
            page.table({QObject::tr("Servers"), QObject::tr("Rack"), QObject::tr("Racks"),
                        QObject::tr("Servers per rack, at most"), QObject::tr("kW per full rack"),
                        QObject::tr("Rack limit (kW)")},
                       rows, {2, 3, 1, 1.4, 1.3, 1.4}, {2, 3, 4, 5});
        }
        for (const std::string &warning : e.warnings)
            page.paragraph(QObject::tr("Warning: %1").arg(QString::fromStdString(warning)), 10,
                           true, 4);

        writeBillOfMaterials(page, e);
    }
}

/** A block of scenario columns: a label and a unit column, then one per scenario. */
struct ScenarioColumns
{
    QStringList header;
    QList<double> weights;
    QList<int> rightAligned; ///< the scenarios' columns, whose numbers align right
};

ScenarioColumns scenarioColumns(const std::vector<model::ScenarioResult> &scenarios,
                                std::size_t first, std::size_t last, const QString &label,
                                std::pair<double, double> labelAndUnitWeights,
                                double scenarioWeight)
{
    ScenarioColumns columns {
        {label, QObject::tr("Unit")}, {labelAndUnitWeights.first, labelAndUnitWeights.second}, {}};
    for (std::size_t i = first; i < last; ++i) {
        columns.header << QString::fromStdString(scenarios[i].name);
        columns.weights << scenarioWeight;
        columns.rightAligned << static_cast<int>(i - first) + 2;
    }
    return columns;
}

/**
 * Scenarios per block of a side-by-side table: at most `most` so the columns stay readable, in
 * blocks of even size (five of at most five are one table, six two of three; five of at most
 * four two of three and two), never a last block of one scenario read against nothing.
 */
std::size_t evenBlockSize(std::size_t scenarios, std::size_t most)
{
    const std::size_t blocks = std::max<std::size_t>(1, (scenarios + most - 1) / most);
    return std::max<std::size_t>(1, (scenarios + blocks - 1) / blocks);
}

/** The comparison table, at most five scenarios per block (evenBlockSize). */
void writeComparisonPages(ReportLayout &page, const PlanReportInput &input)
{
    const auto &scenarios = input.comparison.scenarios;
    page.newPage();
    page.heading(QObject::tr("Scenario comparison"));
    page.paragraph(QObject::tr("★ marks the best value of a row (none where two tie within 1%); "
                               "† a row left unranked, with why after the table; tinted cells "
                               "differ between scenarios; — means the figure does not apply or "
                               "could not be estimated."),
                   9);
    const std::size_t perBlock = evenBlockSize(scenarios.size(), 5);
    for (std::size_t first = 0; first < scenarios.size(); first += perBlock) {
        const std::size_t last = std::min(scenarios.size(), first + perBlock);
        const ScenarioColumns columns
            = scenarioColumns(scenarios, first, last, QObject::tr("Figure"), {3.2, 1.1}, 2.0);
        const QStringList &header = columns.header;
        const QList<double> &weights = columns.weights;
        const QList<int> &right = columns.rightAligned;
        QList<QStringList> rows;
        QList<QList<QColor>> fills;
        QList<bool> textRows;
        QList<bool> sectionRows;
        std::string section;
        for (const model::ComparisonRow &canonical : input.comparison.rows) {
            const model::ComparisonRow row = model::inReadableUnit(canonical);
            // A section of one row named as the section itself ("Bottleneck") needs no title.
            if (row.section != section && row.label == row.section)
                section = row.section;
            if (row.section != section) {
                section = row.section;
                rows << QStringList {QString::fromStdString(section)};
                fills << QList<QColor>();
                textRows << false;
                sectionRows << true;
            }
            textRows << row.isText();
            sectionRows << false;
            // An unranked row points to the sentence after the table that says why, which a
            // long table can put a page away.
            QStringList cells
                = {QString::fromStdString(row.label)
                       + (row.notRankedBecause.empty() ? QString() : QStringLiteral(" †")),
                   QString::fromStdString(row.unit)};
            QList<QColor> fill = {QColor(), QColor()};
            const bool tinted = differsAsShown(row);
            for (std::size_t i = first; i < last; ++i) {
                // One change per line reads better than a wrapped "; " list.
                QString text = row.isText() ? QString::fromStdString(row.text[i])
                                            : (row.values[i] ? QString::fromUtf8(row.boundPrefix(i))
                                                       + comparisonNumber(*row.values[i], row.unit)
                                                             : QStringLiteral("—"));
                if (row.key == "changes")
                    text.replace(QStringLiteral("; "), QStringLiteral("\n"));
                if (static_cast<int>(i) == row.bestIndex)
                    text.prepend(QStringLiteral("★ "));
                cells << text;
                fill << (static_cast<int>(i) == row.bestIndex ? QColor(0xd4, 0xf5, 0xd4)
                             : tinted                         ? QColor(0xff, 0xf6, 0xd5)
                                                              : QColor());
            }
            rows << cells;
            fills << fill;
        }
        page.table(header, rows, weights, right, fills, textRows, sectionRows);
    }
    for (const std::string &note : model::notRankedNotes(input.comparison.rows))
        page.paragraph(QStringLiteral("† ") + QString::fromStdString(note), 9);
    // The table's Warnings cells give each scenario's count and the start of its first
    // warning; here they are whole, the only place the report has the scenarios' own.
    for (const model::ComparisonRow &row : input.comparison.rows) {
        if (row.key != "warnings")
            continue;
        for (std::size_t i = 0; i < scenarios.size() && i < row.text.size(); ++i)
            if (!row.wholeText(i).empty())
                page.paragraph(QObject::tr("Warnings of %1: %2")
                                   .arg(QString::fromStdString(scenarios[i].name),
                                        QString::fromStdString(row.wholeText(i))),
                               9);
    }
}

/** Every scenario's operations side by side (compareOperations), at most four scenarios a
 * block (evenBlockSize). */
void writeOperationComparison(ReportLayout &page, const model::ScenarioComparison &comparison)
{
    const auto &scenarios = comparison.scenarios;
    if (comparison.operations.empty() || scenarios.size() < 2)
        return; // one scenario: its own table below says it all
    const std::size_t perBlock = evenBlockSize(scenarios.size(), 4);
    for (std::size_t first = 0; first < scenarios.size(); first += perBlock) {
        const std::size_t last = std::min(scenarios.size(), first + perBlock);
        const ScenarioColumns columns = scenarioColumns(
            scenarios, first, last, QObject::tr("Where the time goes"), {3.4, 0.9}, 1.6);
        const QStringList &header = columns.header;
        const QList<double> &weights = columns.weights;
        const QList<int> &right = columns.rightAligned;
        QList<QStringList> rows;
        QList<QList<QColor>> fills;
        QList<bool> sectionRows;
        std::string phase;
        for (const model::OperationComparisonRow &row : comparison.operations) {
            if (row.phase != phase) {
                phase = row.phase;
                rows << QStringList {QString::fromStdString(phase)};
                fills << QList<QColor>();
                sectionRows << true;
            }
            QStringList cells
                = {QString::fromStdString(row.label), QString::fromStdString(row.unit)};
            for (std::size_t i = first; i < last; ++i)
                cells << (row.values[i] ? comparisonNumber(*row.values[i], row.unit)
                                        : QStringLiteral("—"));
            // Totals tinted blue, the figures they lead to (TTFT, TPOT under load) green.
            const QColor tint = row.total ? QColor(0xe8, 0xee, 0xf8)
                : row.figure              ? QColor(0xe6, 0xf4, 0xe6)
                                          : QColor();
            fills << QList<QColor>(cells.size(), tint);
            rows << cells;
            sectionRows << false;
        }
        if (first == 0) {
            page.keepTogether(
                std::min(page.tableHeight(header, rows, weights) + 120, page.width() * 0.8));
            page.heading(QObject::tr("Where the time goes, scenario by scenario"));
            const bool training = comparison.operations.front().phase == "Training step";
            page.paragraph(
                training ? QObject::tr("Each scenario's operations on the critical path of one "
                                       "GPU, in milliseconds: a training step on the busiest "
                                       "pipeline stage. Totals are tinted blue.")
                         : QObject::tr("Each scenario's operations on the critical path of one "
                                       "GPU, in milliseconds: one prompt's prefill and one "
                                       "decode step through one pipeline stage. Totals are "
                                       "tinted blue; the comparison figure each phase leads to "
                                       "under load (TTFT p95, time per output token) green. A "
                                       "replica's output tokens per second are about the "
                                       "sequences in its step over the time per output token."),
                9);
        }
        page.table(header, rows, weights, right, fills, {}, sectionRows);
    }
}

/** The baseline's training step, operation by operation (train --explain). */
void writeTrainingOperations(ReportLayout &page, const model::ScenarioResult *baseline)
{
    if (baseline && baseline->ok && baseline->estimate.hasTraining
        && baseline->estimate.training.found) {
        const model::TrainingEstimate &t = baseline->estimate.training.best;
        QList<QStringList> rows;
        for (const model::StepOperation &op : t.operations)
            rows << QStringList {QString::fromLatin1(op.name),
                                 QString::fromStdString(model::operationKindName(op.kind)),
                                 op.flops > 0 ? fixed(op.flops / units::tera, 1) : QString(),
                                 op.bytes > 0 ? fixed(op.bytes / units::giga, 1) : QString(),
                                 fixed(op.seconds * 1e3, 1),
                                 fixed(100 * op.seconds / t.stepSeconds, 1),
                                 op.hiddenSeconds > 0 ? fixed(op.hiddenSeconds * 1e3, 1)
                                                      : QString()};
        const QStringList header
            = {QObject::tr("Operation"), QObject::tr("Kind"),        QObject::tr("TFLOP"),
               QObject::tr("GB moved"),  QObject::tr("ms per step"), QObject::tr("Share %"),
               QObject::tr("Hidden ms")};
        const QList<double> weights = {3.6, 1.6, 1, 1.1, 1.2, 1, 1.1};
        // On the page before when the heading, its paragraph and the whole table fit there.
        page.keepTogether(page.tableHeight(header, rows, weights) + 120);
        page.heading(QObject::tr("Where the training step goes (baseline)"));
        page.paragraph(
            QObject::tr("One step of %1 s on the busiest pipeline stage of one GPU. Hidden time "
                        "is communication overlapped with compute; the compute it overlaps "
                        "is slowed by the framework's overlap penalty.")
                .arg(fixed(t.stepSeconds, 3)),
            9);
        page.table(header, rows, weights, {2, 3, 4, 5, 6});
    }
}

/** The baseline's data path stage by stage, its stall, and what the storage must hold. */
void writeDataPath(ReportLayout &page, const model::ScenarioResult *baseline)
{
    if (!baseline || !baseline->ok || !baseline->estimate.hasTrainingRun
        || !baseline->estimate.training.found)
        return;
    const model::TrainingRunEstimate &run = baseline->estimate.trainingRun;
    const model::ReliabilityEstimate &r = run.reliability;
    // The systems the run writes to: those on the fabric, in every building of a campus (as
    // the sizing counts them); the plan's own count without a sizing.
    long long storageSystemsInPlan = run.checkpointStorage.systemsNow;
    if (storageSystemsInPlan <= 0) {
        for (const model::StoragePlan &storage : baseline->plan.storage)
            storageSystemsInPlan += storage.count;
        storageSystemsInPlan *= std::max(1, baseline->plan.campus.buildings);
    }
    // The section follows the step's table on its page when the heading, a paragraph and the
    // storage table fit there; a page of its own would be mostly empty.
    page.keepTogether(run.dataPath.present ? page.width() : page.width() * 0.4);
    page.heading(QObject::tr("Storage and the data path (baseline)"));
    if (run.dataPath.present) {
        const model::DataPathEstimate &path = run.dataPath;
        page.paragraph(
            QObject::tr("The GPUs consume %1 samples/s of %2 (%3/s). Each stage's load "
                        "against what it sustains, in the first epoch and on average in the later "
                        "ones, whose reads the nodes' caches serve in part (%4%: a node keeps "
                        "what it read, and each epoch deals it a reshuffled share). The slowest "
                        "stage sets the feed; below the demand, the GPUs wait.")
                .arg(wholeNumber(path.samplesPerSecond), QString::fromStdString(path.dataset),
                     human(model::humanBytes(path.requiredReadBytesPerSecond)),
                     fixed(100 * path.cacheHitRatio, 0)),
            9);
        QList<QStringList> rows;
        for (std::size_t i = 0; i < path.firstEpoch.stages.size(); ++i) {
            const model::DataPathStage &first = path.firstEpoch.stages[i];
            rows << QStringList {QString::fromStdString(first.name),
                                 wholeNumber(first.capacitySamplesPerSecond),
                                 fixed(100 * first.utilisation(), 0),
                                 fixed(100 * path.warm.stages[i].utilisation(), 0)};
        }
        page.table({QObject::tr("Stage"), QObject::tr("Sustains (samples/s)"),
                    QObject::tr("Busy, first epoch %"), QObject::tr("Busy, later epochs %")},
                   rows, {2.6, 1.6, 1.4, 1.4}, {1, 2, 3});
        page.paragraph(
            path.stallFraction > 0
                ? QObject::tr("The GPUs wait for data %1% of the run (first epoch %2, later "
                              "epochs %3): %4.")
                      .arg(fixed(100 * path.stallFraction, 1),
                           QString::fromStdString(model::shareText(path.firstEpoch.stallFraction)),
                           QString::fromStdString(model::shareText(path.warm.stallFraction)),
                           QString::fromStdString(path.advice))
                : QObject::tr("Every stage keeps up with the GPUs: no data stall."),
            9);
    } else {
        page.paragraph(QObject::tr("The workload names no dataset: packed text tokens, a few "
                                   "bytes per token, never a bottleneck."),
                       9);
    }
    QList<QStringList> rows = {
        {QObject::tr("Checkpoint"), human(model::humanBytes(run.checkpointBytes))},
        {QObject::tr("Burst (all nodes write at once)"),
         human(model::humanDuration(r.checkpointWriteSeconds))},
        {QObject::tr("Restore at restart"), human(model::humanDuration(r.checkpointReadSeconds))},
        {QObject::tr("Stored (data and two checkpoints)"),
         human(model::humanBytes(run.storedBytes))},
        // What holds the data and checkpoints and feeds the loader; more systems than that
        // write each checkpoint faster (the burst above is with the plan's).
        {QObject::tr("Storage systems to hold and feed the data"),
         (baseline->plan.campus.buildings > 1
              ? QObject::tr("%1 (the campus has %2; more write checkpoints faster)")
              : QObject::tr("%1 (the plan has %2; more write checkpoints faster)"))
             .arg(QLocale().toString(run.storageSystemsNeeded),
                  QLocale().toString(storageSystemsInPlan))}};
    const model::CheckpointStorageSizing &sized = run.checkpointStorage;
    if (sized.systems > 0)
        rows.append({QObject::tr("Checkpoint storage"),
                     QString::fromStdString(model::checkpointStorageText(sized))});
    page.table({QObject::tr("Storage"), QObject::tr("Value")}, rows, {3, 2}, {1});
}

/** The baseline's serving steps, operation by operation (infer --explain). */
void writeServingOperations(ReportLayout &page, const model::ScenarioResult *baseline)
{
    if (!baseline || !baseline->ok || !baseline->estimate.hasInference)
        return;
    const model::InferenceEstimate &inf = baseline->estimate.inference;
    const QStringList header = {QObject::tr("Operation"), QObject::tr("Kind"),
                                QObject::tr("GB moved"), QObject::tr("ms"), QObject::tr("Share %")};
    const QList<double> weights = {3.6, 1.6, 1.1, 1.1, 1};
    struct Phase
    {
        QString title;
        double seconds = 0;
        QList<QStringList> rows;
    };
    QList<Phase> phases;
    for (const auto &[title, operations] :
         {std::pair {QObject::tr("Prefill"), &inf.prefillOperations},
          std::pair {QObject::tr("Decode step"), &inf.decodeOperations}}) {
        Phase phase {title, 0, {}};
        for (const model::StepOperation &op : *operations)
            phase.seconds += op.seconds;
        for (const model::StepOperation &op : *operations)
            phase.rows << QStringList {
                QString::fromLatin1(op.name),
                QString::fromStdString(model::operationKindName(op.kind)),
                op.bytes > 0 ? fixed(op.bytes / units::giga, 2) : QString(),
                comparisonNumber(op.seconds * 1e3, "ms"),
                fixed(phase.seconds > 0 ? 100 * op.seconds / phase.seconds : 0, 1)};
        phases << phase;
    }
    // On the page before when the heading, its paragraph and the prefill's table fit there.
    page.keepTogether(page.tableHeight(header, phases.front().rows, weights) + 200);
    page.heading(QObject::tr("Where the serving time goes (baseline)"));
    const std::string chunks = model::chunkedPrefillText(inf);
    page.paragraph(
        QObject::tr("One prompt's prefill and one decode step of %1 sequences through "
                    "one pipeline stage of one GPU.")
                .arg(inf.batch / std::max(1, inf.pipelineStages))
            + (chunks.empty() ? QString()
                              : QLatin1Char(' ')
                       + QObject::tr("The engine prefills the prompt %1 (TTFT %2 ms).")
                             .arg(QString::fromStdString(chunks), fixed(inf.ttftSeconds * 1e3, 1))),
        9);
    for (const Phase &phase : phases) {
        page.keepTogether(page.tableHeight(header, phase.rows, weights) + 40);
        page.paragraph(
            QObject::tr("%1: %2 ms").arg(phase.title, comparisonNumber(phase.seconds * 1e3, "ms")),
            11, true, 4);
        page.table(header, phase.rows, weights, {2, 3, 4});
    }
}

/** Assumptions and the sources of every catalog entry the scenarios use. */
void writeAssumptionsAndSources(ReportLayout &page, const PlanReportInput &input)
{
    const model::Plan &plan = input.documentPlan;
    const auto &scenarios = input.comparison.scenarios;
    // Flows on after the last section when a few of its points fit below it: the list runs
    // over a page or more anyway.
    page.keepTogether(page.width() * 0.3);
    page.heading(QObject::tr("Assumptions"));
    for (const std::string &line : model::estimateAssumptions(plan.workloadType))
        page.paragraph(QStringLiteral("• ") + QString::fromStdString(line), 9.5, false, 4);
    if (input.catalog) {
        std::vector<model::Plan> plans;
        std::vector<std::string> pricedIds; // what the bills buy beyond the plans' own entries
        for (const model::ScenarioResult &s : scenarios) {
            plans.push_back(s.plan);
            for (const model::BillOfMaterialsLine &line : s.estimate.billOfMaterials)
                pricedIds.push_back(line.itemId);
        }
        if (plans.empty())
            plans.push_back(plan);
        QList<QStringList> rows;
        for (const model::CatalogSourceLine &line :
             model::catalogSourcesForPlans(plans, *input.catalog, pricedIds))
            rows << QStringList {QString::fromStdString(line.kind),
                                 QString::fromStdString(line.name),
                                 QString::fromStdString(line.source)};
        const QStringList header
            = {QObject::tr("Kind"), QObject::tr("Entry"), QObject::tr("Source")};
        const QList<double> weights = {1, 2.5, 5};
        // The heading, its note and the table's first entries (the two the table keeps with its
        // header) start a page together: a source runs to many lines, and the heading was left
        // alone at the foot of a page.
        page.keepTogether(120 + page.tableHeight(header, rows.mid(0, 2), weights));
        page.heading(QObject::tr("Catalog entries and their sources"));
        page.paragraph(QObject::tr("[U] marks an unsourced figure: no datasheet or published "
                                   "measurement gives it, so the catalog holds an "
                                   "order-of-magnitude value with its basis stated."),
                       9);
        page.table(header, rows, weights);
    }
}

} // namespace

int writePlanReportPdf(const PlanReportInput &input, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw ReportError(
            QObject::tr("%1: cannot write: %2").arg(path, file.errorString()).toStdString());
    int pages = 0;
    try {
        const model::Plan &plan = input.documentPlan;
        const QString planName = QString::fromStdString(plan.name);
        QPdfWriter writer(&file);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setResolution(dotsPerInch);
        writer.setTitle(QObject::tr("ClusterPlanner report: %1").arg(planName));
        writer.setCreator(QStringLiteral("ClusterPlanner"));
        ReportLayout page(writer, QObject::tr("ClusterPlanner — %1").arg(planName));
        const auto &scenarios = input.comparison.scenarios;
        const model::ScenarioResult *baseline = scenarios.empty() ? nullptr : &scenarios.front();

        writeTitlePage(page, input);
        writePlanSummary(page, input);
        page.newPage(QPageLayout::Landscape);
        page.heading(QObject::tr("Topology (canvas of the baseline)"));
        if (!input.topologySize.isEmpty())
            page.picture(input.topology, input.topologySize,
                         QObject::tr("Server groups with their racks, the fabric's switch tiers, "
                                     "storage, workload and facility"),
                         page.remaining() - 40);
        if (!input.fabricSize.isEmpty())
            writeFabricPage(page, plan, *input.catalog, input,
                            baseline && baseline->ok ? &baseline->estimate : nullptr);
        if (!input.dataHallSize.isEmpty())
            writeDataHallPage(page, input);

        writeComparisonPages(page, input);
        // Charts flow on from the comparison table they draw, two to a full page: each as wide as
        // the page allows at its 760 x 430 proportions, and none squeezed into a page's
        // leftover space (picture() moves a chart that does not fit to the next page).
        const double chartHeight = page.width() * 0.5;
        for (int i = 0; i < input.charts.size(); ++i) {
            if (i == 0) {
                page.keepTogether(chartHeight + 80);
                page.heading(QObject::tr("Charts"));
            }
            // The chart carries its own title.
            page.picture(input.charts[i], QSizeF(760, 430), QString(), chartHeight);
            // A count that trains slower than a smaller one is explained under the curve.
            if (input.chartTitles[i].startsWith(QStringLiteral("Scaling")))
                for (const std::string &note : input.comparison.scalingNotes)
                    page.paragraph(QString::fromStdString(note), 9);
        }

        writeOperationComparison(page, input.comparison);
        writeTrainingOperations(page, baseline);
        writeDataPath(page, baseline);
        writeServingOperations(page, baseline);

        // Assumptions and sources.
        writeAssumptionsAndSources(page, input);
        pages = page.finish();
    } catch (const ReportError &error) {
        file.cancelWriting();
        throw ReportError(
            QObject::tr("%1: %2").arg(path, QString::fromStdString(error.what())).toStdString());
    }
    if (!file.commit())
        throw ReportError(
            QObject::tr("%1: cannot write: %2").arg(path, file.errorString()).toStdString());
    return pages;
}

} // namespace cp::views
