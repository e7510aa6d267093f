// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog.h"
#include "model/plan.h"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cp::views {

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

private:
    void schedulePreview();

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
    QFutureWatcher<QString> m_watcher;
    quint64 m_generation = 0;
};

} // namespace cp::views
