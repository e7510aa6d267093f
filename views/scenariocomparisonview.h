// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/planning/scenariocomparison.h"

#include <QWidget>

class QChartView;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QSplitter;
class QTableWidget;

namespace cp::views {

/**
 * Scenarios side by side: a table of every figure (rows that differ tinted, the best value of
 * each row marked ★ on green) and the comparison charts in tabs. It shows what the
 * ComparisonController computed and keeps nothing else; while a new comparison runs it says so
 * and shows its progress with a Cancel button, and the old figures are greyed out as stale.
 */
class ScenarioComparisonView : public QWidget
{
    Q_OBJECT

public:
    explicit ScenarioComparisonView(QWidget *parent = nullptr);

    void showPending(int done, int total);
    void showComparison(const model::ScenarioComparison &comparison);
    void showError(const QString &message);
    void showCancelled();
    /** The plan changed: the figures shown are no longer current (greyed, and said so). */
    void markStale();
    /** Marks scenario `index` (0 = baseline) in the charts and the table. */
    void setHighlight(int index);

    const model::ScenarioComparison &comparison() const { return m_comparison; }
    bool isCurrent() const { return m_current; }
    QTableWidget *table() const { return m_table; }
    QTabWidget *chartTabs() const { return m_charts; }
    QString status() const;

signals:
    void cancelRequested();
    /** The user picked a scenario's column: -1 the baseline, else the scenario's index. */
    void scenarioActivated(int scenarioIndex);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitSplitterToTable();
    void rebuildTable();
    void rebuildCharts();

    QLabel *m_status;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QTableWidget *m_table;
    QSplitter *m_splitter = nullptr;
    QTabWidget *m_charts;
    model::ScenarioComparison m_comparison;
    int m_highlight = 0;
    bool m_current = false;
};

} // namespace cp::views
