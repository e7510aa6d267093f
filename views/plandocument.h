// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

namespace cp::views {

/**
 * The plan being edited: the one place that holds it. Every change goes through an undo command
 * (PlanEditCommand) that calls setPlan, which emits planChanged; the canvas, the property editor
 * and the estimate all observe that signal and keep no state of their own (Tiled's
 * document/scene split).
 */
class PlanDocument : public QObject
{
    Q_OBJECT

public:
    explicit PlanDocument(QObject *parent = nullptr);

    const model::Plan &plan() const { return m_plan; }
    QUndoStack *undoStack() { return &m_undoStack; }
    const QString &filePath() const { return m_filePath; }
    bool isModified() const { return !m_undoStack.isClean(); }

    /** Replaces the whole document (new, open, recover): clears undo history. */
    void reset(const model::Plan &plan, const QString &filePath);
    /** Records an edit as an undoable command; `mergeKey` >= 0 merges consecutive edits (moves). */
    void edit(const model::Plan &changed, const QString &text, int mergeKey = -1);
    /** Saves atomically to `path` and marks the document clean; throws on failure. */
    void save(const QString &path);

    /** Used by PlanEditCommand only. */
    void setPlan(const model::Plan &plan);

signals:
    void planChanged();
    void fileChanged();

private:
    model::Plan m_plan;
    QString m_filePath;
    QUndoStack m_undoStack;
};

} // namespace cp::views
