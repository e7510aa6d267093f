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
    /** Shows the variant the edit was made in: an undo of an edit to scenario A while B was
     * shown changed A out of sight. Where the edit added or removed scenarios the index no
     * longer names the same one on the other side, and the view stays as setPlan leaves it. */
    void showEditedVariant(bool undone) const;

    PlanDocument *m_document;
    model::Plan m_before;
    model::Plan m_after;
    int m_mergeKey;
    int m_activeScenario; ///< the variant shown when the edit was made (-1: the baseline)
};

} // namespace cp::views
