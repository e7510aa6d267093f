// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/compactchartview.h"

#include <QChart>
#include <QResizeEvent>

namespace cp::views {

CompactChartView::CompactChartView(QChart *chart, QWidget *parent)
    : QChartView(chart, parent)
    , m_title(chart ? chart->title() : QString())
    , m_margins(chart ? chart->margins() : QMargins())
{
    setRenderHint(QPainter::Antialiasing);
}

void CompactChartView::resizeEvent(QResizeEvent *event)
{
    applyHeight(event->size().height());
    QChartView::resizeEvent(event);
}

void CompactChartView::applyHeight(int height)
{
    QChart *shown = chart();
    const bool compact = height < compactHeight;
    if (!shown || compact == m_compact)
        return;
    m_compact = compact;
    shown->setTitle(compact ? QString() : m_title);
    shown->setMargins(compact ? QMargins(4, 2, 4, 2) : m_margins);
}

} // namespace cp::views
