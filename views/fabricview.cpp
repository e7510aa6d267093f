// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabricview.h"

#include "fabriccanvas.h"
#include "fabriccardsummary.h"
#include "fabricdrawingitem.h"
#include "plandocument.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"
#include "model/plan/planio.h"
#include "model/planning/planworstfailure.h"

#include <QAction>
#include <QComboBox>
#include <QGraphicsScene>
#include <QLabel>
#include <QLocale>
#include <QSlider>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cp::views {

namespace {

/** "1 cable", "3 cables": counts read as words do. */
QString cableCount(long long cables)
{
    return cables == 1 ? FabricView::tr("1 cable")
                       : FabricView::tr("%1 cables").arg(QLocale().toString(cables));
}

QString switchCount(long long switches)
{
    return switches == 1 ? FabricView::tr("1 switch")
                         : FabricView::tr("%1 switches").arg(QLocale().toString(switches));
}

} // namespace

FabricView::FabricView(PlanDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_canvas(new FabricCanvas(this))
    , m_scene(new QGraphicsScene(this))
    , m_status(new QLabel(this))
    , m_plane(new QSlider(Qt::Horizontal, this))
    , m_drawingRunner(this, [this](const auto &drawing) { showDrawing(drawing); })
    , m_worstRunner(this, [this](const model::WorstFailure &worst) { showWorstFailure(worst); })
{
    setObjectName(QStringLiteral("FabricView"));
    m_canvas->setScene(m_scene);
    auto *bar = new QToolBar(this);
    m_fail = bar->addAction(tr("&Fail"), this, [this] { failSelection(); });
    m_fail->setToolTip(tr("Take the selected switch, or one cable of the selected link, out of "
                          "the plan (Delete; undoable): the estimate runs on the fabric without "
                          "it"));
    m_restore = bar->addAction(tr("&Restore All"), this, [this] { restoreAllFailures(); });
    m_restore->setToolTip(tr("Bring every failed switch and cable back (undoable)"));
    m_worstAction
        = bar->addAction(tr("&Worst Single Failure"), this, [this] { findWorstFailure(); });
    m_worstAction->setToolTip(tr("Find the switch whose loss slows the training step most"));
    m_heatAction = bar->addAction(tr("&Heat Map"), this, [this](bool on) { setHeatMap(on); });
    m_heatAction->setCheckable(true);
    m_heatAction->setToolTip(tr("Colour links by the load the training layout puts on them, "
                                "blue idle to red saturated; hover a link for its figures"));
    m_traffic = new QComboBox(bar);
    m_traffic->setObjectName(QStringLiteral("heatTraffic"));
    // Items in FabricTraffic's order: the index is the enum value.
    m_traffic->addItem(tr("Data-parallel rings"));
    m_traffic->addItem(tr("Pipeline sends"));
    m_traffic->addItem(tr("Expert all-to-all"));
    m_traffic->addItem(tr("All traffic per step"));
    m_traffic->setToolTip(
        tr("What the heat map shows: one class of the step's scale-out traffic with all its "
           "flows at once (share of each link while they run), or all of it as bytes per step "
           "against what each link carries in the step"));
    bar->addWidget(m_traffic);
    bar->addSeparator();
    bar->addAction(tr("Fit"), m_canvas, &FabricCanvas::fitAll);
    m_planeLabelAction = bar->addWidget(new QLabel(tr("  Torus plane "), bar));
    m_plane->setObjectName(QStringLiteral("torusPlane"));
    m_plane->setMaximumWidth(200);
    m_planeAction = bar->addWidget(m_plane);
    // Only a 3-D torus has planes to pick; the slider appears with one.
    m_planeLabelAction->setVisible(false);
    m_planeAction->setVisible(false);
    m_status->setObjectName(QStringLiteral("fabricStatus"));
    m_status->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    layout->addWidget(m_canvas, 1);
    layout->addWidget(m_status);
    connect(m_document, &PlanDocument::planChanged, this, &FabricView::onPlanChanged);
    connect(m_canvas, &FabricCanvas::clicked, this, &FabricView::onClicked);
    connect(m_canvas, &FabricCanvas::deletePressed, this, [this] { failSelection(); });
    connect(m_canvas, &FabricCanvas::zoomChanged, this, [this] { updateStatus(); });
    connect(m_plane, &QSlider::valueChanged, this, [this] { requestDrawing(); });
    connect(m_traffic, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_heatAction->isChecked())
            setHeatMap(true);
        requestDrawing();
    });
    updateStatus();
}

void FabricView::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
    m_drawnKey.clear();
    requestDrawing();
}

void FabricView::onPlanChanged(PlanParts parts)
{
    if (onlyLayoutChanged(parts))
        return;
    m_worstText.clear(); // a result for another plan would mislead
    requestDrawing();
    syncFailures();
}

void FabricView::requestDrawing()
{
    if (!m_catalog)
        return;
    // The heat map depends on the workload's layout and the failed switches as well.
    const model::Plan plan = m_document->plan();
    const int plane = m_plane->value();
    const model::FabricTraffic traffic = heatTraffic();
    const QString key = fabricCardKey(plan)
        + QString::fromStdString(model::planToJson(plan).value("workload", nlohmann::json()).dump())
        + QString::number(plane) + QLatin1Char('/') + QString::number(m_traffic->currentIndex());
    if (key == m_drawnKey)
        return;
    m_drawnKey = key;
    m_drawingRunner.request([plan, plane, traffic, catalog = m_catalog](const std::atomic<bool> *) {
        return std::make_shared<const FabricDrawing>(
            buildPlanFabricDrawing(plan, *catalog, plane, traffic));
    });
}

void FabricView::showDrawing(const std::shared_ptr<const FabricDrawing> &drawing)
{
    const std::string selected = m_item && m_item->selectedSwitch() >= 0
        ? m_item->drawing().switches[static_cast<std::size_t>(m_item->selectedSwitch())].label
        : std::string();
    std::pair<std::string, std::string> selectedLine;
    if (m_item && m_item->selectedLink() >= 0) {
        const auto &line
            = m_item->drawing().links[static_cast<std::size_t>(m_item->selectedLink())];
        selectedLine = {line.endA, line.endB};
    }
    m_scene->clear();
    m_item = new FabricDrawingItem(drawing);
    m_item->setHeatMap(m_heatAction->isChecked());
    m_item->setHighlightedGroups(m_highlightedGroups);
    m_scene->addItem(m_item);
    m_scene->setSceneRect(m_item->boundingRect());
    m_plane->blockSignals(true);
    m_plane->setRange(0, std::max(0, drawing->torusPlanes - 1));
    m_plane->setValue(drawing->torusPlane);
    m_plane->setEnabled(drawing->torusPlanes > 1);
    m_planeLabelAction->setVisible(drawing->torusPlanes > 1);
    m_planeAction->setVisible(drawing->torusPlanes > 1);
    m_plane->blockSignals(false);
    if (!selected.empty())
        selectSwitch(selected);
    else if (!selectedLine.first.empty())
        selectLink(selectedLine.first, selectedLine.second);
    // A new topology starts at its overview; the same one keeps the architect's zoom.
    if (drawing->topology != m_drawnTopology) {
        if (isVisible())
            m_canvas->fitAll();
        else
            m_fitPending = true;
    }
    m_drawnTopology = drawing->topology;
    syncFailures();
    emit drawingReady();
}

void FabricView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_fitPending) {
        m_fitPending = false;
        QTimer::singleShot(0, m_canvas, &FabricCanvas::fitAll);
    }
}

void FabricView::highlightGroups(const std::vector<int> &groups)
{
    m_highlightedGroups = groups;
    if (m_item)
        m_item->setHighlightedGroups(groups);
    updateStatus();
}

void FabricView::setHeatMap(bool on)
{
    m_heatAction->setChecked(on);
    if (m_item)
        m_item->setHeatMap(on);
    updateStatus();
}

model::FabricTraffic FabricView::heatTraffic() const
{
    return static_cast<model::FabricTraffic>(std::clamp(m_traffic->currentIndex(), 0, 3));
}

void FabricView::setHeatTraffic(model::FabricTraffic traffic)
{
    m_traffic->setCurrentIndex(static_cast<int>(traffic));
}

void FabricView::syncFailures()
{
    if (!m_item)
        return;
    const model::FabricPlan &fabric = m_document->plan().fabric;
    m_item->setFailedLabels(
        std::set<std::string>(fabric.failedSwitches.begin(), fabric.failedSwitches.end()));
    std::map<std::pair<std::string, std::string>, int> cables;
    for (const std::string &entry : fabric.failedLinks) {
        const std::size_t colon = entry.find(':');
        ++cables[{entry.substr(0, colon), entry.substr(colon + 1)}];
    }
    m_item->setFailedLinks(std::move(cables));
    updateStatus();
}

void FabricView::onClicked(QPointF scenePoint, double sceneRadius)
{
    if (!m_item)
        return;
    const int clickedSwitch = m_item->switchAt(scenePoint, sceneRadius);
    m_item->setSelectedSwitch(clickedSwitch);
    m_item->setSelectedLink(
        clickedSwitch >= 0 ? -1 : m_item->linkAt(scenePoint, sceneRadius, m_canvas->zoom()));
    // The canvas follows: the server groups cabled to the switch, or the clicked server box.
    const FabricDrawing &d = m_item->drawing();
    const int box
        = clickedSwitch < 0 && m_item->selectedLink() < 0 ? m_item->serverBoxAt(scenePoint) : -1;
    if (clickedSwitch >= 0)
        emit groupsSelected(d.switches[static_cast<std::size_t>(clickedSwitch)].groups);
    else if (box >= 0)
        emit groupsSelected(d.servers[static_cast<std::size_t>(box)].groups);
    updateStatus();
}

bool FabricView::selectSwitch(const std::string &label)
{
    if (!m_item)
        return false;
    const auto &switches = m_item->drawing().switches;
    for (std::size_t i = 0; i < switches.size(); ++i)
        if (switches[i].label == label) {
            m_item->setSelectedSwitch(static_cast<int>(i));
            updateStatus();
            return true;
        }
    return false;
}

bool FabricView::failSelectedSwitch()
{
    if (!m_item || m_item->selectedSwitch() < 0)
        return false;
    const FabricDrawing::Switch &s
        = m_item->drawing().switches[static_cast<std::size_t>(m_item->selectedSwitch())];
    model::Plan plan = m_document->plan();
    auto &failed = plan.fabric.failedSwitches;
    if (std::find(failed.begin(), failed.end(), s.label) != failed.end())
        return false;
    failed.push_back(s.label);
    m_document->edit(plan, tr("Fail %1").arg(QString::fromStdString(s.name)));
    return true;
}

bool FabricView::selectLink(const std::string &endA, const std::string &endB)
{
    if (!m_item)
        return false;
    const auto &links = m_item->drawing().links;
    for (std::size_t i = 0; i < links.size(); ++i)
        if ((links[i].endA == endA && links[i].endB == endB)
            || (links[i].endA == endB && links[i].endB == endA)) {
            m_item->setSelectedLink(static_cast<int>(i));
            updateStatus();
            return true;
        }
    return false;
}

QString FabricView::lineName(const FabricDrawing::Line &line) const
{
    const auto end = [&](int index, const std::string &label) {
        return index >= 0 ? QString::fromStdString(
                   m_item->drawing().switches[static_cast<std::size_t>(index)].name)
                          : QString::fromStdString(label);
    };
    return tr("%1 – %2").arg(end(line.a, line.endA), end(line.b, line.endB));
}

bool FabricView::failSelectedLink()
{
    if (!m_item || m_item->selectedLink() < 0)
        return false;
    const FabricDrawing::Line &line
        = m_item->drawing().links[static_cast<std::size_t>(m_item->selectedLink())];
    if (m_item->failedCables(line) >= line.cables)
        return false;
    model::Plan plan = m_document->plan();
    plan.fabric.failedLinks.push_back(line.endA + ":" + line.endB);
    m_document->edit(plan,
                     line.cables > 1 ? tr("Fail a Cable of %1").arg(lineName(line))
                                     : tr("Fail %1").arg(lineName(line)));
    return true;
}

bool FabricView::failSelection()
{
    return failSelectedSwitch() || failSelectedLink();
}

bool FabricView::restoreAllFailures()
{
    model::Plan plan = m_document->plan();
    if (plan.fabric.failedSwitches.empty() && plan.fabric.failedLinks.empty())
        return false;
    plan.fabric.failedSwitches.clear();
    plan.fabric.failedLinks.clear();
    m_document->edit(plan, tr("Restore Failed Switches and Cables"));
    return true;
}

void FabricView::findWorstFailure()
{
    if (!m_catalog)
        return;
    m_worstText = tr("Searching for the worst single failure…");
    updateStatus();
    m_worstRunner.request(
        [plan = m_document->plan(), catalog = m_catalog](const std::atomic<bool> *) {
            return model::planWorstFailure(plan, *catalog);
        });
}

void FabricView::showWorstFailure(const model::WorstFailure &worst)
{
    m_worst = worst;
    m_worstText = tr("Worst single failure: %1")
                      .arg(QString::fromStdString(model::worstFailureSentence(worst)));
    if (worst.found) {
        if (selectSwitch(worst.switchLabel)) {
            const auto &s
                = m_item->drawing().switches[static_cast<std::size_t>(m_item->selectedSwitch())];
            m_canvas->centerOn(s.x, s.y);
        }
    }
    updateStatus();
    emit worstFailureReady();
}

QString FabricView::statusText() const
{
    return m_status->text();
}

void FabricView::updateStatus()
{
    m_canvas->setLegend(m_item ? m_item->legendAt(m_canvas->zoom()) : FabricLegend {});
    QStringList parts;
    if (!m_item) {
        parts << tr("Building the fabric…");
    } else if (!m_item->drawing().error.empty()) {
        parts << QString::fromStdString(m_item->drawing().error);
    } else {
        const FabricDrawing &d = m_item->drawing();
        parts << QString::fromStdString(d.description);
        if (d.torusPlanes > 0)
            parts << tr("plane %1 of %2 along the third dimension (the slider picks it)")
                         .arg(d.torusPlane)
                         .arg(d.torusPlanes);
        else
            parts << (m_item->showsBundles(m_canvas->zoom())
                          ? tr("overview: links bundled per block, zoom in for switches")
                          : tr("detail: every switch; click a switch or a link to select it"));
        if (m_item->heatMap())
            parts << (d.loadNote.empty() ? tr("heat: no training layout to load the links")
                                         : QString::fromStdString(d.loadNote));
        if (m_item->selectedSwitch() >= 0)
            parts << tr("selected: %1")
                         .arg(QString::fromStdString(
                             d.switches[static_cast<std::size_t>(m_item->selectedSwitch())].name));
        if (m_item->selectedLink() >= 0) {
            const auto &line = d.links[static_cast<std::size_t>(m_item->selectedLink())];
            const int failed = m_item->failedCables(line);
            parts << (failed > 0
                          ? tr("selected: %1, %2, %3 failed")
                                .arg(lineName(line), cableCount(line.cables))
                                .arg(failed)
                          : tr("selected: %1, %2").arg(lineName(line), cableCount(line.cables)));
        }
        if (!m_item->highlightedGroups().empty()) {
            const auto switches
                = std::count_if(d.switches.begin(), d.switches.end(),
                                [&](const auto &s) { return m_item->isHighlighted(s); });
            parts << tr("canvas selection: cabled to %1")
                         .arg(switchCount(static_cast<long long>(switches)));
        }
        const model::FabricPlan &fabric = m_document->plan().fabric;
        if (!fabric.failedSwitches.empty())
            parts << tr("%1 failed")
                         .arg(switchCount(static_cast<long long>(fabric.failedSwitches.size())));
        if (!fabric.failedLinks.empty())
            parts << tr("%1 failed")
                         .arg(cableCount(static_cast<long long>(fabric.failedLinks.size())));
    }
    if (!m_worstText.isEmpty())
        parts << m_worstText;
    m_status->setText(parts.join(QStringLiteral(" · ")));
    const bool linkLeft = m_item && m_item->selectedLink() >= 0
        && m_item->failedCables(
               m_item->drawing().links[static_cast<std::size_t>(m_item->selectedLink())])
            < m_item->drawing().links[static_cast<std::size_t>(m_item->selectedLink())].cables;
    m_fail->setEnabled(m_item && (m_item->selectedSwitch() >= 0 || linkLeft));
    const model::FabricPlan &fabric = m_document->plan().fabric;
    m_restore->setEnabled(!fabric.failedSwitches.empty() || !fabric.failedLinks.empty());
}

void FabricView::waitForIdle()
{
    m_drawingRunner.waitForIdle();
    m_worstRunner.waitForIdle();
}

} // namespace cp::views
