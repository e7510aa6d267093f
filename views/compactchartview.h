// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QChartView>
#include <QMargins>
#include <QString>

namespace cp::views {

/**
 * A chart view that gives a short chart its plot: below `compactHeight` pixels it hides the
 * chart's title (the tab it sits in names it, and its tooltip gives the title in full) and
 * narrows the margins, and it puts both back when there is room. In the comparison dock of a
 * 1366 x 768 window the title, margins and legend left a plot 40 pixels tall.
 */
class CompactChartView : public QChartView
{
    Q_OBJECT

public:
    explicit CompactChartView(QChart *chart, QWidget *parent = nullptr);

    static constexpr int compactHeight = 360;
    /** Whether the view is showing its chart compact (title hidden, narrow margins). */
    bool isCompact() const { return m_compact; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void applyHeight(int height);

    QString m_title;
    QMargins m_margins;
    bool m_compact = false;
};

} // namespace cp::views
