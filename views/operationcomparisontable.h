// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/planning/operationcomparison.h"

#include <QTableWidget>

namespace cp::views {

/**
 * Where each scenario's time goes, operation by operation, side by side (compareOperations):
 * one column a scenario, the phases (training step, prefill, decode step) as spanning title
 * rows, each phase's total in bold and the comparison figure it leads to (TTFT, TPOT under load)
 * in italics. It is the comparison's explanation: which operation makes one GPU's decode step
 * slower or its prefill faster.
 */
class OperationComparisonTable : public QTableWidget
{
    Q_OBJECT

public:
    explicit OperationComparisonTable(QWidget *parent = nullptr);

    /** Shows `rows` for the scenarios named `scenarioNames` (baseline first); `highlight` marks
     * the column of the scenario being edited. */
    void setRows(const std::vector<model::OperationComparisonRow> &rows,
                 const QStringList &scenarioNames, int highlight);
};

} // namespace cp::views
