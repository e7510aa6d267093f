// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"
#include "model/plan/scenarios.h"

#include <QWidget>

#include <memory>

class QLabel;
class QListWidget;
class QPushButton;

namespace cp::views {

class PlanDocument;

/**
 * The document's variants: the baseline and its named scenarios. Selecting one makes it the
 * variant the canvas, properties and estimate show and edit; Duplicate copies the selected one,
 * Sweep adds one scenario per value along an axis, Rename and Delete act on the selected one.
 * Every change is one undoable document edit.
 */
class ScenarioPanel : public QWidget
{
    Q_OBJECT

public:
    ScenarioPanel(PlanDocument *document, QWidget *parent = nullptr);

    void setCatalog(std::shared_ptr<const model::Catalog> catalog);

    /** Copies the active variant into a new scenario and makes it active; empty on success,
     *  else why not (the panel shows it; nothing changes then). */
    QString duplicateActive();
    /** Empty on success, else why the name cannot be used (nothing changes then). */
    QString renameScenario(int index, const QString &name);
    void deleteScenario(int index);
    /** Adds the sweep's scenarios; empty on success, else the reason (nothing changes). */
    QString addSweep(model::SweepAxis axis, const QStringList &values);
    /** Opens the sweep dialog (non-modal). */
    void openSweepDialog();

    QListWidget *list() const { return m_list; }

private:
    void rebuild();
    void renameSelected();

    PlanDocument *m_document;
    std::shared_ptr<const model::Catalog> m_catalog;
    QListWidget *m_list;
    QPushButton *m_rename;
    QPushButton *m_delete;
    QLabel *m_changes;
    bool m_rebuilding = false;
};

} // namespace cp::views
