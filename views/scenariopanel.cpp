// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenariopanel.h"

#include "plandocument.h"
#include "sweepdialog.h"

#include "model/core/inputerror.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"

#include <QGridLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace cp::views {

namespace {

/**
 * Whether catalog name `a` reads before `b`: letters without regard to case, runs of digits by
 * their value ("10 GbE" after "1 GbE" and before "25 GbE"). QCollator's numeric mode would do
 * it, but not on Qt's POSIX collation backend.
 */
bool namesInOrder(const std::string &a, const std::string &b)
{
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const bool digitA = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
        const bool digitB = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
        if (digitA && digitB) {
            std::size_t endA = i;
            std::size_t endB = j;
            while (endA < a.size() && std::isdigit(static_cast<unsigned char>(a[endA])))
                ++endA;
            while (endB < b.size() && std::isdigit(static_cast<unsigned char>(b[endB])))
                ++endB;
            // Values by their digits, without leading zeros: no number is too long to compare.
            std::string_view numberA(a.data() + i, endA - i);
            std::string_view numberB(b.data() + j, endB - j);
            numberA.remove_prefix(std::min(numberA.find_first_not_of('0'), numberA.size()));
            numberB.remove_prefix(std::min(numberB.find_first_not_of('0'), numberB.size()));
            if (numberA.size() != numberB.size())
                return numberA.size() < numberB.size();
            if (numberA != numberB)
                return numberA < numberB;
            i = endA;
            j = endB;
            continue;
        }
        const int lowerA = std::tolower(static_cast<unsigned char>(a[i]));
        const int lowerB = std::tolower(static_cast<unsigned char>(b[j]));
        if (lowerA != lowerB)
            return lowerA < lowerB;
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

} // namespace

ScenarioPanel::ScenarioPanel(PlanDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_list(new QListWidget(this))
    , m_rename(new QPushButton(tr("Rename…"), this))
    , m_delete(new QPushButton(tr("Delete"), this))
    , m_changes(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    auto *buttons = new QGridLayout;
    auto *duplicate = new QPushButton(tr("Duplicate"), this);
    auto *sweep = new QPushButton(tr("Sweep…"), this);
    duplicate->setToolTip(tr("Copy the selected variant into a new scenario, then change one "
                             "thing on the canvas or in Properties"));
    sweep->setToolTip(tr("Add one scenario per value of GPU count, GPU type, NIC, "
                         "oversubscription, precision or batch size"));
    buttons->addWidget(duplicate, 0, 0);
    buttons->addWidget(sweep, 0, 1);
    buttons->addWidget(m_rename, 1, 0);
    buttons->addWidget(m_delete, 1, 1);
    layout->addLayout(buttons);
    m_changes->setWordWrap(true);
    m_changes->setTextFormat(Qt::PlainText);
    layout->addWidget(m_changes);

    connect(duplicate, &QPushButton::clicked, this, &ScenarioPanel::duplicateActive);
    connect(sweep, &QPushButton::clicked, this, &ScenarioPanel::openSweepDialog);
    connect(m_rename, &QPushButton::clicked, this, &ScenarioPanel::renameSelected);
    connect(m_delete, &QPushButton::clicked, this,
            [this] { deleteScenario(m_document->activeScenario()); });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_rebuilding && row >= 0)
            m_document->setActiveScenario(row - 1);
    });
    connect(m_document, &PlanDocument::planChanged, this, [this](PlanParts parts) {
        if (!onlyLayoutChanged(parts))
            rebuild();
    });
    connect(m_document, &PlanDocument::activeScenarioChanged, this, &ScenarioPanel::rebuild);
    rebuild();
}

void ScenarioPanel::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
}

void ScenarioPanel::rebuild()
{
    m_rebuilding = true;
    const model::Plan &plan = m_document->documentPlan();
    m_list->clear();
    m_list->addItem(tr("%1 — %2").arg(QString::fromLatin1(model::baselineScenarioName),
                                      QString::fromStdString(plan.name)));
    for (const model::Scenario &scenario : plan.scenarios)
        m_list->addItem(QString::fromStdString(scenario.name));
    // A dock narrower than a long name elides it; the tooltip keeps the whole name readable.
    for (int row = 0; row < m_list->count(); ++row)
        m_list->item(row)->setToolTip(m_list->item(row)->text());
    const int active = m_document->activeScenario();
    m_list->setCurrentRow(active + 1);
    m_rename->setEnabled(active >= 0);
    m_delete->setEnabled(active >= 0);
    if (active < 0) {
        m_changes->setText(plan.scenarios.empty()
                               ? tr("Only the baseline so far: Duplicate it and change one thing, "
                                    "or Sweep an axis, to compare what-ifs.")
                               : tr("Editing the baseline: the scenarios follow every change "
                                    "they do not override."));
    } else {
        QStringList lines;
        for (const std::string &line :
             model::describeChanges(plan.scenarios[static_cast<std::size_t>(active)].changes,
                                    model::planToJson(plan), m_catalog.get()))
            lines << QString::fromStdString(line);
        m_changes->setText(
            lines.isEmpty()
                ? tr("Same as the baseline so far: edit the canvas or Properties to "
                     "change this scenario.")
                : tr("Changes from the baseline:\n%1").arg(lines.join(QLatin1Char('\n'))));
    }
    m_rebuilding = false;
}

QString ScenarioPanel::duplicateActive()
{
    model::Plan plan = m_document->documentPlan();
    if (plan.scenarios.size() >= model::Plan::maxScenarios) {
        const QString reason = tr("The plan holds its most scenarios, %1: delete one to add "
                                  "another.")
                                   .arg(model::Plan::maxScenarios);
        m_changes->setText(reason);
        return reason;
    }
    const int active = m_document->activeScenario();
    model::Scenario copy;
    const std::string base = active < 0 ? std::string("Scenario")
                                        : plan.scenarios[static_cast<std::size_t>(active)].name;
    copy.name = model::uniqueScenarioName(plan, active < 0 ? base + " 1" : base + " copy");
    if (active >= 0)
        copy.changes = plan.scenarios[static_cast<std::size_t>(active)].changes;
    plan.scenarios.push_back(copy);
    m_document->editDocument(plan, tr("Add scenario %1").arg(QString::fromStdString(copy.name)));
    m_document->setActiveScenario(static_cast<int>(plan.scenarios.size()) - 1);
    return {};
}

QString ScenarioPanel::renameScenario(int index, const QString &name)
{
    model::Plan plan = m_document->documentPlan();
    if (index < 0 || index >= static_cast<int>(plan.scenarios.size()))
        return tr("The baseline is named by the plan: edit the plan's name in Properties.");
    // What was typed, without the spaces around it ("H200 servers " beside "H200 servers").
    const QString trimmed = name.trimmed();
    const std::string problem = model::scenarioNameProblem(plan, trimmed.toStdString(), index);
    if (!problem.empty())
        return QString::fromStdString(problem);
    plan.scenarios[static_cast<std::size_t>(index)].name = trimmed.toStdString();
    m_document->editDocument(plan, tr("Rename scenario to %1").arg(trimmed));
    return {};
}

void ScenarioPanel::renameSelected()
{
    const int index = m_document->activeScenario();
    if (index < 0)
        return;
    const QString old = QString::fromStdString(
        m_document->documentPlan().scenarios[static_cast<std::size_t>(index)].name);
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename scenario"), tr("Name:"),
                                               QLineEdit::Normal, old, &ok);
    if (!ok || name == old)
        return;
    const QString problem = renameScenario(index, name.trimmed());
    if (!problem.isEmpty())
        m_changes->setText(tr("Not renamed: %1").arg(problem));
}

void ScenarioPanel::deleteScenario(int index)
{
    model::Plan plan = m_document->documentPlan();
    if (index < 0 || index >= static_cast<int>(plan.scenarios.size()))
        return;
    const QString name
        = QString::fromStdString(plan.scenarios[static_cast<std::size_t>(index)].name);
    plan.scenarios.erase(plan.scenarios.begin() + index);
    // The edit is recorded with the scenario shown, so that undo brings it back shown; then the
    // baseline is (the index now names the next scenario).
    m_document->setActiveScenario(index);
    m_document->editDocument(plan, tr("Delete scenario %1").arg(name));
    m_document->setActiveScenario(-1);
}

QString ScenarioPanel::addSweep(model::SweepAxis axis, const QStringList &values)
{
    if (!m_catalog)
        return tr("no catalog loaded");
    std::vector<std::string> list;
    for (const QString &value : values)
        if (!value.trimmed().isEmpty())
            list.push_back(value.trimmed().toStdString());
    model::Plan plan = m_document->documentPlan();
    try {
        std::vector<model::Scenario> added = model::sweepScenarios(plan, axis, list, *m_catalog);
        for (model::Scenario &scenario : added)
            plan.scenarios.push_back(std::move(scenario));
    } catch (const model::InputError &error) {
        return QString::fromStdString(error.pointer() + ": " + error.reason());
    } catch (const std::exception &error) {
        return QString::fromStdString(error.what());
    }
    m_document->editDocument(
        plan, tr("Sweep %1").arg(QString::fromStdString(model::sweepAxisName(axis))));
    return {};
}

void ScenarioPanel::openSweepDialog()
{
    auto *dialog = new SweepDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The catalog axes are picked from the catalog by name.
    // In the order people read the names, numbers by value: "1 GbE, 10 GbE, 25 GbE, 100 GbE",
    // not the ids' "100 GbE, 10 GbE, 1 GbE, 25 GbE".
    const auto choicesOf = [this](model::CatalogKind kind) {
        std::vector<std::pair<std::string, std::string>> choices;
        for (const std::string &id : m_catalog->ids(kind))
            choices.emplace_back(id, m_catalog->nameOf(id));
        std::stable_sort(choices.begin(), choices.end(), [](const auto &a, const auto &b) {
            return namesInOrder(a.second, b.second);
        });
        return choices;
    };
    dialog->setChoices(model::SweepAxis::GpuType, choicesOf(model::CatalogKind::Gpu));
    dialog->setChoices(model::SweepAxis::Nic, choicesOf(model::CatalogKind::Nic));
    dialog->setApply([this](model::SweepAxis axis, const QStringList &values) {
        return addSweep(axis, values);
    });
    dialog->open();
}

} // namespace cp::views
