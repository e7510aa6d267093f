// SPDX-License-Identifier: GPL-3.0-or-later
#include "queuesimulationdialog.h"

#include "queuecharts.h"

#include "model/catalog/catalog.h"
#include "model/core/humantext.h"
#include "model/planning/simulationsummary.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace cp::views {

namespace {

constexpr double secondsPerYear = 365.0 * 86400.0;

/** `firstNumberColumn` and the columns after it hold numbers: right-aligned, as in a
 * spreadsheet; the columns before are words. */
QTableWidget *newTable(const QStringList &headers, int firstNumberColumn)
{
    auto *table = new QTableWidget(0, static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setProperty("firstNumberColumn", firstNumberColumn);
    table->verticalHeader()->hide();
    // Rows as tall as a line of text: the summary's nine figures fit without scrolling.
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(firstNumberColumn >= headers.size());
    return table;
}

void addRow(QTableWidget *table, const std::vector<std::string> &cells)
{
    const int row = table->rowCount();
    const int firstNumberColumn = table->property("firstNumberColumn").toInt();
    table->insertRow(row);
    for (std::size_t column = 0; column < cells.size(); ++column) {
        auto *item = new QTableWidgetItem(QString::fromStdString(cells[column]));
        if (static_cast<int>(column) >= firstNumberColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, static_cast<int>(column), item);
    }
}

/** No taller than its rows (and room for a horizontal scroll bar): the figures above get the
 * rest of the height. */
void fitHeightToRows(QTableWidget *table)
{
    int height = table->horizontalHeader()->height() + 2 * table->frameWidth()
        + table->horizontalScrollBar()->sizeHint().height();
    for (int row = 0; row < table->rowCount(); ++row)
        height += table->rowHeight(row);
    table->setMaximumHeight(height);
}

/** A chart view that owns `chart`, or a line saying there is nothing to draw. */
QWidget *chartOrNote(QChart *chart, const QString &note)
{
    if (!chart)
        return new QLabel(note);
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

} // namespace

QueueSimulationDialog::QueueSimulationDialog(model::Plan plan,
                                             std::shared_ptr<const model::Catalog> catalog,
                                             QWidget *parent)
    : QDialog(parent)
    , m_plan(std::move(plan))
    , m_catalog(std::move(catalog))
{
    setWindowTitle(tr("Queue Simulation — %1").arg(QString::fromStdString(m_plan.name)));
    buildLayout();
    connect(&m_watcher, &QFutureWatcher<model::PortfolioSimulation>::finished, this,
            &QueueSimulationDialog::showResult);
}

QueueSimulationDialog::~QueueSimulationDialog()
{
    cancel();
    m_watcher.waitForFinished();
}

void QueueSimulationDialog::buildLayout()
{
    m_years = new QDoubleSpinBox;
    m_years->setRange(0.01, 10);
    m_years->setDecimals(2);
    m_years->setSingleStep(0.25);
    m_years->setValue(1);
    m_years->setSuffix(tr(" years"));
    m_seed = new QSpinBox;
    m_seed->setRange(1, 1000000);
    m_seed->setToolTip(tr("The same seed gives the same run"));
    m_run = new QPushButton(tr("Simulate"));
    m_run->setDefault(true);
    m_stop = new QPushButton(tr("Cancel"));
    m_stop->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &QueueSimulationDialog::simulate);
    connect(m_stop, &QPushButton::clicked, this, &QueueSimulationDialog::cancel);
    auto *settings = new QHBoxLayout;
    auto *form = new QFormLayout;
    form->addRow(tr("Simulated period:"), m_years);
    form->addRow(tr("Seed:"), m_seed);
    settings->addLayout(form);
    settings->addStretch();
    settings->addWidget(m_run);
    settings->addWidget(m_stop);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_figures = newTable({tr("Figure"), tr("Value")}, 2);
    m_classes
        = newTable({tr("Class"), tr("Runs in"), tr("Submitted"), tr("Started"), tr("Mean wait"),
                    tr("p50"), tr("p95"), tr("p99"), tr("Scattered (re)starts"), tr("Held by limit")},
                   2);
    m_services
        = newTable({tr("Service"), tr("Replica-hours asked"), tr("Served"), tr("Attained")}, 1);
    auto *summary = new QWidget;
    auto *summaryLayout = new QVBoxLayout(summary);
    m_classes->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    m_services->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    summaryLayout->addWidget(m_figures, 1);
    summaryLayout->addWidget(m_classes);
    summaryLayout->addWidget(m_services);
    m_tabs = new QTabWidget;
    m_tabs->addTab(summary, tr("Summary"));
    m_tabs->addTab(new QLabel(tr("Simulate to see the GPUs busy day by day.")), tr("GPUs busy"));
    m_tabs->addTab(new QLabel(tr("Simulate to see each class's waits.")), tr("Queue waits"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(settings);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
}

void QueueSimulationDialog::simulate()
{
    if (isRunning())
        return;
    model::SimulationOptions options;
    options.horizonSeconds = m_years->value() * secondsPerYear;
    options.seed = static_cast<std::uint64_t>(m_seed->value());
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_run->setEnabled(false);
    m_stop->setEnabled(true);
    m_progress->setValue(0);
    m_status->setText(
        tr("Simulating %1 of %2…").arg(m_years->text(), QString::fromStdString(m_plan.name)));
    // The worker gets copies and the cancel flag's own reference: nothing of the dialog but the
    // queued progress calls, which Qt drops once the dialog is gone (it waits for the worker
    // first anyway).
    m_watcher.setFuture(QtConcurrent::run(
        [this, plan = m_plan, catalog = m_catalog, cancelFlag = m_cancel, options] {
            const auto progress = [this](double fraction) {
                QMetaObject::invokeMethod(
                    this, [this, fraction] { setProgress(fraction); }, Qt::QueuedConnection);
            };
            return model::simulatePlanPortfolio(plan, *catalog, options, {}, progress,
                                                cancelFlag.get());
        }));
}

void QueueSimulationDialog::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void QueueSimulationDialog::waitForResult()
{
    m_watcher.waitForFinished();
    QCoreApplication::sendPostedEvents(&m_watcher);
    QCoreApplication::sendPostedEvents(this);
}

void QueueSimulationDialog::setProgress(double fraction)
{
    if (isRunning())
        m_progress->setValue(static_cast<int>(std::lround(100 * fraction)));
}

void QueueSimulationDialog::showResult()
{
    m_run->setEnabled(true);
    m_stop->setEnabled(false);
    const bool cancelled = m_cancel && m_cancel->load();
    if (cancelled) {
        m_status->setText(tr("Cancelled at %1% of the period; the tables show the last whole "
                             "run, if any.")
                              .arg(m_progress->value()));
        return;
    }
    m_last = std::make_unique<model::PortfolioSimulation>(m_watcher.result());
    m_figures->setRowCount(0);
    m_classes->setRowCount(0);
    m_services->setRowCount(0);
    if (!m_last->ok()) {
        m_progress->setValue(0);
        m_status->setText(tr("Nothing simulated: %1").arg(QString::fromStdString(m_last->error)));
        return;
    }
    m_progress->setValue(100);
    const model::SimulationResult &result = m_last->result;
    const long long gpus = m_last->cluster.totalGpus();
    m_status->setText(
        tr("%1 of %2 GPUs in %3 servers, %4 under each leaf (leaves %5:1 down:up); %6 events.")
            .arg(m_years->text(), QString::fromStdString(model::groupedCount(gpus)),
                 QString::fromStdString(model::groupedCount(
                     static_cast<long long>(m_last->cluster.gpusPerServer.size()))))
            .arg(m_last->cluster.serversPerLeaf)
            .arg(m_last->cluster.leafDownUpRatio, 0, 'g', 3)
            .arg(QString::fromStdString(model::groupedCount(result.events))));
    for (const model::SimulationFigure &figure : model::runtimeEstimateFigures(*m_last))
        addRow(m_figures, {figure.figure, figure.value});
    fillFigures(result);
    fillClasses(result);
    fillServices(result);
    fillCharts(result);
}

void QueueSimulationDialog::fillFigures(const model::SimulationResult &result)
{
    for (const model::SimulationFigure &figure : model::simulationFigures(result))
        addRow(m_figures, {figure.figure, figure.value});
}

void QueueSimulationDialog::fillClasses(const model::SimulationResult &result)
{
    for (const model::ClassWaitRow &row : model::classWaitRows(result, m_plan.portfolio))
        addRow(m_classes,
               {row.name, row.runsIn, row.submitted, row.started, row.meanWait, row.waitP50,
                row.waitP95, row.waitP99, row.scatteredStarts, row.heldByLimit});
    fitHeightToRows(m_classes);
}

void QueueSimulationDialog::fillServices(const model::SimulationResult &result)
{
    m_services->setVisible(!result.services.empty());
    for (const model::ServiceRow &row : model::serviceRows(result))
        addRow(m_services,
               {row.name, row.demandedReplicaHours, row.servedReplicaHours, row.attainment});
    fitHeightToRows(m_services);
}

void QueueSimulationDialog::fillCharts(const model::SimulationResult &result)
{
    const int current = m_tabs->currentIndex();
    for (int tab = m_tabs->count() - 1; tab >= 1; --tab) {
        QWidget *old = m_tabs->widget(tab);
        m_tabs->removeTab(tab);
        delete old;
    }
    m_tabs->addTab(chartOrNote(queueBusyChart(result), tr("No day was simulated.")),
                   tr("GPUs busy"));
    m_tabs->addTab(chartOrNote(queueWaitPercentileChart(result), tr("No job started.")),
                   tr("Queue waits"));
    m_tabs->setCurrentIndex(current);
}

} // namespace cp::views
