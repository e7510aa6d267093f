// SPDX-License-Identifier: GPL-3.0-or-later
#include "propertyeditor.h"

#include "plandocument.h"

#include "model/fabricdesign.h"
#include "model/servingengine.h"
#include "model/trainingframework.h"
#include "model/transformershape.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cp::views {

namespace {

QComboBox *idCombo(const model::Catalog &catalog, model::CatalogKind kind,
                   const std::string &current, const QString &noneText, QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    if (!noneText.isEmpty())
        combo->addItem(noneText, QString());
    for (const std::string &id : catalog.ids(kind))
        combo->addItem(QString::fromStdString(catalog.entryJson(id).value("name", id)),
                       QString::fromStdString(id));
    const int index = combo->findData(QString::fromStdString(current));
    combo->setCurrentIndex(index >= 0 ? index : 0);
    return combo;
}

} // namespace

PropertyEditor::PropertyEditor(PlanDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_title(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    layout->addWidget(m_title);
    layout->addStretch(1);
    connect(m_document, &PlanDocument::planChanged, this, [this](PlanParts parts) {
        // A card moved: no field of any form changed.
        if (!m_applying && !onlyLayoutChanged(parts))
            rebuild();
    });
}

void PropertyEditor::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
    rebuild();
}

void PropertyEditor::setKey(const QString &key)
{
    m_key = key;
    rebuild();
}

template<typename Change> void PropertyEditor::apply(const QString &text, Change change)
{
    model::Plan plan = m_document->plan();
    change(plan);
    m_applying = true;
    m_document->edit(plan, text);
    m_applying = false;
}

void PropertyEditor::rebuild()
{
    delete m_form;
    m_form = new QWidget(this);
    m_layout = new QFormLayout(m_form);
    static_cast<QVBoxLayout *>(layout())->insertWidget(1, m_form);
    if (!m_catalog)
        return;
    const model::Plan &plan = m_document->plan();
    if (m_key.startsWith(QStringLiteral("group:"))
        && m_key.mid(6).toInt() < static_cast<int>(plan.nodeGroups.size()))
        buildGroup(m_key.mid(6).toInt());
    else if (m_key == QStringLiteral("fabric"))
        buildFabric();
    else if (m_key.startsWith(QStringLiteral("storage:"))
             && m_key.mid(8).toInt() < static_cast<int>(plan.storage.size()))
        buildStorage(m_key.mid(8).toInt());
    else if (m_key == QStringLiteral("workload"))
        buildWorkload();
    else if (m_key == QStringLiteral("facility"))
        buildFacility();
    else
        buildPlan();
}

void PropertyEditor::buildPlan()
{
    // With a scenario selected, the name is the scenario's (PlanDocument::edit renames it).
    m_title->setText(m_document->activeScenario() >= 0 ? tr("Scenario") : tr("Plan"));
    auto *name = new QLineEdit(QString::fromStdString(m_document->plan().name), m_form);
    name->setCursorPosition(0); // show a long name from its start
    name->setToolTip(name->text());
    connect(name, &QLineEdit::editingFinished, this, [this, name] {
        if (name->text().toStdString() != m_document->plan().name)
            apply(tr("Rename plan"), [&](model::Plan &p) { p.name = name->text().toStdString(); });
    });
    m_layout->addRow(tr("Name"), name);
    auto *hint = new QLabel(tr("Select a card on the canvas to edit it. Drag servers from the "
                               "palette to add them."),
                            m_form);
    hint->setWordWrap(true);
    m_layout->addRow(hint);
}

void PropertyEditor::buildGroup(int index)
{
    const model::NodeGroup &g = m_document->plan().nodeGroups[index];
    m_title->setText(tr("Server group"));
    auto *name = new QLineEdit(QString::fromStdString(g.name), m_form);
    name->setCursorPosition(0);
    connect(name, &QLineEdit::editingFinished, this, [this, name, index] {
        if (name->text().toStdString() != m_document->plan().nodeGroups[index].name)
            apply(tr("Rename group"),
                  [&](model::Plan &p) { p.nodeGroups[index].name = name->text().toStdString(); });
    });
    m_layout->addRow(tr("Name"), name);
    auto *node = idCombo(*m_catalog, model::CatalogKind::Node, g.nodeId, QString(), m_form);
    connect(node, &QComboBox::currentIndexChanged, this, [this, node, index] {
        apply(tr("Change server type"), [&](model::Plan &p) {
            p.nodeGroups[index].nodeId = node->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Server type"), node);
    auto *count = new QSpinBox(m_form);
    count->setRange(1, 4194304);
    count->setValue(g.count);
    count->setSuffix(tr(" servers"));
    connect(count, &QSpinBox::editingFinished, this, [this, count, index] {
        if (count->value() != m_document->plan().nodeGroups[index].count)
            apply(tr("Change server count"),
                  [&](model::Plan &p) { p.nodeGroups[index].count = count->value(); });
    });
    m_layout->addRow(tr("Count"), count);
    auto *rack
        = idCombo(*m_catalog, model::CatalogKind::Rack, g.rackId, tr("(not racked)"), m_form);
    connect(rack, &QComboBox::currentIndexChanged, this, [this, rack, index] {
        apply(tr("Change rack"), [&](model::Plan &p) {
            p.nodeGroups[index].rackId = rack->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Rack"), rack);
    auto *perRack = new QSpinBox(m_form);
    perRack->setRange(0, 256);
    perRack->setSpecialValueText(tr("as many as fit"));
    perRack->setValue(g.nodesPerRack);
    connect(perRack, &QSpinBox::editingFinished, this, [this, perRack, index] {
        if (perRack->value() != m_document->plan().nodeGroups[index].nodesPerRack)
            apply(tr("Change servers per rack"),
                  [&](model::Plan &p) { p.nodeGroups[index].nodesPerRack = perRack->value(); });
    });
    m_layout->addRow(tr("Servers per rack"), perRack);
    auto *onFabric = new QCheckBox(tr("Cabled to the fabric"), m_form);
    onFabric->setChecked(g.onFabric);
    onFabric->setToolTip(tr("Off the fabric, the group's NICs are unused and its GPUs cannot join "
                            "a multi-node training job (drag its port onto the fabric card)"));
    connect(onFabric, &QCheckBox::toggled, this, [this, index](bool on) {
        apply(on ? tr("Connect group to the fabric") : tr("Disconnect group from the fabric"),
              [&](model::Plan &p) { p.nodeGroups[index].onFabric = on; });
    });
    m_layout->addRow(tr("Network"), onFabric);
}

void PropertyEditor::buildFabric()
{
    const model::FabricPlan &f = m_document->plan().fabric;
    m_title->setText(tr("Fabric"));
    auto *topology = new QComboBox(m_form);
    for (const char *t : {"fat-tree", "rail-fat-tree", "dragonfly", "torus", "none"})
        topology->addItem(QString::fromLatin1(t));
    topology->setCurrentText(QString::fromStdString(f.topology));
    connect(topology, &QComboBox::currentTextChanged, this, [this](const QString &text) {
        apply(tr("Change topology"),
              [&](model::Plan &p) { p.fabric.topology = text.toStdString(); });
    });
    m_layout->addRow(tr("Topology"), topology);
    auto *nic
        = idCombo(*m_catalog, model::CatalogKind::Nic, f.nicId, tr("(the server's NIC)"), m_form);
    connect(nic, &QComboBox::currentIndexChanged, this, [this, nic] {
        apply(tr("Change NIC"), [&](model::Plan &p) {
            p.fabric.nicId = nic->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("NIC"), nic);
    auto *nics = new QSpinBox(m_form);
    nics->setRange(0, 64);
    nics->setSpecialValueText(tr("the server's count"));
    nics->setValue(f.nicsPerNode);
    connect(nics, &QSpinBox::editingFinished, this, [this, nics] {
        if (nics->value() != m_document->plan().fabric.nicsPerNode)
            apply(tr("Change NICs per server"),
                  [&](model::Plan &p) { p.fabric.nicsPerNode = nics->value(); });
    });
    m_layout->addRow(tr("NICs per server"), nics);
    auto *sw = idCombo(*m_catalog, model::CatalogKind::Switch, f.switchId, tr("(matching the NIC)"),
                       m_form);
    connect(sw, &QComboBox::currentIndexChanged, this, [this, sw] {
        apply(tr("Change switch"), [&](model::Plan &p) {
            p.fabric.switchId = sw->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Switch"), sw);
    auto *tiers = new QSpinBox(m_form);
    // The plan format's tiers: 0 for the fewest that hold the NICs, 1 a single switch, 2 or 3.
    tiers->setRange(0, 3);
    tiers->setSpecialValueText(tr("fewest"));
    tiers->setValue(f.tiers);
    tiers->setToolTip(tr("Fat-tree tiers: \"fewest\" lets the generator pick the fewest that "
                         "hold every NIC; 1 is a single switch"));
    connect(tiers, &QSpinBox::editingFinished, this, [this, tiers] {
        if (tiers->value() != m_document->plan().fabric.tiers)
            apply(tr("Change tiers"), [&](model::Plan &p) { p.fabric.tiers = tiers->value(); });
    });
    m_layout->addRow(tr("Tiers"), tiers);
    auto *over = new QDoubleSpinBox(m_form);
    over->setRange(1.0, 64.0);
    over->setDecimals(2);
    over->setSuffix(QStringLiteral(":1"));
    over->setValue(f.oversubscription);
    connect(over, &QDoubleSpinBox::editingFinished, this, [this, over] {
        if (over->value() != m_document->plan().fabric.oversubscription)
            apply(tr("Change oversubscription"),
                  [&](model::Plan &p) { p.fabric.oversubscription = over->value(); });
    });
    m_layout->addRow(tr("Oversubscription"), over);
    auto *generate = new QPushButton(tr("Generate topology…"), m_form);
    connect(generate, &QPushButton::clicked, this, &PropertyEditor::generateFabricRequested);
    m_layout->addRow(generate);
}

void PropertyEditor::buildStorage(int index)
{
    const model::StoragePlan &s = m_document->plan().storage[index];
    m_title->setText(tr("Storage"));
    m_layout->addRow(
        tr("Type"),
        new QLabel(QString::fromStdString(m_catalog->storage(s.storageId).name), m_form));
    auto *count = new QSpinBox(m_form);
    count->setRange(1, 100000);
    count->setValue(s.count);
    connect(count, &QSpinBox::editingFinished, this, [this, count, index] {
        if (count->value() != m_document->plan().storage[index].count)
            apply(tr("Change storage count"),
                  [&](model::Plan &p) { p.storage[index].count = count->value(); });
    });
    m_layout->addRow(tr("Systems"), count);
    auto *onFabric = new QCheckBox(tr("Cabled to the fabric"), m_form);
    onFabric->setChecked(s.onFabric);
    onFabric->setToolTip(tr("Off the fabric, the servers cannot checkpoint to it or read "
                            "training data from it"));
    connect(onFabric, &QCheckBox::toggled, this, [this, index](bool on) {
        apply(on ? tr("Connect storage to the fabric") : tr("Disconnect storage from the fabric"),
              [&](model::Plan &p) { p.storage[index].onFabric = on; });
    });
    m_layout->addRow(tr("Network"), onFabric);
}

void PropertyEditor::buildWorkload()
{
    const model::Plan &plan = m_document->plan();
    m_title->setText(tr("Workload"));
    auto *type = new QComboBox(m_form);
    type->addItems({tr("None"), tr("Training"), tr("Inference")});
    type->setCurrentIndex(static_cast<int>(plan.workloadType));
    connect(type, &QComboBox::currentIndexChanged, this, [this](int index) {
        apply(tr("Change workload"), [&](model::Plan &p) {
            p.workloadType = static_cast<model::WorkloadType>(index);
            if (p.workloadType == model::WorkloadType::Training && p.trainingModelId.empty())
                p.trainingModelId = "llama-3-70b";
            if (p.workloadType == model::WorkloadType::Training && p.training.seqLen <= 0) {
                p.training.seqLen = 4096;
                p.training.globalBatch = 1024;
            }
            if (p.workloadType == model::WorkloadType::Training && p.training.tokens <= 0)
                p.training.tokens
                    = model::TransformerShape::fromModel(m_catalog->llm(p.trainingModelId))
                          .computeOptimalTrainingTokens();
            if (p.workloadType == model::WorkloadType::Inference && p.inference.modelId.empty()) {
                p.inference.modelId = "llama-3-70b";
                p.inference.inputTokens = 1024;
                p.inference.outputTokens = 256;
            }
        });
    });
    m_layout->addRow(tr("Kind"), type);
    if (plan.workloadType == model::WorkloadType::Training) {
        auto *modelCombo = idCombo(*m_catalog, model::CatalogKind::Model, plan.trainingModelId,
                                   QString(), m_form);
        connect(modelCombo, &QComboBox::currentIndexChanged, this, [this, modelCombo] {
            apply(tr("Change model"), [&](model::Plan &p) {
                p.trainingModelId = modelCombo->currentData().toString().toStdString();
            });
        });
        m_layout->addRow(tr("Model"), modelCombo);
        auto *tokens = new QDoubleSpinBox(m_form);
        tokens->setRange(0, 1e6);
        tokens->setDecimals(0);
        tokens->setSuffix(tr(" B tokens"));
        tokens->setValue(plan.training.tokens / 1e9);
        connect(tokens, &QDoubleSpinBox::editingFinished, this, [this, tokens] {
            apply(tr("Change token count"),
                  [&](model::Plan &p) { p.training.tokens = tokens->value() * 1e9; });
        });
        m_layout->addRow(tr("Tokens"), tokens);
        // The training software decides kernels and overlap (trainingframework.h).
        auto *framework = new QComboBox(m_form);
        for (const model::TrainingFramework &profile : model::trainingFrameworks())
            framework->addItem(QString::fromStdString(profile.name),
                               QString::fromStdString(profile.id));
        framework->setCurrentIndex(
            framework->findData(QString::fromStdString(plan.training.framework.id)));
        framework->setToolTip(QString::fromStdString(plan.training.framework.source));
        connect(framework, &QComboBox::currentIndexChanged, this, [this, framework] {
            const std::string id = framework->currentData().toString().toStdString();
            apply(tr("Change training software"), [&](model::Plan &p) {
                if (const model::TrainingFramework *profile = model::findTrainingFramework(id))
                    p.training.framework = *profile;
            });
        });
        m_layout->addRow(tr("Software"), framework);
    } else if (plan.workloadType == model::WorkloadType::Inference) {
        auto *modelCombo = idCombo(*m_catalog, model::CatalogKind::Model, plan.inference.modelId,
                                   QString(), m_form);
        connect(modelCombo, &QComboBox::currentIndexChanged, this, [this, modelCombo] {
            apply(tr("Change model"), [&](model::Plan &p) {
                p.inference.modelId = modelCombo->currentData().toString().toStdString();
            });
        });
        m_layout->addRow(tr("Model"), modelCombo);
        // The serving engine decides prompt scheduling and the K/V cache's memory
        // (servingengine.h).
        auto *engine = new QComboBox(m_form);
        for (const model::ServingEngine &profile : model::servingEngines())
            engine->addItem(QString::fromStdString(profile.name),
                            QString::fromStdString(profile.id));
        const std::string engineId = plan.inference.engineId.empty()
            ? model::defaultServingEngine().id
            : plan.inference.engineId;
        engine->setCurrentIndex(engine->findData(QString::fromStdString(engineId)));
        connect(engine, &QComboBox::currentIndexChanged, this, [this, engine] {
            const std::string id = engine->currentData().toString().toStdString();
            apply(tr("Change serving engine"), [&](model::Plan &p) { p.inference.engineId = id; });
        });
        m_layout->addRow(tr("Engine"), engine);
    }
}

void PropertyEditor::buildFacility()
{
    m_title->setText(tr("Facility"));
    auto *facility = idCombo(*m_catalog, model::CatalogKind::Facility,
                             m_document->plan().facility.facilityId, tr("(none: PUE 1.0)"), m_form);
    connect(facility, &QComboBox::currentIndexChanged, this, [this, facility] {
        apply(tr("Change facility"), [&](model::Plan &p) {
            p.facility = {};
            p.facility.facilityId = facility->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Facility"), facility);
}

} // namespace cp::views
