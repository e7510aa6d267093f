// SPDX-License-Identifier: GPL-3.0-or-later
#include "operationcomparisontable.h"

#include "humannumbers.h"

#include <QHeaderView>

namespace cp::views {

OperationComparisonTable::OperationComparisonTable(QWidget *parent)
    : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    verticalHeader()->hide();
}

void OperationComparisonTable::setRows(const std::vector<model::OperationComparisonRow> &rows,
                                       const QStringList &scenarioNames, int highlight)
{
    clear();
    clearSpans(); // clear() keeps the phase titles' spans of the rows shown before
    setColumnCount(static_cast<int>(scenarioNames.size()) + 2);
    QStringList headers = {tr("Where the time goes"), tr("Unit")};
    for (int i = 0; i < scenarioNames.size(); ++i)
        headers << (i == highlight ? QStringLiteral("▶ ") : QString()) + scenarioNames[i];
    // Long operation and scenario names wrap (at 1366 x 768 the third scenario's figures were
    // cut at the panel's edge behind a 260-pixel name column), as in the comparison table.
    const QFontMetrics metrics(font());
    for (int c = 2; c < headers.size(); ++c)
        headers[c] = wrappedToWidth(headers[c], metrics, 120);
    setHorizontalHeaderLabels(headers);
    // A title row before each phase's first row.
    int count = 0;
    std::string phase;
    for (const model::OperationComparisonRow &row : rows) {
        if (row.phase != phase)
            ++count;
        phase = row.phase;
        ++count;
    }
    setRowCount(count);
    phase.clear();
    int r = 0;
    for (const model::OperationComparisonRow &row : rows) {
        if (row.phase != phase) {
            phase = row.phase;
            auto *title = new QTableWidgetItem(QString::fromStdString(phase));
            QFont font = title->font();
            font.setBold(true);
            title->setFont(font);
            title->setBackground(QColor(0xf0, 0xf0, 0xf0));
            setItem(r, 0, title);
            setSpan(r, 0, 1, columnCount());
            ++r;
        }
        QFont font = this->font();
        font.setBold(row.total);
        font.setItalic(row.figure);
        const auto add = [&](int column, const QString &text, Qt::Alignment alignment) {
            auto *item = new QTableWidgetItem(text);
            item->setFont(font);
            item->setTextAlignment(alignment | Qt::AlignVCenter);
            setItem(r, column, item);
        };
        add(0,
            wrappedToWidth(QStringLiteral("  ") + QString::fromStdString(row.label), metrics, 170),
            Qt::AlignLeft);
        // Whole, on one line: in the tooltip, and for readers of the table as the model words it.
        item(r, 0)->setToolTip(QString::fromStdString(row.label));
        item(r, 0)->setData(Qt::UserRole, QStringLiteral("  ") + QString::fromStdString(row.label));
        add(1, QString::fromStdString(row.unit), Qt::AlignLeft);
        for (std::size_t i = 0; i < row.values.size(); ++i)
            add(static_cast<int>(i) + 2,
                row.values[i] ? comparisonNumber(*row.values[i], row.unit) : QStringLiteral("—"),
                Qt::AlignRight);
        ++r;
    }
    resizeColumnsToContents();
    resizeRowsToContents();
}

} // namespace cp::views
