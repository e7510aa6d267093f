// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "planchange.h"

#include "model/plan/plan.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

namespace cp::views {

/**
 * The plan being edited: the one place that holds it. Every change goes through an undo command
 * (PlanEditCommand) that calls setPlan, which emits planChanged with the parts that changed; the
 * canvas, the property editor and the estimate observe that signal, redo only what depends on
 * those parts and keep no state of their own (Tiled's document/scene split).
 */
class PlanDocument : public QObject
{
    Q_OBJECT

public:
    explicit PlanDocument(QObject *parent = nullptr);

    /** The plan being shown and edited: the baseline, or the active scenario's variant of it. */
    const model::Plan &plan() const { return m_effective; }
    /** The whole document as saved: the baseline with all its scenarios. */
    const model::Plan &documentPlan() const { return m_plan; }
    /** -1: the baseline; else the index in documentPlan().scenarios being edited. */
    int activeScenario() const { return m_activeScenario; }
    /** Switches what plan() shows and edit() changes; not an edit itself (no undo step). */
    void setActiveScenario(int index);
    QUndoStack *undoStack() { return &m_undoStack; }
    const QString &filePath() const { return m_filePath; }
    bool isModified() const { return !m_undoStack.isClean(); }

    /** Replaces the whole document (new, open, recover): clears undo history. */
    void reset(const model::Plan &plan, const QString &filePath);
    /**
     * Records an edit of plan() as an undoable command; `mergeKey` >= 0 merges consecutive edits
     * (moves). With a scenario active, the edit becomes that scenario's patch (its changes from
     * the baseline) and a new name renames it; the canvas layout is shared by all variants.
     */
    void edit(const model::Plan &changed, const QString &text, int mergeKey = -1);
    /** Records a change of the whole document (add, rename, delete scenarios) as one command. */
    void editDocument(const model::Plan &changed, const QString &text);
    /** Saves atomically to `path` and marks the document clean; throws on failure. */
    void save(const QString &path);

    /** Used by PlanEditCommand only. */
    void setPlan(const model::Plan &plan);

signals:
    /** `parts`: what differs from the plan shown before (allPlanParts on reset). */
    void planChanged(cp::views::PlanParts parts);
    void activeScenarioChanged(int index);
    void fileChanged();

private:
    void rebuildEffective();

    model::Plan m_plan;
    model::Plan m_effective;
    int m_activeScenario = -1;
    QString m_filePath;
    QUndoStack m_undoStack;
};

} // namespace cp::views
