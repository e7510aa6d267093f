// SPDX-License-Identifier: GPL-3.0-or-later
#include "plancarditem.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QTextLayout>

namespace cp::views {

namespace {
constexpr double cardWidth = 300;
constexpr double lineHeight = 16;
constexpr double padding = 8;
constexpr double textLeft = 14;
constexpr double textWidth = cardWidth - 20;

/**
 * `text` word-wrapped to `width` in at most `maxRows` rows, the last elided if the text goes on.
 * A card's text is what a printed report shows of it (no tooltips on paper), so a long catalog
 * name (two rows) or fabric description (three) wraps rather than losing its end.
 */
QStringList wrappedRows(const QString &text, const QFont &font, double width, int maxRows)
{
    QStringList rows;
    QTextLayout layout(text, font);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        if (rows.size() + 1 == maxRows) {
            rows << QFontMetricsF(font).elidedText(text.mid(line.textStart()).trimmed(),
                                                   Qt::ElideRight, width);
            break;
        }
        rows << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return rows;
}
} // namespace

PlanCardItem::PlanCardItem(QString key, QString title, QStringList lines, QColor accent)
    : m_key(std::move(key))
    , m_title(std::move(title))
    , m_lines(std::move(lines))
    , m_accent(accent)
{
    setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges);
    setAcceptDrops(true);
    setToolTip(m_title + QLatin1Char('\n') + m_lines.join(QLatin1Char('\n')));
}

void PlanCardItem::setWarning(const QString &warning)
{
    prepareGeometryChange();
    m_warning = warning;
    setToolTip(m_title + QLatin1Char('\n') + m_lines.join(QLatin1Char('\n'))
               + (m_warning.isEmpty() ? QString() : QLatin1Char('\n') + m_warning));
}

void PlanCardItem::setLines(const QStringList &lines)
{
    prepareGeometryChange();
    m_lines = lines;
    setToolTip(m_title + QLatin1Char('\n') + m_lines.join(QLatin1Char('\n'))
               + (m_warning.isEmpty() ? QString() : QLatin1Char('\n') + m_warning));
}

void PlanCardItem::setBodyHeight(double height)
{
    prepareGeometryChange();
    m_bodyHeight = height;
}

QFont PlanCardItem::cardFont() const
{
    return scene() ? scene()->font() : QFont();
}

QList<PlanCardItem::TextRow> PlanCardItem::textRows() const
{
    QFont bold = cardFont();
    bold.setBold(true);
    const QFont normal = cardFont();
    QList<TextRow> rows;
    for (const QString &row : wrappedRows(m_title, bold, textWidth, 2))
        rows.append({row, TextRow::Style::Title});
    for (const QString &line : m_lines)
        for (const QString &row : wrappedRows(line, normal, textWidth, 3))
            rows.append({row, TextRow::Style::Line});
    if (!m_warning.isEmpty())
        for (const QString &row :
             wrappedRows(QStringLiteral("⚠ ") + m_warning, normal, textWidth, 2))
            rows.append({row, TextRow::Style::Warning});
    return rows;
}

QRectF PlanCardItem::boundingRect() const
{
    const double textHeight = static_cast<double>(textRows().size()) * lineHeight;
    return {0, 0, cardWidth, 2 * padding + textHeight + m_bodyHeight};
}

void PlanCardItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const QRectF r = boundingRect();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(
        QPen(isSelected() ? QColor(0x1f, 0x6f, 0xeb)
                          : (m_warning.isEmpty() ? m_accent.darker(130) : QColor(0xc6, 0x28, 0x28)),
             isSelected() || !m_warning.isEmpty() ? 2.5 : 1.2));
    painter->setBrush(QColor(0xfb, 0xfb, 0xfd));
    painter->drawRoundedRect(r.adjusted(1, 1, -1, -1), 6, 6);
    painter->fillRect(QRectF(1, 1, 6, r.height() - 2), m_accent);
    if (lod < 0.35) {
        // Zoomed far out: the title alone, large enough to read.
        QFont font = painter->font();
        font.setPointSizeF(font.pointSizeF() * 2.2);
        font.setBold(true);
        painter->setFont(font);
        painter->setPen(Qt::black);
        painter->drawText(r.adjusted(12, 0, -4, 0), Qt::AlignVCenter | Qt::TextWordWrap, m_title);
        return;
    }
    // The font the rows were measured in (boundingRect), whatever the painter brings.
    QFont bold = cardFont();
    bold.setBold(true);
    const QFont normal = cardFont();
    double y = padding;
    for (const TextRow &row : textRows()) {
        painter->setFont(row.style == TextRow::Style::Title ? bold : normal);
        painter->setPen(row.style == TextRow::Style::Title         ? QColor(Qt::black)
                            : row.style == TextRow::Style::Warning ? QColor(0xc6, 0x28, 0x28)
                                                                   : QColor(0x30, 0x30, 0x30));
        painter->drawText(QRectF(textLeft, y, textWidth, lineHeight),
                          Qt::AlignLeft | Qt::AlignVCenter, row.text);
        y += lineHeight;
    }
    if (m_bodyHeight > 0)
        paintBody(painter, QRectF(14, y + 2, r.width() - 24, m_bodyHeight - 6), lod);
}

QVariant PlanCardItem::itemChange(GraphicsItemChange change, const QVariant &value)
{
    if (change == ItemPositionHasChanged && m_moved)
        m_moved();
    return QGraphicsItem::itemChange(change, value);
}

void PlanCardItem::paintBody(QPainter *, const QRectF &, double) { }

} // namespace cp::views
