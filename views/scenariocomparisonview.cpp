// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenariocomparisonview.h"

#include "compactchartview.h"
#include "comparisoncharts.h"
#include "humannumbers.h"
#include "operationcomparisontable.h"

#include <QChart>
#include <QChartView>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cp::views {

namespace {

bool hasParetoFront(const model::ScenarioComparison &comparison)
{
    return std::any_of(comparison.paretoPoints.begin(), comparison.paretoPoints.end(),
                       [](const auto &point) { return point.has_value(); });
}

/** " Step time ... are not ranked: ..." for the status line; empty when every row is ranked. */
QString notRankedText(const std::vector<model::ComparisonRow> &rows)
{
    QString text;
    for (const std::string &note : model::notRankedNotes(rows))
        text += QLatin1Char(' ') + QString::fromStdString(note);
    return text;
}

} // namespace

ScenarioComparisonView::ScenarioComparisonView(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_table(new QTableWidget(this))
    , m_charts(new QTabWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_status->setWordWrap(true);
    bar->addWidget(m_status, 1);
    bar->addWidget(m_progress);
    bar->addWidget(m_cancel);
    layout->addLayout(bar);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_charts);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({560, 520}); // until a table is in; then fitSplitterToTable()
    layout->addWidget(m_splitter, 1);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectColumns);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_progress->setMaximumWidth(160);
    m_progress->hide();
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, &ScenarioComparisonView::cancelRequested);
    connect(m_table->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int column) {
        // Column 0 is the unit, 1 the baseline (-1), then the scenarios.
        if (column >= 1)
            emit scenarioActivated(column - 2);
    });
    m_status->setText(tr("Add scenarios (Scenarios > Duplicate or Sweep) to compare them with "
                         "the baseline."));
}

QString ScenarioComparisonView::status() const
{
    return m_status->text();
}

void ScenarioComparisonView::showPending(int done, int total)
{
    m_current = false;
    m_table->setEnabled(false);
    m_charts->setEnabled(false);
    m_status->setText(tr("Comparing scenarios… (figures below are out of date)"));
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
    m_progress->show();
    m_cancel->show();
}

void ScenarioComparisonView::showError(const QString &message)
{
    m_current = false;
    m_progress->hide();
    m_cancel->hide();
    m_status->setText(tr("Cannot compare: %1").arg(message));
}

void ScenarioComparisonView::showCancelled()
{
    m_current = false;
    m_progress->hide();
    m_cancel->hide();
    m_status->setText(tr("Comparison cancelled; the figures below are out of date. Edit the plan "
                         "or use View > Compare Now to run it again."));
}

void ScenarioComparisonView::markStale()
{
    if (!m_current)
        return;
    m_current = false;
    m_table->setEnabled(false);
    m_charts->setEnabled(false);
    m_status->setText(tr("The plan changed: these figures are out of date until the comparison "
                         "runs again (it does while this panel is shown; F5 runs it now)."));
}

void ScenarioComparisonView::showComparison(const model::ScenarioComparison &comparison)
{
    m_comparison = comparison;
    m_current = true;
    m_progress->hide();
    m_cancel->hide();
    m_table->setEnabled(true);
    m_charts->setEnabled(true);
    const int dominated = static_cast<int>(
        std::count(comparison.dominated.begin(), comparison.dominated.end(), true));
    const int count = static_cast<int>(comparison.scenarios.size());
    // A plan with no training time or serving cost (a portfolio alone) has no front at all.
    const QString front = hasParetoFront(comparison)
        ? tr("%1 on the cost/time Pareto front.").arg(count - dominated)
        : QString();
    m_status->setText(
        (count == 1 ? tr("The baseline alone (Duplicate it or Sweep an axis to compare what-ifs)")
                    : tr("%1 variants compared").arg(count))
        + tr("; ★ marks the best of each row (none where two tie within 1%), tinted rows differ.")
        + QLatin1Char(' ') + front + notRankedText(comparison.rows));
    if (m_highlight >= static_cast<int>(comparison.scenarios.size()))
        m_highlight = 0;
    rebuildTable();
    rebuildCharts();
}

void ScenarioComparisonView::setHighlight(int index)
{
    if (index == m_highlight)
        return;
    m_highlight = index;
    if (m_current) {
        rebuildTable();
        rebuildCharts();
    }
}

void ScenarioComparisonView::rebuildTable()
{
    const auto &scenarios = m_comparison.scenarios;
    const auto &rows = m_comparison.rows;
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(scenarios.size()) + 1);
    m_table->setRowCount(static_cast<int>(rows.size()));
    QStringList headers = {tr("Unit")};
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
        QString name = QString::fromStdString(scenarios[i].name);
        if (static_cast<int>(i) == m_highlight)
            name.prepend(QStringLiteral("▶ "));
        if (m_comparison.dominatedOnPlane(i))
            name += tr(" (dominated)");
        headers << name;
    }
    // Scenario columns are at most 150 pixels wide (below): their names wrap onto lines that
    // fit, rather than being cut at both ends, and the whole name is the tooltip.
    const QFontMetrics metrics(m_table->horizontalHeader()->font());
    for (int c = 0; c < headers.size(); ++c) {
        auto *item
            = new QTableWidgetItem(c == 0 ? headers[c] : wrappedToWidth(headers[c], metrics, 140));
        item->setToolTip(headers[c]);
        m_table->setHorizontalHeaderItem(c, item);
    }
    const QFontMetrics labelMetrics(m_table->verticalHeader()->font());
    const QColor differs(0xff, 0xf6, 0xd5);
    const QColor best(0xd4, 0xf5, 0xd4);
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const model::ComparisonRow row = model::inReadableUnit(rows[static_cast<std::size_t>(r)]);
        // The label alone keeps the header narrow; rows are grouped by section, which the
        // tooltip names.
        // Names wrap onto lines of 170 pixels ("Saving against static provisioning" on two),
        // so that their column leaves a third scenario room beside the charts at 1366 pixels.
        auto *label = new QTableWidgetItem(
            wrappedToWidth(QString::fromStdString(row.label), labelMetrics, 170));
        label->setData(Qt::UserRole, QString::fromStdString(row.label)); // whole, on one line
        QString why = QString::fromStdString(row.section + ": " + row.label);
        if (!row.notRankedBecause.empty())
            why += tr("\nNot ranked: %1.").arg(QString::fromStdString(row.notRankedBecause));
        label->setToolTip(why);
        m_table->setVerticalHeaderItem(r, label);
        m_table->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(row.unit)));
        const bool tinted = differsAsShown(row);
        for (int c = 0; c < static_cast<int>(row.values.size()); ++c) {
            QString text;
            if (row.isText())
                text = QString::fromStdString(row.text[static_cast<std::size_t>(c)]);
            else if (const auto &v = row.values[static_cast<std::size_t>(c)])
                text = QString::fromUtf8(row.boundPrefix(static_cast<std::size_t>(c)))
                    + comparisonNumber(*v, row.unit);
            else
                text = QStringLiteral("—");
            if (c == row.bestIndex)
                text.prepend(QStringLiteral("★ "));
            auto *item = new QTableWidgetItem(text);
            // A cut cell (the warnings) shows its whole text on hover.
            item->setToolTip(
                row.isText() ? QString::fromStdString(row.wholeText(static_cast<std::size_t>(c)))
                             : text);
            if (!row.isText())
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == row.bestIndex) {
                item->setBackground(best);
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
            } else if (tinted) {
                item->setBackground(differs);
            }
            m_table->setItem(r, c + 1, item);
        }
    }
    m_table->resizeColumnsToContents();
    // Narrow scenario columns with wrapped text, so a baseline and three scenarios fit beside
    // the charts on a 1366-pixel screen.
    for (int c = 1; c < m_table->columnCount(); ++c)
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 150));
    m_table->setWordWrap(true);
    m_table->resizeRowsToContents();
    // A scenario's list of changes can run to a dozen wrapped lines and push every figure out of
    // a 768-pixel screen: four lines show, the cell's tooltip holds the rest.
    const int fourLines = 4 * m_table->fontMetrics().lineSpacing() + 8;
    for (int r = 0; r < static_cast<int>(rows.size()); ++r)
        if (rows[static_cast<std::size_t>(r)].key == "changes" && m_table->rowHeight(r) > fourLines)
            m_table->setRowHeight(r, fourLines);
    fitSplitterToTable();
}

void ScenarioComparisonView::fitSplitterToTable()
{
    int needed = m_table->verticalHeader()->sizeHint().width() + 2 * m_table->frameWidth()
        + m_table->verticalScrollBar()->sizeHint().width() + 4; // the grid line
    for (int c = 0; c < m_table->columnCount(); ++c)
        needed += m_table->columnWidth(c);
    const int total = std::max(1, m_splitter->width());
    // The table gets what it needs while the charts keep at least 45% to stay readable.
    const int table = std::min(needed, static_cast<int>(total * 0.55));
    m_splitter->setSizes({table, total - table});
}

void ScenarioComparisonView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_table->columnCount() > 0)
        fitSplitterToTable();
}

void ScenarioComparisonView::rebuildCharts()
{
    const int current = m_charts->currentIndex();
    while (m_charts->count() > 0) {
        QWidget *page = m_charts->widget(0);
        m_charts->removeTab(0);
        delete page;
    }
    for (QChart *chart : comparisonCharts(m_comparison, m_highlight)) {
        // A short dock (1366 x 768) gives the plot the title's and the margins' room.
        auto *view = new CompactChartView(chart);
        // Short tab names, so that every tab shows at 1366 pixels; the chart's own title, and
        // the tab's tooltip, say it in full.
        const QString title = chart->title();
        static const QList<QPair<QString, QString>> shortNames = {
            {QStringLiteral("Step time"), tr("Step time")},
            {QStringLiteral("Wall time"), tr("Time and cost")},
            {QStringLiteral("Cost per million"), tr("Cost and TTFT")},
            {QStringLiteral("Facility power"), tr("Power")},
            {QStringLiteral("Scaling"), tr("Scaling")},
            {QStringLiteral("Queue waits"), tr("Queue waits")},
            {QStringLiteral("GPUs busy"), tr("GPUs busy")},
            {QStringLiteral("Pareto front"), tr("Pareto front")},
        };
        QString name = title.section(QLatin1Char(':'), 0, 0);
        for (const auto &[prefix, shortName] : shortNames)
            if (title.startsWith(prefix))
                name = shortName;
        QWidget *page = view;
        // A count that trains slower than a smaller one is explained under the curve.
        if (title.startsWith(QStringLiteral("Scaling")) && !m_comparison.scalingNotes.empty()) {
            page = new QWidget;
            auto *column = new QVBoxLayout(page);
            column->setContentsMargins(0, 0, 0, 0);
            column->addWidget(view, 1);
            QStringList notes;
            for (const std::string &note : m_comparison.scalingNotes)
                notes << QString::fromStdString(note);
            auto *label = new QLabel(notes.join(QLatin1Char('\n')));
            label->setObjectName(QStringLiteral("scalingNotes"));
            label->setWordWrap(true);
            label->setContentsMargins(8, 4, 8, 6); // off the tab's border
            label->setTextInteractionFlags(Qt::TextSelectableByMouse);
            column->addWidget(label);
        }
        const int tab = m_charts->addTab(page, name);
        m_charts->setTabToolTip(
            tab, QString(title).replace(QStringLiteral("<br>"), QStringLiteral(" ")));
    }
    if (!m_comparison.operations.empty()) {
        // The operations behind the step time, TTFT and TPOT rows, scenario by scenario.
        auto *operations = new OperationComparisonTable;
        QStringList names;
        for (const model::ScenarioResult &scenario : m_comparison.scenarios)
            names << QString::fromStdString(scenario.name);
        operations->setRows(m_comparison.operations, names, m_highlight);
        m_charts->addTab(operations, tr("Where the time goes"));
    }
    if (current >= 0 && current < m_charts->count())
        m_charts->setCurrentIndex(current);
}

} // namespace cp::views
