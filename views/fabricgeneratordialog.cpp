// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabricgeneratordialog.h"

#include "fabriccardsummary.h"

#include "model/core/units.h"
#include "model/fabric/fabricanalysis.h"
#include "model/fabric/torusgenerator.h"
#include "model/planning/estimatejson.h"
#include "model/planning/planfabric.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace cp::views {

namespace {

QString thousands(long long value)
{
    return QLocale(QLocale::English).toString(value);
}

QString tierText(const model::FabricMetrics &metrics, bool dragonfly)
{
    QStringList parts;
    for (const auto &[tier, count] : metrics.switchesPerTier)
        parts << QStringLiteral("%1 %2").arg(thousands(count), fabricTierName(tier, dragonfly));
    return parts.join(QStringLiteral(" + "));
}

/** Why a derived Dragonfly's routers use fewer ports than the switch has. */
QString dragonflyPortNote(const model::FabricGraph &graph, const model::PlanFabric &fabric,
                          const model::Catalog &catalog)
{
    const int ports = catalog.networkSwitch(fabric.switchId).ports;
    const auto &d = fabric.design.dragonfly;
    if (d.p > 0 || d.a > 0 || d.h > 0)
        return {};
    int routerPorts = 0;
    for (model::FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        if (graph.vertex(v).role == model::FabricVertexRole::Switch) {
            routerPorts = static_cast<int>(boost::degree(v, graph.storage()));
            break;
        }
    if (routerPorts >= ports - 1)
        return {};
    return QObject::tr("each router uses %1 of the %2's %3 ports: the balanced Dragonfly "
                       "(a = 2p = 2h) with the fewest switches for %4 endpoints; set p, a and h "
                       "to use more")
        .arg(routerPorts)
        .arg(QString::fromStdString(catalog.networkSwitch(fabric.switchId).name))
        .arg(ports)
        .arg(thousands(fabric.endpoints));
}

} // namespace

FabricPreview analyseFabricForPlan(const model::Plan &plan, const model::Catalog &catalog)
{
    try {
        const auto f = model::planFabric(plan, catalog);
        if (!f)
            return {QObject::tr("Add servers first: the fabric connects their NICs."), false};
        const model::FabricGraph graph = model::generatePlanFabric(*f);
        const bool torus = plan.fabric.topology == "torus";
        const model::FabricHardware hardware = f->switchId.empty()
            ? model::FabricHardware {}
            : model::fabricHardware(catalog.networkSwitch(f->switchId), catalog.nic(f->nicId),
                                    torus ? 0 : graph.radix);
        const model::FabricMetrics m = model::analyseFabric(graph, hardware);
        QString text = QString::fromStdString(m.description) + QLatin1Char('\n');
        text += QObject::tr("%1 endpoints for %2 NICs, %3, %4 cables (%5 optical)\n")
                    .arg(thousands(m.endpoints), thousands(f->endpoints),
                         torus ? QObject::tr("no switches (the chips route)")
                               : QObject::tr("%1 switches (%2)")
                                     .arg(thousands(m.switches),
                                          tierText(m, plan.fabric.topology == "dragonfly")),
                         thousands(m.links), thousands(m.opticalCables));
        text += QObject::tr("diameter %1 links, average %2 hops\n"
                            "bisection %3 Tb/s = %4 of injection\npower %5 kW, cost $%6")
                    .arg(m.diameter)
                    .arg(m.averageHops, 0, 'f', 2)
                    .arg(m.bisectionBytesPerSecond * 8 / 1e12, 0, 'f', 1)
                    .arg(m.bisectionRatio, 0, 'f', 2)
                    .arg(m.powerWatts() / 1e3, 0, 'f', 1)
                    .arg(QLocale(QLocale::English).toString(m.costUsd(), 'f', 0));
        if (plan.fabric.topology == "dragonfly") {
            const QString note = dragonflyPortNote(graph, *f, catalog);
            if (!note.isEmpty())
                text += QLatin1Char('\n') + note;
        }
        return {text, true};
    } catch (const std::exception &error) {
        return {
            QObject::tr("Cannot build this fabric: %1").arg(QString::fromStdString(error.what())),
            false};
    }
}

FabricGeneratorDialog::FabricGeneratorDialog(const model::Plan &plan,
                                             std::shared_ptr<const model::Catalog> catalog,
                                             QWidget *parent)
    : QDialog(parent)
    , m_plan(plan)
    , m_catalog(std::move(catalog))
    , m_topology(new QComboBox(this))
    , m_tiers(new QSpinBox(this))
    , m_oversubscription(new QDoubleSpinBox(this))
    , m_suNodes(new QSpinBox(this))
    , m_a(new QSpinBox(this))
    , m_p(new QSpinBox(this))
    , m_h(new QSpinBox(this))
    , m_groups(new QSpinBox(this))
    , m_dims(new QLineEdit(this))
    , m_preview(new QLabel(this))
{
    setWindowTitle(tr("Generate topology"));
    setFieldsFrom(plan);
    buildLayout();
    connectPreview();
    showTopologyFields();
    schedulePreview();
}

/** The fields' ranges and names, filled from the plan's fabric. */
void FabricGeneratorDialog::setFieldsFrom(const model::Plan &plan)
{
    // Names for tests and accessibility tools.
    m_topology->setObjectName(QStringLiteral("topology"));
    m_tiers->setObjectName(QStringLiteral("tiers"));
    m_oversubscription->setObjectName(QStringLiteral("oversubscription"));
    m_suNodes->setObjectName(QStringLiteral("serversPerScalableUnit"));
    m_a->setObjectName(QStringLiteral("dragonflyA"));
    m_p->setObjectName(QStringLiteral("dragonflyP"));
    m_h->setObjectName(QStringLiteral("dragonflyH"));
    m_groups->setObjectName(QStringLiteral("dragonflyGroups"));
    m_dims->setObjectName(QStringLiteral("torusDims"));
    for (const char *t : {"fat-tree", "rail-fat-tree", "dragonfly", "torus"})
        m_topology->addItem(QString::fromLatin1(t));
    const model::FabricPlan &f = plan.fabric;
    if (f.topology != "none")
        m_topology->setCurrentText(QString::fromStdString(f.topology));
    m_tiers->setRange(0, 4); // 0 reads "fewest that fit"
    m_tiers->setSpecialValueText(tr("fewest that fit"));
    m_tiers->setValue(f.tiers);
    m_oversubscription->setRange(1, 64);
    m_oversubscription->setSuffix(QStringLiteral(":1"));
    m_oversubscription->setValue(f.oversubscription);
    m_suNodes->setRange(0, 4096);
    m_suNodes->setSpecialValueText(tr("fewest switches"));
    m_suNodes->setValue(f.nodesPerScalableUnit);
    for (QSpinBox *box : {m_a, m_p, m_h, m_groups}) {
        box->setRange(0, 100000);
        box->setSpecialValueText(tr("derived"));
    }
    m_a->setValue(f.dragonflyA);
    m_p->setValue(f.dragonflyP);
    m_h->setValue(f.dragonflyH);
    m_groups->setValue(f.dragonflyGroups);
    m_dims->setText(f.torusDims.empty() ? defaultTorusDims(plan)
                                        : QString::fromStdString(f.torusDims));
    m_preview->setWordWrap(true);
    m_preview->setMinimumHeight(110);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void FabricGeneratorDialog::buildLayout()
{
    m_form = new QFormLayout;
    m_form->addRow(tr("Topology"), m_topology);
    m_form->addRow(tr("Tiers"), m_tiers);
    m_form->addRow(tr("Leaf oversubscription"), m_oversubscription);
    m_form->addRow(tr("Servers per scalable unit"), m_suNodes);
    m_form->addRow(tr("Routers per group (a)"), m_a);
    m_form->addRow(tr("Endpoints per router (p)"), m_p);
    m_form->addRow(tr("Global links per router (h)"), m_h);
    m_form->addRow(tr("Groups"), m_groups);
    m_form->addRow(tr("Dimensions"), m_dims);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_generate = buttons->button(QDialogButtonBox::Ok);
    m_generate->setText(tr("Generate"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addWidget(m_preview);
    layout->addWidget(buttons);
}

/** Any change of a field previews the fabric again in the background; a stale result is
 * dropped and asked for again. */
void FabricGeneratorDialog::connectPreview()
{
    connect(m_topology, &QComboBox::currentTextChanged, this, [this] {
        showTopologyFields();
        schedulePreview();
    });
    for (QSpinBox *box : {m_tiers, m_suNodes, m_a, m_p, m_h, m_groups})
        connect(box, &QSpinBox::valueChanged, this, &FabricGeneratorDialog::schedulePreview);
    connect(m_oversubscription, &QDoubleSpinBox::valueChanged, this,
            &FabricGeneratorDialog::schedulePreview);
    connect(m_dims, &QLineEdit::editingFinished, this, &FabricGeneratorDialog::schedulePreview);
    connect(&m_watcher, &QFutureWatcher<FabricPreview>::finished, this, [this] {
        if (m_watcher.property("generation").toULongLong() != m_generation) {
            schedulePreview(); // parameters changed while it ran: the result is stale
            return;
        }
        const FabricPreview preview = m_watcher.result();
        m_preview->setText(preview.text);
        m_generate->setEnabled(preview.buildable);
        m_generate->setToolTip(preview.buildable ? QString() : preview.text);
    });
}

QString FabricGeneratorDialog::defaultTorusDims(const model::Plan &plan) const
{
    // One chip per NIC of the plan's servers; 4x4x4 (a TPU v4 cube) when there are none yet.
    model::Plan sized = plan;
    sized.fabric.topology = "torus";
    sized.fabric.torusDims.clear();
    try {
        if (const auto f = model::planFabric(sized, *m_catalog))
            return QString::fromStdString(model::torusDimsText(f->design.torus.dims));
    } catch (const std::exception &) { }
    return QStringLiteral("4x4x4");
}

void FabricGeneratorDialog::showTopologyFields()
{
    const QString topology = m_topology->currentText();
    const bool fatTree = topology == QLatin1String("fat-tree");
    const bool rail = topology == QLatin1String("rail-fat-tree");
    const bool dragonfly = topology == QLatin1String("dragonfly");
    const bool torus = topology == QLatin1String("torus");
    m_form->setRowVisible(m_tiers, fatTree || rail);
    m_form->setRowVisible(m_oversubscription, fatTree || rail);
    m_form->setRowVisible(m_suNodes, rail);
    for (QSpinBox *box : {m_a, m_p, m_h, m_groups})
        m_form->setRowVisible(box, dragonfly);
    m_form->setRowVisible(m_dims, torus);
}

bool FabricGeneratorDialog::isFieldShown(QWidget *field) const
{
    return m_form->isRowVisible(field);
}

void FabricGeneratorDialog::accept()
{
    if (canGenerate())
        QDialog::accept();
}

bool FabricGeneratorDialog::canGenerate() const
{
    return m_generate->isEnabled();
}

FabricGeneratorDialog::~FabricGeneratorDialog()
{
    m_watcher.waitForFinished();
}

model::Plan FabricGeneratorDialog::result() const
{
    model::Plan plan = m_plan;
    model::FabricPlan &f = plan.fabric;
    f.topology = m_topology->currentText().toStdString();
    f.tiers = m_tiers->value();
    f.oversubscription = m_oversubscription->value();
    f.nodesPerScalableUnit = m_suNodes->value();
    f.dragonflyA = m_a->value();
    f.dragonflyP = m_p->value();
    f.dragonflyH = m_h->value();
    f.dragonflyGroups = m_groups->value();
    f.torusDims = f.topology == "torus" ? m_dims->text().toStdString() : std::string();
    return plan;
}

QString FabricGeneratorDialog::previewText() const
{
    return m_preview->text();
}

void FabricGeneratorDialog::waitForPreview()
{
    while (m_watcher.isRunning() || m_preview->text().startsWith(tr("Analysing"))) {
        m_watcher.waitForFinished();
        QCoreApplication::processEvents();
    }
}

void FabricGeneratorDialog::schedulePreview()
{
    ++m_generation;
    m_preview->setText(tr("Analysing…"));
    m_generate->setEnabled(false); // until this fabric is known to carry the plan
    // A running analysis cannot be interrupted; when it finishes its result is dropped and the
    // newest parameters are analysed, so the GUI thread never waits.
    if (m_watcher.isRunning())
        return;
    const model::Plan plan = result();
    auto catalog = m_catalog;
    m_watcher.setProperty("generation", QVariant::fromValue(m_generation));
    m_watcher.setFuture(
        QtConcurrent::run([plan, catalog] { return analyseFabricForPlan(plan, *catalog); }));
}

} // namespace cp::views
