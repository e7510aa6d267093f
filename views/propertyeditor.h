// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"
#include "model/training/trainingestimate.h"

#include <QWidget>

#include <functional>

#include <memory>

class QFormLayout;
class QLabel;

namespace cp::views {

class PlanDocument;
class PropertyFields;

/**
 * Edits the selected part of the plan (a server group, the fabric, storage, the workload, the
 * facility; the plan itself when nothing is selected). Each change is one undoable edit; the form
 * is rebuilt from the plan when it changes elsewhere (undo, canvas).
 */
class PropertyEditor : public QWidget
{
    Q_OBJECT

public:
    explicit PropertyEditor(PlanDocument *document, QWidget *parent = nullptr);
    void setCatalog(std::shared_ptr<const model::Catalog> catalog);
    void setKey(const QString &key);
    const QString &key() const { return m_key; }
    /**
     * The layout the last estimate's search chose (none: no training layout), shown in each
     * parallel dimension left to the search: "searched: 4" rather than a bare "searched".
     */
    void showSearchedLayout(const std::optional<model::ParallelConfig> &layout);

signals:
    void generateFabricRequested();

private:
    void rebuild();
    void buildPlan();
    void buildGroup(int index);
    void buildFabric();
    void buildStorage(int index);
    void buildWorkload();
    void buildFacility();
    void addFacilityPresetFields();
    void addCampusFields();
    void buildTraining();
    /** The training rows: model, dataset, checkpoints, tokens, sequence, batch and precision;
     * the software and its overlap settings; each parallel dimension, fixed or searched. */
    void addTrainingWorkloadRows(PropertyFields &fields);
    void addTrainingSoftwareRows(PropertyFields &fields);
    void addTrainingLayoutRows(PropertyFields &fields);
    /** Writes the searched layout into the unset parallel dimensions' "searched" text. */
    void labelSearchedDimensions();
    void buildInference();
    template<typename Change> void apply(const QString &text, Change change);
    /**
     * Applies `change` only if the plan it makes passes the plan loader's checks (written and
     * read back as a file would be), so a form accepts exactly what a file may hold and refuses
     * the rest with the loader's message.
     */
    void applyChecked(const QString &text, const std::function<void(model::Plan &)> &change);

public:
    /** The loader's message for the last refused edit; empty after an accepted one. */
    QString lastError() const;

private:
    PlanDocument *m_document;
    std::shared_ptr<const model::Catalog> m_catalog;
    QString m_key;
    QLabel *m_title;
    QLabel *m_error;
    QWidget *m_form = nullptr;
    QFormLayout *m_layout = nullptr;
    bool m_applying = false;
    std::optional<model::ParallelConfig> m_searchedLayout;
};

} // namespace cp::views
