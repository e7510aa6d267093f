// SPDX-License-Identifier: GPL-3.0-or-later
#include "propertyeditor.h"

#include "humannumbers.h"
#include "plandocument.h"
#include "propertyfields.h"

#include "model/core/inputerror.h"
#include "model/core/units.h"
#include "model/fabric/fabricdesign.h"
#include "model/inference/inferenceestimate.h"
#include "model/inference/servingengine.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/planfabric.h"
#include "model/training/trainingframework.h"
#include "model/training/transformershape.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <map>

namespace cp::views {

namespace {

QComboBox *idCombo(const model::Catalog &catalog, model::CatalogKind kind,
                   const std::string &current, const QString &noneText, QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
    if (!noneText.isEmpty())
        combo->addItem(noneText, QString());
    for (const std::string &id : catalog.ids(kind))
        combo->addItem(QString::fromStdString(catalog.nameOf(id)), QString::fromStdString(id));
    const int index = combo->findData(QString::fromStdString(current));
    combo->setCurrentIndex(index >= 0 ? index : 0);
    for (int item = 0; item < combo->count(); ++item)
        combo->setItemData(item, combo->itemText(item), Qt::ToolTipRole);
    PropertyFields::fitChoiceToItems(combo);
    combo->setToolTip(combo->currentText()); // whole, where a narrow dock cuts the shown name
    return combo;
}

/** The layout's dimensions the form shows, by their plan key, with their row labels (the
 * bounds are parallelismDimensions()'; ZeRO is a choice of its own). */
const std::map<std::string, QString> &layoutDimensionLabels()
{
    static const std::map<std::string, QString> labels {
        {"tp", PropertyEditor::tr("Tensor parallel")},
        {"pp", PropertyEditor::tr("Pipeline parallel")},
        {"dp", PropertyEditor::tr("Data parallel")},
        {"cp", PropertyEditor::tr("Context parallel")},
        {"ep", PropertyEditor::tr("Expert parallel")},
        {"etp", PropertyEditor::tr("Expert tensor parallel")},
        {"microbatch", PropertyEditor::tr("Microbatch")},
        {"interleave", PropertyEditor::tr("Interleave")},
        {"first_stage_layers", PropertyEditor::tr("First stage layers")},
        {"last_stage_layers", PropertyEditor::tr("Last stage layers")}};
    return labels;
}

/** The dimension `key`'s value in `layout`; 0 where the search leaves it to an even share
 * (first and last stage layers). */
int chosenValue(const model::ParallelConfig &layout, const std::string &key)
{
    const std::map<std::string, int> values {{"tp", layout.tp},
                                             {"pp", layout.pp},
                                             {"dp", layout.dp},
                                             {"cp", layout.cp},
                                             {"ep", layout.ep},
                                             {"etp", model::expertTensorParallel(layout)},
                                             {"microbatch", layout.microbatch},
                                             {"interleave", layout.interleave},
                                             {"first_stage_layers", layout.firstStageLayers},
                                             {"last_stage_layers", layout.lastStageLayers}};
    const auto value = values.find(key);
    return value == values.end() ? 0 : value->second;
}

} // namespace

PropertyEditor::PropertyEditor(PlanDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_title(new QLabel(this))
    , m_error(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    layout->addWidget(m_title);
    layout->addStretch(1);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    m_error->hide();
    layout->addWidget(m_error);
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
    // A refusal belongs to the form it was made on: it stayed in red over the next card's.
    if (key != m_key) {
        m_error->hide();
        m_error->clear();
    }
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

void PropertyEditor::applyChecked(const QString &text,
                                  const std::function<void(model::Plan &)> &change)
{
    try {
        model::Plan changed = m_document->plan();
        change(changed);
        // The loader's checks and messages, on the plan as a file would hold it.
        const model::Plan checked
            = model::parsePlan(model::planToJson(changed), "Properties", m_catalog.get());
        // A switch that cannot carry the fabric's NICs, as a drop refuses it: the plan would
        // only say its fabric cannot be built (a NIC changed to RoCE under InfiniBand switches).
        const auto mismatch = [this](const model::Plan &plan) {
            const auto fabric = model::planFabric(plan, *m_catalog);
            return fabric ? fabric->switchMismatch : std::string();
        };
        if (const std::string problem = mismatch(checked);
            !problem.empty() && mismatch(m_document->plan()).empty())
            throw model::InputError("Properties", "/fabric", problem);
        m_error->hide();
        m_error->clear();
        m_applying = true;
        m_document->edit(checked, text);
        m_applying = false;
        rebuild(); // dependent fields (a framework's defaults) show the new values
    } catch (const std::exception &error) {
        m_error->setText(tr("Not changed: %1").arg(QString::fromStdString(error.what())));
        m_error->show();
        rebuild(); // the form shows the plan as it still is
    }
}

QString PropertyEditor::lastError() const
{
    return m_error->text();
}

void PropertyEditor::rebuild()
{
    if (m_form) {
        // Later, not now: the rebuild may run inside a signal of one of the form's own widgets.
        m_form->hide();
        m_form->setParent(nullptr);
        m_form->deleteLater();
    }
    m_form = new QWidget(this);
    m_layout = new QFormLayout(m_form);
    // A choice whose names do not fit beside its label goes below it, at the form's width.
    m_layout->setRowWrapPolicy(QFormLayout::WrapLongRows);
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
    // Rows at their natural height: the Properties dock scrolls rather than squeezing them.
    m_form->setMinimumHeight(m_form->sizeHint().height());
}

void PropertyEditor::buildPlan()
{
    // With a scenario selected, the name is the scenario's (PlanDocument::edit renames it).
    m_title->setText(m_document->activeScenario() >= 0 ? tr("Scenario") : tr("Plan"));
    auto *name = new QLineEdit(QString::fromStdString(m_document->plan().name), m_form);
    name->setCursorPosition(0); // show a long name from its start
    name->setToolTip(name->text());
    connect(name, &QLineEdit::editingFinished, this, [this, name] {
        const std::string typed = name->text().trimmed().toStdString();
        if (typed == m_document->plan().name)
            return;
        // A scenario's name must stay unique and apart from the baseline's, and the plan's
        // apart from its scenarios' and never blank (a blank one was saved to a file that would
        // not open): refused names said nothing, the form kept them and an empty undo step was
        // pushed.
        const int scenario = m_document->activeScenario();
        const std::string problem = scenario >= 0
            ? model::scenarioNameProblem(m_document->documentPlan(), typed, scenario)
            : model::planNameProblem(m_document->documentPlan(), typed);
        if (!problem.empty()) {
            m_error->setText(tr("Not changed: %1").arg(QString::fromStdString(problem)));
            m_error->show();
            rebuild(); // the form shows the name it still has
            return;
        }
        apply(scenario >= 0 ? tr("Rename scenario") : tr("Rename plan"),
              [&](model::Plan &p) { p.name = typed; });
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
        // The job classes that run on the group (its partition) follow it; the loader's
        // checks refuse what would leave one on no group.
        if (name->text().toStdString() != m_document->plan().nodeGroups[index].name)
            applyChecked(tr("Rename group"), [&](model::Plan &p) {
                model::renameServerGroup(p, static_cast<std::size_t>(index),
                                         name->text().toStdString());
            });
    });
    m_layout->addRow(tr("Name"), name);
    auto *node = idCombo(*m_catalog, model::CatalogKind::Node, g.nodeId, QString(), m_form);
    connect(node, &QComboBox::currentIndexChanged, this, [this, node, index] {
        applyChecked(tr("Change server type"), [&](model::Plan &p) {
            p.nodeGroups[index].nodeId = node->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Server type"), node);
    PropertyFields fields(m_layout, m_form, [this](const QString &text, const auto &change) {
        applyChecked(text, change);
    });
    // The plan loader's bounds.
    fields
        .addInteger(tr("Server count"), g.count, 1, model::NodeGroup::maxCount, {},
                    [index](model::Plan &p, std::optional<int> v) {
                        p.nodeGroups[index].count = v.value_or(1);
                    })
        ->setSuffix(tr(" servers"));
    auto *rack
        = idCombo(*m_catalog, model::CatalogKind::Rack, g.rackId, tr("(not racked)"), m_form);
    connect(rack, &QComboBox::currentIndexChanged, this, [this, rack, index] {
        applyChecked(tr("Change rack"), [&](model::Plan &p) {
            model::NodeGroup &group = p.nodeGroups[index];
            group.rackId = rack->currentData().toString().toStdString();
            // Unracked, the group has no cabinets to fill or hall row to stand in (the form
            // has no row field: the refusal "hall_row: needs a rack" left only undo).
            if (group.rackId.empty()) {
                group.nodesPerRack = 0;
                group.hallRow = -1;
            }
        });
    });
    m_layout->addRow(tr("Rack"), rack);
    fields.addInteger(tr("Servers per rack"),
                      g.nodesPerRack > 0 ? std::optional(g.nodesPerRack) : std::nullopt, 1,
                      model::NodeGroup::maxNodesPerRack, tr("as many as fit"),
                      [index](model::Plan &p, std::optional<int> v) {
                          p.nodeGroups[index].nodesPerRack = v.value_or(0);
                      });
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
    PropertyFields::fitChoiceToItems(topology);
    connect(topology, &QComboBox::currentTextChanged, this, [this](const QString &text) {
        applyChecked(tr("Change topology"), [&](model::Plan &p) {
            p.fabric.topology = text.toStdString();
            // Planes are a rail fabric's.
            if (p.fabric.topology != "rail-fat-tree")
                p.fabric.multiPlane = false;
        });
    });
    m_layout->addRow(tr("Topology"), topology);
    auto *nic
        = idCombo(*m_catalog, model::CatalogKind::Nic, f.nicId, tr("(the server's NIC)"), m_form);
    connect(nic, &QComboBox::currentIndexChanged, this, [this, nic] {
        applyChecked(tr("Change NIC"), [&](model::Plan &p) {
            p.fabric.nicId = nic->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("NIC"), nic);
    PropertyFields fields(m_layout, m_form, [this](const QString &text, const auto &change) {
        applyChecked(text, change);
    });
    fields.addInteger(
        tr("NICs per server"), f.nicsPerNode > 0 ? std::optional(f.nicsPerNode) : std::nullopt, 1,
        64, tr("the server's count"),
        [](model::Plan &p, std::optional<int> v) { p.fabric.nicsPerNode = v.value_or(0); });
    auto *sw = idCombo(*m_catalog, model::CatalogKind::Switch, f.switchId, tr("(matching the NIC)"),
                       m_form);
    connect(sw, &QComboBox::currentIndexChanged, this, [this, sw] {
        applyChecked(tr("Change switch"), [&](model::Plan &p) {
            p.fabric.switchId = sw->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Switch"), sw);
    // The plan format's tiers: 0 for the fewest that hold the NICs, 1 a single switch, 2 to 4.
    fields
        .addInteger(tr("Tiers"), f.tiers > 0 ? std::optional(f.tiers) : std::nullopt, 1, 4,
                    tr("fewest"),
                    [](model::Plan &p, std::optional<int> v) { p.fabric.tiers = v.value_or(0); })
        ->setToolTip(tr("Fat-tree tiers: \"fewest\" lets the generator pick the fewest that "
                        "hold every NIC; 1 is a single switch"));
    fields.addNumber(tr("Oversubscription"), f.oversubscription, 1.0, 64.0, 2, QStringLiteral(":1"),
                     {}, [](model::Plan &p, std::optional<double> v) {
                         p.fabric.oversubscription = v.value_or(1.0);
                     });
    if (f.topology == "rail-fat-tree")
        fields
            .addChoice(tr("Planes"),
                       {{tr("one fabric (rails share spines)"), QStringLiteral("shared")},
                        {tr("one plane per rail"), QStringLiteral("multi")}},
                       f.multiPlane ? QStringLiteral("multi") : QStringLiteral("shared"),
                       [](model::Plan &p, const QString &value) {
                           p.fabric.multiPlane = value == QStringLiteral("multi");
                       })
            ->setToolTip(tr("One plane per rail: every rail is a fat-tree of its own, so the "
                            "same switches reach as many servers as a shared fabric reaches "
                            "GPUs"));
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
    PropertyFields fields(m_layout, m_form, [this](const QString &text, const auto &change) {
        applyChecked(text, change);
    });
    fields.addInteger(
        tr("Storage systems"), s.count, 1, 100000, {},
        [index](model::Plan &p, std::optional<int> v) { p.storage[index].count = v.value_or(1); });
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
    PropertyFields::fitChoiceToItems(type);
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
    if (plan.workloadType == model::WorkloadType::Training)
        buildTraining();
    else if (plan.workloadType == model::WorkloadType::Inference)
        buildInference();
}

void PropertyEditor::buildTraining()
{
    PropertyFields fields(m_layout, m_form, [this](const QString &text, const auto &change) {
        applyChecked(text, change);
    });
    addTrainingWorkloadRows(fields);
    addTrainingSoftwareRows(fields);
    addTrainingLayoutRows(fields);
    labelSearchedDimensions();
}

void PropertyEditor::addTrainingWorkloadRows(PropertyFields &fields)
{
    const model::Plan &plan = m_document->plan();
    const model::TrainingJob &job = plan.training;
    auto *modelCombo
        = idCombo(*m_catalog, model::CatalogKind::Model, plan.trainingModelId, QString(), m_form);
    connect(modelCombo, &QComboBox::currentIndexChanged, this, [this, modelCombo] {
        applyChecked(tr("Change model"), [&](model::Plan &p) {
            p.trainingModelId = modelCombo->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Model"), modelCombo);
    auto *dataset = idCombo(*m_catalog, model::CatalogKind::Dataset, plan.trainingDatasetId,
                            tr("(packed text tokens)"), m_form);
    dataset->setToolTip(tr("What the data loader reads: its files, sizes and decode cost set "
                           "the storage the run needs"));
    connect(dataset, &QComboBox::currentIndexChanged, this, [this, dataset] {
        applyChecked(tr("Change dataset"), [&](model::Plan &p) {
            p.trainingDatasetId = dataset->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Dataset"), dataset);
    auto *asyncCheckpoints = new QCheckBox(tr("Asynchronous"), m_form);
    asyncCheckpoints->setChecked(plan.asyncCheckpoints);
    asyncCheckpoints->setToolTip(tr("Copy each checkpoint to host memory and write it to storage "
                                    "in the background: training stops only for the copy"));
    connect(asyncCheckpoints, &QCheckBox::toggled, this, [this](bool on) {
        applyChecked(on ? tr("Checkpoint asynchronously") : tr("Checkpoint synchronously"),
                     [&](model::Plan &p) { p.asyncCheckpoints = on; });
    });
    m_layout->addRow(tr("Checkpoints"), asyncCheckpoints);
    auto *tokens = fields.addText(tr("Tokens"), job.tokens > 0 ? humanCount(job.tokens) : QString(),
                                  tr("e.g. 2T or 300B"), [](model::Plan &p, const QString &text) {
                                      const std::optional<double> count = parseHumanCount(text);
                                      if (!text.trimmed().isEmpty() && (!count || *count <= 0))
                                          throw std::invalid_argument(
                                              "Tokens: expected a count such as 2T, 300B or 2e12, "
                                              "found '"
                                              + text.toStdString() + "'");
                                      p.training.tokens = text.trimmed().isEmpty() ? 0.0 : *count;
                                  });
    tokens->setToolTip(tr("Tokens to train on: 2T, 300B, 2e12"));
    fields.addInteger(tr("Sequence length"), job.seqLen, 1, 1 << 24, QString(),
                      [](model::Plan &p, std::optional<int> v) { p.training.seqLen = *v; });
    fields.addInteger(tr("Global batch"), job.globalBatch, 1, 1 << 24, QString(),
                      [](model::Plan &p, std::optional<int> v) { p.training.globalBatch = *v; });
    fields.addChoice(tr("Precision"),
                     {{QStringLiteral("BF16"), QStringLiteral("bf16")},
                      {QStringLiteral("FP16"), QStringLiteral("fp16")},
                      {QStringLiteral("FP8"), QStringLiteral("fp8")}},
                     QString::fromStdString(model::precisionName(job.precision)),
                     [](model::Plan &p, const QString &v) {
                         p.training.precision = *model::precisionFromName(v.toStdString());
                     });
}

void PropertyEditor::addTrainingSoftwareRows(PropertyFields &fields)
{
    const model::TrainingJob &job = m_document->plan().training;
    // The training software decides kernels and overlap (trainingframework.h).
    std::vector<std::pair<QString, QString>> frameworks;
    for (const model::TrainingFramework &profile : model::trainingFrameworks())
        frameworks.emplace_back(QString::fromStdString(profile.name),
                                QString::fromStdString(profile.id));
    fields
        .addChoice(tr("Software"), frameworks, QString::fromStdString(job.framework.id),
                   [](model::Plan &p, const QString &id) {
                       if (const auto *profile = model::findTrainingFramework(id.toStdString()))
                           p.training.framework = *profile;
                   })
        ->setToolTip(QString::fromStdString(job.framework.source));
    const model::TrainingFramework *profile = model::findTrainingFramework(job.framework.id);
    const model::TrainingFramework &base = profile ? *profile : model::defaultTrainingFramework();
    const auto onOff = [](bool on) {
        return on ? tr("on") : tr("off");
    };
    fields.addChoice(tr("Attention"),
                     {{tr("fused (FlashAttention)"), QStringLiteral("flash")},
                      {tr("unfused"), QStringLiteral("unfused")}},
                     job.framework.attention == model::AttentionKernel::Flash
                         ? QStringLiteral("flash")
                         : QStringLiteral("unfused"),
                     [](model::Plan &p, const QString &v) {
                         p.training.framework.attention = v == QLatin1String("flash")
                             ? model::AttentionKernel::Flash
                             : model::AttentionKernel::Unfused;
                     });
    fields.addChoice(tr("Sequence parallel"),
                     {{onOff(true), QStringLiteral("on")}, {onOff(false), QStringLiteral("off")}},
                     job.framework.sequenceParallel ? QStringLiteral("on") : QStringLiteral("off"),
                     [](model::Plan &p, const QString &v) {
                         p.training.framework.sequenceParallel = v == QLatin1String("on");
                     });
    fields.addChoice(tr("TP comm overlap"),
                     {{onOff(true), QStringLiteral("on")}, {onOff(false), QStringLiteral("off")}},
                     job.framework.tpCommOverlap ? QStringLiteral("on") : QStringLiteral("off"),
                     [](model::Plan &p, const QString &v) {
                         p.training.framework.tpCommOverlap = v == QLatin1String("on");
                     });
    fields.addChoice(tr("MoE comm overlap"),
                     {{onOff(true), QStringLiteral("on")}, {onOff(false), QStringLiteral("off")}},
                     job.framework.moeCommOverlap ? QStringLiteral("on") : QStringLiteral("off"),
                     [](model::Plan &p, const QString &v) {
                         p.training.framework.moeCommOverlap = v == QLatin1String("on");
                     });
    fields
        .addChoice(tr("MoE dispatcher"),
                   {{tr("all-to-all"), QStringLiteral("alltoall")},
                    {tr("DeepEP (deduplicated)"), QStringLiteral("deepep")},
                    {tr("HybridEP (deduplicated)"), QStringLiteral("hybridep")}},
                   QString::fromLatin1(model::moeDispatcherId(job.framework.moeDispatcher)),
                   [](model::Plan &p, const QString &v) {
                       p.training.framework.moeDispatcher
                           = *model::moeDispatcherFromId(v.toStdString());
                   })
        ->setToolTip(tr("All-to-all sends every routed copy of a token; DeepEP and HybridEP "
                        "(Megatron-Core's flex dispatcher) send it once to each GPU and once "
                        "through the network to each node that holds its experts"));
    fields
        .addChoice(tr("Cross-entropy"),
                   {{tr("Megatron, unfused"), QStringLiteral("unfused")},
                    {tr("Megatron, fused"), QStringLiteral("native")},
                    {tr("Transformer Engine"), QStringLiteral("te")}},
                   QString::fromLatin1(model::crossEntropyKernelId(job.framework.crossEntropy)),
                   [](model::Plan &p, const QString &v) {
                       p.training.framework.crossEntropy
                           = *model::crossEntropyKernelFromId(v.toStdString());
                   })
        ->setToolTip(tr("The loss kernel over the logits: Megatron's fp32 passes, unfused or "
                        "fused (cross_entropy_loss_fusion), or Transformer Engine's two-pass "
                        "online softmax (cross_entropy_fusion_impl te), which never copies the "
                        "logits"));
    fields
        .addChoice(tr("Gradient reduction"),
                   {{tr("fp32"), QStringLiteral("fp32")}, {tr("16-bit"), QStringLiteral("16-bit")}},
                   job.framework.bf16GradientsInFp32 ? QStringLiteral("fp32")
                                                     : QStringLiteral("16-bit"),
                   [](model::Plan &p, const QString &v) {
                       p.training.framework.bf16GradientsInFp32 = v == QLatin1String("fp32");
                   })
        ->setToolTip(tr("How BF16 and FP8 runs accumulate and reduce-scatter gradients: fp32 "
                        "as Megatron, NeMo and Megatron-Bridge do by default, or 16-bit "
                        "(--grad-reduce-in-bf16). FP16 runs always use 16 bits"));
    fields
        .addNumber(tr("DP overlap"), job.framework.dpOverlapFraction, 0, 1, 2, QString(), QString(),
                   [](model::Plan &p, std::optional<double> v) {
                       p.training.framework.dpOverlapFraction = *v;
                   })
        ->setToolTip(tr("Share of the backward pass that can hide the gradient sync; %1 for "
                        "this software")
                         .arg(base.dpOverlapFraction));
}

void PropertyEditor::showSearchedLayout(const std::optional<model::ParallelConfig> &layout)
{
    m_searchedLayout = layout;
    labelSearchedDimensions();
}

void PropertyEditor::labelSearchedDimensions()
{
    if (!m_form)
        return;
    for (const auto &[key, label] : layoutDimensionLabels()) {
        auto *box = m_form->findChild<QSpinBox *>(label);
        if (!box || !box->specialValueText().startsWith(tr("searched")))
            continue;
        const int chosen = m_searchedLayout ? chosenValue(*m_searchedLayout, key) : 0;
        box->setSpecialValueText(chosen > 0 ? tr("searched: %1").arg(chosen) : tr("searched"));
    }
}

void PropertyEditor::addTrainingLayoutRows(PropertyFields &fields)
{
    const model::TrainingJob &job = m_document->plan().training;
    // Each parallel dimension is fixed or left to the search.
    const model::ParallelismConstraints &k = job.constraints;
    const QString searched = tr("searched");
    // The layout's dimensions with the bounds plans and the CLI accept (ZeRO is a choice below).
    const std::map<std::string, QString> &labels = layoutDimensionLabels();
    for (const model::ParallelismDimension &d : model::parallelismDimensions()) {
        const auto label = labels.find(d.key);
        if (label == labels.end())
            continue;
        const auto member = d.member;
        fields.addInteger(
            label->second, k.*member, d.minimum, d.maximum, searched,
            [member](model::Plan &p, std::optional<int> v) { p.training.constraints.*member = v; });
    }
    fields.addChoice(
        tr("Recompute"),
        {{searched, QString()},
         {tr("none"), QStringLiteral("none")},
         {tr("selective"), QStringLiteral("selective")},
         {tr("full"), QStringLiteral("full")}},
        k.recompute ? QString::fromStdString(model::recomputeName(*k.recompute)) : QString(),
        [](model::Plan &p, const QString &v) {
            model::ParallelismConstraints &constraints = p.training.constraints;
            constraints.recompute
                = v.isEmpty() ? std::nullopt : model::recomputeFromName(v.toStdString());
            // Modules belong to selective recomputation: none or full drops them in the same
            // edit, or the plan would hold a choice its reader refuses.
            if (constraints.recompute && *constraints.recompute != model::Recompute::Selective)
                constraints.recomputeModules.reset();
        });
    QStringList moduleNames;
    if (k.recomputeModules)
        for (const std::string &name : model::recomputeModuleNames(*k.recomputeModules))
            moduleNames << QString::fromStdString(name);
    fields
        .addText(tr("Recompute modules"), moduleNames.join(QStringLiteral(", ")),
                 tr("core_attn (the default)"),
                 [](model::Plan &p, const QString &text) {
                     model::ParallelismConstraints &constraints = p.training.constraints;
                     std::vector<std::string> names;
                     for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
                         if (!part.trimmed().isEmpty())
                             names.push_back(part.trimmed().toStdString());
                     if (names.empty()) {
                         constraints.recomputeModules.reset();
                         return;
                     }
                     std::string error;
                     const auto modules = model::recomputeModulesFromNames(names, &error);
                     if (!modules)
                         throw std::invalid_argument("Recompute modules: " + error);
                     if (constraints.recompute
                         && *constraints.recompute != model::Recompute::Selective)
                         throw std::invalid_argument(
                             "Recompute modules: they name what selective recomputation repeats; "
                             "set Recompute to selective (or searched) first");
                     constraints.recomputeModules = modules;
                 })
        ->setToolTip(tr("What selective recomputation repeats, comma-separated (Megatron-Core "
                        "recompute_modules): core_attn, layernorm, moe_act, mlp, mla_up_proj. "
                        "Naming modules fixes Recompute to selective."));
    fields
        .addChoice(tr("ZeRO stage"),
                   {{searched, QString()},
                    {QStringLiteral("0"), QStringLiteral("0")},
                    {QStringLiteral("1"), QStringLiteral("1")},
                    {QStringLiteral("2"), QStringLiteral("2")},
                    {QStringLiteral("3"), QStringLiteral("3")}},
                   k.zero ? QString::number(*k.zero) : QString(),
                   [](model::Plan &p, const QString &v) {
                       p.training.constraints.zero
                           = v.isEmpty() ? std::nullopt : std::optional(v.toInt());
                   })
        ->setToolTip(tr("What the data-parallel ranks shard, and what it costs: 0 nothing, "
                        "gradients all-reduced once a step; 1 the optimizer states (Megatron's "
                        "distributed optimizer), gradients reduce-scattered once a step; 2 the "
                        "gradients too, so they are reduce-scattered after every microbatch; 3 "
                        "the parameters too, gathered before every microbatch's forward and "
                        "backward (FSDP)."));
    fields.addNumber(
        tr("MoE capacity factor"), job.moeCapacityFactor, 1, 16, 2, QString(), QString(),
        [](model::Plan &p, std::optional<double> v) { p.training.moeCapacityFactor = *v; });
    // Megatron-Core's cpu_offloading_num_layers: blank keeps every layer's activations on the GPU.
    // The short word fits the narrow dock at 1366 x 768; the tooltip says what it means.
    fields
        .addInteger(tr("Offloaded layers"),
                    job.activationOffloadLayers > 0 ? std::optional(job.activationOffloadLayers)
                                                    : std::nullopt,
                    1, 100000, tr("none"),
                    [](model::Plan &p, std::optional<int> v) {
                        p.training.activationOffloadLayers = v.value_or(0);
                    })
        ->setToolTip(tr("Layers whose activations go to host memory in the forward pass and "
                        "come back in the backward pass (Megatron-Core's CPU offloading: PP 1, "
                        "no recompute); none keeps every layer's activations on the GPU"));
    // Megatron-Core's mtp_num_layers: blank trains the model's own multi-token prediction.
    const model::Plan &plan = m_document->plan();
    const int modelMtp = m_catalog->kindOf(plan.trainingModelId) == model::CatalogKind::Model
        ? m_catalog->llm(plan.trainingModelId).mtpLayers
        : 0;
    fields
        .addInteger(tr("MTP layers"), plan.trainingMtpLayers, 0, model::ModelSpec::maxMtpLayers,
                    tr("the model's (%1)").arg(modelMtp),
                    [](model::Plan &p, std::optional<int> v) { p.trainingMtpLayers = v; })
        ->setToolTip(tr("Multi-token prediction blocks trained beside the model, each a layer "
                        "more with its own logits and loss on the last pipeline stage "
                        "(DeepSeek-V3 trains 1; 0 trains without)"));
}

void PropertyEditor::buildInference()
{
    const model::Plan &plan = m_document->plan();
    const model::InferenceWorkload &w = plan.inference;
    PropertyFields fields(m_layout, m_form, [this](const QString &text, const auto &change) {
        applyChecked(text, change);
    });
    auto *modelCombo = idCombo(*m_catalog, model::CatalogKind::Model, w.modelId, QString(), m_form);
    connect(modelCombo, &QComboBox::currentIndexChanged, this, [this, modelCombo] {
        applyChecked(tr("Change model"), [&](model::Plan &p) {
            p.inference.modelId = modelCombo->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Model"), modelCombo);
    const auto precisions = [](std::initializer_list<const char *> names) {
        std::vector<std::pair<QString, QString>> choices;
        for (const char *name : names)
            choices.emplace_back(QString::fromLatin1(name).toUpper(), QString::fromLatin1(name));
        return choices;
    };
    fields.addChoice(tr("Weights"), precisions({"fp16", "bf16", "fp8", "int8", "int4"}),
                     QString::fromStdString(model::precisionName(w.precision)),
                     [](model::Plan &p, const QString &v) {
                         p.inference.precision = *model::precisionFromName(v.toStdString());
                     });
    fields.addChoice(tr("K/V cache"), precisions({"fp16", "bf16", "fp8", "int8"}),
                     QString::fromStdString(model::precisionName(w.kvPrecision)),
                     [](model::Plan &p, const QString &v) {
                         p.inference.kvPrecision = *model::precisionFromName(v.toStdString());
                     });
    fields.addInteger(tr("Prompt tokens"), w.inputTokens, 1, 1 << 24, QString(),
                      [](model::Plan &p, std::optional<int> v) { p.inference.inputTokens = *v; });
    fields.addInteger(tr("Output tokens"), w.outputTokens, 1, 1 << 24, QString(),
                      [](model::Plan &p, std::optional<int> v) { p.inference.outputTokens = *v; });
    fields.addNumber(tr("Requests"), w.ratePerSecond, 0, 1e9, 2, tr(" /s"), tr("not set"),
                     [](model::Plan &p, std::optional<double> v) {
                         p.inference.ratePerSecond = v;
                         if (v) // online serving instead of the offline job
                             p.inference.offlineRequests.reset();
                     });
    fields.addNumber(tr("TTFT p95 target"), w.ttftP95Ms, 0, 1e9, 0, tr(" ms"), tr("none"),
                     [](model::Plan &p, std::optional<double> v) { p.inference.ttftP95Ms = v; });
    fields.addNumber(tr("TPOT p95 target"), w.tpotP95Ms, 0, 1e9, 1, tr(" ms"), tr("none"),
                     [](model::Plan &p, std::optional<double> v) { p.inference.tpotP95Ms = v; });
    fields
        .addInteger(tr("Batch"), w.batch, 1, 1 << 20, tr("largest allowed"),
                    [](model::Plan &p, std::optional<int> v) { p.inference.batch = v; })
        ->setToolTip(tr("Sequences per replica. Unset: the largest batch that meets the TTFT and "
                        "TPOT targets, or that fits when there are none; with a fixed fleet, the "
                        "batch its load builds"));
    fields
        .addInteger(tr("Replicas"), w.replicas, 1, 1 << 20, tr("as the targets need"),
                    [](model::Plan &p, std::optional<int> v) { p.inference.replicas = v; })
        ->setToolTip(tr("A fixed fleet serving the request rate: the latencies its load gives. "
                        "Without a rate: the most requests per second the fleet serves within "
                        "the TTFT and TPOT targets. Unset: as many replicas as the targets need "
                        "for the rate. With an offline job: the replicas that share it"));
    const std::optional<double> offlineRequests = w.offlineRequests
        ? std::optional<double>(static_cast<double>(*w.offlineRequests))
        : std::nullopt;
    QDoubleSpinBox *offlineJob = fields.addNumber(
        tr("Offline job"), offlineRequests, 0,
        static_cast<double>(model::InferenceJob::maxOfflineRequests), 0, tr(" requests"),
        tr("none"), [](model::Plan &p, std::optional<double> v) {
            p.inference.offlineRequests
                = v && *v >= 1 ? std::optional<long long>(std::llround(*v)) : std::nullopt;
            // The job replaces the request rate and the day that scales it.
            if (p.inference.offlineRequests) {
                p.inference.ratePerSecond.reset();
                p.inference.diurnalRates.clear();
            }
        });
    offlineJob->setGroupSeparatorShown(true); // 2,000,000 requests, not 2000000
    offlineJob->setToolTip(tr("Requests queued at once for batch inference; it replaces the "
                              "request rate. The Estimate shows how long the job runs, its cost "
                              "and energy, its smaller last wave included"));
    fields.addInteger(tr("GPUs per replica"), w.gpusPerReplica, 1, 1 << 16, tr("1"),
                      [](model::Plan &p, std::optional<int> v) { p.inference.gpusPerReplica = v; });
    fields.addInteger(tr("Pipeline stages"), w.pipelineStages, 1, 1024, tr("within a server"),
                      [](model::Plan &p, std::optional<int> v) { p.inference.pipelineStages = v; });
    // The serving engine decides prompt scheduling and the K/V cache's memory (servingengine.h).
    std::vector<std::pair<QString, QString>> engines;
    for (const model::ServingEngine &profile : model::servingEngines())
        engines.emplace_back(QString::fromStdString(profile.name),
                             QString::fromStdString(profile.id));
    fields.addChoice(
        tr("Engine"), engines,
        QString::fromStdString(w.engineId.empty() ? model::defaultServingEngine().id : w.engineId),
        [](model::Plan &p, const QString &id) { p.inference.engineId = id.toStdString(); });
    fields
        .addInteger(tr("Engine batch limit"), w.maxBatch, 1, 1 << 20, tr("engine default"),
                    [](model::Plan &p, std::optional<int> v) { p.inference.maxBatch = v; })
        ->setToolTip(tr("Sequences the engine runs in one batch at most (vLLM max_num_seqs, "
                        "TensorRT-LLM max_batch_size); the default is the engine's own: 256 for "
                        "vLLM, none for TensorRT-LLM"));
    QStringList hours;
    for (double rate : w.diurnalRates)
        hours << QString::number(rate);
    fields
        .addText(tr("Hourly traffic"), hours.join(QStringLiteral(", ")),
                 tr("24 numbers, or empty for steady traffic"),
                 [](model::Plan &p, const QString &text) {
                     p.inference.diurnalRates.clear();
                     for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                         bool ok = false;
                         const double rate = part.trimmed().toDouble(&ok);
                         if (!ok)
                             throw std::invalid_argument("Hourly traffic: '"
                                                         + part.trimmed().toStdString()
                                                         + "' is not a number");
                         p.inference.diurnalRates.push_back(rate);
                     }
                 })
        ->setToolTip(tr("Traffic of each hour of the day (any unit; the busiest hour runs at the "
                        "request rate): replicas then follow it hour by hour"));
}

void PropertyEditor::buildFacility()
{
    m_title->setText(tr("Facility"));
    const model::FacilityPlan &f = m_document->plan().facility;
    auto *facility = idCombo(*m_catalog, model::CatalogKind::Facility, f.facilityId,
                             tr("(none: PUE 1.0)"), m_form);
    connect(facility, &QComboBox::currentIndexChanged, this, [this, facility] {
        apply(tr("Change facility"), [&](model::Plan &p) {
            p.facility = {};
            p.facility.facilityId = facility->currentData().toString().toStdString();
        });
    });
    m_layout->addRow(tr("Facility"), facility);
    if (!f.facilityId.empty())
        addFacilityPresetFields();
    addCampusFields();
}

void PropertyEditor::addFacilityPresetFields()
{
    // The preset's figures unless the plan overrides them.
    const model::FacilityPlan &f = m_document->plan().facility;
    const model::FacilitySpec &preset = m_catalog->facility(f.facilityId);
    PropertyFields fields(m_layout, m_form, [this](const QString &text, const auto &change) {
        applyChecked(text, change);
    });
    fields.addNumber(tr("PUE"), f.pue, 1, 5, 2, QString(), tr("preset: %1").arg(preset.pue),
                     [](model::Plan &p, std::optional<double> v) { p.facility.pue = v; });
    fields.addNumber(
        tr("Electricity"), f.electricityUsdPerKwh, 0, 100, 3, tr(" USD/kWh"),
        tr("preset: %1 USD/kWh").arg(preset.electricityUsdPerKwh),
        [](model::Plan &p, std::optional<double> v) { p.facility.electricityUsdPerKwh = v; });
    fields.addNumber(
        tr("Carbon"), f.carbonKgPerKwh, 0, 10, 3, tr(" kg CO2/kWh"),
        tr("preset: %1 kg CO2/kWh").arg(preset.carbonKgPerKwh),
        [](model::Plan &p, std::optional<double> v) { p.facility.carbonKgPerKwh = v; });
    fields
        .addNumber(tr("Power budget"),
                   f.powerLimitWatts ? std::optional(*f.powerLimitWatts / 1e6) : std::nullopt, 0,
                   1e4, 2, tr(" MW"), tr("none"),
                   [](model::Plan &p, std::optional<double> megawatts) {
                       p.facility.powerLimitWatts
                           = megawatts ? std::optional(*megawatts * 1e6) : std::nullopt;
                   })
        ->setToolTip(tr("What the hall can deliver to this cluster, facility side (IT x PUE); "
                        "the estimate warns when full load exceeds it"));
}

void PropertyEditor::addCampusFields()
{
    // The plan as drawn is one building; a campus copies it and joins the copies.
    const model::CampusPlan &c = m_document->plan().campus;
    PropertyFields fields(m_layout, m_form, [this](const QString &text, const auto &change) {
        applyChecked(text, change);
    });
    fields
        .addInteger(
            tr("Buildings"), c.buildings, 1, 1024, QString(),
            [](model::Plan &p, std::optional<int> v) { p.campus.buildings = v.value_or(1); })
        ->setToolTip(tr("Identical buildings (halls) this plan is copied into, joined by the "
                        "interconnect below; training spans all of them"));
    fields.addNumber(tr("Interconnect"),
                     c.interconnectBytesPerSecondPerBuilding > 0
                         ? std::optional(model::units::bytesPerSecondToTbitPerSecond(
                             c.interconnectBytesPerSecondPerBuilding))
                         : std::nullopt,
                     0, 1e6, 1, tr(" Tb/s per building"), tr("none"),
                     [](model::Plan &p, std::optional<double> tbps) {
                         p.campus.interconnectBytesPerSecondPerBuilding
                             = model::units::tbitPerSecondToBytesPerSecond(tbps.value_or(0.0));
                     });
    fields.addNumber(
        tr("Distance"), c.distanceKm, 0, 20000, 1, tr(" km"), QString(),
        [](model::Plan &p, std::optional<double> km) { p.campus.distanceKm = km.value_or(2.0); });
    fields.addNumber(
        tr("Interconnect price"), c.usdPerGbps, 0, 1e6, 2, tr(" USD per Gb/s"), QString(),
        [](model::Plan &p, std::optional<double> usd) { p.campus.usdPerGbps = usd.value_or(0.0); });
    fields.addNumber(tr("Interconnect power"), c.wattsPerGbps, 0, 1e3, 3, tr(" W per Gb/s"),
                     QString(), [](model::Plan &p, std::optional<double> watts) {
                         p.campus.wattsPerGbps = watts.value_or(0.0);
                     });
}

} // namespace cp::views
