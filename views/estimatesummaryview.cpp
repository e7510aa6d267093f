// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimatesummaryview.h"

#include "humannumbers.h"
#include "stepbreakdownbar.h"

#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/fabric/fabricdesign.h"
#include "model/inference/chunkedprefill.h"
#include "model/inference/fleetcapacity.h"
#include "model/inference/servingfloor.h"
#include "model/planning/planestimator.h"

#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cp::views {

namespace units = model::units;

namespace {

/** U+2060 WORD JOINER: no line break at it, and nothing drawn. */
constexpr QChar wordJoiner(0x2060);
constexpr QChar noBreakSpace(0x00A0);

/** `text` with a word joiner after each slash between letters ("GB/s", "USD/kWh") and a
 * no-break space between a number and the word after it ("45.3 ms"), so that a wrapped label
 * keeps a figure and its unit on one line. */
QString keepUnitsWhole(QString text)
{
    static const QRegularExpression unitSlash(QStringLiteral("(?<=[A-Za-z])/(?=[A-Za-z])"));
    static const QRegularExpression numberSpace(QStringLiteral("(?<=[0-9]) (?=[A-Za-z%])"));
    text.replace(unitSlash, QStringLiteral("/") + wordJoiner);
    return text.replace(numberSpace, QString(noBreakSpace));
}

/** The text as the model words it, without keepUnitsWhole's marks. */
QString withoutWordJoiners(QString text)
{
    return text.remove(wordJoiner).replace(noBreakSpace, QLatin1Char(' '));
}
QString number(double value, int decimals)
{
    return QLocale().toString(value, 'f', decimals);
}

/** model::withReason for a figure the panel formats in its locale. */
QString withReason(const QString &figure, const std::string &reason)
{
    return QString::fromStdString(model::withReason(figure.toStdString(), reason));
}

/** A count grouped in thousands whatever the locale: "5,462 x 42U", not "5462 x 42U". */
QString grouped(long long count)
{
    return QString::fromStdString(model::groupedCount(count));
}

/** A signed error as a percentage with a sign on every value: "+4.8%", "-23.1%". */
QString signedPercent(double fraction, int decimals)
{
    return (fraction >= 0 ? QStringLiteral("+") : QString()) + number(100 * fraction, decimals)
        + QLatin1Char('%');
}

/** "1 GPU", "8 GPUs". */
QString gpuCount(int gpus)
{
    return gpus == 1 ? EstimateSummaryView::tr("1 GPU")
                     : EstimateSummaryView::tr("%1 GPUs").arg(gpus);
}

QTreeWidgetItem *addRow(QTreeWidgetItem *parent, const QString &name, const QString &value)
{
    auto *item = new QTreeWidgetItem(parent, {name, value});
    // Whole, where a column elides it: the name column is narrow, and at 1366 x 768 a long value
    // (the TTFT percentiles' reason, a warning) runs past the panel's edge.
    item->setToolTip(0, name);
    item->setToolTip(1, value);
    return item;
}

/** " MFU 59.3% is above every published 16-bit run on this GPU (...)..." when the estimate's
 * MFU is above every run it is set against, with the one run named when there is only one;
 * empty otherwise. */
QString aboveEveryPublishedRunText(const model::PublishedRunComparison &published)
{
    if (!published.aboveEveryRun())
        return {};
    const QString mfu = number(100 * published.estimateMfu, 1);
    const QString precision = QString::fromStdString(published.precisionClass);
    const QString fastest = QString::fromStdString(published.fastestRun);
    const QString fastestMfu = number(100 * published.highestMfu, 1);
    // An H200's runs are the H100's, a GPU of the same tensor peaks: said so.
    const QString where = published.standInFor.empty()
        ? EstimateSummaryView::tr("on this GPU")
        : EstimateSummaryView::tr("on the %1, a GPU of its tensor peaks")
              .arg(QString::fromStdString(published.gpuName));
    if (published.runs == 1)
        return QLatin1Char(' ')
            + EstimateSummaryView::tr("MFU %1% is above the only published %2 run %6 "
                                      "(%3, %4%); on it the estimator was %5 off.")
                  .arg(mfu, precision, fastest, fastestMfu,
                       signedPercent(published.estimatorError.meanSignedError, 0), where);
    QString text = QLatin1Char(' ')
        + EstimateSummaryView::tr("MFU %1% is above every published %2 run %5 (the "
                                  "fastest, %3, reached %4%")
              .arg(mfu, precision, fastest, fastestMfu, where);
    if (!published.nearestRun.empty() && published.nearestRun != published.fastestRun)
        text += EstimateSummaryView::tr("; the nearest in size, %1, %2%")
                    .arg(QString::fromStdString(published.nearestRun),
                         number(100 * published.nearestRunMfu, 1));
    return text
        + EstimateSummaryView::tr("); on those runs the estimator was %1 to %2 off.")
              .arg(signedPercent(published.estimatorError.lowestSignedError, 0),
                   signedPercent(published.estimatorError.highestSignedError, 0));
}
} // namespace

EstimateSummaryView::EstimateSummaryView(QWidget *parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_diagnosis(new QLabel(this))
    , m_stepBar(new StepBreakdownBar(this))
    , m_tree(new QTreeWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::PlainText);
    QFont font = m_headline->font();
    font.setPointSizeF(font.pointSizeF() * 1.15);
    font.setBold(true);
    m_headline->setFont(font);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Figure"), tr("Value")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    m_diagnosis->setWordWrap(true);
    m_diagnosis->setTextFormat(Qt::PlainText);
    m_diagnosis->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A wrapped label is as wide as its longest word: a plan named with 400 letters and no
    // space widened the window to 4,364 px. The panel's width decides; such a word is clipped.
    for (QLabel *label : {m_headline, m_diagnosis}) {
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        label->setMinimumWidth(1);
    }
    layout->addWidget(m_headline);
    layout->addWidget(m_diagnosis);
    layout->addWidget(m_stepBar);
    layout->addWidget(m_tree, 1);
    showPending(tr("Open a plan to see its estimate."));
}

QString EstimateSummaryView::headline() const
{
    const QString text = m_diagnosis->text().isEmpty()
        ? m_headline->text()
        : m_headline->text() + QLatin1Char('\n') + m_diagnosis->text();
    return withoutWordJoiners(text); // as the model words it
}

QString EstimateSummaryView::diagnosis() const
{
    return withoutWordJoiners(m_diagnosis->text());
}

void EstimateSummaryView::showPending(const QString &message)
{
    m_headline->setText(message);
    // The last figures stay readable, greyed, until the new ones are in.
    m_tree->setEnabled(false);
    m_diagnosis->setEnabled(false);
    m_stepBar->setEnabled(false);
}

void EstimateSummaryView::showQueue(const QString &text)
{
    const QString title = tr("Queue (simulated)");
    int billIndex = m_tree->topLevelItemCount();
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_tree->topLevelItem(i);
        if (item->text(0) == title) {
            delete m_tree->takeTopLevelItem(i);
            --i;
        } else if (item->text(0) == tr("Bill of materials")) {
            billIndex = std::min(billIndex, i);
        }
    }
    if (text.isEmpty())
        return;
    auto *section = new QTreeWidgetItem({title});
    m_tree->insertTopLevelItem(std::min(billIndex, m_tree->topLevelItemCount()), section);
    addRow(section, tr("Jobs and services"), text);
    section->setExpanded(true);
}

void EstimateSummaryView::showError(const QString &message)
{
    m_headline->setText(tr("Cannot estimate: %1").arg(message));
    m_diagnosis->clear();
    m_stepBar->clear();
    m_stepBar->hide();
    m_tree->clear();
    m_tree->setEnabled(false);
}

void EstimateSummaryView::showDiagnosis(const model::PlanEstimate &e)
{
    m_diagnosis->setEnabled(true);
    m_stepBar->setEnabled(true);
    const auto sentence = [](const std::string &text) {
        QString s = QString::fromStdString(text);
        if (!s.isEmpty())
            s[0] = s[0].toUpper();
        return s;
    };
    if (e.hasTraining && e.training.found) {
        // Failures that take most of the wall time decide the run more than any bottleneck of
        // its step (storage off the fabric: no checkpoints, 68,818 days for a 19-day run).
        const std::string failures = e.hasTrainingRun
            ? model::failuresDecideRunText(e.trainingRun.reliability)
            : std::string();
        const QString step = sentence(e.training.best.bottleneckExplanation);
        QString text = failures.empty()
            ? tr("Bottleneck: %1.").arg(step)
            : tr("%1. Step bottleneck: %2.").arg(sentence(failures), step);
        // An MFU no published run on the hardware reaches is the figure an architect must not
        // take on trust: say so where it is read first.
        text += aboveEveryPublishedRunText(e.trainingPublishedRuns);
        // The step's own bottleneck says nothing of the GPUs waiting for data between steps.
        const model::DataPathEstimate &path = e.trainingRun.dataPath;
        if (e.hasTrainingRun && path.present && path.stallFraction > 0)
            text += QLatin1Char(' ')
                + tr("Data: the GPUs wait for data %1% of the run (first epoch %2, later epochs "
                     "%3): %4 cannot keep up; %5.")
                      .arg(number(100 * path.stallFraction, 1),
                           QString::fromStdString(model::shareText(path.firstEpoch.stallFraction)),
                           QString::fromStdString(model::shareText(path.warm.stallFraction)),
                           QString::fromStdString(model::starvingStagesText(path.worsePhase())),
                           QString::fromStdString(path.advice));
        // Nor of checkpoints that stop it for longer than storage worth buying would.
        if (e.hasTrainingRun && e.trainingRun.checkpointStorage.storageLimitsGoodput())
            text += QLatin1Char(' ')
                + tr("Storage: %1.").arg(sentence(e.trainingRun.checkpointStorageNote));
        m_diagnosis->setText(text);
        m_stepBar->setBreakdown(e.training.best.breakdown);
        m_stepBar->show();
        return;
    }
    m_stepBar->clear();
    m_stepBar->hide();
    if (e.hasTraining)
        m_diagnosis->setText(tr("No training layout works: %1").arg(sentence(e.trainingError)));
    else if (e.hasInference && e.inference.fits && e.inference.meetsTargets)
        // GPUs the plan buys but the load leaves idle change what it costs: said where it is
        // read first, not only among the warnings at the foot of the figures.
        m_diagnosis->setText(
            tr("Bottleneck: %1.").arg(sentence(e.inference.bottleneckExplanation))
            + (e.servingUse && e.servingUse->largelyIdle() ? QLatin1Char(' ')
                       + tr("Idle GPUs: %1.")
                             .arg(QString::fromStdString(model::servingUseText(*e.servingUse)))
                                                           : QString()));
    else if (e.hasInference)
        m_diagnosis->setText(tr("Not served as asked: %1").arg(sentence(e.inference.reason)));
    else
        m_diagnosis->clear();
}

void EstimateSummaryView::showEstimate(const model::PlanEstimate &e)
{
    m_tree->clear();
    m_tree->setEnabled(true);
    showDiagnosis(e);
    if (e.nodes == 0 || !e.fabricError.empty())
        m_diagnosis->clear(); // the headline says all there is
    else if (e.overPowerBudget())
        // The first thing to fix: a hall cannot feed what it has no power for.
        m_diagnosis->setText(tr("Over the facility's power budget: %1 at full load (IT x PUE) "
                                "for %2. ")
                                 .arg(human(model::humanPower(e.power.facilityWatts())),
                                      human(model::humanPower(*e.facilityPowerLimitWatts)))
                             + m_diagnosis->text());
    if (e.nodes == 0) {
        // Nothing to estimate yet: say what to do rather than show a page of zeros.
        m_headline->setText(tr("%1: no servers yet. Drag a server onto the canvas and its "
                               "estimate appears here.")
                                .arg(QString::fromStdString(e.planName)));
        return;
    }
    showHeadline(e);
    // The two wrapped lines never break a unit at its slash ("234 GB/" then "s").
    m_headline->setText(keepUnitsWhole(m_headline->text()));
    m_diagnosis->setText(keepUnitsWhole(m_diagnosis->text()));
    // The workload's answer first, then what the plan is made of: at 1366 x 768 the dock shows
    // a handful of rows, and the training or serving figures sat below the hardware and power.
    if (e.hasTraining)
        addTrainingRows(m_tree, e);
    if (e.hasInference)
        addInferenceRows(m_tree, e);
    addHardwareRows(m_tree, e);
    addPowerRows(m_tree, e);
    if (!e.workloadNote.empty())
        addRow(new QTreeWidgetItem(m_tree, {tr("Workload")}), tr("Note"),
               QString::fromStdString(e.workloadNote));

    QTreeWidgetItem *bom = addBillAndWarnings(m_tree, e);
    m_tree->expandAll();
    bom->setExpanded(false);
}

namespace {

/** The GPU count for the headline: a campus shows its buildings and the whole count. */
QString fleetCount(const model::PlanEstimate &e)
{
    if (!e.campus)
        return QString::fromStdString(model::groupedCount(e.gpus));
    return EstimateSummaryView::tr("%1 buildings x %2 = %3")
        .arg(e.campus->buildings)
        .arg(QString::fromStdString(model::groupedCount(e.gpus)))
        .arg(QString::fromStdString(model::groupedCount(e.campus->gpus)));
}

/** A section's title; a campus's hardware figures are each building's. */
QString sectionTitle(const QString &title, const model::PlanEstimate &e)
{
    return e.campus ? EstimateSummaryView::tr("%1 (each building)").arg(title) : title;
}

} // namespace

/** The one line that answers the plan's question: days to train, cost per token, or power. */
void EstimateSummaryView::showHeadline(const model::PlanEstimate &e)
{
    const auto &training = e.training.best;
    if (!e.fabricError.empty())
        m_headline->setText(
            tr("%1: the fabric cannot be built: %2. Its switches, power and cost "
               "are unknown, and no training job is estimated on it.")
                .arg(QString::fromStdString(e.planName), QString::fromStdString(e.fabricError)));
    else if (e.hasInference && e.inference.offlineJob)
        // A batch job: how long it runs and what it costs lead.
        m_headline->setText(
            tr("%1: %2 x %3, %4, %5 requests in %6 for %7 USD")
                .arg(QString::fromStdString(e.planName))
                .arg(fleetCount(e))
                .arg(QString::fromStdString(e.gpuName))
                .arg(replicaCount(e.inference.replicas))
                .arg(QString::fromStdString(model::groupedCount(e.inference.offlineJob->requests)))
                .arg(QString::fromStdString(model::humanDuration(e.inference.offlineJob->seconds)))
                .arg(comparisonNumber(e.inference.offlineJob->usd)));
    else if (e.hasInference && (!e.inference.hasFleet() || e.inference.overloaded()))
        // The diagnosis below says why; no latency or cost for a load it cannot serve.
        m_headline->setText(tr("%1: %2 x %3 cannot serve the workload as asked")
                                .arg(QString::fromStdString(e.planName))
                                .arg(fleetCount(e))
                                .arg(QString::fromStdString(e.gpuName)));
    else if (e.hasInference && e.inference.capacityWithinLimits)
        // A fixed fleet asked how much it serves: the rate within its targets leads.
        m_headline->setText(
            (e.inference.replicas == 1
                 ? tr("%1: %2 x %3, %4 serves up to %5 requests/s within the "
                      "targets, %6 USD per million output tokens at that load")
                 : tr("%1: %2 x %3, %4 serve up to %5 requests/s within the "
                      "targets, %6 USD per million output tokens at that load"))
                .arg(QString::fromStdString(e.planName))
                .arg(fleetCount(e))
                .arg(QString::fromStdString(e.gpuName))
                .arg(replicaCount(e.inference.replicas))
                .arg(number(e.inference.capacityWithinLimits->requestsPerSecond,
                            e.inference.capacityWithinLimits->requestsPerSecond >= 100 ? 0 : 1))
                .arg(number(e.inference.costPerMillionOutputTokensUsd, 3)));
    else if (e.hasInference)
        // Where a fifth of the GPUs or more stay idle, what a token costs over all of them
        // leads beside what it costs on the replicas that serve.
        m_headline->setText(
            tr("%1: %2 x %3, %4, TTFT p95 %5 ms, %6 USD per million output tokens (%7 with "
               "the prompts' share%8)")
                .arg(QString::fromStdString(e.planName))
                .arg(fleetCount(e))
                .arg(QString::fromStdString(e.gpuName))
                .arg(replicaCount(e.inference.replicas))
                .arg(number(e.inference.ttftSeconds * 1e3, 0))
                .arg(number(e.inference.costPerMillionOutputTokensUsd, 3))
                .arg(number(e.inference.costPerMillionOutputTokensAllInUsd, 3))
                .arg(e.servingUse && e.servingUse->largelyIdle()
                         ? tr("; %1 over every GPU the plan buys")
                               .arg(number(e.servingUse->costPerMillionOutputTokensAllGpusUsd, 3))
                         : QString()));
    else if (e.hasTraining && e.training.found && e.hasTrainingRun
             && e.trainingRun.operations.wallSeconds > 0)
        // The days a run is expected to take include failures, restarts and checkpoints.
        m_headline->setText(
            tr("%1: %2 x %3, %4 to train (%5 without failures), MFU %6%")
                .arg(QString::fromStdString(e.planName))
                .arg(fleetCount(e))
                .arg(QString::fromStdString(e.gpuName))
                .arg(human(model::humanDuration(e.trainingRun.operations.wallSeconds)))
                .arg(human(model::humanDuration(training.trainingSeconds)))
                .arg(number(100 * training.mfu, 1)));
    else if (e.hasTraining && e.training.found && e.hasTrainingRun
             && e.trainingRun.reliability.goodput <= 0 && training.trainingSeconds > 0)
        // Failures come faster than the run can checkpoint and restart: it never finishes.
        m_headline->setText(tr("%1: %2 x %3, MFU %4%, but the run never finishes: %5")
                                .arg(QString::fromStdString(e.planName))
                                .arg(fleetCount(e))
                                .arg(QString::fromStdString(e.gpuName))
                                .arg(number(100 * training.mfu, 1))
                                .arg(QString::fromStdString(
                                    model::runNeverFinishesText(e.trainingRun.reliability))));
    else if (e.hasTraining && e.training.found)
        m_headline->setText(tr("%1: %2 x %3, MFU %4%")
                                .arg(QString::fromStdString(e.planName))
                                .arg(fleetCount(e))
                                .arg(QString::fromStdString(e.gpuName))
                                .arg(number(100 * training.mfu, 1)));
    else
        m_headline->setText(
            tr("%1: %2 x %3, %4 facility power, %5")
                .arg(QString::fromStdString(e.planName))
                .arg(fleetCount(e))
                .arg(QString::fromStdString(e.gpuName))
                .arg(QString::fromStdString(model::humanPower(e.power.facilityWatts())),
                     QString::fromStdString(model::humanUsd(e.capitalCostUsd))));
    // A failure what-if set in the Fabric view changes every figure: the headline says so
    // first, so that a degraded estimate is never read as the cluster's own.
    const auto failed = [](std::size_t count, const QString &one, const QString &many) {
        return count == 1 ? one : many.arg(count);
    };
    QStringList whatIf;
    if (!e.failedSwitches.empty())
        whatIf << failed(e.failedSwitches.size(), tr("1 switch"), tr("%1 switches"));
    if (!e.failedLinks.empty())
        whatIf << failed(e.failedLinks.size(), tr("cables between 1 pair of switches"),
                         tr("cables between %1 pairs of switches"));
    if (!whatIf.isEmpty())
        m_headline->setText(tr("With %1 failed (Fabric view): %2")
                                .arg(whatIf.join(tr(" and ")), m_headline->text()));
}

void EstimateSummaryView::addHardwareRows(QTreeWidget *tree, const model::PlanEstimate &e)
{
    auto *hardware = new QTreeWidgetItem(tree, {sectionTitle(tr("Hardware"), e)});
    addRow(hardware, tr("GPUs"),
           tr("%1 x %2").arg(QString::fromStdString(model::groupedCount(e.gpus)),
                             QString::fromStdString(e.gpuName)));
    addRow(hardware, tr("Nodes"), QString::fromStdString(model::groupedCount(e.nodes)));
    addRow(hardware, tr("Peak dense BF16/FP16"),
           QString::fromStdString(model::humanFlopsRate(e.peakDenseFlopsPerSecond)));
    if (e.computesInFp8())
        addRow(hardware, tr("Peak dense FP8, the workload's"),
               QString::fromStdString(model::humanFlopsRate(e.peakDenseFp8FlopsPerSecond)));
    addRow(hardware, tr("GPU memory"), QString::fromStdString(model::humanBytes(e.gpuMemoryBytes)));
    if (!e.fabricError.empty())
        addRow(hardware,
               tr("Fabric (%1)")
                   .arg(QString::fromStdString(model::fabricTopologyTitle(e.fabric.topology))),
               tr("cannot be built: %1").arg(QString::fromStdString(e.fabricError)));
    else if (e.fabric.endpoints > 0)
        addRow(hardware,
               tr("Fabric (%1)")
                   .arg(QString::fromStdString(model::fabricTopologyTitle(e.fabric.topology))),
               QString::fromStdString(model::fabricCountsSummary(e.fabric)));
    if (!e.cablesByMedium.empty()) {
        QStringList media;
        for (const auto &[medium, count] : e.cablesByMedium)
            media << tr("%1 %2").arg(QLocale().toString(count), QString::fromStdString(medium));
        addRow(hardware, tr("Cables by medium"),
               tr("compute and storage networks: %1; longest %2 m (Data Hall tab)")
                   .arg(media.join(QStringLiteral(", ")), number(e.longestCableMeters, 1)));
    }
}

void EstimateSummaryView::addCampusRow(QTreeWidgetItem *section, const model::CampusTotals &campus)
{
    addRow(
        section, tr("Campus of %1 buildings").arg(campus.buildings),
        tr("%1 GPUs, %2 IT, %3 with the interconnect (%4 Tb/s out of each building, %5)")
                .arg(QString::fromStdString(model::groupedCount(campus.gpus)),
                     QString::fromStdString(model::humanPower(campus.itWatts)),
                     QString::fromStdString(model::humanUsd(campus.capitalUsd)),
                     QString::fromStdString(model::threeDigits(units::bytesPerSecondToTbitPerSecond(
                         campus.interconnectBytesPerSecondPerBuilding))),
                     QString::fromStdString(model::humanUsd(campus.interconnectUsd)))
            + QString::fromStdString(campus.sparesText()));
}

void EstimateSummaryView::addPowerRows(QTreeWidget *tree, const model::PlanEstimate &e)
{
    auto *powerSection = new QTreeWidgetItem(tree, {sectionTitle(tr("Power and cost"), e)});
    if (e.facilityPowerLimitWatts)
        addRow(powerSection, tr("Facility power budget"),
               tr("%1: %2").arg(human(model::humanPower(*e.facilityPowerLimitWatts)),
                                e.overPowerBudget() ? tr("exceeded") : tr("within")));
    const auto powerText = [](double watts) {
        return QString::fromStdString(model::humanPower(watts));
    };
    const QString partial = QString::fromStdString(e.partialHardwareNote());
    addRow(powerSection, tr("IT power"), powerText(e.power.itWatts()) + partial);
    addRow(powerSection, tr("  GPUs / nodes / network / storage"),
           tr("%1 / %2 / %3 / %4")
               .arg(powerText(e.power.gpusWatts), powerText(e.power.nodesWatts),
                    powerText(e.power.networkWatts), powerText(e.power.storageWatts)));
    addRow(powerSection, tr("Facility power"),
           tr("%1 at PUE %2").arg(powerText(e.power.facilityWatts()), number(e.power.pue, 2)));
    addRow(powerSection, tr("Capital cost"),
           QString::fromStdString(model::humanUsd(e.capitalCostUsd)) + partial);
    if (e.campus)
        addCampusRow(powerSection, *e.campus);
    for (const model::RackUsage &rack : e.racks)
        addRow(powerSection, tr("Racks: %1").arg(QString::fromStdString(rack.groupName)),
               tr("%1 x %2, up to %3 nodes each, a full rack %4 of %5 kW")
                   .arg(grouped(rack.racks))
                   .arg(QString::fromStdString(rack.rackName))
                   .arg(rack.nodesPerRack)
                   .arg(number(rack.wattsPerRack / units::kilo, 1),
                        number(rack.rackLimitWatts / units::kilo, 1)));
    if (e.networkCabinets > 0)
        addRow(powerSection, tr("Racks: network"),
               tr("%1 for the switches (one per row for its leaves and management switch, a "
                  "spine row; Data Hall tab)")
                   .arg(grouped(e.networkCabinets)));
    if (e.storageCabinets > 0)
        addRow(powerSection, tr("Racks: storage"),
               tr("%1 for the storage systems (in the spine row, or behind the compute rows)")
                   .arg(grouped(e.storageCabinets)));
    if (e.managementSwitches > 0)
        addRow(powerSection, tr("Management network"),
               (e.managementSwitches == 1
                    ? tr("%1 switch, %2 cables (every BMC and management port, out of band)")
                    : tr("%1 switches, %2 cables (every BMC and management port, out of band)"))
                   .arg(grouped(e.managementSwitches))
                   .arg(number(static_cast<double>(e.managementCables), 0)));
    if (e.storageCables > 0)
        addRow(powerSection, tr("Storage network"),
               e.storageSwitches > 0
                   ? tr("%1 switches of its own, %2 cables (servers' storage ports and storage "
                        "systems)")
                         .arg(number(static_cast<double>(e.storageSwitches), 0),
                              number(static_cast<double>(e.storageCables), 0))
                   : tr("%1 cables from the storage systems to free fabric leaf ports")
                         .arg(number(static_cast<double>(e.storageCables), 0)));
    if (e.pdus > 0 || e.patchPanels > 0)
        addRow(powerSection, tr("Cabinet fittings"),
               tr("%1 zero-U PDUs (A and B feeds), %2 patch panels for the fibre between rows")
                   .arg(number(static_cast<double>(e.pdus), 0),
                        number(static_cast<double>(e.patchPanels), 0)));
    if (e.overLimitRacks > 0)
        addRow(powerSection, tr("Cabinets over a limit"),
               tr("%1 (power, load, rack units or PDUs; Data Hall tab)")
                   .arg(number(static_cast<double>(e.overLimitRacks), 0)));
}

void EstimateSummaryView::addTrainingRows(QTreeWidget *tree, const model::PlanEstimate &e)
{
    const auto &training = e.training.best;
    auto *section = new QTreeWidgetItem(tree, {tr("Training")});
    if (!e.training.found) {
        addRow(section, tr("Not possible"), QString::fromStdString(e.trainingError));
    } else {
        const auto &c = training.config;
        addRow(section, tr("Layout"), QString::fromStdString(model::layoutDescription(c)));
        // Milliseconds under a second ("81.29 ms", as the CLI gives it, not "0.081 s"); a
        // millisecond's digit above it, where a failure what-if's change shows.
        addRow(section, tr("Step time"),
               training.stepSeconds < 1.0 ? tr("%1 ms").arg(number(training.stepSeconds * 1e3, 2))
                                          : tr("%1 s").arg(number(training.stepSeconds, 3)));
        // Four significant digits, as the tables: "12,898,917 tokens/s" claimed eight.
        const double scale
            = std::pow(10.0, std::floor(std::log10(std::max(1.0, training.tokensPerSecond))) - 3.0);
        addRow(section, tr("Throughput"),
               tr("%1 tokens/s")
                   .arg(number(std::max(1.0, scale)
                                   * std::round(training.tokensPerSecond / std::max(1.0, scale)),
                               0)));
        addRow(section, tr("Model / hardware TFLOP/s per GPU"),
               withReason(tr("%1 / %2").arg(
                              number(training.modelFlopsPerSecondPerGpu / units::tera, 1),
                              number(training.hardwareFlopsPerSecondPerGpu / units::tera, 1)),
                          model::hardwareBelowModelNote(training)));
        addRow(section, tr("MFU"),
               withReason(tr("%1%").arg(number(100 * training.mfu, 1)),
                          model::mfuConventionNote(training)));
        addPublishedRunsRow(section, e.trainingPublishedRuns);
        addRow(section, tr("Memory per GPU"),
               tr("%1 of %2 GiB")
                   .arg(number(training.memory.totalBytes() / units::gibi, 1),
                        number(training.memoryCapacityBytes / units::gibi, 1)));
        if (training.trainingSeconds > 0) {
            const bool expected = e.hasTrainingRun && e.trainingRun.operations.wallSeconds > 0;
            const model::OperationsEstimate &o = e.trainingRun.operations;
            addRow(section, tr("Training time"),
                   expected ? tr("%1 expected, %2 without failures, restarts and checkpoints")
                                  .arg(human(model::humanDuration(o.wallSeconds)),
                                       human(model::humanDuration(training.trainingSeconds)))
                            : tr("%1 without failures")
                                  .arg(human(model::humanDuration(training.trainingSeconds))));
            addRow(section, tr("GPU-hours"),
                   expected ? tr("%1 expected, %2 without failures")
                                  .arg(number(o.wallGpuHours, 0), number(training.gpuHours, 0))
                            : number(training.gpuHours, 0));
        }
        addRow(section, tr("Bottleneck"), QString::fromStdString(training.bottleneckExplanation));
        if (e.hasTrainingRun)
            addTrainingRunRows(section, e);
        addStepRows(section, training);
    }
}

/** The estimate set against the published runs on its GPU: compact in the row, the whole
 * statement in its tooltip. */
void EstimateSummaryView::addPublishedRunsRow(QTreeWidgetItem *section,
                                              const model::PublishedRunComparison &published)
{
    const QString full
        = tr("Published runs: %1").arg(QString::fromStdString(model::publishedRunsText(published)));
    QString value;
    if (!published.available()) {
        value = tr("None to compare with: %1").arg(QString::fromStdString(published.unavailable));
    } else if (published.runs == 1) {
        // One run: name it; its MFU and the estimator's error on it are the whole evidence.
        value = tr("1 run (%1, %2), %3, at %4% MFU; the estimator was %5 off on it")
                    .arg(QString::fromStdString(published.precisionClass),
                         QString::fromStdString(published.kind),
                         QString::fromStdString(published.fastestRun),
                         number(100 * published.highestMfu, 1),
                         signedPercent(published.estimatorError.meanSignedError, 1));
        if (published.aboveEveryRun())
            value = tr("Above it: ") + value;
    } else {
        const QString error
            = tr("%1 to %2")
                  .arg(signedPercent(published.estimatorError.lowestSignedError, 1),
                       signedPercent(published.estimatorError.highestSignedError, 1));
        value
            = tr("%1 runs (%2, %3) at %4-%5% MFU; the estimator was %6 off on them")
                  .arg(QString::number(published.runs),
                       QString::fromStdString(published.precisionClass),
                       QString::fromStdString(published.kind), number(100 * published.lowestMfu, 1),
                       number(100 * published.highestMfu, 1), error);
        if (!published.nearestRun.empty())
            value += tr("; nearest in size: %1 at %2%")
                         .arg(QString::fromStdString(published.nearestRun),
                              number(100 * published.nearestRunMfu, 1));
        if (published.aboveEveryRun())
            value = tr("Above all: ") + value;
    }
    // A stand-in's runs are another GPU's (the same tensor peaks): the label says whose.
    if (!published.standInFor.empty())
        value = tr("none on this GPU; on the %1 (the same tensor peaks): %2")
                    .arg(QString::fromStdString(published.gpuName), value);
    QTreeWidgetItem *row = addRow(section,
                                  published.standInFor.empty() ? tr("Published runs on this GPU")
                                                               : tr("Published runs"),
                                  value);
    row->setToolTip(0, full);
    row->setToolTip(1, full);
}

/** How far the serving estimator has been from the published measurements on the GPU: compact
 * in the row, the whole statement in its tooltip. */
void EstimateSummaryView::addPublishedServingRow(QTreeWidgetItem *section,
                                                 const model::PublishedServingComparison &published)
{
    const QString full = tr("Published measurements: %1")
                             .arg(QString::fromStdString(model::publishedServingText(published)));
    QString value;
    if (!published.available()) {
        value = tr("None to compare with: %1").arg(QString::fromStdString(published.unavailable));
    } else {
        const auto range = [](const model::ValidationSummary &s) {
            return s.rows == 1 ? signedPercent(s.meanSignedError, 1)
                               : tr("%1 to %2")
                                     .arg(signedPercent(s.lowestSignedError, 1),
                                          signedPercent(s.highestSignedError, 1));
        };
        QStringList parts;
        if (published.throughput.rows > 0)
            parts << tr("%1 on %2 throughputs")
                         .arg(range(published.throughput))
                         .arg(published.throughput.rows);
        if (published.latency.rows > 0)
            parts << tr("%1 on %2 latencies at a batch")
                         .arg(range(published.latency))
                         .arg(published.latency.rows);
        if (published.latencyUnderLoad.rows > 0)
            parts << tr("%1 on %2 under load")
                         .arg(range(published.latencyUnderLoad))
                         .arg(published.latencyUnderLoad.rows);
        if (published.capacityWithinLimits.rows > 0)
            parts << tr("%1 on %2 fleet capacities within latency limits")
                         .arg(range(published.capacityWithinLimits))
                         .arg(published.capacityWithinLimits.rows);
        value
            = tr("%1 weights, estimator off by %2")
                  .arg(QString::fromStdString(published.weights), parts.join(QStringLiteral("; ")));
        const QString modelName = QString::fromStdString(published.modelName);
        if (published.sameModelThroughput.rows > 0)
            value += tr(" (%1 itself: %2 on %3 throughputs)")
                         .arg(modelName, range(published.sameModelThroughput))
                         .arg(published.sameModelThroughput.rows);
        else if (published.sameModelLatency.rows > 0)
            value += tr(" (%1 itself: %2 on %3 latencies)")
                         .arg(modelName, range(published.sameModelLatency))
                         .arg(published.sameModelLatency.rows);
    }
    QTreeWidgetItem *row = addRow(section, tr("Published measurements on this GPU"), value);
    row->setToolTip(0, full);
    row->setToolTip(1, full);
}

/** Power, failures, checkpoints, goodput and the run's energy and cost. */
void EstimateSummaryView::addTrainingRunRows(QTreeWidgetItem *section, const model::PlanEstimate &e)
{
    const model::TrainingRunEstimate &run = e.trainingRun;
    const model::ReliabilityEstimate &r = run.reliability;
    addRow(section, tr("Average power"),
           tr("%1 IT, %2 facility (GPUs %3% busy)")
               .arg(human(model::humanPower(run.operations.itWatts())),
                    human(model::humanPower(run.operations.facilityWatts)),
                    number(100 * run.gpuBusyFraction, 0)));
    addRow(section, tr("Failures"),
           tr("%1 interruptions per day (job MTBF %2)")
               .arg(number(r.interruptionsPerDay, 2),
                    QString::fromStdString(model::humanWait(r.mtbfSeconds))));
    if (r.checkpointsWritable && r.asyncCheckpoints)
        addRow(section, tr("Checkpoints"),
               tr("%1, copied to host memory in %2 s (%3 per node), written in %4 in the "
                  "background, %5 to restore, every %6 (%7)")
                   .arg(human(model::humanBytes(run.checkpointBytes)),
                        number(r.checkpointBlockedSeconds, 2),
                        human(model::humanBytes(run.checkpointHostBytesPerNode)),
                        human(model::humanDuration(r.checkpointWriteSeconds)),
                        human(model::humanDuration(r.checkpointReadSeconds)),
                        human(model::humanWait(r.checkpointIntervalSeconds)),
                        QString::fromStdString(r.intervalRule)));
    else if (r.checkpointsWritable)
        addRow(section, tr("Checkpoints"),
               tr("%1, %2 to write (all nodes at once), %3 to restore, every %4 (%5)")
                   .arg(human(model::humanBytes(run.checkpointBytes)),
                        human(model::humanDuration(r.checkpointWriteSeconds)),
                        human(model::humanDuration(r.checkpointReadSeconds)),
                        human(model::humanWait(r.checkpointIntervalSeconds)),
                        QString::fromStdString(r.intervalRule)));
    else
        addRow(section, tr("Checkpoints"),
               tr("%1 cannot be written: no storage on the fabric, so every "
                  "failure restarts the run from its start")
                   .arg(human(model::humanBytes(run.checkpointBytes))));
    addRow(section, tr("Goodput"),
           r.goodput > 0 || r.checkpointsWritable
               ? withReason(tr("%1% of wall time is useful work")
                                .arg(QLocale().toString(100 * r.goodput, 'g', 3)),
                            model::lowGoodputText(r))
               : tr("none: without checkpoints the run practically never finishes"));
    addCheckpointStorageRow(section, run);
    if (run.dataPath.present)
        addDataPathRows(section, run.dataPath);
    if (run.operations.wallSeconds > 0)
        addRow(section, tr("Run energy and cost"),
               tr("%1 wall, %2, %3")
                   .arg(human(model::humanDuration(run.operations.wallSeconds)),
                        human(model::humanEnergy(run.operations.energyMegawattHours
                                                 * units::joulesPerMegawattHour)),
                        human(model::humanUsd(run.operations.costUsd))));
}

/** How much of the wall time checkpoints take, and the storage count whose checkpoints cost
 * least per useful hour when the plan has fewer (storage limits the goodput then). */
void EstimateSummaryView::addCheckpointStorageRow(QTreeWidgetItem *section,
                                                  const model::TrainingRunEstimate &run)
{
    const model::CheckpointStorageSizing &sized = run.checkpointStorage;
    if (sized.systems <= 0)
        return;
    addRow(section, tr("Checkpoint storage"),
           QString::fromStdString(model::checkpointStorageText(sized)));
}

/** The data loader's stages, first epoch and warm cache, and the stall they cause. */
void EstimateSummaryView::addDataPathRows(QTreeWidgetItem *section,
                                          const model::DataPathEstimate &path)
{
    auto *dataPath
        = addRow(section, tr("Data path"),
                 tr("%1: %2 samples/s, %3/s")
                     .arg(QString::fromStdString(path.dataset), number(path.samplesPerSecond, 0),
                          human(model::humanBytes(path.requiredReadBytesPerSecond))));
    // Demand over what each stage sustains: above 100% the stage starves the GPUs.
    for (std::size_t i = 0; i < path.firstEpoch.stages.size(); ++i) {
        const model::DataPathStage &first = path.firstEpoch.stages[i];
        const model::DataPathStage &warm = path.warm.stages[i];
        addRow(dataPath, QString::fromStdString(first.name),
               path.cacheHitRatio > 0
                   ? tr("needs %1% of its capacity in the first epoch, %2% later on average")
                         .arg(number(100 * first.utilisation(), 0),
                              number(100 * warm.utilisation(), 0))
                   : tr("needs %1% of its capacity").arg(number(100 * first.utilisation(), 0)));
    }
    addRow(dataPath, tr("CPU cores"),
           tr("%1 of %2 per node (%3 for the training processes)")
               .arg(number(path.cpuCoresNeededPerNode, 0))
               .arg(path.cpuCoresPerNode)
               .arg(path.trainingProcessesPerNode));
    dataPath->setExpanded(true);
    if (path.stallFraction <= 0) {
        addRow(section, tr("Data stall"), tr("none: every stage keeps up with the GPUs"));
        return;
    }
    auto *stall
        = addRow(section, tr("Data stall"),
                 tr("the GPUs wait for data %1% of the run (first epoch %2, later "
                    "epochs %3)")
                     .arg(number(100 * path.stallFraction, 1),
                          QString::fromStdString(model::shareText(path.firstEpoch.stallFraction)),
                          QString::fromStdString(model::shareText(path.warm.stallFraction))));
    addRow(stall, tr("Cannot keep up"),
           QString::fromStdString(model::starvingStagesText(path.worsePhase())));
    addRow(stall, tr("What to add"), QString::fromStdString(path.advice));
    stall->setExpanded(true);
}

/** The step by cause and by operation (train --explain). */
void EstimateSummaryView::addStepRows(QTreeWidgetItem *section,
                                      const model::TrainingEstimate &training)
{
    auto *breakdown = addRow(section, tr("Step breakdown"), QString());
    const model::StepBreakdown &b = training.breakdown;
    std::vector<std::pair<QString, double>> parts = {
        {tr("Compute"), b.computeSeconds},
        {tr("Memory-bound kernels"), b.memoryBoundSeconds},
        {tr("Tensor-parallel comm"), b.tpCommSeconds},
        {tr("Context-parallel comm"), b.cpCommSeconds},
        {tr("Expert-parallel comm"), b.epCommSeconds},
        {tr("Pipeline p2p"), b.ppCommSeconds},
        {tr("Pipeline bubble"), b.bubbleSeconds},
        {tr("Data-parallel comm (exposed)"), b.dpCommExposedSeconds},
        {tr("Optimizer"), b.optimizerSeconds},
    };
    if (training.offloadsActivations())
        parts.emplace_back(tr("Activation copies to the host (exposed)"), b.hostOffloadSeconds);
    for (const auto &[name, seconds] : parts)
        addRow(breakdown, name,
               tr("%1 s (%2%)")
                   .arg(number(seconds, 3), number(100 * seconds / training.stepSeconds, 1)));
    // Where every millisecond comes from: the operations of the step (train --explain).
    auto *operations = addRow(section, tr("Operations of one step"),
                              tr("%1 on the busiest stage").arg(training.operations.count));
    for (const model::StepOperation &op : training.operations) {
        QString detail = tr("%1 ms (%2%)")
                             .arg(number(op.seconds * 1e3, 1),
                                  number(100 * op.seconds / training.stepSeconds, 1));
        if (op.hiddenSeconds > 0)
            detail += tr(", %1 ms hidden").arg(number(op.hiddenSeconds * 1e3, 1));
        addRow(operations, QString::fromLatin1(op.name), detail);
    }
}

void EstimateSummaryView::addInferenceRows(QTreeWidget *tree, const model::PlanEstimate &e)
{
    const model::InferenceEstimate &inf = e.inference;
    auto *section = new QTreeWidgetItem(tree, {tr("Inference")});
    if (!inf.fits || !inf.meetsTargets)
        addRow(section, tr("Not possible"), QString::fromStdString(inf.reason));
    const bool engineHolds = inf.engineHoldsBatch();
    addRow(section, tr("Replica"),
           engineHolds ? tr("%1, batch %2 (at most %3 by the engine; %4 fit in memory)")
                             .arg(gpuCount(inf.gpusPerReplica))
                             .arg(inf.batch)
                             .arg(inf.maxBatch)
                             .arg(inf.memoryBatchLimit)
                       : tr("%1, batch %2 (at most %3 by memory)")
                             .arg(gpuCount(inf.gpusPerReplica))
                             .arg(inf.batch)
                             .arg(inf.memoryBatchLimit));
    addRow(
        section, tr("Memory per GPU"),
        tr("%1 of %2 GiB (weights %3, KV cache %4, activations %5, engine reserve %6)")
            .arg(number(inf.memoryBytesPerGpu / units::gibi, 1),
                 number(inf.memoryCapacityBytes / units::gibi, 1),
                 number(inf.weightsBytesPerGpu / units::gibi, 1),
                 number(inf.kvBytesPerGpu / units::gibi, 1),
                 // A few MiB of activations read "0.0"; three digits say how small.
                 QString::fromStdString(model::threeDigits(inf.workspaceBytesPerGpu / units::gibi)),
                 number(inf.reserveBytesPerGpu / units::gibi, 1)));
    if (!inf.fits) {
        // A replica that cannot hold the workload serves nothing: no times, fleet or cost.
        addPublishedServingRow(section, e.inferencePublishedRuns); // "Not possible" says why
        return;
    }
    // In an offline job every request waits for the waves before its own: its first token
    // comes this long after its wave starts, not after it was queued.
    if (!inf.hasFleet())
        addRow(section, tr("TTFT (batch 1, unloaded)"),
               tr("%1 ms").arg(number(inf.ttftSeconds * 1e3, 1)));
    else if (inf.overloaded())
        addRow(section, tr("TTFT"),
               tr("unbounded: the queue grows, as the load is more than the "
                  "fleet serves"));
    else if (inf.offlineJob)
        addRow(section, tr("TTFT once its wave starts"),
               tr("%1 ms").arg(number(inf.ttftSeconds * 1e3, 1)));
    else
        addRow(section, tr("TTFT p50 / p95 / p99"),
               withReason(tr("%1 / %2 / %3 ms")
                              .arg(number(inf.ttftP50Seconds * 1e3, 1),
                                   number(inf.ttftSeconds * 1e3, 1),
                                   number(inf.ttftP99Seconds * 1e3, 1)),
                          model::ttftTailText(inf)));
    // What no engine beats on this replica (ServingFloor): how far above it the estimate lies.
    if (const std::string floor = model::servingFloorText(inf); !floor.empty())
        addRow(section, tr("Floor (no engine is faster)"), QString::fromStdString(floor));
    addRow(section, tr("Time per output token"),
           inf.tpotP95Seconds > 0
               ? tr("%1 ms on average, %2 ms at the 95th percentile of sequences in flight")
                     .arg(number(inf.tpotSeconds * 1e3, 2), number(inf.tpotP95Seconds * 1e3, 2))
               : tr("%1 ms").arg(number(inf.tpotSeconds * 1e3, 2)));
    addRow(section, tr("Throughput per GPU"),
           tr("%1 output tokens/s").arg(number(inf.outputTokensPerSecondPerGpu, 0)));
    addPublishedServingRow(section, e.inferencePublishedRuns);
    if (inf.offlineJob)
        addRow(section, tr("Offline job"), offlineJobSummary(inf));
    const bool fixedFleet = inf.fixedFleet;
    const long long fleetGpus = inf.fleetGpus();
    if (!inf.hasFleet()) {
        // The replica's best falls short: no fleet is sized or priced for the load.
        addRow(section, tr("Replicas needed"), tr("none: no fleet meets the targets"));
        return; // "Not possible" says why
    }
    addRow(section,
           fixedFleet           ? tr("Replicas (fixed)")
               : inf.offlineJob ? tr("Replicas")
                                : tr("Replicas needed"),
           fleetGpus == 1 ? tr("%1 (1 GPU)").arg(QLocale().toString(inf.replicas))
                          : tr("%1 (%2 GPUs)")
                                .arg(QLocale().toString(inf.replicas),
                                     QLocale().toString(static_cast<qlonglong>(fleetGpus))));
    // A fixed fleet with no rate: the most it serves within the targets (the figures above are
    // at that load).
    if (inf.capacityWithinLimits)
        addRow(section, tr("Capacity within the targets"),
               QString::fromStdString(model::capacityWithinLimitsText(inf)));
    if (inf.inFlightSequences > 0)
        addRow(section, tr("In flight under the load"),
               tr("%1 sequences per replica on average; the load is %2% of the requests a "
                  "replica serves at its largest batch")
                   .arg(number(inf.inFlightSequences, 1), number(100 * inf.utilisation, 0)));
    addRow(section, tr("Cost per million output tokens"),
           tr("%1 USD (the decode's share of the cost; with the prompts' share %2 USD)")
               .arg(number(inf.costPerMillionOutputTokensUsd, 3),
                    number(inf.costPerMillionOutputTokensAllInUsd, 3)));
    if (e.servingUse && e.servingUse->idleGpus() > 0)
        addRow(section, tr("  over every GPU of the plan"),
               tr("%1 USD (%2 of the plan's %3 GPUs idle)")
                   .arg(number(e.servingUse->costPerMillionOutputTokensAllGpusUsd, 3),
                        QLocale().toString(e.servingUse->idleGpus()),
                        QLocale().toString(e.servingUse->planGpus)));
    addRow(section, tr("Cost per million input tokens"),
           tr("%1 USD").arg(number(inf.costPerMillionInputTokensUsd, 3)));
    addRow(section, tr("Bottleneck"), QString::fromStdString(inf.bottleneckExplanation));
    // Where the milliseconds of a prompt and of a decode step go (infer --explain).
    const auto addOperations = [&](const QString &title, const model::StepOperations &ops) {
        double total = 0;
        for (const model::StepOperation &op : ops)
            total += op.seconds;
        auto *parent
            = addRow(section, title, tr("%1 ms per pipeline stage").arg(number(total * 1e3, 2)));
        for (const model::StepOperation &op : ops)
            addRow(parent, QString::fromLatin1(op.name),
                   tr("%1 ms (%2%)")
                       .arg(number(op.seconds * 1e3, 3),
                            number(total > 0 ? 100 * op.seconds / total : 0, 1)));
    };
    const std::string chunks = model::chunkedPrefillText(inf);
    addOperations(
        chunks.empty()
            ? tr("Operations of one prompt's prefill")
            : tr("Operations of one prompt's prefill (%1)").arg(QString::fromStdString(chunks)),
        inf.prefillOperations);
    addOperations(tr("Operations of one decode step"), inf.decodeOperations);
    addAutoscalingRows(section, e);
}

void EstimateSummaryView::addAutoscalingRows(QTreeWidgetItem *section, const model::PlanEstimate &e)
{
    if (e.autoscaling && e.autoscaling->feasible) {
        const model::AutoscalingEstimate &a = *e.autoscaling;
        const auto [low, high] = std::minmax_element(a.replicas.begin(), a.replicas.end());
        addRow(section, tr("Autoscaled day (diurnal traffic)"),
               tr("%1 to %2 replicas, %3 replica-hours against %4 static: %5% saved")
                   .arg(*low)
                   .arg(*high)
                   .arg(number(a.replicaHoursPerDay, 0), number(a.staticReplicaHoursPerDay, 0),
                        number(100 * a.savingFraction, 1)));
        addRow(section, tr("Cost per day, autoscaled / static"),
               tr("%1 / %2 USD").arg(number(a.usdPerDay, 0), number(a.staticUsdPerDay, 0)));
        if (!a.note.empty())
            addRow(section, tr("  note"), QString::fromStdString(a.note));
    } else if (e.autoscaling) {
        addRow(section, tr("Autoscaling"), QString::fromStdString(e.autoscaling->reason));
    }
}

QTreeWidgetItem *EstimateSummaryView::addBillAndWarnings(QTreeWidget *tree,
                                                         const model::PlanEstimate &e)
{
    auto *bom = new QTreeWidgetItem(tree, {tr("Bill of materials")});
    for (const model::BillOfMaterialsLine &line : e.billOfMaterials)
        addRow(bom, QString::fromStdString(line.name),
               tr("%1 x %2 USD = %3 USD")
                   .arg(line.count)
                   .arg(number(line.unitPriceUsd, 0), number(line.totalUsd(), 0)));
    if (!e.warnings.empty()) {
        // First in the panel: an impossible or over-limit design is the first thing to read,
        // not a row under the bill of materials.
        auto *warnings = new QTreeWidgetItem({tr("Warnings")});
        tree->insertTopLevelItem(0, warnings);
        for (const std::string &warning : e.warnings)
            addRow(warnings, tr("Warning"), QString::fromStdString(warning));
    }
    return bom;
}

} // namespace cp::views
