// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/training/trainingestimate.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace cp::views {

/**
 * Where a training step goes, as one horizontal bar: a segment per part of
 * model::StepBreakdown (compute, memory-bound kernels, each kind of exposed communication, the
 * pipeline bubble, the optimizer) with its share written under the bar, so the bottleneck is
 * seen at a glance next to the headline.
 */
class StepBreakdownBar : public QWidget
{
    Q_OBJECT

public:
    struct Segment
    {
        QString name;
        double seconds = 0;
        QColor colour;
    };

    explicit StepBreakdownBar(QWidget *parent = nullptr);

    /** Shows `breakdown`; parts of zero seconds get no segment. */
    void setBreakdown(const model::StepBreakdown &breakdown);
    void clear();
    const std::vector<Segment> &segments() const { return m_segments; }
    /** "compute 79% · memory-bound 18% · data-parallel 2%": the shares of 1% or more. */
    QString legendText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    double totalSeconds() const;

    std::vector<Segment> m_segments;
};

} // namespace cp::views
