// SPDX-License-Identifier: GPL-3.0-or-later
#include "planeditcommand.h"

#include "plandocument.h"

namespace cp::views {

PlanEditCommand::PlanEditCommand(PlanDocument *document, model::Plan before, model::Plan after,
                                 const QString &text, int mergeKey)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeKey(mergeKey)
    , m_activeScenario(document->activeScenario())
{ }

void PlanEditCommand::showEditedVariant(bool undone) const
{
    if (m_before.scenarios.size() == m_after.scenarios.size())
        m_document->setActiveScenario(m_activeScenario);
    else if (undone && m_activeScenario >= 0) // a deleted scenario comes back shown
        m_document->setActiveScenario(m_activeScenario);
}

void PlanEditCommand::undo()
{
    m_document->setPlan(m_before);
    showEditedVariant(true);
}

void PlanEditCommand::redo()
{
    m_document->setPlan(m_after);
    showEditedVariant(false);
}

bool PlanEditCommand::mergeWith(const QUndoCommand *other)
{
    if (other->id() != id() || id() < 0)
        return false;
    m_after = static_cast<const PlanEditCommand *>(other)->m_after;
    return true;
}

} // namespace cp::views
