// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabricdrawingitem.h"

#include "humannumbers.h"

#include "model/core/humantext.h"

#include <QFontMetricsF>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsView>
#include <QLocale>
#include <QPainter>
#include <QRegularExpression>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>
#include <map>

namespace cp::views {

namespace {

QColor tierColour(int tier)
{
    switch (tier) {
    case 3:
        return QColor(0x5B, 0x3F, 0x8C);
    case 2:
        return QColor(0x2F, 0x5D, 0x8A);
    default:
        return QColor(0x3C, 0x7A, 0x5A);
    }
}

QColor lineColour(const FabricDrawing::Line &line)
{
    if (line.colour >= 0)
        return FabricDrawingItem::railColour(line.colour);
    return FabricDrawingItem::linkClassColour(line.linkClass);
}

QString bundleText(const FabricDrawing::Line &line)
{
    return QStringLiteral("%1 × %2 = %3")
        .arg(QString::fromStdString(model::groupedCount(line.cables)))
        .arg(humanBitRate(line.bytesPerSecond / static_cast<double>(line.cables)),
             humanBitRate(line.bytesPerSecond));
}

/** Text drawn at a fixed pixel size wherever the zoom is: collected, then drawn untransformed. */
struct ScreenLabel
{
    QPointF at;
    QString text;
};

/**
 * The labels of one band's bundles (those between the same two tiers). Bundles that all carry
 * the same get one label across them, "8 bundles of 256 × 400 Gb/s = 102 Tb/s each": a label
 * per bundle crowded, so that only the first two of eight showed, side by side over the fan of
 * lines to the spines, and a reader could not tell which bundles they named or that the others
 * carried as much. Bundles that differ keep a label each.
 */
void appendBandLabels(const std::vector<ScreenLabel> &band, std::vector<ScreenLabel> &labels)
{
    const bool alike = std::all_of(band.begin(), band.end(), [&](const ScreenLabel &label) {
        return label.text == band.front().text;
    });
    if (band.size() < 2 || !alike) {
        labels.insert(labels.end(), band.begin(), band.end());
        return;
    }
    QPointF centre;
    for (const ScreenLabel &label : band)
        centre += label.at;
    centre /= static_cast<double>(band.size());
    labels.push_back(
        {centre,
         QObject::tr("%1 bundles of %2 each")
             .arg(QLocale().toString(static_cast<qlonglong>(band.size())), band.front().text)});
}

void drawScreenLabels(QPainter *painter, const std::vector<ScreenLabel> &labels, int pixelSize,
                      const QRectF &drawingExtent)
{
    if (labels.empty())
        return;
    painter->save();
    const QTransform world = painter->worldTransform();
    painter->resetTransform();
    QFont font = painter->font();
    font.setPixelSize(pixelSize);
    painter->setFont(font);
    const QFontMetrics metrics(font);
    // A label that would cover one already drawn is left out: the first of a crowd is enough,
    // its neighbours read the same or show when zoomed in.
    std::vector<QRectF> drawn;
    // A label centred near the edge of the view is moved in to show whole ("256 × 400 Gb/s"
    // was cut at the left border of a fitted overview). A drawing recorded for the report (a
    // QPicture) has no viewport of its own (clamping to its default one moved the last server
    // group's label onto the one before it): there the labels stay within the drawing's own
    // extent, which the page shows whole.
    const bool onScreen = painter->device() && painter->device()->devType() != QInternal::Picture;
    const QRectF area = onScreen ? QRectF(painter->viewport()) : world.mapRect(drawingExtent);
    for (const ScreenLabel &label : labels) {
        const QPointF p = world.map(label.at);
        QRectF box = metrics.boundingRect(label.text);
        box.moveCenter(p);
        box.adjust(-3, -1, 3, 1);
        if (box.left() < area.left() && box.width() < area.width())
            box.moveLeft(area.left());
        else if (box.right() > area.right() && box.width() < area.width())
            box.moveRight(area.right());
        if (box.top() < area.top() && box.height() < area.height())
            box.moveTop(area.top()); // a thin top tier's name ("cores") was cut in half
        else if (box.bottom() > area.bottom() && box.height() < area.height())
            box.moveBottom(area.bottom());
        if (std::any_of(drawn.begin(), drawn.end(),
                        [&](const QRectF &other) { return other.intersects(box); }))
            continue;
        drawn.push_back(box);
        painter->fillRect(box, QColor(255, 255, 255, 220));
        painter->setPen(QColor(0x20, 0x20, 0x20));
        painter->drawText(box, Qt::AlignCenter, label.text);
    }
    painter->restore();
}

/**
 * One label for boxes numbered in turn, "SU 0 rail leaves" to "SU 7 rail leaves": "SU 0–7 rail
 * leaves". The eight scalable units of the shared cluster's leaf row were unnamed boxes, each too
 * narrow for its own name. Empty unless there are several boxes whose names differ only in their
 * first number and those numbers run without a gap.
 */
QString numberedRangeText(const std::vector<const FabricDrawing::Box *> &boxes)
{
    if (boxes.size() < 2)
        return {};
    static const QRegularExpression number(QStringLiteral("\\d+"));
    QString pattern;
    std::vector<long long> numbers;
    for (const FabricDrawing::Box *box : boxes) {
        const QString text = QString::fromStdString(box->text);
        const QRegularExpressionMatch match = number.match(text);
        if (!match.hasMatch())
            return {};
        const QString rest
            = text.left(match.capturedStart()) + QLatin1Char('#') + text.mid(match.capturedEnd());
        if (!pattern.isEmpty() && rest != pattern)
            return {};
        pattern = rest;
        numbers.push_back(match.captured().toLongLong());
    }
    std::sort(numbers.begin(), numbers.end());
    for (std::size_t i = 1; i < numbers.size(); ++i)
        if (numbers[i] != numbers[i - 1] + 1)
            return {};
    return pattern.replace(QLatin1Char('#'),
                           QStringLiteral("%1–%2").arg(numbers.front()).arg(numbers.back()));
}

} // namespace

FabricDrawingItem::FabricDrawingItem(std::shared_ptr<const FabricDrawing> drawing)
    : m_drawing(std::move(drawing))
{
    setFlag(ItemUsesExtendedStyleOption); // exposedRect: draw only what is on screen
    setAcceptHoverEvents(true);
}

void FabricDrawingItem::setLabelScale(double scale)
{
    m_labelScale = std::clamp(scale, 0.5, 4.0);
    update();
}

QRectF FabricDrawingItem::extent() const
{
    return QRectF(0, 0, m_drawing->width, m_drawing->height);
}

int FabricDrawingItem::labelPixels(int pixels) const
{
    return static_cast<int>(std::lround(pixels * m_labelScale));
}

void FabricDrawingItem::setHeatMap(bool on)
{
    m_heatMap = on;
    update();
}

QColor FabricDrawingItem::heatColour(double utilisation)
{
    // Blue -> yellow -> red: hue 240 to 0 degrees as the link fills.
    const double u = std::clamp(utilisation, 0.0, 1.0);
    return QColor::fromHsvF(static_cast<float>((1.0 - u) * 240.0 / 360.0), 0.85f, 0.9f);
}

QColor FabricDrawingItem::linkClassColour(model::LinkClass linkClass)
{
    switch (linkClass) {
    case model::LinkClass::Global:
        return QColor(0xC0, 0x50, 0x20);
    case model::LinkClass::Access:
        return QColor(0x88, 0x88, 0x88);
    default:
        return QColor(0x4A, 0x6A, 0x90);
    }
}

QColor FabricDrawingItem::railColour(int rail)
{
    // Eight colours that stay apart for the common colour blindnesses (Okabe-Ito).
    static const QColor colours[]
        = {QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x00, 0x9E, 0x73),
           QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x72, 0xB2), QColor(0xCC, 0x79, 0xA7),
           QColor(0x8C, 0x6D, 0x31), QColor(0x44, 0x44, 0x44)};
    return colours[std::abs(rail) % 8];
}

QColor FabricDrawingItem::colourOf(const FabricDrawing::Line &line) const
{
    if (m_heatMap && line.utilisation >= 0)
        return heatColour(line.utilisation);
    return lineColour(line);
}

namespace {
double distanceToSegment(const QPointF &p, const FabricDrawing::Line &line)
{
    const QPointF a(line.x1, line.y1);
    const QPointF ab = QPointF(line.x2, line.y2) - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    const double t
        = length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}
} // namespace

QString FabricDrawingItem::lineToolTip(const QPointF &scenePoint, double radius,
                                       double levelOfDetail) const
{
    const QPointF p = mapFromScene(scenePoint);
    const auto &lines = showsBundles(levelOfDetail) ? m_drawing->bundles : m_drawing->links;
    const FabricDrawing::Line *nearest = nullptr;
    double best = radius;
    for (const FabricDrawing::Line &line : lines) {
        const double d = distanceToSegment(p, line);
        if (d <= best) {
            best = d;
            nearest = &line;
        }
    }
    if (!nearest)
        return {};
    const auto end = [&](int index) {
        return index >= 0
            ? QString::fromStdString(m_drawing->switches[static_cast<std::size_t>(index)].name)
            : QObject::tr("servers");
    };
    QString text = nearest->a >= 0 ? QObject::tr("%1 – %2: ").arg(end(nearest->a), end(nearest->b))
                                   : QString();
    text += QObject::tr("%1 cable(s), %2").arg(nearest->cables).arg(bundleText(*nearest));
    if (const int failed = failedCables(*nearest); failed > 0)
        text += QObject::tr(", %1 failed").arg(failed);
    if (nearest->utilisation >= 0)
        text += QObject::tr("\nbusiest link: %1% of its capacity, %2 flows per direction")
                    .arg(100.0 * nearest->utilisation, 0, 'f', 0)
                    .arg(nearest->flows, 0, 'f', 2);
    if (nearest->utilisation >= 0 && nearest->bytesPerStep > 0)
        text += QObject::tr(", %1 GB per training step")
                    .arg(QString::number(nearest->bytesPerStep / 1e9, 'g', 3));
    return text;
}

void FabricDrawingItem::hoverMoveEvent(QGraphicsSceneHoverEvent *event)
{
    const QList<QGraphicsView *> views = scene() ? scene()->views() : QList<QGraphicsView *>();
    const double lod = views.isEmpty() ? 1.0 : views.first()->transform().m11();
    setToolTip(lineToolTip(event->scenePos(), 6.0 / std::max(lod, 1e-6), lod));
}

QRectF FabricDrawingItem::boundingRect() const
{
    return QRectF(-40, -40, m_drawing->width + 80, m_drawing->height + 80);
}

bool FabricDrawingItem::showsBundles(double levelOfDetail) const
{
    // Switches closer than 16 px on screen cannot be told apart or picked: draw bundles instead.
    return !m_drawing->bundles.empty() && m_drawing->switchSpacing * levelOfDetail < 16.0
        && m_drawing->topology != "torus";
}

FabricLegend FabricDrawingItem::legendAt(double levelOfDetail) const
{
    FabricLegend legend;
    legend.heatScale = m_heatMap && m_drawing->hasLoads;
    // One class of flows is drawn as the share of a link's capacity they take while they all
    // run; all of a step's traffic as the share of the step a link is busy (FabricLinkLoads).
    switch (m_drawing->traffic) {
    case model::FabricTraffic::DataParallel:
        legend.heatTitle
            = QObject::tr("Link load while the data-parallel rings run, share of capacity");
        break;
    case model::FabricTraffic::Pipeline:
        legend.heatTitle = QObject::tr("Link load while the pipeline sends run, share of capacity");
        break;
    case model::FabricTraffic::ExpertParallel:
        legend.heatTitle
            = QObject::tr("Link load while the expert all-to-all runs, share of capacity");
        break;
    case model::FabricTraffic::All:
        legend.heatTitle = QObject::tr("Link busy, share of the step");
        break;
    }
    legend.rails = showsBundles(levelOfDetail) ? 0 : m_drawing->rails;
    // Without the heat map links take their class's colour, but for a rail fabric's drawn one
    // by one, which take their rail's.
    if (!legend.heatScale && legend.rails == 0) {
        for (const auto *lines : {&m_drawing->links, &m_drawing->bundles})
            for (const FabricDrawing::Line &line : *lines) {
                legend.fabricLinks |= line.linkClass == model::LinkClass::Fabric;
                legend.accessLinks |= line.linkClass == model::LinkClass::Access;
                legend.globalLinks |= line.linkClass == model::LinkClass::Global;
            }
    }
    if (m_drawing->topology == "dragonfly")
        legend.fabricLinkName = QObject::tr("within a group");
    else if (m_drawing->topology == "torus")
        legend.fabricLinkName = QObject::tr("between neighbours");
    return legend;
}

void FabricDrawingItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod
        = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    const QRectF exposed = option->exposedRect.isEmpty() ? boundingRect() : option->exposedRect;
    m_lastBundles = showsBundles(lod);
    if (m_lastBundles)
        paintBundles(painter, exposed, lod);
    else
        paintDetail(painter, exposed, lod);
    paintHighlights(painter, exposed, lod);
}

void FabricDrawingItem::paintLines(QPainter *painter, const std::vector<FabricDrawing::Line> &lines,
                                   const QRectF &exposed, bool labels) const
{
    // Lines are batched per colour and drawn with one drawLines call each: a 16,384-GPU fabric
    // zoomed in has some 30,000 visible lines, and a pen change per line doubled the frame.
    std::map<QRgb, std::vector<QLineF>> solid;
    std::map<QRgb, std::vector<QLineF>> wraps;
    std::vector<ScreenLabel> texts;
    // Bundle labels by the band of the drawing they cross (the heights of their two ends).
    std::map<std::pair<double, double>, std::vector<ScreenLabel>> bands;
    const bool many = lines.size() > 2000;
    for (const FabricDrawing::Line &line : lines) {
        const QRectF extent
            = QRectF(QPointF(line.x1, line.y1), QPointF(line.x2, line.y2)).normalized();
        if (!extent.adjusted(-60, -60, 60, 60).intersects(exposed))
            continue;
        const QPointF a(line.x1, line.y1);
        const QPointF b(line.x2, line.y2);
        if (labels) {
            // Bundles are few: each gets its own width, growing with the log of its cables so
            // that 1 and 4,096 stay readable.
            QPen pen(colourOf(line));
            pen.setCosmetic(true);
            pen.setWidthF(1.0 + std::log2(static_cast<double>(line.cables)) * 0.6);
            painter->setPen(pen);
            painter->drawLine(a, b);
            bands[{std::min(a.y(), b.y()), std::max(a.y(), b.y())}].push_back(
                {(a + b) / 2, bundleText(line)});
            continue;
        }
        QColor colour = colourOf(line);
        // Thousands of crossing lines read as a haze, not a solid block, when translucent.
        if (many)
            colour.setAlpha(70);
        if (line.curved) {
            // Torus wrap-around: a stub leaving the grid at each end.
            const QPointF out = (a - b) / std::max(1.0, std::hypot((a - b).x(), (a - b).y())) * 26;
            wraps[colour.rgba()].push_back(QLineF(a, a + out));
            wraps[colour.rgba()].push_back(QLineF(b, b - out));
        } else {
            solid[colour.rgba()].push_back(QLineF(a, b));
        }
    }
    painter->save();
    if (many)
        painter->setRenderHint(QPainter::Antialiasing, false); // hairlines: no visible loss
    for (const auto *batches : {&solid, &wraps})
        for (const auto &[rgba, batch] : *batches) {
            QPen pen(QColor::fromRgba(rgba));
            pen.setCosmetic(true);
            pen.setWidthF(1.0);
            if (batches == &wraps)
                pen.setStyle(Qt::DashLine);
            painter->setPen(pen);
            painter->drawLines(batch.data(), static_cast<int>(batch.size()));
        }
    painter->restore();
    for (const auto &[heights, labels] : bands)
        appendBandLabels(labels, texts);
    drawScreenLabels(painter, texts, labelPixels(11), extent());
}

void FabricDrawingItem::paintBoxes(QPainter *painter, const std::vector<FabricDrawing::Box> &boxes,
                                   const QRectF &exposed, const QColor &fill, double lod) const
{
    std::vector<ScreenLabel> texts;
    painter->setPen(QPen(fill.darker(160), 0));
    painter->setBrush(fill);
    // A label where the box is wide enough on screen to hold it, or where there are so few boxes
    // that it crowds nothing (a fleet's one group of servers under one leaf was an unnamed grey
    // box). Boxes too narrow for their labels, all saying the same ("32 NIC ports" under each of
    // four leaves, "32 servers" under eight), get one label across them, "8 x 32 servers": each
    // its own overflowed its box and ran into the next.
    const bool few = boxes.size() <= 4;
    // The label's own width in the font it is drawn in: seven pixels a character let "32
    // servers" run over the edges of eight boxes side by side on the report's page.
    QFont font = painter->font();
    font.setPixelSize(labelPixels(11));
    const QFontMetricsF metrics(font);
    std::vector<const FabricDrawing::Box *> narrow;
    for (const FabricDrawing::Box &box : boxes) {
        const QRectF rect(box.x, box.y, box.width, box.height);
        if (!rect.intersects(exposed))
            continue;
        painter->drawRect(rect);
        if (box.text.empty())
            continue;
        if (box.width * lod > metrics.horizontalAdvance(QString::fromStdString(box.text)) + 6.0)
            texts.push_back({rect.center(), QString::fromStdString(box.text)});
        else
            narrow.push_back(&box);
    }
    const auto rectOf = [](const FabricDrawing::Box *box) {
        return QRectF(box->x, box->y, box->width, box->height);
    };
    const bool alike = std::all_of(narrow.begin(), narrow.end(), [&](const FabricDrawing::Box *b) {
        return b->text == narrow.front()->text;
    });
    // One label across the narrow boxes: "8 x 32 servers" where they read alike, "SU 0–7 rail
    // leaves" where they are numbered in turn.
    const QString across = narrow.size() > 1 && alike
        ? QStringLiteral("%1 x %2")
              .arg(narrow.size())
              .arg(QString::fromStdString(narrow.front()->text))
        : numberedRangeText(narrow);
    if (!across.isEmpty()) {
        QRectF span = rectOf(narrow.front());
        for (const FabricDrawing::Box *box : narrow)
            span = span.united(rectOf(box));
        texts.push_back({span.center(), across});
    } else if (few) {
        for (const FabricDrawing::Box *box : narrow)
            texts.push_back({rectOf(box).center(), QString::fromStdString(box->text)});
    }
    drawScreenLabels(painter, texts, labelPixels(11), extent());
}

void FabricDrawingItem::paintBundles(QPainter *painter, const QRectF &exposed, double lod) const
{
    const FabricDrawing &d = *m_drawing;
    paintLines(painter, d.bundles, exposed, true);
    paintBoxes(painter, d.blocks, exposed, QColor(0xDD, 0xE6, 0xF0), lod);
    paintBoxes(painter, d.servers, exposed, QColor(0xEE, 0xEE, 0xEE), lod);
    // Failed switches stay visible at overview as red marks on their block.
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0xD0, 0x20, 0x20));
    const double mark = 5 / std::max(lod, 1e-6);
    for (const FabricDrawing::Switch &s : d.switches)
        if (m_failed.count(s.label))
            painter->drawEllipse(QPointF(s.x, s.y), mark, mark);
}

void FabricDrawingItem::paintDetail(QPainter *painter, const QRectF &exposed, double lod) const
{
    const FabricDrawing &d = *m_drawing;
    paintLines(painter, d.links, exposed, false);
    paintLinkMarks(painter);
    paintBoxes(painter, d.servers, exposed, QColor(0xEE, 0xEE, 0xEE), lod);
    std::vector<ScreenLabel> names;
    // Names where switches are far enough apart to hold them, and always on a fabric of a few.
    const bool named = d.switchSpacing * lod > 90 * m_labelScale || d.switches.size() <= 4;
    const double w = d.switchWidth;
    const double h = d.switchHeight;
    for (std::size_t i = 0; i < d.switches.size(); ++i) {
        const FabricDrawing::Switch &s = d.switches[i];
        const QRectF rect(s.x - w / 2, s.y - h / 2, w, h);
        if (!rect.intersects(exposed))
            continue;
        const bool failed = m_failed.count(s.label) > 0;
        const QColor fill = failed ? QColor(0xD0, 0x20, 0x20)
                                   : (s.colour >= 0 ? railColour(s.colour) : tierColour(s.tier));
        const bool selected = static_cast<int>(i) == m_selected;
        QPen outline(selected ? QColor(0xFF, 0x8C, 0x00) : fill.darker(150));
        outline.setCosmetic(true);
        outline.setWidthF(selected ? 3 : 1);
        painter->setPen(outline);
        painter->setBrush(fill);
        painter->drawRect(rect);
        if (failed) {
            QPen cross(Qt::white);
            cross.setCosmetic(true);
            painter->setPen(cross);
            painter->drawLine(rect.topLeft(), rect.bottomRight());
            painter->drawLine(rect.topRight(), rect.bottomLeft());
        }
        if (named || selected)
            names.push_back({QPointF(s.x, s.y - h - 6 / lod), QString::fromStdString(s.name)});
    }
    drawScreenLabels(painter, names, labelPixels(10), extent());
}

int FabricDrawingItem::switchAt(const QPointF &scenePoint, double radius) const
{
    const QPointF p = mapFromScene(scenePoint);
    int best = -1;
    double bestDistance = radius;
    for (std::size_t i = 0; i < m_drawing->switches.size(); ++i) {
        const auto &s = m_drawing->switches[i];
        const double distance = std::hypot(s.x - p.x(), s.y - p.y());
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = static_cast<int>(i);
        }
    }
    return best;
}

void FabricDrawingItem::setSelectedSwitch(int index)
{
    m_selected = index;
    if (index >= 0)
        m_selectedLink = -1;
    update();
}

int FabricDrawingItem::linkAt(const QPointF &scenePoint, double radius, double levelOfDetail) const
{
    if (showsBundles(levelOfDetail))
        return -1;
    const QPointF p = mapFromScene(scenePoint);
    int best = -1;
    double bestDistance = radius;
    for (std::size_t i = 0; i < m_drawing->links.size(); ++i) {
        const FabricDrawing::Line &line = m_drawing->links[i];
        if (line.endA.empty())
            continue;
        const double distance = distanceToSegment(p, line);
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = static_cast<int>(i);
        }
    }
    return best;
}

void FabricDrawingItem::setSelectedLink(int index)
{
    m_selectedLink = index;
    if (index >= 0)
        m_selected = -1;
    update();
}

void FabricDrawingItem::setFailedLinks(
    std::map<std::pair<std::string, std::string>, int> cablesPerPair)
{
    m_failedLinks = std::move(cablesPerPair);
    // Resolved to line indices once: painting looks them up every frame.
    m_failedLines.clear();
    if (!m_failedLinks.empty())
        for (std::size_t i = 0; i < m_drawing->links.size(); ++i)
            if (const int failed = failedCables(m_drawing->links[i]); failed > 0)
                m_failedLines.emplace_back(i, failed);
    update();
}

int FabricDrawingItem::failedCables(const FabricDrawing::Line &line) const
{
    if (line.endA.empty() || m_failedLinks.empty())
        return 0;
    int failed = 0;
    for (const auto &key :
         {std::make_pair(line.endA, line.endB), std::make_pair(line.endB, line.endA)})
        if (const auto it = m_failedLinks.find(key); it != m_failedLinks.end())
            failed += it->second;
    return failed;
}

void FabricDrawingItem::paintLinkMarks(QPainter *painter) const
{
    // The selected line in a wide selection-orange halo, so it reads against any heat colour;
    // failed cables dashed red on top (thick when all of the pair's cables failed).
    painter->save();
    if (m_selectedLink >= 0 && m_selectedLink < static_cast<int>(m_drawing->links.size())) {
        const FabricDrawing::Line &line
            = m_drawing->links[static_cast<std::size_t>(m_selectedLink)];
        QPen pen(QColor(0xFF, 0x8C, 0x00), 6.0);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLine(QPointF(line.x1, line.y1), QPointF(line.x2, line.y2));
    }
    for (const auto &[index, failed] : m_failedLines) {
        const FabricDrawing::Line &line = m_drawing->links[index];
        QPen pen(QColor(0xD0, 0x20, 0x20), failed >= line.cables ? 3.0 : 2.0, Qt::DashLine);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLine(QPointF(line.x1, line.y1), QPointF(line.x2, line.y2));
    }
    painter->restore();
}

namespace {
bool intersects(const std::vector<int> &sortedA, const std::vector<int> &sortedB)
{
    auto a = sortedA.begin();
    auto b = sortedB.begin();
    while (a != sortedA.end() && b != sortedB.end()) {
        if (*a == *b)
            return true;
        if (*a < *b)
            ++a;
        else
            ++b;
    }
    return false;
}

/** The canvas's selection colour family: a cyan that reads against rails, tiers and heat. */
const QColor highlightColour(0x00, 0xB8, 0xD4);
} // namespace

void FabricDrawingItem::setHighlightedGroups(std::vector<int> groups)
{
    std::sort(groups.begin(), groups.end());
    groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
    m_highlightedGroups = std::move(groups);
    update();
}

bool FabricDrawingItem::isHighlighted(const FabricDrawing::Switch &s) const
{
    return intersects(s.groups, m_highlightedGroups);
}

bool FabricDrawingItem::isHighlighted(const FabricDrawing::Box &box) const
{
    return intersects(box.groups, m_highlightedGroups);
}

int FabricDrawingItem::serverBoxAt(const QPointF &scenePoint) const
{
    const QPointF p = mapFromScene(scenePoint);
    for (std::size_t i = 0; i < m_drawing->servers.size(); ++i) {
        const FabricDrawing::Box &box = m_drawing->servers[i];
        if (QRectF(box.x, box.y, box.width, box.height).contains(p))
            return static_cast<int>(i);
    }
    return -1;
}

void FabricDrawingItem::paintHighlights(QPainter *painter, const QRectF &exposed, double lod) const
{
    if (m_highlightedGroups.empty())
        return;
    const FabricDrawing &d = *m_drawing;
    painter->save();
    QPen pen(highlightColour, 3.0);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    if (!m_lastBundles) // the access cables of the groups, zoomed in
        for (const FabricDrawing::Line &line : d.links)
            if (line.server >= 0 && line.a >= 0
                && isHighlighted(d.switches[static_cast<std::size_t>(line.a)])
                && isHighlighted(d.servers[static_cast<std::size_t>(line.server)]))
                painter->drawLine(QPointF(line.x1, line.y1), QPointF(line.x2, line.y2));
    for (const FabricDrawing::Box &box : d.servers)
        if (isHighlighted(box) && QRectF(box.x, box.y, box.width, box.height).intersects(exposed))
            painter->drawRect(QRectF(box.x, box.y, box.width, box.height).adjusted(-2, -2, 2, 2));
    // Switches: a ring around each, sized in pixels so it shows at any zoom.
    const double ring = std::max(d.switchWidth * 0.8, 7 / std::max(lod, 1e-6));
    for (const FabricDrawing::Switch &s : d.switches)
        if (isHighlighted(s) && exposed.contains(QPointF(s.x, s.y)))
            painter->drawEllipse(QPointF(s.x, s.y), ring, ring);
    painter->restore();
}

void FabricDrawingItem::setFailedLabels(std::set<std::string> labels)
{
    m_failed = std::move(labels);
    update();
}

} // namespace cp::views
