// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/plan.h"

#include <QUndoCommand>

namespace cp::views {

class PlanDocument;

/**
 * One edit of the plan, undoable: it keeps the plan before and after. Plans are small (groups of
 * identical nodes, not one object per GPU), so a snapshot is cheaper and safer than a diff, and
 * every kind of edit (add, move, delete, connect, property change, generate) is the same command.
 * Consecutive edits with the same merge key (one item being dragged) merge into one step.
 */
class PlanEditCommand : public QUndoCommand
{
public:
    PlanEditCommand(PlanDocument *document, model::Plan before, model::Plan after,
                    const QString &text, int mergeKey);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeKey; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    PlanDocument *m_document;
    model::Plan m_before;
    model::Plan m_after;
    int m_mergeKey;
};

} // namespace cp::views
