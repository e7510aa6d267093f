// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>

class QComboBox;
class QFormLayout;
class QPushButton;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cp::views {

/** What the generator dialog shows for a fabric, and whether it can carry the plan. */
struct FabricPreview
{
    QString text;
    bool buildable = false;
};

/**
 * Generates and analyses the plan's fabric (model::generatePlanFabric): counts, diameter,
 * bisection, power and cost, or the reason it cannot carry the plan. Safe off the GUI thread.
 */
FabricPreview analyseFabricForPlan(const model::Plan &plan, const model::Catalog &catalog);

/**
 * Pick Fat-Tree, rail-optimised Fat-Tree, Dragonfly or Torus and its parameters for the plan's
 * servers, see the counts and the analysis (computed off the GUI thread; a newer request makes
 * an older result stale), and apply it to the plan's fabric.
 */
class FabricGeneratorDialog : public QDialog
{
    Q_OBJECT

public:
    FabricGeneratorDialog(const model::Plan &plan, std::shared_ptr<const model::Catalog> catalog,
                          QWidget *parent = nullptr);
    ~FabricGeneratorDialog() override;
    /** The plan with the chosen fabric. */
    model::Plan result() const;
    QString previewText() const;
    /** Waits for the preview (tests only). */
    void waitForPreview();
    /** False while the previewed fabric cannot carry the plan (or is still being analysed). */
    bool canGenerate() const;
    /** Whether the form row of `field` is shown for the selected topology. */
    bool isFieldShown(QWidget *field) const;
    /** Refused while the fabric cannot carry the plan (Enter must not bypass the button). */
    void accept() override;

private:
    void schedulePreview();
    void showTopologyFields();
    void setFieldsFrom(const model::Plan &plan);
    void buildLayout();
    void connectPreview();
    QString defaultTorusDims(const model::Plan &plan) const;

    model::Plan m_plan;
    std::shared_ptr<const model::Catalog> m_catalog;
    QComboBox *m_topology;
    QSpinBox *m_tiers;
    QDoubleSpinBox *m_oversubscription;
    QSpinBox *m_suNodes;
    QSpinBox *m_a;
    QSpinBox *m_p;
    QSpinBox *m_h;
    QSpinBox *m_groups;
    QLineEdit *m_dims;
    QLabel *m_preview;
    QFormLayout *m_form = nullptr;
    QPushButton *m_generate = nullptr;
    QFutureWatcher<FabricPreview> m_watcher;
    quint64 m_generation = 0;
};

} // namespace cp::views
