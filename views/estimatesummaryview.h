// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/planning/planestimate.h"

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace cp::views {

class StepBreakdownBar;

/**
 * Shows a plan's estimate: hardware totals, power, cost, the training estimate with its step
 * breakdown and bottleneck, the bill of materials and warnings. Every number comes from
 * model::PlanEstimate; the widget only formats.
 */
class EstimateSummaryView : public QWidget
{
    Q_OBJECT

public:
    explicit EstimateSummaryView(QWidget *parent = nullptr);

    void showEstimate(const model::PlanEstimate &estimate);
    /** Marks the shown figures as out of date while a new estimate runs. */
    void showPending(const QString &message);
    void showError(const QString &message);
    /**
     * The plan's job portfolio through its scheduler, which the scenario comparison simulates:
     * `text` is its summary (portfolioSummaryText) or, while it runs, what is under way. A
     * section of its own, before the bill of materials; an empty text removes it.
     */
    void showQueue(const QString &text);

    QTreeWidget *tree() const { return m_tree; }
    /** The headline and, under it, the one-sentence diagnosis of the bottleneck. */
    QString headline() const;
    QString diagnosis() const;
    StepBreakdownBar *stepBar() const { return m_stepBar; }

private:
    void showDiagnosis(const model::PlanEstimate &estimate);
    void showHeadline(const model::PlanEstimate &estimate);
    static void addHardwareRows(QTreeWidget *tree, const model::PlanEstimate &estimate);
    static void addPowerRows(QTreeWidget *tree, const model::PlanEstimate &estimate);
    static void addCampusRow(QTreeWidgetItem *section, const model::CampusTotals &campus);
    static void addTrainingRows(QTreeWidget *tree, const model::PlanEstimate &estimate);
    static void addTrainingRunRows(QTreeWidgetItem *section, const model::PlanEstimate &estimate);
    static void addPublishedRunsRow(QTreeWidgetItem *section,
                                    const model::PublishedRunComparison &published);
    static void addPublishedServingRow(QTreeWidgetItem *section,
                                       const model::PublishedServingComparison &published);
    static void addDataPathRows(QTreeWidgetItem *section, const model::DataPathEstimate &path);
    static void addCheckpointStorageRow(QTreeWidgetItem *section,
                                        const model::TrainingRunEstimate &run);
    static void addStepRows(QTreeWidgetItem *section, const model::TrainingEstimate &training);
    static void addInferenceRows(QTreeWidget *tree, const model::PlanEstimate &estimate);
    static void addAutoscalingRows(QTreeWidgetItem *section, const model::PlanEstimate &estimate);
    /** The bill of materials (returned: shown collapsed) and the warnings. */
    static QTreeWidgetItem *addBillAndWarnings(QTreeWidget *tree, const model::PlanEstimate &e);

    QLabel *m_headline = nullptr;
    QLabel *m_diagnosis = nullptr;
    StepBreakdownBar *m_stepBar = nullptr;
    QTreeWidget *m_tree = nullptr;
};

} // namespace cp::views
