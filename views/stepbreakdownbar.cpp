// SPDX-License-Identifier: GPL-3.0-or-later
#include "stepbreakdownbar.h"

#include <QFontMetrics>
#include <QLocale>
#include <QPainter>

#include <cmath>

namespace cp::views {

namespace {
constexpr int barHeight = 14;
constexpr int gap = 3;
} // namespace

StepBreakdownBar::StepBreakdownBar(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void StepBreakdownBar::setBreakdown(const model::StepBreakdown &b)
{
    // Compute in blues, communication in warm colours, idle (bubble) grey: the split a reader
    // looks for first is busy against waiting.
    const Segment parts[] = {
        {tr("compute"), b.computeSeconds, QColor(0x15, 0x65, 0xc0)},
        {tr("memory-bound"), b.memoryBoundSeconds, QColor(0x64, 0xb5, 0xf6)},
        {tr("optimizer"), b.optimizerSeconds, QColor(0x90, 0xca, 0xf9)},
        {tr("tensor-parallel"), b.tpCommSeconds, QColor(0xef, 0x6c, 0x00)},
        {tr("context-parallel"), b.cpCommSeconds, QColor(0xff, 0xa7, 0x26)},
        {tr("expert-parallel"), b.epCommSeconds, QColor(0xd8, 0x43, 0x15)},
        {tr("pipeline sends"), b.ppCommSeconds, QColor(0x8d, 0x6e, 0x63)},
        {tr("data-parallel"), b.dpCommExposedSeconds, QColor(0xc6, 0x28, 0x28)},
        {tr("host offload"), b.hostOffloadSeconds, QColor(0x6a, 0x1b, 0x9a)},
        {tr("pipeline bubble"), b.bubbleSeconds, QColor(0x9e, 0x9e, 0x9e)},
    };
    m_segments.clear();
    for (const Segment &part : parts)
        if (part.seconds > 0 && std::isfinite(part.seconds))
            m_segments.push_back(part);
    setToolTip(legendText());
    updateGeometry();
    update();
}

void StepBreakdownBar::clear()
{
    m_segments.clear();
    setToolTip(QString());
    update();
}

double StepBreakdownBar::totalSeconds() const
{
    double total = 0;
    for (const Segment &segment : m_segments)
        total += segment.seconds;
    return total;
}

QString StepBreakdownBar::legendText() const
{
    const double total = totalSeconds();
    QStringList parts;
    for (const Segment &segment : m_segments) {
        const double percent = total > 0 ? 100 * segment.seconds / total : 0;
        if (percent >= 1)
            parts << tr("%1 %2%").arg(segment.name).arg(std::lround(percent));
    }
    return parts.join(QStringLiteral(" · "));
}

QSize StepBreakdownBar::sizeHint() const
{
    return {400, barHeight + gap + fontMetrics().height() + 2};
}

QSize StepBreakdownBar::minimumSizeHint() const
{
    return {120, sizeHint().height()};
}

void StepBreakdownBar::paintEvent(QPaintEvent *)
{
    const double total = totalSeconds();
    if (total <= 0)
        return;
    QPainter painter(this);
    const QRectF bar(0, 0, width(), barHeight);
    double x = bar.left();
    for (const Segment &segment : m_segments) {
        const double w = bar.width() * segment.seconds / total;
        painter.fillRect(QRectF(x, bar.top(), w, bar.height()), segment.colour);
        x += w;
    }
    painter.setPen(palette().color(QPalette::WindowText));
    const QRect text(0, barHeight + gap, width(), fontMetrics().height() + 2);
    painter.drawText(
        text, Qt::AlignLeft | Qt::AlignVCenter,
        fontMetrics().elidedText(tr("Step: ") + legendText(), Qt::ElideRight, width()));
}

} // namespace cp::views
