// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabricgeneratordialog.h"

#include "model/estimatejson.h"
#include "model/fabricanalysis.h"
#include "model/planfabric.h"
#include "model/units.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace cp::views {

namespace {

QString analyse(const model::Plan &plan, std::shared_ptr<const model::Catalog> catalog)
{
    try {
        const auto f = model::planFabric(plan, *catalog);
        if (!f)
            return QObject::tr("Add servers first: the fabric connects their NICs.");
        const model::FabricGraph graph = model::generateFabric(f->design);
        model::FabricHardware hardware;
        if (!f->switchId.empty())
            hardware
                = model::fabricHardware(catalog->networkSwitch(f->switchId), catalog->nic(f->nicId),
                                        plan.fabric.topology == "torus" ? 0 : graph.radix);
        const model::FabricMetrics m = model::analyseFabric(graph, hardware);
        QString tiers;
        for (const auto &[tier, count] : m.switchesPerTier)
            tiers += QObject::tr("%1 tier-%2 ").arg(count).arg(tier);
        return QObject::tr("%1\n%2 endpoints, %3 switches (%4), %5 cables (%6 optical)\n"
                           "diameter %7 links, average %8 hops\n"
                           "bisection %9 Tb/s = %10 of injection\npower %11 kW, cost $%12")
            .arg(QString::fromStdString(m.description))
            .arg(m.endpoints)
            .arg(m.switches)
            .arg(tiers.trimmed())
            .arg(m.links)
            .arg(m.opticalCables)
            .arg(m.diameter)
            .arg(m.averageHops, 0, 'f', 2)
            .arg(m.bisectionBytesPerSecond * 8 / 1e12, 0, 'f', 1)
            .arg(m.bisectionRatio, 0, 'f', 2)
            .arg(m.powerWatts() / 1e3, 0, 'f', 1)
            .arg(m.costUsd(), 0, 'f', 0);
    } catch (const std::exception &error) {
        return QObject::tr("Cannot build this fabric: %1")
            .arg(QString::fromStdString(error.what()));
    }
}

} // namespace

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
    for (const char *t : {"fat-tree", "rail-fat-tree", "dragonfly", "torus"})
        m_topology->addItem(QString::fromLatin1(t));
    const model::FabricPlan &f = plan.fabric;
    if (f.topology != "none")
        m_topology->setCurrentText(QString::fromStdString(f.topology));
    m_tiers->setRange(0, 3); // 0 reads "fewest that fit"
    m_tiers->setSpecialValueText(tr("fewest that fit"));
    m_tiers->setValue(f.tiers);
    m_oversubscription->setRange(1, 64);
    m_oversubscription->setSuffix(QStringLiteral(":1"));
    m_oversubscription->setValue(f.oversubscription);
    m_suNodes->setRange(1, 4096);
    m_suNodes->setValue(f.nodesPerScalableUnit);
    for (QSpinBox *box : {m_a, m_p, m_h, m_groups}) {
        box->setRange(0, 100000);
        box->setSpecialValueText(tr("derived"));
    }
    m_a->setValue(f.dragonflyA);
    m_p->setValue(f.dragonflyP);
    m_h->setValue(f.dragonflyH);
    m_groups->setValue(f.dragonflyGroups);
    m_dims->setText(f.torusDims.empty() ? QStringLiteral("4x4x4")
                                        : QString::fromStdString(f.torusDims));
    m_preview->setWordWrap(true);
    m_preview->setMinimumHeight(110);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(tr("Topology"), m_topology);
    form->addRow(tr("Fat-tree tiers"), m_tiers);
    form->addRow(tr("Leaf oversubscription"), m_oversubscription);
    form->addRow(tr("Rail: servers per scalable unit"), m_suNodes);
    form->addRow(tr("Dragonfly a (routers/group)"), m_a);
    form->addRow(tr("Dragonfly p (endpoints/router)"), m_p);
    form->addRow(tr("Dragonfly h (global links/router)"), m_h);
    form->addRow(tr("Dragonfly groups"), m_groups);
    form->addRow(tr("Torus dimensions"), m_dims);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Generate"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_preview);
    layout->addWidget(buttons);

    connect(m_topology, &QComboBox::currentTextChanged, this,
            &FabricGeneratorDialog::schedulePreview);
    for (QSpinBox *box : {m_tiers, m_suNodes, m_a, m_p, m_h, m_groups})
        connect(box, &QSpinBox::valueChanged, this, &FabricGeneratorDialog::schedulePreview);
    connect(m_oversubscription, &QDoubleSpinBox::valueChanged, this,
            &FabricGeneratorDialog::schedulePreview);
    connect(m_dims, &QLineEdit::editingFinished, this, &FabricGeneratorDialog::schedulePreview);
    connect(&m_watcher, &QFutureWatcher<QString>::finished, this, [this] {
        if (m_watcher.property("generation").toULongLong() == m_generation)
            m_preview->setText(m_watcher.result());
        else
            schedulePreview(); // parameters changed while it ran: the result is stale
    });
    schedulePreview();
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
    // A running analysis cannot be interrupted; when it finishes its result is dropped and the
    // newest parameters are analysed, so the GUI thread never waits.
    if (m_watcher.isRunning())
        return;
    const model::Plan plan = result();
    auto catalog = m_catalog;
    m_watcher.setProperty("generation", QVariant::fromValue(m_generation));
    m_watcher.setFuture(QtConcurrent::run([plan, catalog] { return analyse(plan, catalog); }));
}

} // namespace cp::views
